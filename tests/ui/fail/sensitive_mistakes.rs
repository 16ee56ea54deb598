// Every mistake of a sensitive form, in one build: a secret that is not a
// `SecretString`, a secret with a default or a `range`, a flattened form,
// and `sensitive` on a single-select.
use elicit_core::sensitive::SecretString;
use elicit_core::Elicit;

#[derive(Elicit)]
struct Inner {
    region: String,
}

#[derive(Elicit)]
#[elicit(sensitive)]
struct Login {
    #[secret]
    password: String,
    #[secret]
    #[elicit(default = "hunter2")]
    pin: SecretString,
    #[secret]
    #[elicit(range(min = 1))]
    code: SecretString,
    #[elicit(flatten)]
    inner: Inner,
}

#[derive(Elicit)]
#[elicit(sensitive)]
enum Strategy {
    Fast,
    Safe,
}

fn main() {}
