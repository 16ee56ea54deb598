// A `SecretString` field is a secret: without `#[secret]` it is no form
// field, and the error says how to mark it.
use elicit_core::sensitive::SecretString;
use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(sensitive)]
struct Connect {
    account: String,
    value: SecretString,
}

fn main() {}
