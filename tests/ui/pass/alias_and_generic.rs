//! A type alias as a field type, and a form generic over any single-select.
#![allow(dead_code)]

use elicit_core::Elicit;

type Count = u32;
type Name = String;

#[derive(Elicit)]
struct Order {
    #[elicit(range(min = 1, max = 10))]
    count: Count,
    name: Name,
    note: Option<Name>,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
enum Color {
    Red,
    Green,
}

#[derive(Elicit)]
struct Pick<C: elicit_core::Choice> {
    c: C,
    more: Vec<C>,
}

pub fn main() {
    let _ = Order::schema();
    let _ = Pick::<Color>::schema();
}
