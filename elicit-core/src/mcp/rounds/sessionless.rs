//! An MCP 2025-11-25 call without a session to send requests on
//! (stateless Streamable HTTP behind a balancer): a secret page is listed
//! in `-32042` (URL elicitation required), named by the call so the
//! client's retry, on any replica, finds it and reads its answer.

use ::rmcp::model::{ClientCapabilities, ErrorCode, ErrorData};
use serde_json::Value;

use super::super::carrier::elicitation_capabilities;
use super::call::asked_nothing;
use crate::protocol::ElicitationCapabilities;
use crate::protocol::agent::AgentConnection;

/// The JSON-RPC code of MCP 2025-11-25's URL elicitation required error.
pub(crate) const URL_ELICITATION_REQUIRED: i32 = -32042;

/// One call without a session: the modes assumed for its client, the key
/// its pages are named under, and the URL elicitations it needs.
pub(super) struct Sessionless {
    pub(super) connection: AgentConnection,
    /// The key this call's pages are named under
    /// ([`RoundsConfig::without_sessions`](super::RoundsConfig::without_sessions)).
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    call: [u8; 32],
    /// The URL elicitations the call needs (`-32042`'s list).
    pub(super) required: Required,
}

impl Sessionless {
    /// The call named by `call`. Without a session, the client's
    /// `initialize` (its capabilities) is usually unknown here (rmcp then
    /// gives none, or an empty set): `-32042` is the question, and a client
    /// without URL mode fails the call with it.
    pub(super) fn new(capabilities: Option<&ClientCapabilities>, call: [u8; 32]) -> Self {
        let known = capabilities.is_some_and(|c| c.elicitation.is_some());
        let modes = match known {
            true => elicitation_capabilities(capabilities),
            false => Some(ElicitationCapabilities::url_only()),
        };
        Self {
            connection: AgentConnection::new(modes),
            call,
            required: Required::default(),
        }
    }

    /// Lists the page `id` for `-32042`: its URL request, checked by this
    /// call's connection as any URL request is.
    #[cfg(feature = "sensitive")]
    fn require_page(
        &mut self,
        id: crate::sensitive::PageId,
        url: &str,
        message: String,
        user: Option<&crate::protocol::agent::VerifiedUser>,
    ) -> Result<(), crate::flow::ElicitError> {
        let (_, request) = crate::flow::page::page_request(id, url, message, user);
        let (params, _) = super::super::carrier::url_params(&mut self.connection, request)?;
        let ::rmcp::model::ElicitRequestParams::UrlElicitationParams {
            message,
            url,
            elicitation_id,
            ..
        } = params
        else {
            return Ok(());
        };
        self.required.0.push(serde_json::json!({
            "mode": "url",
            "elicitationId": elicitation_id,
            "url": url,
            "message": message,
        }));
        Ok(())
    }
}

/// The URL elicitations a call needs.
#[derive(Default)]
pub(super) struct Required(Vec<Value>);

impl Required {
    /// The error that ends the call: `-32042` with the URL elicitations it
    /// needs, or, with none, the closure's mistake.
    pub(super) fn into_error(self) -> ErrorData {
        if self.0.is_empty() {
            return asked_nothing();
        }
        ErrorData::new(
            ErrorCode(URL_ELICITATION_REQUIRED),
            "this request needs the user to complete URL elicitation(s) first: open them, then \
             retry the request",
            Some(serde_json::json!({ "elicitations": self.0 })),
        )
    }
}

/// The most pages a call without a session asks for one sensitive form,
/// whatever its `.retry(n)`: each retry of the call looks for the page of
/// every attempt.
#[cfg(feature = "sensitive")]
pub(crate) const MAX_PAGES: u32 = 8;

