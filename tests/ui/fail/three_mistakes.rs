use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(titel = "Name")]
    name: String,
    #[elicit(range(min = 5, max = 1))]
    count: u8,
    #[secret]
    pin: String,
}

fn main() {}
