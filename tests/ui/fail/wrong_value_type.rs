use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(title = 5)]
    name: String,
}

fn main() {}
