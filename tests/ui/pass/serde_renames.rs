use elicit_core::Elicit;

// serde's renames and ours agree: one set of wire names.
#[derive(Elicit, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[elicit(rename_all = "camelCase")]
struct Form {
    first_name: String,
    #[serde(rename = "years")]
    #[elicit(rename = "years")]
    age: u8,
}

pub fn main() {
    let schema = Form::schema();
    let names: Vec<&str> = schema.properties.names().collect();
    assert_eq!(names, ["firstName", "years"]);
}
