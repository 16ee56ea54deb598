use elicit_core::Elicit;

/// Confirm to continue.
#[derive(Elicit)]
#[elicit(allow_empty)]
struct Confirm {}

pub fn main() {
    assert!(Confirm::schema().properties.is_empty());
}
