use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(default = Some(3))]
    retries: Option<u8>,
}

fn main() {}
