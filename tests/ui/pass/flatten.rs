use elicit_core::{Content, Elicit};

#[derive(Elicit, Debug, PartialEq)]
struct Contact {
    name: String,
    #[elicit(email)]
    email: Option<String>,
}

#[derive(Elicit, Debug, PartialEq)]
#[elicit(deny_unknown_fields)]
struct Signup {
    #[elicit(flatten)]
    contact: Contact,
    newsletter: bool,
}

pub fn main() {
    let names: Vec<String> = Signup::schema()
        .properties
        .names()
        .map(str::to_owned)
        .collect();
    assert_eq!(names, ["name", "email", "newsletter"]);
    let content: Content = serde_json::from_str(r#"{"name": "Ada", "newsletter": true}"#).unwrap();
    let signup = Signup::from_content(&content).unwrap();
    assert_eq!(signup.contact.name, "Ada");
    assert_eq!(Signup::from_content(&signup.to_content()).unwrap(), signup);
}
