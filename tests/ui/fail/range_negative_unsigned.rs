use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(range(min = -1))]
    count: u32,
}

fn main() {}
