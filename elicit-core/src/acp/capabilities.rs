//! Elicitation capabilities both ways, and the connections built from the
//! SDK's capabilities.

use agent_client_protocol_schema::v1 as sdk;
use serde_json::{Map, Value};

use crate::protocol::agent::AgentConnection;
use crate::protocol::client::ClientConnection;
use crate::protocol::{ElicitationCapabilities, ModeCapabilities};

use super::support::by_value;
use crate::{ConversionError, ConversionErrorKind};

impl AgentConnection {
    /// The state for a client whose `initialize` request carried these SDK
    /// `ClientCapabilities` (their `elicitation` field decides the modes).
    #[cfg(feature = "acp-sdk")]
    pub(crate) fn from_acp_client_capabilities(capabilities: &sdk::ClientCapabilities) -> Self {
        Self::new(
            capabilities
                .elicitation
                .as_ref()
                .map(ElicitationCapabilities::from),
        )
    }
}

impl ClientConnection {
    /// A client advertising these SDK capabilities (`None`: no elicitation).
    #[cfg(feature = "acp-sdk")]
    pub(crate) fn from_acp_capabilities(
        capabilities: Option<&sdk::ElicitationCapabilities>,
    ) -> Self {
        Self::new(capabilities.map(ElicitationCapabilities::from))
    }
}

fn no_extra(extra: &Map<String, Value>, object: &'static str) -> Result<(), ConversionError> {
    let fields: Vec<String> = extra.keys().filter(|k| *k != "_meta").cloned().collect();
    if fields.is_empty() {
        Ok(())
    } else {
        Err(ConversionError::new(ConversionErrorKind::UnknownFields {
            object,
            fields,
        }))
    }
}

by_value!(TryFrom<ElicitationCapabilities> for sdk::ElicitationCapabilities, ConversionError);

/// Refuses unknown fields (elicit keeps them, the SDK's type has no place
/// for them).
impl TryFrom<&ElicitationCapabilities> for sdk::ElicitationCapabilities {
    type Error = ConversionError;
    fn try_from(caps: &ElicitationCapabilities) -> Result<Self, ConversionError> {
        no_extra(&caps.extra, "elicitation")?;
        let form = match &caps.form {
            Some(form) => {
                no_extra(&form.extra, "elicitation.form")?;
                Some(sdk::ElicitationFormCapabilities::new().meta(form.meta.clone()))
            }
            None => None,
        };
        let url = match &caps.url {
            Some(url) => {
                no_extra(&url.extra, "elicitation.url")?;
                Some(sdk::ElicitationUrlCapabilities::new().meta(url.meta.clone()))
            }
            None => None,
        };
        Ok(sdk::ElicitationCapabilities::new()
            .form(form)
            .url(url)
            .meta(caps.meta.clone()))
    }
}

by_value!(From<sdk::ElicitationCapabilities> for ElicitationCapabilities);

impl From<&sdk::ElicitationCapabilities> for ElicitationCapabilities {
    fn from(caps: &sdk::ElicitationCapabilities) -> Self {
        ElicitationCapabilities {
            form: caps.form.as_ref().map(|f| ModeCapabilities {
                meta: f.meta.clone(),
                extra: Map::new(),
            }),
            url: caps.url.as_ref().map(|u| ModeCapabilities {
                meta: u.meta.clone(),
                extra: Map::new(),
            }),
            meta: caps.meta.clone(),
            extra: Map::new(),
        }
    }
}
