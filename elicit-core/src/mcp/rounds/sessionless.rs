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

/// The sensitive form `T` under `key` in a call without a session (see
/// [`Rounds::secret`](super::Rounds::secret)): the page named by the call
/// and `key` is opened (or found again), and listed for `-32042`, until it
/// has ended; then its answer is read (and checked by `check`) and the page
/// forgotten. A refused answer is [`ElicitError::Invalid`](crate::flow::ElicitError::Invalid)
/// at once: without a session there is no state to count attempts in.
/// The lock is never held across the store's calls.
#[cfg(feature = "sensitive")]
pub(super) async fn secret<T: crate::sensitive::SensitiveForm + Send>(
    call: &std::sync::Mutex<Sessionless>,
    key: &str,
    message: String,
    pages: &crate::sensitive::Pages,
    user: Option<&crate::protocol::agent::VerifiedUser>,
    check: Option<&crate::flow::SecretChecker<'_, T>>,
) -> Option<Result<crate::sensitive::SecretOutcome<T>, crate::flow::ElicitError>> {
    use super::pages::PageRead;
    use crate::flow::ElicitError;
    use crate::sensitive::OpenError;

    use crate::sync::lock;

    let refused = lock(call).connection.require_sensitive();
    if let Err(error) = refused {
        return Some(Err(ElicitError::NotSent(error)));
    }
    // The page's id is the call's (every retry finds it): only a user the
    // pages verify may open it, never the first browser to come.
    if !pages.verifies_users() {
        return Some(Err(ElicitError::PageNotOpened(OpenError::NoVerifier)));
    }
    let id = super::state::page_of_call(&lock(call).call, key);
    let url = match super::pages::read(pages, id).await {
        PageRead::Unknown | PageRead::Failed => {
            let prepared = match pages.prepare::<T>(id, user, message.clone()) {
                Ok(prepared) => prepared,
                Err(error) => return Some(Err(ElicitError::PageNotOpened(error))),
            };
            match pages.insert(prepared).await {
                // Detached: the retry reads it by id.
                Ok(page) => page.detach(),
                Err(error) => return Some(Err(ElicitError::PageNotOpened(error))),
            };
            super::pages::url_of(pages, id)
        }
        PageRead::Open => super::pages::url_of(pages, id),
        read @ PageRead::Ended(_) => {
            let answer = read.answer::<T>()?;
            let read = crate::flow::page::checked_answer(answer, check).await;
            super::pages::forget(pages, id).await;
            return Some(match read {
                Ok(Ok(outcome)) => Ok(outcome),
                Ok(Err(errors)) => Err(ElicitError::Invalid {
                    errors,
                    attempts: 1,
                }),
                Err(error) => Err(error),
            });
        }
    };
    lock(call)
        .require_page(id, &url, message, user)
        .err()
        .map(Err)
}
