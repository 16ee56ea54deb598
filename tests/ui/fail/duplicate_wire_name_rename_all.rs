use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
struct Form {
    user_name: String,
    username: String,
}

fn main() {}
