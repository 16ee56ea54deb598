// `flatten` merges a form that derives `Elicit`: a hand-written `Elicit`
// impl, or a field type, is refused once per field, at its type.
use elicit_core::{Content, ContentError, Elicit, ElicitationSchema, StringSchema};

struct Manual;

impl Elicit for Manual {
    fn schema() -> ElicitationSchema {
        ElicitationSchema::new().property("code", StringSchema::new(), true)
    }
    fn from_content(_: &Content) -> Result<Self, ContentError> {
        Ok(Manual)
    }
    fn to_content(&self) -> Content {
        Content::new()
    }
}

#[derive(Elicit)]
struct Outer {
    name: String,
    #[elicit(flatten)]
    manual: Manual,
    #[elicit(flatten)]
    count: u8,
}

fn main() {}
