use elicit_core::Elicit;

// Valid JavaScript that needs backtracking: refused, with an alternative.
#[derive(Elicit)]
struct Form {
    #[elicit(pattern = "(?<=a)b")]
    text: String,
    #[elicit(pattern = r"^(\w+) \1$")]
    twice: String,
}

fn main() {}
