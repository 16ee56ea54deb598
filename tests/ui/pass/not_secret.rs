use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    /// The name of your secret-santa partner.
    #[elicit(not_secret = "a person's name for a gift exchange, not a credential")]
    secret_santa: String,
}

pub fn main() {
    assert_eq!(Form::schema().properties.len(), 1);
}
