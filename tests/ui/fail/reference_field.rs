use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    name: &'static str,
}

fn main() {}
