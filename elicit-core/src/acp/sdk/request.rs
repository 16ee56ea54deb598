//! `elicitation/create` on the SDK's wire: elicit's own request, typed for
//! the SDK.

use agent_client_protocol::JsonRpcRequest;
use agent_client_protocol_schema::v1 as sdk;
use serde::{Deserialize, Serialize};

use crate::protocol::CreateElicitationRequest;

/// `elicitation/create` as the SDK sends it: elicit's own request as params
/// (the form's properties keep declaration order; the SDK's
/// `ElicitationSchema` would sort them), answered by the SDK's
/// `CreateElicitationResponse`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonRpcRequest)]
#[request(method = "elicitation/create", response = sdk::CreateElicitationResponse)]
pub struct ElicitationRequest(pub CreateElicitationRequest);
