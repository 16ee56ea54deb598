use elicit_core::Elicit;

#[derive(Elicit)]
enum Color {
    Red,
    Green,
}

#[derive(Elicit)]
struct Form {
    #[elicit(length(min = 3))]
    colors: Vec<Color>,
}

fn main() {}
