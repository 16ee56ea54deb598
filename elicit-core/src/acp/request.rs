//! `elicitation/create` requests both ways, and the client's guard for a
//! request the SDK parsed.

use agent_client_protocol_schema::v1 as sdk;

use crate::protocol::{
    CreateElicitationRequest, ElicitationId, ElicitationMode, ElicitationScope, OtherMode,
};
use crate::schema::ElicitationSchema;

use super::support::{by_value, via_json};
use crate::{ConversionError, ConversionErrorKind};

by_value!(
    /// Loses the schema's property order (see the
    /// [module docs](crate::acp#what-the-sdks-types-cannot-hold)).
    TryFrom<CreateElicitationRequest> for sdk::CreateElicitationRequest, ConversionError);

/// Loses the schema's property order (see the
/// [module docs](crate::acp#what-the-sdks-types-cannot-hold)).
impl TryFrom<&CreateElicitationRequest> for sdk::CreateElicitationRequest {
    type Error = ConversionError;
    fn try_from(request: &CreateElicitationRequest) -> Result<Self, ConversionError> {
        let scope = sdk::ElicitationScope::from(&request.scope);
        let mode = match &request.mode {
            ElicitationMode::Form { requested_schema } => sdk::ElicitationMode::Form(
                sdk::ElicitationFormMode::new(scope, requested_schema.try_into()?),
            ),
            ElicitationMode::Url {
                elicitation_id,
                url,
            } => sdk::ElicitationMode::Url(sdk::ElicitationUrlMode::new(
                scope,
                sdk::ElicitationId::from(elicitation_id),
                url.clone(),
            )),
            ElicitationMode::Other(other) => {
                sdk::ElicitationMode::Other(sdk::OtherElicitationMode::new(
                    other.mode(),
                    scope,
                    other
                        .fields()
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                ))
            }
        };
        Ok(
            sdk::CreateElicitationRequest::new(mode, request.message.clone())
                .meta(request.meta.clone()),
        )
    }
}

by_value!(TryFrom<sdk::CreateElicitationRequest> for CreateElicitationRequest, ConversionError);

impl TryFrom<&sdk::CreateElicitationRequest> for CreateElicitationRequest {
    type Error = ConversionError;
    fn try_from(request: &sdk::CreateElicitationRequest) -> Result<Self, ConversionError> {
        let (scope, mode) = match &request.mode {
            sdk::ElicitationMode::Form(form) => (
                ElicitationScope::try_from(&form.scope)?,
                ElicitationMode::Form {
                    requested_schema: ElicitationSchema::try_from(&form.requested_schema)?,
                },
            ),
            sdk::ElicitationMode::Url(url) => (
                ElicitationScope::try_from(&url.scope)?,
                ElicitationMode::Url {
                    elicitation_id: ElicitationId::from(&url.elicitation_id),
                    url: url.url.clone(),
                },
            ),
            sdk::ElicitationMode::Other(other) => {
                let fields = other
                    .fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let mode = OtherMode::new(other.mode.clone(), fields).ok_or_else(|| {
                    ConversionError::new(ConversionErrorKind::KnownNameInOther {
                        name: other.mode.clone(),
                    })
                })?;
                (
                    ElicitationScope::try_from(&other.scope)?,
                    ElicitationMode::Other(mode),
                )
            }
            // A mode the SDK added later: read the whole request as elicit
            // reads the wire (it then lands in `ElicitationMode::Other`).
            _ => return via_json(request, "mode"),
        };
        Ok(CreateElicitationRequest {
            scope,
            mode,
            message: request.message.clone(),
            meta: request.meta.clone(),
        })
    }
}
