use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(range(max = 300))]
    small: u8,
}

fn main() {}
