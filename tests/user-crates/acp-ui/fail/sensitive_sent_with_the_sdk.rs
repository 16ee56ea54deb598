// A sensitive form holds secrets: it is never sent in form mode, so asking
// for it with the ACP SDK's one call does not compile, and the error names
// the call that asks on its page (the protocol layer's: tests/ui/fail/).
use elicit_core::Elicit;
use elicit_core::acp::sdk::Elicitor;
use elicit_core::protocol::ElicitationScope;
use elicit_core::sensitive::SecretString;

#[derive(Elicit)]
#[elicit(sensitive)]
struct ApiKey {
    account: String,
    #[secret]
    key: SecretString,
}

fn main() {}

fn turn(elicitor: &Elicitor) {
    let scope = ElicitationScope::session("s1");
    let _ = elicitor.elicit_form::<ApiKey>(scope, "Your API key");
}
