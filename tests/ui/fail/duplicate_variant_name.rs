use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum Mode {
    Fast,
    #[elicit(rename = "fast")]
    Quick,
}

fn main() {}
