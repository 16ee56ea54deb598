//! The `elicitation/create` params of a form request.

use ::rmcp::model;

use crate::Elicit;

use crate::ConversionError;

use super::schema::to_mcp_schema;

/// The `elicitation/create` params of a form request for `T`, ready for
/// `peer.create_elicitation(..)`. Put the form's title and description (which
/// MCP drops) into `message` if the user needs them.
pub fn form_request<T: Elicit>(
    message: impl Into<String>,
) -> Result<model::ElicitRequestParams, ConversionError> {
    Ok(form_params(message.into(), to_mcp_schema(&T::schema())?))
}

/// The `elicitation/create` params of a form request.
pub(super) fn form_params(
    message: String,
    requested_schema: model::ElicitationSchema,
) -> model::ElicitRequestParams {
    model::ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema,
    }
}
