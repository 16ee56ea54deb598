use elicit_core::Elicit;

#[derive(Elicit, Clone)]
#[elicit(try_from = "Vec<String>", into = "Vec<String>")]
struct Tags(Vec<String>);

impl TryFrom<Vec<String>> for Tags {
    type Error = String;
    fn try_from(v: Vec<String>) -> Result<Self, String> {
        Ok(Self(v))
    }
}

impl From<Tags> for Vec<String> {
    fn from(t: Tags) -> Self {
        t.0
    }
}

fn main() {}
