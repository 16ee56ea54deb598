// `user_only` keeps a form field for the user alone: on a skipped field
// (never asked) or a flattened one (whose own fields carry it), it has no
// effect, and says where it belongs; each refused once, at its attribute.
use elicit_core::Elicit;

#[derive(Elicit)]
struct Inner {
    #[elicit(user_only)]
    confirm: bool,
}

#[derive(Elicit)]
struct Transfer {
    amount: u32,
    #[elicit(skip, user_only)]
    note: String,
    #[elicit(flatten, user_only)]
    inner: Inner,
}

fn main() {}
