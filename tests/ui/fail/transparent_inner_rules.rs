use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(transparent)]
struct Level(#[elicit(range(min = 9, max = 300))] u8);

#[derive(Elicit)]
#[elicit(transparent)]
struct Name(#[elicit(range(max = 3))] String);

#[derive(Elicit)]
#[elicit(transparent)]
struct Many(Vec<String>);

fn main() {}
