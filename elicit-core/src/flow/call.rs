//! The awaitable calls every transport returns: one definition each.

use std::fmt;
use std::future::IntoFuture;
use std::marker::PhantomData;

use crate::Elicit;
use crate::flow::retry::Retry;
use crate::protocol::ElicitationScope;
use crate::protocol::agent::Outcome;

#[cfg(feature = "sensitive")]
use super::check::PageAsked;
use super::check::{BoxFuture, Check, FormAsked, checker};
use super::{Carrier, ElicitError, Flows};

/// A transport's handle the calls run on: its connection's flows. The ACP
/// SDK's `Elicitor` (borrowed), rmcp's `Elicitor` (a clone).
pub(crate) trait Asker: Send + Sync {
    /// The transport.
    type Carrier: Carrier;
    /// The flows of this handle's connection.
    fn flows(&self) -> Flows<'_, Self::Carrier>;
}

impl<A: Asker> Asker for &A {
    type Carrier = A::Carrier;
    fn flows(&self) -> Flows<'_, Self::Carrier> {
        (**self).flows()
    }
}

/// `elicit_form::<T>(..)` on `asker`: the form flow, once awaited.
pub(crate) fn form_call<'a, T: Elicit + 'a>(
    asker: impl Asker + 'a,
    scope: ElicitationScope,
    message: String,
) -> FormCall<'a, T> {
    FormCall::new(message, move |ask| {
        Box::pin(async move { asker.flows().form::<T>(scope, ask).await })
    })
}

/// `elicit_secret::<T>(..)` on `asker`: the secret page's flow on `pages`,
/// once awaited.
#[cfg(feature = "sensitive")]
pub(crate) fn secret_call<'a, T: crate::sensitive::SensitiveForm + Send + 'a>(
    asker: impl Asker + 'a,
    scope: ElicitationScope,
    message: String,
    pages: &'a crate::sensitive::Pages,
) -> SecretCall<'a, T> {
    PageCall::new(move |ask| {
        Box::pin(async move { asker.flows().secret(scope, message, pages, ask).await })
    })
}

/// `elicit_oauth(..)` on `asker`: the OAuth flow at `provider` through a
/// start page on `pages`, once awaited.
#[cfg(feature = "oauth")]
pub(crate) fn oauth_call<'a>(
    asker: impl Asker + 'a,
    scope: ElicitationScope,
    message: String,
    pages: &'a crate::sensitive::Pages,
    provider: &'a crate::sensitive::oauth::Provider,
) -> OAuthCall<'a> {
    PageCall::new(move |ask| {
        Box::pin(async move {
            asker
                .flows()
                .oauth(scope, message, pages, provider, ask.user)
                .await
        })
    })
}

/// What a call runs once it is awaited, given its options.
type Run<'a, A, O> = Box<dyn FnOnce(A) -> BoxFuture<'a, O> + Send + 'a>;

/// A form elicitation, sent when awaited: `elicit_form::<T>(..)` on the ACP
/// SDK's `Elicitor`, rmcp's `Elicitor` and rmcp's peer.
///
/// Awaiting it checks form mode and the form, sends it, and reads the
/// answer with `T::from_content` (every rule checked again, including what
/// a client cannot check, such as an MCP form's dropped `pattern`).
///
/// With [`retry(n)`](Self::retry), an accept whose content breaks the
/// form's rules is asked again, up to `n` more times, with the message
/// [`ContentError::retry_message`](crate::ContentError::retry_message) builds (the original message, then the errors by
/// field). A decline or a cancel is the user's answer and is returned at
/// once.
///
/// With [`check`](Self::check), a rule of your own runs on each valid
/// answer (the username is free, the slot still open): what it refuses is
/// asked again the same way, within the same `retry(n)`.
///
/// It is a builder awaited through [`IntoFuture`] rather than a second
/// method (`elicit_form_with_retry`), so the common call stays
/// `elicitor.elicit_form::<T>(..).await` and options read in place. The
/// price is one boxed future per call.
#[must_use = "nothing is sent until the elicitation is awaited"]
pub struct FormCall<'a, T> {
    ask: FormAsked<'a, T>,
    run: Run<'a, FormAsked<'a, T>, Result<Outcome<T>, ElicitError>>,
    form: PhantomData<fn() -> T>,
}

