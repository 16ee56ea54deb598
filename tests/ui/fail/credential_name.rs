use elicit_core::Elicit;

#[derive(Elicit)]
struct Connect {
    username: String,
    api_key: String,
}

fn main() {}
