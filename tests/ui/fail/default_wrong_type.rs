use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(default = "three")]
    retries: Option<u8>,
}

fn main() {}
