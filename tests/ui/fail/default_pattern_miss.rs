use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(pattern = "^v[0-9]+$", default = "main")]
    tag: String,
}

fn main() {}
