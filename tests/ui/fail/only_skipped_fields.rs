use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(skip)]
    id: u64,
}

fn main() {}
