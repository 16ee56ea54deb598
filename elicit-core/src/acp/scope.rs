//! Ids and scope both ways: `ElicitationId`, `RequestId`, `ElicitationScope`.

use std::sync::Arc;

use agent_client_protocol_schema::v1 as sdk;

use crate::protocol::{ElicitationId, ElicitationScope, RequestId};

use super::support::by_value;
use crate::{ConversionError, ConversionErrorKind};

impl From<ElicitationId> for sdk::ElicitationId {
    fn from(id: ElicitationId) -> Self {
        sdk::ElicitationId::new(id.into_string())
    }
}

impl From<&ElicitationId> for sdk::ElicitationId {
    fn from(id: &ElicitationId) -> Self {
        sdk::ElicitationId::new(id.as_str())
    }
}

by_value!(From<sdk::ElicitationId> for ElicitationId);

impl From<&sdk::ElicitationId> for ElicitationId {
    fn from(id: &sdk::ElicitationId) -> Self {
        ElicitationId::new(id.0.as_ref())
    }
}

impl From<RequestId> for sdk::RequestId {
    fn from(id: RequestId) -> Self {
        match id {
            RequestId::Null => Self::Null,
            RequestId::Number(n) => Self::Number(n),
            RequestId::String(s) => Self::Str(s),
        }
    }
}

impl From<sdk::RequestId> for RequestId {
    fn from(id: sdk::RequestId) -> Self {
        match id {
            sdk::RequestId::Null => Self::Null,
            sdk::RequestId::Number(n) => Self::Number(n),
            sdk::RequestId::Str(s) => Self::String(s),
        }
    }
}

by_value!(From<ElicitationScope> for sdk::ElicitationScope);

impl From<&ElicitationScope> for sdk::ElicitationScope {
    fn from(scope: &ElicitationScope) -> Self {
        match scope {
            ElicitationScope::Session {
                session_id,
                tool_call_id,
            } => {
                let mut session =
                    sdk::ElicitationSessionScope::new(sdk::SessionId::new(session_id.as_str()));
                session.tool_call_id = tool_call_id
                    .as_deref()
                    .map(|t| sdk::ToolCallId::new(Arc::<str>::from(t)));
                Self::Session(session)
            }
            ElicitationScope::Request { request_id } => Self::Request(
                sdk::ElicitationRequestScope::new(sdk::RequestId::from(request_id.clone())),
            ),
        }
    }
}

by_value!(TryFrom<sdk::ElicitationScope> for ElicitationScope, ConversionError);

impl TryFrom<&sdk::ElicitationScope> for ElicitationScope {
    type Error = ConversionError;
    fn try_from(scope: &sdk::ElicitationScope) -> Result<Self, ConversionError> {
        match scope {
            sdk::ElicitationScope::Session(s) => Ok(ElicitationScope::Session {
                session_id: s.session_id.0.as_ref().to_owned(),
                tool_call_id: s.tool_call_id.as_ref().map(|t| t.0.as_ref().to_owned()),
            }),
            sdk::ElicitationScope::Request(r) => Ok(ElicitationScope::Request {
                request_id: r.request_id.clone().into(),
            }),
            other => Err(ConversionError::new(ConversionErrorKind::UnknownVariant {
                what: "scope",
                reason: serde_json::to_string(other).unwrap_or_else(|e| e.to_string()),
            })),
        }
    }
}
