use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(pattern = "^y")]
    agree: bool,
}

fn main() {}