impl<'a, T> FormCall<'a, T> {
    /// A call that runs `run(ask)` when awaited.
    pub(crate) fn new(
        message: String,
        run: impl FnOnce(FormAsked<'a, T>) -> BoxFuture<'a, Result<Outcome<T>, ElicitError>> + Send + 'a,
    ) -> Self {
        Self {
            ask: FormAsked::new(message),
            run: Box::new(run),
            form: PhantomData,
        }
    }

    /// Asks again up to `again` more times (so at most `again + 1`
    /// requests) when the accepted content breaks the form's rules; the
    /// default is never. After the last attempt the error is the
    /// [`ElicitError::Invalid`], with the errors and the attempt count.
    pub fn retry(mut self, again: u32) -> Self {
        self.ask.retry = Retry::times(again);
        self
    }

    /// Runs `check`, a rule of your own, on each answer that passed the
    /// form's rules: what only the agent can know (is this name free, does
    /// this branch exist, is this slot still open). `check` gets the typed
    /// form and returns
    ///
    /// - `Ok(Ok(()))`: accepted, the call returns the answer;
    /// - `Ok(Err(errors))`: refused, by field
    ///   ([`FieldError::rule`](crate::FieldError::rule)): asked again with
    ///   the errors in the message, like a broken field rule, within the
    ///   same [`retry(n)`](Self::retry) (after the last attempt,
    ///   [`ElicitError::Invalid`] with these errors);
    /// - `Err(e)`: it could not decide (a database down): the call ends
    ///   with [`ElicitError::Check`], never asking again.
    ///
    /// Write it as an `async` closure (or pass an `async fn`) that borrows
    /// what it reads (`let taken = &taken;` before it): an `async` closure
    /// that owns an `Arc` is not a `Fn`.
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use elicit_core::{ContentError, Elicit, FieldError};
    /// use elicit_core::flow::ElicitError;
    /// use elicit_core::mcp::Elicitor;
    /// use elicit_core::protocol::agent::Outcome;
    ///
    /// #[derive(Elicit)]
    /// struct Signup {
    ///     /// Your username.
    ///     #[elicit(length(min = 3, max = 20))]
    ///     name: String,
    /// }
    ///
    /// async fn signup(
    ///     elicitor: &Elicitor<'_>,
    ///     taken: &HashSet<String>,
    /// ) -> Result<Outcome<Signup>, ElicitError> {
    ///     elicitor
    ///         .elicit_form::<Signup>("Pick a username")
    ///         .retry(2)
    ///         .check(async |form: &Signup| {
    ///             if taken.contains(&form.name) {
    ///                 return Ok(Err(FieldError::rule("name", "is already taken").into()));
    ///             }
    ///             Ok::<_, std::io::Error>(Ok(()))
    ///         })
    ///         .await
    /// }
    /// # let _ = signup;
    /// # let _: Option<ContentError> = None;
    /// ```
    pub fn check<C>(mut self, check: C) -> Self
    where
        T: Send + Sync + 'a,
        C: for<'f> Check<'f, T> + 'a,
    {
        self.ask.check = Some(checker(check));
        self
    }
}

impl<T> fmt::Debug for FormCall<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormCall")
            .field("form", &std::any::type_name::<T>())
            .field("message", &self.ask.message)
            .field("retry", &self.ask.retry)
            .field("check", &self.ask.check.is_some())
            .finish_non_exhaustive()
    }
}

impl<'a, T> IntoFuture for FormCall<'a, T> {
    type Output = Result<Outcome<T>, ElicitError>;
    type IntoFuture = BoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        (self.run)(self.ask)
    }
}

/// A flow through a page of the agent's own (feature `sensitive`), sent
/// when awaited: `elicit_secret::<T>(..)` (`O` is
/// [`SecretOutcome<T>`](crate::sensitive::SecretOutcome)) and
/// `elicit_oauth(..)` (`O` is
/// [`OAuthOutcome`](crate::sensitive::oauth::OAuthOutcome)) on the ACP
/// SDK's `Elicitor`, rmcp's `Elicitor` and rmcp's peer.
///
/// By default the page is bound to the first browser that opens it, which
/// suits loopback pages. Where the pages verify users
/// ([`Pages::hosted`](crate::sensitive::Pages::hosted)), say whom it is for
/// with [`for_user`](Self::for_user).
#[cfg(feature = "sensitive")]
#[must_use = "nothing is opened or sent until the call is awaited"]
pub struct PageCall<'a, O> {
    ask: PageAsked<'a, O>,
    run: Run<'a, PageAsked<'a, O>, Result<O, ElicitError>>,
}

