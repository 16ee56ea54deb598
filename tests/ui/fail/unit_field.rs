use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    nothing: (),
}

fn main() {}
