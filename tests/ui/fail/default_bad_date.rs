use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(date, default = "2023-02-29")]
    day: String,
}

fn main() {}
