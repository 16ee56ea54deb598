use elicit_core::Elicit;

#[derive(Elicit)]
struct Address {
    street: String,
    city: String,
}

#[derive(Elicit)]
struct Signup {
    name: String,
    address: Address,
}

fn main() {}
