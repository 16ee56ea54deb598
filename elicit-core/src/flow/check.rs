//! A call's own rule on the typed answer (`.check(..)`): what it is
//! ([`Check`], any `async` closure or `async fn` of `&Form`), how the flows
//! hold it ([`Checker`]), and the one step that runs it ([`checked`]).

use std::error::Error as StdError;
use std::future::Future;
use std::sync::Arc;

use super::ElicitError;
use super::call::BoxFuture;
use crate::ContentError;
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
            checked(form, verdict)
        })
    })
}

/// What the call's check decided on an accepted form (it ran after the
/// field rules and the form's own `check`): the answer, or its errors to
/// ask again with; [`ElicitError::Check`] when the check could not decide.
fn checked<T>(form: T, verdict: Verdict<BoxError>) -> Checked<T> {
    match verdict {
        Ok(Ok(())) => Ok(Ok(Outcome::Accepted(form))),
        Ok(Err(errors)) => {
            refused!(CheckRefused, errors = errors.errors().len());
            Ok(Err(errors))
        }
        Err(error) => Err(ElicitError::Check(error)),
    }
}
