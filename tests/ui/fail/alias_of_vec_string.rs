use elicit_core::Elicit;

type Tags = Vec<String>;

#[derive(Elicit)]
struct Form {
    tags: Tags,
}

fn main() {}
