use elicit_core::Elicit;

// Patterns are JavaScript (ECMA-262, `u` mode) regular expressions: what a
// JavaScript client refuses does not compile, each with what to write.
#[derive(Elicit)]
struct Form {
    // `\-` is an escape only inside a class in `u` mode.
    #[elicit(pattern = r"^[a-z0-9]+(\-[a-z0-9]+)*$")]
    slug: String,
    // Inline flags are Rust/PCRE syntax.
    #[elicit(pattern = "(?i)^yes$")]
    answer: String,
    // `\pL` needs braces.
    #[elicit(pattern = r"^\pL+$")]
    name: String,
}

fn main() {}
