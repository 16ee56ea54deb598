//! What passed the guard: [`Incoming`], a form or a URL request to show the
//! user, and how an answer to it is checked before it is sent.

use serde_json::{Map, Value};

use crate::Content;
use crate::credential::looks_like_credential;
use crate::error::ContentError;
use crate::schema::ElicitationSchema;

use crate::protocol::messages::{CreateElicitationResponse, ElicitationId, ElicitationScope};
use crate::protocol::url::{UrlRejection, UrlReview, UrlVerdict};

/// An accepted incoming request, to show the user.
#[derive(Debug, Clone)]
pub enum Incoming {
    /// A form to render.
    Form(FormElicitation),
    /// A URL to review and, with consent, open.
    Url(UrlElicitation),
}

/// A form-mode request that passed the guard: its schema checks
/// ([`ElicitationSchema::check`]), so every property has a control.
#[derive(Debug, Clone)]
pub struct FormElicitation {
    pub(super) scope: ElicitationScope,
    pub(super) message: String,
    pub(super) schema: ElicitationSchema,
    pub(super) meta: Option<Map<String, Value>>,
}

impl FormElicitation {
    /// What the request is tied to.
    pub fn scope(&self) -> &ElicitationScope {
        &self.scope
    }

    /// What is asked and why: show it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The requested schema.
    pub fn schema(&self) -> &ElicitationSchema {
        &self.schema
    }

    /// The request's `_meta`.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
    }

    /// The properties whose names look like credentials. Form mode must
    /// never collect secrets: warn the user, or decline.
    pub fn credential_like_fields(&self) -> Vec<&str> {
        self.schema
            .properties
            .names()
            .filter(|n| looks_like_credential(n))
            .collect()
    }

    /// The declared defaults, to pre-populate the form with.
    pub fn initial_content(&self) -> Content {
        self.schema
            .properties
            .iter()
            .filter_map(|(name, p)| p.default_value().map(|v| (name.to_owned(), v)))
            .collect()
    }

    /// Validates the user's input with the same engine the agent uses
    /// ([`ElicitationSchema::validate`]), collecting every failing field.
    pub fn validate(&self, content: &Content) -> Result<(), ContentError> {
        self.schema.validate(content)
    }

    /// The `accept` response for the user's input, validated first. Keys the
    /// schema does not define and `null` values (unanswered fields) are
    /// dropped. On [`AnswerError::Invalid`], show the errors and let the
    /// user fix them.
    pub fn accept(&self, content: Content) -> Result<CreateElicitationResponse, AnswerError> {
        let content: Map<String, Value> = content
            .into_iter()
            .filter(|(k, v)| !v.is_null() && self.schema.properties.contains(k))
            .collect();
        self.schema
            .validate(&content)
            .map_err(AnswerError::Invalid)?;
        Ok(CreateElicitationResponse::accept(Some(content)))
    }

    /// The `decline` response: the user explicitly said no.
    pub fn decline(&self) -> CreateElicitationResponse {
        CreateElicitationResponse::decline()
    }

    /// The `cancel` response: the user dismissed the form.
    pub fn cancel(&self) -> CreateElicitationResponse {
        CreateElicitationResponse::cancel()
    }
}

/// Why a form answer cannot be sent.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AnswerError {
    /// The input breaks the form's rules: show the errors, let the user fix
    /// them.
    Invalid(ContentError),
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Invalid(e) => write!(f, "{e}: let the user correct the form"),
        }
    }
}

impl std::error::Error for AnswerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Invalid(e) => Some(e),
        }
    }
}

/// A URL-mode request that passed the guard. Nothing here opens or fetches
/// the URL: show [`review`](Self::review) and ask for consent first.
#[derive(Debug, Clone)]
pub struct UrlElicitation {
    pub(super) scope: ElicitationScope,
    pub(super) message: String,
    pub(super) id: ElicitationId,
    pub(super) review: UrlReview,
    pub(super) meta: Option<Map<String, Value>>,
}

impl UrlElicitation {
    /// What the request is tied to.
    pub fn scope(&self) -> &ElicitationScope {
        &self.scope
    }

    /// What is asked and why: show it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The `elicitationId` (opaque).
    pub fn id(&self) -> &ElicitationId {
        &self.id
    }

    /// The full URL, as received.
    pub fn url(&self) -> &str {
        self.review.url()
    }

    /// The URL's review: show the full URL, highlight the host, list the
    /// warnings.
    pub fn review(&self) -> &UrlReview {
        &self.review
    }

    /// The request's `_meta`.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
    }

    /// The `accept` response, once the user consented to open the URL (open
    /// it afterwards, in a context neither the client nor the model can
    /// read). Refused when the review's verdict is
    /// [`Refused`](UrlVerdict::Refused): decline instead. A client that
    /// deliberately accepts more builds
    /// `CreateElicitationResponse::accept(None)` itself.
    pub fn consent(&self) -> Result<CreateElicitationResponse, UrlRejection> {
        match self.review.verdict() {
            UrlVerdict::Refused(r) => Err(r.clone()),
            UrlVerdict::Allowed | UrlVerdict::Development => {
                Ok(CreateElicitationResponse::accept(None))
            }
        }
    }

    /// The `decline` response. Also [`forget`](super::ClientConnection::forget)
    /// the id if no completion should be shown for it.
    pub fn decline(&self) -> CreateElicitationResponse {
        CreateElicitationResponse::decline()
    }

    /// The `cancel` response.
    pub fn cancel(&self) -> CreateElicitationResponse {
        CreateElicitationResponse::cancel()
    }
}
