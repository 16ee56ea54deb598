use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    name: String,
    #[elicit(skip, title = "Internal id")]
    id: u64,
}

fn main() {}
