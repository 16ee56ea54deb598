use elicit_core::Elicit;

use std::sync::Arc;

#[derive(Elicit)]
struct Form {
    name: Arc<str>,
}

fn main() {}
