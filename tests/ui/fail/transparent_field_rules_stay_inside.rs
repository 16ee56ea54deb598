use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(transparent)]
struct Port(#[elicit(range(min = 1024))] u16);

#[derive(Elicit)]
struct Form {
    #[elicit(range(max = 2000))]
    port: Port,
}

fn main() {}