/// The sensitive form `T` under `key` in a call without a session (see
/// [`Rounds::secret`](super::Rounds::secret)): the page named by the call,
/// `key` and the attempt is opened (or found again: the last attempt's
/// page there is), and listed for `-32042`, until it has ended; then its
/// answer is read (and checked by `check`) and the page forgotten. A
/// refused answer with attempts left (`retry`, at most [`MAX_PAGES`]
/// pages) opens the next attempt's page, which shows the errors, and lists
/// it in this `-32042`, its message with the errors. The lock is never
/// held across the store's calls.
#[cfg(feature = "sensitive")]
pub(super) async fn secret<T: crate::sensitive::SensitiveForm + Send>(
    call: &std::sync::Mutex<Sessionless>,
    key: &str,
    asked: super::input::SecretAsked<'_, '_, T>,
    pages: &crate::sensitive::Pages,
) -> Option<Result<crate::sensitive::SecretOutcome<T>, crate::flow::ElicitError>> {
    use super::pages::PageRead;
    use crate::flow::{AfterAnswer, ElicitError, after_answer};
    use crate::sensitive::OpenError;

    use crate::sync::lock;

    let super::input::SecretAsked {
        message,
        user,
        retry,
        check,
    } = asked;
    let refused = lock(call).connection.require_sensitive();
    if let Err(error) = refused {
        return Some(Err(ElicitError::NotSent(error)));
    }
    // The page's id is the call's (every retry finds it): only a user the
    // pages verify may open it, never the first browser to come.
    if !pages.verifies_users() {
        return Some(Err(ElicitError::PageNotOpened(OpenError::NoVerifier)));
    }
    let call_key = lock(call).call;
    let last = retry.again().saturating_add(1).min(MAX_PAGES);
    // The attempt this call is at: the last one whose page is there.
    let mut found = None;
    for attempt in (1..=last).rev() {
        let id = super::state::page_of_attempt(&call_key, key, attempt);
        // Looked for quietly: only the page there is read.
        if attempt > 1 && !super::pages::exists(pages, id).await {
            continue;
        }
        match super::pages::read(pages, id).await {
            PageRead::Unknown | PageRead::Failed => {}
            read => {
                found = Some((attempt, id, read));
                break;
            }
        }
    }
    let Some((attempts, id, read)) = found else {
        let id = super::state::page_of_attempt(&call_key, key, 1);
        if let Err(error) = open_page::<T>(pages, id, user, message.clone(), None).await {
            return Some(Err(error));
        }
        let url = super::pages::url_of(pages, id);
        return lock(call)
            .require_page(id, &url, message, user)
            .err()
            .map(Err);
    };
    if let PageRead::Open = read {
        let message = match attempts {
            1 => message,
            _ => match super::pages::errors_of(pages, id).await {
                Some(errors) => errors.retry_message(&message),
                None => message,
            },
        };
        let url = super::pages::url_of(pages, id);
        return lock(call)
            .require_page(id, &url, message, user)
            .err()
            .map(Err);
    }
    let answer = read.answer::<T>()?;
    let read = crate::flow::page::checked_answer(answer, check).await;
    // Read once: its end (a refused answer's secrets included) forgotten.
    super::pages::forget(pages, id).await;
    let read = match read {
        Ok(read) => read,
        Err(error) => return Some(Err(error)),
    };
    let errors = read.as_ref().err().cloned();
    match after_answer(
        read,
        &message,
        attempts,
        crate::flow::retry::Retry::times(last - 1),
    ) {
        AfterAnswer::Done(outcome) => Some(Ok(outcome)),
        AfterAnswer::GiveUp { errors, attempts } => {
            Some(Err(ElicitError::Invalid { errors, attempts }))
        }
        AfterAnswer::AskAgain(next) => {
            note!(
                "answer refused: asked again on a new page",
                attempt = attempts
            );
            let id = super::state::page_of_attempt(&call_key, key, attempts + 1);
            if let Err(error) = open_page::<T>(pages, id, user, message, errors.as_ref()).await {
                return Some(Err(error));
            }
            let url = super::pages::url_of(pages, id);
            lock(call).require_page(id, &url, next, user).err().map(Err)
        }
    }
}

/// Opens the page `id` of `T` for `user`, showing `errors` if it asks
/// again; detached: a retry of the call reads it by its id.
#[cfg(feature = "sensitive")]
async fn open_page<T: crate::sensitive::SensitiveForm>(
    pages: &crate::sensitive::Pages,
    id: crate::sensitive::PageId,
    user: Option<&crate::protocol::agent::VerifiedUser>,
    message: String,
    errors: Option<&crate::ContentError>,
) -> Result<(), crate::flow::ElicitError> {
    use crate::flow::ElicitError;
    let prepared = pages
        .prepare::<T>(id, user, message)
        .map_err(ElicitError::PageNotOpened)?;
    let prepared = match errors {
        Some(errors) => prepared.errors(errors),
        None => prepared,
    };
    let page = pages
        .insert(prepared)
        .await
        .map_err(ElicitError::PageNotOpened)?;
    page.detach();
    Ok(())
}
