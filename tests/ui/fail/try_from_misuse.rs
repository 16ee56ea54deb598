use elicit_core::Elicit;

#[derive(Elicit, Clone)]
#[elicit(try_from = "String")]
struct Handle(String);

#[derive(Elicit, Clone)]
#[elicit(into = "String")]
struct Tag(String);

#[derive(Elicit, Clone)]
#[elicit(try_from = "String", into = "u32", title = "Code")]
struct Code(String);

fn main() {}
