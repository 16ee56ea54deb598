use std::num::NonZeroU8;

use elicit_core::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(default = "8")]
    workers: NonZeroU8,
}

fn main() {}