#[cfg(feature = "sensitive")]
impl<'a, O> PageCall<'a, O> {
    /// A call that runs `run(ask)` when awaited.
    pub(crate) fn new(
        run: impl FnOnce(PageAsked<'a, O>) -> BoxFuture<'a, Result<O, ElicitError>> + Send + 'a,
    ) -> Self {
        Self {
            ask: PageAsked::new(),
            run: Box::new(run),
        }
    }

    /// For the verified user `user` (from your server's authentication):
    /// the page is served only to requests the pages' user verifier finds
    /// `user` in, the URL request is bound to `user`, and so is its
    /// completion. The protocol's rule: the user who completes the
    /// out-of-band interaction is the user who started it.
    pub fn for_user(mut self, user: &'a crate::protocol::agent::VerifiedUser) -> Self {
        self.ask.user = Some(user);
        self
    }
}

/// The options of a secret page: its re-ask, and a check of your own.
#[cfg(feature = "sensitive")]
impl<'a, T> PageCall<'a, crate::sensitive::SecretOutcome<T>> {
    /// Asks again, up to `again` more times (so at most `again + 1` pages),
    /// when the page's answer is refused: by the form's own rules (what
    /// the page cannot check, such as a `try_from` or a form's
    /// `#[elicit(check = path)]`) or by [`check`](Self::check). The default
    /// is never; after the last attempt the error is
    /// [`ElicitError::Invalid`], with the errors and the attempt count.
    ///
    /// Each attempt is a new page: the user finished the refused one in the
    /// browser, so that elicitation is completed, its answer dropped (no
    /// secret of it is kept), and a new page of the same form is opened,
    /// showing each error on its field and every secret input empty; its
    /// URL is asked with the message
    /// [`ContentError::retry_message`](crate::ContentError::retry_message)
    /// builds, as a form's re-ask is
    /// ([`FormCall::retry`](super::FormCall::retry)).
    pub fn retry(mut self, again: u32) -> Self {
        self.ask.retry = Retry::times(again);
        self
    }

    /// Runs `check`, a rule of your own, on the page's answer once it
    /// passed the form's rules (is this token one the service knows):
    /// `Ok(Ok(()))` accepts it, `Ok(Err(errors))` refuses it by field
    /// ([`FieldError::rule`](crate::FieldError::rule)), asked again on a
    /// new page showing the errors, within the same [`retry(n)`](Self::retry)
    /// (after the last attempt, [`ElicitError::Invalid`] with these
    /// errors); `Err(e)`, it could not decide, ends the call with
    /// [`ElicitError::Check`]. The shape and semantics of
    /// [`FormCall::check`](super::FormCall::check). A message of yours is
    /// shown on the page and sent in the next URL request: never put the
    /// secret in it.
    ///
    /// ```
    /// use elicit_core::{Elicit, FieldError};
    /// use elicit_core::flow::ElicitError;
    /// use elicit_core::mcp::Elicitor;
    /// use elicit_core::sensitive::{ExposeSecret, Pages, SecretOutcome, SecretString};
    ///
    /// /// Your deploy token.
    /// #[derive(Elicit)]
    /// #[elicit(sensitive)]
    /// struct DeployToken {
    ///     /// From the deploy service: Settings → Tokens.
    ///     #[secret]
    ///     #[elicit(length(min = 12))]
    ///     token: SecretString,
    /// }
    ///
    /// async fn deploy_token(
    ///     elicitor: &Elicitor<'_>,
    ///     pages: &Pages,
    /// ) -> Result<SecretOutcome<DeployToken>, ElicitError> {
    ///     elicitor
    ///         .elicit_secret::<DeployToken>("Paste a deploy token.", pages)
    ///         .retry(2)
    ///         .check(async |form: &DeployToken| {
    ///             if is_revoked(form.token.expose_secret()).await? {
    ///                 return Ok(Err(FieldError::rule("token", "was revoked").into()));
    ///             }
    ///             Ok::<_, std::io::Error>(Ok(()))
    ///         })
    ///         .await
    /// }
    ///
    /// /// Asks the deploy service (here: one revoked token).
    /// async fn is_revoked(token: &str) -> Result<bool, std::io::Error> {
    ///     Ok(token == "dt-revoked-0001")
    /// }
    /// # let _ = deploy_token;
    /// ```
    pub fn check<C>(mut self, check: C) -> Self
    where
        T: Send + Sync + 'a,
        C: for<'f> Check<'f, T> + 'a,
    {
        self.ask.check = Some(super::check::secret_checker(checker(check)));
        self
    }
}

#[cfg(feature = "sensitive")]
impl<O> fmt::Debug for PageCall<'_, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PageCall")
            .field("outcome", &std::any::type_name::<O>())
            .field("user", &self.ask.user)
            .field("retry", &self.ask.retry)
            .field("check", &self.ask.check.is_some())
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "sensitive")]
impl<'a, O> IntoFuture for PageCall<'a, O> {
    type Output = Result<O, ElicitError>;
    type IntoFuture = BoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        (self.run)(self.ask)
    }
}

/// A sensitive form on a page of the agent's, sent when awaited:
/// `elicit_secret::<T>(..)` (see [`PageCall`]).
#[cfg(feature = "sensitive")]
pub(crate) type SecretCall<'a, T> = PageCall<'a, crate::sensitive::SecretOutcome<T>>;

/// An OAuth flow through the agent's start page, sent when awaited:
/// `elicit_oauth(..)` (see [`PageCall`]).
#[cfg(feature = "oauth")]
pub(crate) type OAuthCall<'a> = PageCall<'a, crate::sensitive::oauth::OAuthOutcome>;
