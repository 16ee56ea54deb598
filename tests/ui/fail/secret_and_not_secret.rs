use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[secret]
    #[elicit(not_secret = "it is fine")]
    pin: String,
}

fn main() {}
