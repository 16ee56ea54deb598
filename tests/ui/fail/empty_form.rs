use elicit_core::Elicit;

#[derive(Elicit)]
struct Empty {}

fn main() {}
