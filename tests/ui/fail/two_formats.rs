use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(email, uri)]
    contact: String,
}

fn main() {}
