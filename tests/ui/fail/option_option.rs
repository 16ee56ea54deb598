use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    count: Option<Option<u8>>,
}

fn main() {}
