use elicit_core::Elicit;

#[derive(Elicit)]
struct Wrapper<T> {
    value: T,
}

fn main() {}
