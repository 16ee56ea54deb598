mod sdk {
    pub use elicit_core as forms;
}

#[derive(elicit_core::Elicit)]
#[elicit(crate = "crate::reexported_crate::sdk::forms")]
struct Form {
    ok: bool,
}

pub fn main() {
    use sdk::forms::Elicit;
    assert_eq!(Form::schema().properties.len(), 1);
}
