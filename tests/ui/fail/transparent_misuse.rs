use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(transparent, title = "Port", rename_all = "camelCase")]
struct Port(#[elicit(default = 8080, rename = "port")] u16);

#[derive(Elicit)]
#[elicit(transparent)]
struct Pair(u16, u16);

#[derive(Elicit)]
#[elicit(transparent)]
enum Choice {
    A,
}

fn main() {}
