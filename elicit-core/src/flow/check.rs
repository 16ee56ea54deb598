//! What a call hands its flow: its options ([`FormAsked`], a page's
//! `PageAsked`) and its own rule on the typed answer (`.check(..)`): what
//! the rule is ([`Check`], any `async` closure or `async fn` of `&Form`),
//! how the flows hold it ([`Checker`]), and the one step that runs it
//! ([`checked`]).

use std::error::Error as StdError;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::ElicitError;
use crate::ContentError;
use crate::flow::retry::Retry;
use crate::protocol::agent::Outcome;

/// What a check's own failure becomes: [`ElicitError::Check`]'s error.
type BoxError = Box<dyn StdError + Send + Sync>;

/// What a check decides: `Ok(Ok(()))` accepts, `Ok(Err(errors))` asks
/// again with `errors` on their fields, `Err(error)` could not decide.
type Verdict<E> = Result<Result<(), ContentError>, E>;

/// A rule a call runs on the typed answer, given by
/// [`FormCall::check`](super::FormCall::check) and its twins: an `async`
/// closure, an `async fn` or a closure returning a future, of `&Form`,
/// whose future is `Send`.
///
/// Implemented for every `Fn(&'f T) -> impl Future<Output =
/// Result<Result<(), ContentError>, E>> + Send`; never by hand.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "this is not a check of a `{T}` answer",
    label = "not `async |form: &{T}| -> Result<Result<(), ContentError>, E>`",
    note = "a check is an `async` closure (or an `async fn`) taking `&{T}` and returning `Ok(Ok(()))` to accept, `Ok(Err(errors))` to ask again with the errors (`FieldError::rule(field, message).into()`), or `Err(e)` when it cannot decide; its future must be `Send`",
    note = "an `async` closure that owns what it captures (an `Arc`, a value moved in) is not `Fn`: capture a reference instead (`let taken = &*taken;` before the closure)"
)]
pub trait Check<'f, T: 'f>: Send + Sync {
    /// Why the check could not decide.
    type Error: Into<BoxError>;
    /// The check's future.
    type Future: Future<Output = Verdict<Self::Error>> + Send;
    /// Checks `form`.
    fn check(&self, form: &'f T) -> Self::Future;
}

impl<'f, T: 'f, F, Fut, E> Check<'f, T> for F
where
    F: Fn(&'f T) -> Fut + Send + Sync,
    // No `Fut: 'f`: under `for<'f>` it would ask what the check captures
    // to be `'static`.
    Fut: Future<Output = Verdict<E>> + Send,
    E: Into<BoxError>,
{
    type Error = E;
    type Future = Fut;
    fn check(&self, form: &'f T) -> Fut {
        self(form)
    }
}

/// A check as a call holds it: given the answer as read, the answer as
/// checked ([`checked`]). The answer goes in whole and comes out whole, so
/// a flow holds no `T` across the check's `.await` (only this boxed,
/// `Send` future): a call without a check asks nothing more of `T`.
pub(crate) type Checker<'a, T> =
    Arc<dyn Fn(Read<T>) -> BoxFuture<'a, Checked<T>> + Send + Sync + 'a>;

/// An answer as read: the field rules and the form's own `check` applied.
type Read<T> = Result<Outcome<T>, ContentError>;

/// An answer as checked: read, or refused by the call's check (to ask
/// again); [`ElicitError::Check`] when the check could not decide.
pub(crate) type Checked<T> = Result<Read<T>, ElicitError>;

/// `check` as a call holds it.
pub(crate) fn checker<'a, T, C>(check: C) -> Checker<'a, T>
where
    T: Send + Sync + 'a,
    C: for<'f> Check<'f, T> + 'a,
{
    let check = Arc::new(check);
    Arc::new(move |read: Read<T>| {
        let check = Arc::clone(&check);
        Box::pin(async move {
            let Ok(Outcome::Accepted(form)) = read else {
                return Ok(read);
            };
            let verdict = check.check(&form).await.map_err(Into::into);
            Ok(checked(form, verdict)?.map(Outcome::Accepted))
        })
    })
}

/// A check as a secret page's call holds it: given how the page ended,
/// the outcome as checked (an answer refused: its errors, to ask again on
/// a new page; the refused value dropped). What the check does not see
/// (a decline, a cancel, an expiry) comes out as it went in.
#[cfg(feature = "sensitive")]
pub(crate) type SecretChecker<'a, T> = PageCheck<'a, crate::sensitive::SecretOutcome<T>>;

/// `checker`, a form's check, as a secret page's call holds it: the same
/// check on the page's typed answer.
#[cfg(feature = "sensitive")]
pub(crate) fn secret_checker<'a, T: Send + 'a>(checker: Checker<'a, T>) -> SecretChecker<'a, T> {
    use crate::sensitive::SecretOutcome;
    Arc::new(move |outcome: SecretOutcome<T>| {
        let checker = Arc::clone(&checker);
        Box::pin(async move {
            let SecretOutcome::Answered(form) = outcome else {
                return Ok(Ok(outcome));
            };
            Ok(match checker(Ok(Outcome::Accepted(form))).await? {
                Ok(Outcome::Accepted(form)) => Ok(SecretOutcome::Answered(form)),
                // A checker gives back what it does not check as it came:
                // an accepted form in, an accepted form or errors out.
                Ok(_) => Ok(SecretOutcome::Cancelled),
                Err(errors) => Err(errors),
            })
        })
    })
}

/// What the call's check decided on a form (it ran after the field rules
/// and the form's own `check`): the form, or its errors to ask again with
/// (the form dropped); [`ElicitError::Check`] when the check could not
/// decide.
fn checked<T>(form: T, verdict: Verdict<BoxError>) -> Result<Result<T, ContentError>, ElicitError> {
    match verdict {
        Ok(Ok(())) => Ok(Ok(form)),
        Ok(Err(errors)) => {
            refused!(
                CheckRefused,
                errors = errors.errors().len(),
                fields = errors.fields().collect::<Vec<_>>().join(",")
            );
            Ok(Err(errors))
        }
        Err(error) => Err(ElicitError::Check(error)),
    }
}

/// A boxed, `Send` future: what an awaited call becomes.
pub(crate) type BoxFuture<'a, O> = Pin<Box<dyn Future<Output = O> + Send + 'a>>;

/// What a form call asks, with its options: the flow's input.
pub(crate) struct FormAsked<'a, T> {
    /// The message of the first request.
    pub(crate) message: String,
    /// How many times an invalid answer is asked again.
    pub(crate) retry: Retry,
    /// The call's own rule on a valid answer.
    pub(crate) check: Option<Checker<'a, T>>,
    /// Some of the form's fields only, the rest kept (a tool's arguments
    /// completed by the user); the whole form when `None`.
    pub(crate) partial: Option<super::partial::Partial>,
}

impl<T> FormAsked<'_, T> {
    /// `message`, asked once, unchecked.
    pub(crate) fn new(message: String) -> Self {
        Self {
            message,
            retry: Retry::NEVER,
            check: None,
            partial: None,
        }
    }
}

/// What a page's call asks, with its options: the flow's input.
#[cfg(feature = "sensitive")]
pub(crate) struct PageAsked<'a, O> {
    /// The verified user the page is for.
    pub(crate) user: Option<&'a crate::protocol::agent::VerifiedUser>,
    /// How many times a refused answer is asked again, on a new page (a
    /// secret page's; an OAuth flow is never asked again).
    pub(crate) retry: Retry,
    /// The call's own rule on the page's answer (a secret page's).
    pub(crate) check: Option<PageCheck<'a, O>>,
}

/// A call's check on what a page gave: the answer as checked, or its
/// errors.
#[cfg(feature = "sensitive")]
pub(crate) type PageCheck<'a, O> = std::sync::Arc<
    dyn Fn(O) -> BoxFuture<'a, Result<Result<O, crate::ContentError>, ElicitError>>
        + Send
        + Sync
        + 'a,
>;

#[cfg(feature = "sensitive")]
impl<O> PageAsked<'_, O> {
    /// For anyone (no verified user), asked once, unchecked.
    pub(crate) fn new() -> Self {
        Self {
            user: None,
            retry: Retry::NEVER,
            check: None,
        }
    }
}
