//! The OpenID provider the OAuth tests run against (`common::oidc`): it
//! starts on loopback from the pinned packages, serves its discovery
//! document for the issuer it printed, and takes PKCE with S256 only.

use std::net::SocketAddr;

use crate::common::http::Req;
use crate::common::oidc;

#[test]
fn the_test_provider_serves_discovery_for_its_issuer() {
    let Some(installed) = oidc::installed() else {
        return;
    };
    let provider = oidc::start(
        &installed,
        "elicit",
        None,
        &["http://127.0.0.1/oauth/callback"],
    );
    let e = &provider.endpoints;
    assert_eq!(e.issuer, format!("http://127.0.0.2:{}", e.port));
    assert_eq!(e.client_secret, None);
    let addr: SocketAddr = ([127, 0, 0, 2], e.port).into();
    let reply = Req::get("/.well-known/openid-configuration")
        .host(&format!("127.0.0.2:{}", e.port))
        .send(addr);
    assert_eq!(reply.status, 200, "{}", reply.body);
    let doc: serde_json::Value = serde_json::from_str(&reply.body).expect("JSON");
    assert_eq!(doc["issuer"], e.issuer.as_str());
    assert_eq!(
        doc["authorization_endpoint"],
        e.authorization_endpoint.as_str()
    );
    assert_eq!(doc["token_endpoint"], e.token_endpoint.as_str());
    assert_eq!(
        doc["code_challenge_methods_supported"],
        serde_json::json!(["S256"])
    );
    // RFC 9207: the callback carries `iss`, which the agent checks.
    assert_eq!(doc["authorization_response_iss_parameter_supported"], true);
}
