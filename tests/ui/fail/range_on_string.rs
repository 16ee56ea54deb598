use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(range(min = 1, max = 9))]
    name: String,
}

fn main() {}
