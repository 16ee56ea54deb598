use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(not_secret = "")]
    secret_santa_name: String,
}

fn main() {}
