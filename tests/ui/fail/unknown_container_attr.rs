use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(deny_unknown_field)]
struct Form {
    name: String,
}

fn main() {}
