use elicit_core::Elicit;

#[derive(Elicit)]
struct Login {
    #[elicit(rename = "password")]
    word: String,
}

fn main() {}
