use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    initial: char,
}

fn main() {}
