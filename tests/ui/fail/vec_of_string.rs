use elicit_core::Elicit;

#[derive(Elicit)]
struct Tags {
    tags: Vec<String>,
}

fn main() {}
