use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(titel = "x")]
    name: String,
}

fn main() {}
