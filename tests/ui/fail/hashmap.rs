use std::collections::HashMap;

use elicit_core::Elicit;

#[derive(Elicit)]
struct Labels {
    labels: HashMap<String, String>,
}

fn main() {}
