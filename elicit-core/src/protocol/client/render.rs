//! A user interface for requests that passed the guard ([`Render`]), and
//! [`answer`]: every answer checked before it is sent.

use crate::Content;
use crate::limits::MAX_RENDER_ATTEMPTS;

use crate::protocol::messages::{CreateElicitationResponse, JsonRpcError};
use crate::protocol::url::UrlRejection;

use super::incoming::{AnswerError, FormElicitation, Incoming, UrlElicitation};

// ---------------------------------------------------------------------------
// Rendering: the user interface an SDK handler calls

/// The user's answer to a form, as a [`Render`]er reports it. It is checked
/// by [`answer`] before anything is sent.
#[derive(Debug, Clone, PartialEq)]
pub enum FormAnswer {
    /// The user submitted this content (validated again before sending).
    Accept(Content),
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the form.
    Cancel,
}

/// The user's answer to a URL request, as a [`Render`]er reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlAnswer {
    /// The user consented to open the URL (refused by [`answer`] when the
    /// review's verdict is [`Refused`](crate::protocol::url::UrlVerdict::Refused)).
    Consent,
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the request.
    Cancel,
}

/// A user interface for requests that passed the guard: a terminal
/// (`elicit_core::terminal`, feature `terminal`), a GUI, or a script.
///
/// It only shows and asks; [`answer`] does the rest: it checks every
/// answer before it is sent (validate-before-send) and shows the request
/// again with the problem when it cannot be sent.
pub trait Render {
    /// Shows `form` (from `agent`, a label the user can recognize) and
    /// returns the user's answer. `problem` is why the previous answer to
    /// this same request could not be sent (`None` the first time): show
    /// it.
    fn form(
        &mut self,
        agent: &str,
        form: &FormElicitation,
        problem: Option<&AnswerError>,
    ) -> FormAnswer;

    /// Shows `url` (full URL, highlighted host, the review's warnings) and
    /// asks for consent to open it. Open it only after consent, and only
    /// if [`answer`] accepts the consent. `problem` is why the previous
    /// consent was refused.
    fn url(
        &mut self,
        agent: &str,
        url: &UrlElicitation,
        problem: Option<&UrlRejection>,
    ) -> UrlAnswer;

    /// Called by [`answer`] once the user's consent to open `url` was
    /// accepted (after [`url`](Self::url) returned [`UrlAnswer::Consent`]
    /// and the review allowed it): the place to open it, outside the client
    /// and the model. The default does nothing.
    fn consented(&mut self, url: &UrlElicitation) {
        let _ = url;
    }
}

/// Shows `incoming` with `render` and returns the response to send. A form
/// answer is validated with the form's rules and a consent is checked
/// against the URL review before they are returned: on a problem the
/// request is shown again with it, up to 3 times ([limits](crate::reference::limits)),
/// then the request is answered `-32603` (nothing invalid is ever sent).
///
/// For a URL request that is not accepted, also
/// [`forget`](super::ClientConnection::forget) its id: no completion will be shown.
///
/// ```
/// use elicit_core::protocol::client::{
///     AnswerError, ClientConnection, FormAnswer, FormElicitation, Render, UrlAnswer,
///     UrlElicitation, answer,
/// };
/// use elicit_core::protocol::url::UrlRejection;
/// use elicit_core::protocol::{ElicitationAction, ElicitationCapabilities};
/// use serde_json::json;
///
/// /// Answers `replicas: 40` first, then `4` once told what was wrong.
/// struct Script(Vec<String>);
/// impl Render for Script {
///     fn form(&mut self, _: &str, _: &FormElicitation, problem: Option<&AnswerError>) -> FormAnswer {
///         let replicas = if let Some(problem) = problem {
///             self.0.push(problem.to_string());
///             4
///         } else {
///             40
///         };
///         FormAnswer::Accept(json!({"replicas": replicas}).as_object().unwrap().clone())
///     }
///     fn url(&mut self, _: &str, _: &UrlElicitation, _: Option<&UrlRejection>) -> UrlAnswer {
///         UrlAnswer::Decline
///     }
/// }
///
/// let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_only()));
/// let incoming = client.receive_value(json!({
///     "sessionId": "s", "mode": "form", "message": "How many?",
///     "requestedSchema": {"type": "object", "properties": {
///         "replicas": {"type": "integer", "maximum": 16}}}
/// }))?;
/// let mut script = Script(Vec::new());
/// let response = answer(&mut script, "the agent", &incoming)?;
/// assert_eq!(
///     response.action,
///     ElicitationAction::Accept { content: json!({"replicas": 4}).as_object().cloned() }
/// );
/// assert!(script.0[0].contains("`replicas` must be at most 16, got 40"));
/// # Ok::<(), elicit_core::protocol::JsonRpcError>(())
/// ```
pub fn answer<R: Render + ?Sized>(
    render: &mut R,
    agent: &str,
    incoming: &Incoming,
) -> Result<CreateElicitationResponse, JsonRpcError> {
    match incoming {
        Incoming::Form(form) => {
            let mut problem = None;
            for _ in 0..MAX_RENDER_ATTEMPTS {
                match render.form(agent, form, problem.as_ref()) {
                    FormAnswer::Accept(content) => match form.accept(content) {
                        Ok(response) => {
                            note!("accepted");
                            return Ok(response);
                        }
                        Err(error) => {
                            note!("answer invalid: shown again");
                            problem = Some(error);
                        }
                    },
                    FormAnswer::Decline => {
                        refused!(Declined);
                        return Ok(form.decline());
                    }
                    FormAnswer::Cancel => {
                        refused!(Cancelled);
                        return Ok(form.cancel());
                    }
                }
            }
            refused!(RenderGaveUp, attempts = MAX_RENDER_ATTEMPTS);
            Err(gave_up(problem.map(|p| p.to_string())))
        }
        Incoming::Url(url) => {
            let mut problem = None;
            for _ in 0..MAX_RENDER_ATTEMPTS {
                match render.url(agent, url, problem.as_ref()) {
                    UrlAnswer::Consent => match url.consent() {
                        Ok(response) => {
                            note!("consented");
                            render.consented(url);
                            return Ok(response);
                        }
                        Err(rejection) => {
                            refused!(UrlRefused);
                            problem = Some(rejection);
                        }
                    },
                    UrlAnswer::Decline => {
                        refused!(Declined);
                        return Ok(url.decline());
                    }
                    UrlAnswer::Cancel => {
                        refused!(Cancelled);
                        return Ok(url.cancel());
                    }
                }
            }
            refused!(RenderGaveUp, attempts = MAX_RENDER_ATTEMPTS);
            Err(gave_up(problem.map(|p| p.to_string())))
        }
    }
}

/// `-32603`: the client's own user interface produced no answer it could
/// send.
fn gave_up(last: Option<String>) -> JsonRpcError {
    JsonRpcError::internal(format!(
        "Internal error: the client could not produce a valid answer after {} attempts{}",
        MAX_RENDER_ATTEMPTS,
        last.map(|l| format!(" (last: {l})")).unwrap_or_default()
    ))
}
