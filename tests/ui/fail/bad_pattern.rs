use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(pattern = "(?<=a)b")]
    text: String,
}

fn main() {}
