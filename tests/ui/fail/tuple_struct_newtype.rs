use elicit_core::Elicit;

#[derive(Elicit)]
struct Port(#[elicit(range(min = 1024))] u16);

fn main() {}
