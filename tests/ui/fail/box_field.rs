use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    name: Box<String>,
}

fn main() {}
