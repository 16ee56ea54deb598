use elicit_core::Elicit;

#[derive(Elicit)]
struct Booking {
    start: String,
    #[elicit(check = Self::dates_in_order)]
    end: String,
}

#[derive(Elicit)]
#[elicit(check = Self::allowed)]
enum Strategy {
    Rolling,
    #[elicit(check = Self::allowed)]
    BlueGreen,
}

#[derive(Elicit)]
#[elicit(transparent, check = Self::even)]
struct Port(u16);

fn main() {}
