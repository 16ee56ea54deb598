use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(range(min = 10, max = 1))]
    count: u8,
}

fn main() {}
