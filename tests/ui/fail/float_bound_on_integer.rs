use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(range(max = 2.5))]
    count: u8,
}

fn main() {}
