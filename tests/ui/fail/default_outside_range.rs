use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(range(min = 1, max = 16), default = 32)]
    replicas: u8,
}

fn main() {}
