// A sensitive form holds secrets: it is never sent in form mode, so asking
// for it as a form does not compile (on the protocol layer here; with the
// ACP SDK's one call in tests/user-crates/acp-ui), and the error names the
// call that asks on its page.
use elicit_core::protocol::agent::AgentConnection;
use elicit_core::protocol::{ElicitationCapabilities, ElicitationScope};
use elicit_core::sensitive::SecretString;
use elicit_core::Elicit;

#[derive(Elicit)]
#[elicit(sensitive)]
struct ApiKey {
    account: String,
    #[secret]
    key: SecretString,
}

fn main() {
    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let scope = ElicitationScope::session("s1");
    let _ = agent.form::<ApiKey>(scope, "Your API key");
}
