use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(length(min = 8, max = 2))]
    name: String,
}

fn main() {}
