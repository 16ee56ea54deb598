//! The `elicitation/create` params of a form request.

use ::rmcp::model;

use crate::Elicit;
use crate::protocol::ElicitationId;
use crate::protocol::agent::VerifiedUser;

use super::error::ConversionError;
use super::schema::schema;

/// The `elicitation/create` params of a form request for `T`, ready for
/// `peer.create_elicitation(..)`. Put the form's title and description (which
/// MCP drops) into `message` if the user needs them.
pub fn form_request<T: Elicit>(
    message: impl Into<String>,
) -> Result<model::ElicitRequestParams, ConversionError> {
    Ok(form_params(message.into(), schema::<T>()?))
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

/// A URL-mode elicitation to send with [`Elicitor::elicit_url`](super::Elicitor::elicit_url):
/// the message the client shows, the URL it offers to open, and the
/// `elicitationId` your out-of-band callback will report as complete; for
/// sensitive input, marked [`sensitive`](Self::sensitive).
///
/// ```
/// use elicit_core::mcp::UrlRequest;
///
/// let request = UrlRequest::new(
///     "Connect your GitHub account.",
///     "https://mcp.example.com/connect?elicitation=gh-42",
///     "gh-42",
/// );
/// assert_eq!(request.id().as_str(), "gh-42");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRequest {
    pub(super) message: String,
    pub(super) url: String,
    pub(super) id: ElicitationId,
    pub(super) sensitive: bool,
    pub(super) user: Option<VerifiedUser>,
}

impl UrlRequest {
    /// A request showing `message` and offering to open `url`, identified by
    /// `elicitation_id`. Ids must be unique among this client's outstanding
    /// URL elicitations; the URL is checked when the request is sent.
    ///
    /// The [`Elicitor`](super::Elicitor) that sends it keeps it outstanding
    /// on the connection's [`Elicitations`](super::Elicitations) until
    /// [`complete`](super::Elicitor::complete).
    pub fn new(
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<ElicitationId>,
    ) -> Self {
        Self {
            message: message.into(),
            url: url.into(),
            id: elicitation_id.into(),
            sensitive: false,
            user: None,
        }
    }

    /// Binds the elicitation to the verified user your server
    /// authenticated: its completion ([`Elicitor::complete`]) is refused
    /// unless it reports the same user, the protocol's defence against an
    /// attacker who sends their elicitation's URL to a victim.
    ///
    /// [`Elicitor::complete`]: super::Elicitor::complete
    #[must_use]
    pub fn for_user(mut self, user: &VerifiedUser) -> Self {
        self.user = Some(user.clone());
        self
    }

    /// Marks the request as sensitive input (passwords, API keys, tokens,
    /// payment details): a client without URL mode gets
    /// [`SendError::SensitiveInputNeedsUrlMode`](crate::protocol::agent::SendError::SensitiveInputNeedsUrlMode) and no request. It never
    /// falls back to a form, whatever the client supports.
    #[must_use]
    pub fn sensitive(mut self) -> Self {
        self.sensitive = true;
        self
    }

    /// The `elicitationId`.
    pub fn id(&self) -> &ElicitationId {
        &self.id
    }
}
