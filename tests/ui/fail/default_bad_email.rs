use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(email, default = "nobody")]
    contact: String,
}

fn main() {}
