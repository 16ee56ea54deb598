use std::num::{NonZeroI32, NonZeroI64};

use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    step: NonZeroI32,
    #[elicit(range(min = -5, max = 5))]
    offset: Option<NonZeroI64>,
}

fn main() {}
