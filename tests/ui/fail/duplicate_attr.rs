use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(title = "Name", title = "Your name")]
    name: String,
}

fn main() {}
