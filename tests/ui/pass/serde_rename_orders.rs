use elicit_core::{Content, Elicit};
use serde::Deserialize;
use serde_json::json;

// A `#[serde(..)]` attribute without a rename, before or after one with it,
// in its own attribute or the same one, keeps the rename: the wire names
// are serde's in every order.

// Container: rename_all first, then another serde attribute.
#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
#[serde(deny_unknown_fields)]
struct RenameAllFirst {
    first_name: String,
    // Field: rename first, then another serde attribute.
    #[serde(rename = "years")]
    #[serde(default)]
    age: u8,
}

// Container: another serde attribute first, then rename_all.
#[derive(Elicit, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "camelCase")]
struct RenameAllLast {
    first_name: String,
    // Field: another serde attribute first, then rename.
    #[serde(default)]
    #[serde(rename = "years")]
    age: u8,
}

// Both in one attribute, each order; elicit attributes in between.
#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SameAttributeRenameFirst {
    first_name: String,
    #[serde(rename = "years", default)]
    #[elicit(range(max = 130))]
    age: u8,
}

#[derive(Elicit, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SameAttributeRenameLast {
    first_name: String,
    #[serde(default, rename = "years")]
    #[elicit(range(max = 130))]
    #[serde(alias = "age_in_years")]
    age: u8,
}

// The `deserialize` half of a split rename is the name content is read by.
#[derive(Elicit, Deserialize)]
#[serde(rename_all(serialize = "SCREAMING_SNAKE_CASE", deserialize = "kebab-case"))]
#[serde(deny_unknown_fields)]
struct SplitRenames {
    first_name: String,
    #[serde(default)]
    #[serde(rename(serialize = "AGE", deserialize = "years"))]
    age: u8,
}

// Variants: rename before and after another serde attribute; rename_all
// before and after one on the enum.
#[derive(Elicit, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
#[serde(expecting = "a size")]
enum Size {
    Small,
    #[serde(rename = "xl")]
    #[serde(alias = "extra-large")]
    ExtraLarge,
    #[serde(alias = "m")]
    #[serde(rename = "med")]
    Medium,
}

#[derive(Elicit, Deserialize, Debug, PartialEq)]
#[serde(expecting = "a shape")]
#[serde(rename_all = "UPPERCASE")]
enum Shape {
    Round,
    #[serde(rename = "sq", alias = "box")]
    Square,
}

#[derive(Elicit, Deserialize)]
struct Order {
    size: Size,
    shape: Shape,
}

fn names<T: Elicit>() -> Vec<String> {
    T::schema().properties.names().map(str::to_owned).collect()
}

fn options<T: Elicit>(field: &str) -> serde_json::Value {
    let schema = serde_json::to_value(T::schema()).unwrap();
    schema["properties"][field]["enum"].clone()
}

/// Our names, and serde reading content written with them.
fn agree<T: Elicit + for<'de> Deserialize<'de>>(expected: &[&str], content: serde_json::Value) {
    assert_eq!(names::<T>(), expected);
    let content: Content = serde_json::from_value(content).unwrap();
    assert!(T::from_content(&content).is_ok());
    assert!(serde_json::from_value::<T>(serde_json::Value::Object(content)).is_ok());
}

pub fn main() {
    let camel = json!({"firstName": "Ada", "years": 36});
    agree::<RenameAllFirst>(&["firstName", "years"], camel.clone());
    agree::<RenameAllLast>(&["firstName", "years"], camel.clone());
    agree::<SameAttributeRenameFirst>(&["firstName", "years"], camel.clone());
    agree::<SameAttributeRenameLast>(&["firstName", "years"], camel);
    agree::<SplitRenames>(
        &["first-name", "years"],
        json!({"first-name": "Ada", "years": 36}),
    );

    assert_eq!(options::<Order>("size"), json!(["small", "xl", "med"]));
    assert_eq!(options::<Order>("shape"), json!(["ROUND", "sq"]));
    let content = json!({"size": "med", "shape": "sq"});
    let parsed: Content = serde_json::from_value(content.clone()).unwrap();
    assert!(Order::from_content(&parsed).is_ok());
    assert!(serde_json::from_value::<Order>(content).is_ok());
}
