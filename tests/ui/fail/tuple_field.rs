use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    point: (u8, u8),
}

fn main() {}
