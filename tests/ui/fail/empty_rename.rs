use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(rename = "")]
    name: String,
}

fn main() {}
