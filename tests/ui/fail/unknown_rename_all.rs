use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "camel_case")]
struct Form {
    first_name: String,
}

fn main() {}
