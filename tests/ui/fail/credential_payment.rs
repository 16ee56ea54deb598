use elicit_core::Elicit;

#[derive(Elicit)]
struct Checkout {
    card_number: String,
    cvv: String,
}

fn main() {}
