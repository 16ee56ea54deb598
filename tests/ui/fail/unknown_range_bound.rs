use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(range(minimum = 1))]
    count: u8,
}

fn main() {}
