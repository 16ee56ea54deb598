use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(length(max = 3))]
    count: u32,
}

fn main() {}
