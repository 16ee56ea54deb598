use elicit_core::Elicit;

#[derive(Elicit)]
struct T(String);

fn main() {}
