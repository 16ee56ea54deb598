use elicit_core::Elicit;

#[derive(Elicit)]
enum Target {
    Local,
    Remote(String),
}

fn main() {}
