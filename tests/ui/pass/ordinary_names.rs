use elicit_core::Elicit;

// Profile data is not a credential: none of these may trigger the check.
#[derive(Elicit)]
struct Profile {
    username: String,
    #[elicit(email)]
    email: String,
    token_count: u32,
    max_tokens: Option<u32>,
    display_name: String,
    api_version: Option<String>,
    keyboard_layout: Option<String>,
}

pub fn main() {
    assert_eq!(Profile::schema().properties.len(), 7);
}
