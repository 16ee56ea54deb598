use std::num::NonZeroU8;

use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(range(min = 0, max = 8))]
    workers: NonZeroU8,
}

fn main() {}
