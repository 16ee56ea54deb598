use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(length(max = 4), default = "staging")]
    env: String,
}

fn main() {}
