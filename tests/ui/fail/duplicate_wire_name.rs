use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    name: String,
    #[elicit(rename = "name")]
    nickname: String,
}

fn main() {}
