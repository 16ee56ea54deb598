//! What a [`Store`](super::Store) keeps of one page or OAuth flow: its
//! [`Record`], the [`Binding`] of its browser, its [`State`], and its
//! [`End`]. A page and a flow are records of one shape and one lifecycle:
//! `Open`, then (a flow's callback) `Taken`, then ended once
//! (`Answered`, `Expired` or `Cancelled`).

use std::collections::BTreeMap;
use std::fmt;
use std::time::SystemTime;

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use zeroize::Zeroizing;

use crate::sensitive::form::{SensitiveForm, Submission};
use crate::sensitive::token::Token;
use crate::{Content, ElicitationSchema};

/// One page or OAuth flow as its store keeps it: what it asks (not a
/// store's concern), the user it is for, its expiry, the browser it is
/// bound to and its [`State`]. A store changes only `binding` and `state`.
///
/// A flow's record holds secrets (the PKCE verifier, the client secret,
/// the `state` token): a store that keeps records outside this process
/// writes [`to_bytes`](Self::to_bytes) sealed (as
/// `elicit_core::redis::RedisStore` does), never in clear. `Debug` shows
/// no secret.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Record {
    /// What is asked: a page's form, or an OAuth flow.
    pub(crate) kind: Kind,
    /// The verified user the record was opened for (hosted pages), whom
    /// the user verifier must find in every request. `None` on loopback.
    pub user: Option<String>,
    /// When it stops accepting an answer.
    pub expires_at: SystemTime,
    /// The browser it is bound to, once it has been visited.
    pub binding: Option<Binding>,
    /// Where it is in its lifecycle.
    pub state: State,
}

/// What a record asks.
#[derive(Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Kind {
    /// A sensitive form's page.
    Page(PageAsk),
    /// An OAuth flow's start page and callback.
    #[cfg(feature = "oauth")]
    #[serde(rename = "oauth")]
    OAuth(crate::sensitive::oauth::flow::Flow),
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Page(page) => f.debug_tuple("Page").field(page).finish(),
            #[cfg(feature = "oauth")]
            Self::OAuth(_) => f.write_str("OAuth(..)"),
        }
    }
}

/// A sensitive form's page: what it shows and what the server checks.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct PageAsk {
    /// The agent's message, at the top of the page.
    pub(crate) message: String,
    /// The form's schema.
    pub(crate) schema: ElicitationSchema,
    /// The wire names of the secret properties.
    pub(crate) secrets: Vec<String>,
    /// Why the answer to the page before this one was refused (a page that
    /// asks again): each error as its field's wire name and its message.
    /// Never a value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) errors: Vec<(String, String)>,
}

impl Record {
    /// An open page of the sensitive form `T` with the agent's `message`,
    /// until `expires_at`: what [`Pages::open`](crate::sensitive::Pages::open)
    /// stores (for a store's own tests).
    pub fn page<T: SensitiveForm>(message: impl Into<String>, expires_at: SystemTime) -> Self {
        Self::open(
            Kind::Page(PageAsk {
                message: message.into(),
                schema: T::schema(),
                secrets: T::SECRET_FIELDS.iter().map(|&s| s.to_owned()).collect(),
                errors: Vec::new(),
            }),
            None,
            expires_at,
        )
    }

    /// This record, for the verified user `user`.
    #[must_use]
    pub fn for_user(mut self, user: impl Into<String>) -> Self {
        self.user = Some(user.into());
        self
    }

    /// An open, unbound record.
    pub(crate) fn open(kind: Kind, user: Option<String>, expires_at: SystemTime) -> Self {
        Self {
            kind,
            user,
            expires_at,
            binding: None,
            state: State::Open,
        }
    }

    /// Whether it is a sensitive form's page (else an OAuth flow).
    pub fn is_page(&self) -> bool {
        self.asked_page().is_some()
    }

    /// The page it asks, if it is a page.
    pub(crate) fn asked_page(&self) -> Option<&PageAsk> {
        #[cfg_attr(not(feature = "oauth"), allow(irrefutable_let_patterns))]
        let Kind::Page(page) = &self.kind else {
            return None;
        };
        Some(page)
    }

    /// [`asked_page`](Self::asked_page), to change.
    #[cfg_attr(not(any(feature = "acp-sdk", feature = "rmcp")), allow(dead_code))]
    pub(crate) fn asked_page_mut(&mut self) -> Option<&mut PageAsk> {
        #[cfg_attr(not(feature = "oauth"), allow(irrefutable_let_patterns))]
        let Kind::Page(page) = &mut self.kind else {
            return None;
        };
        Some(page)
    }

    /// The record as bytes (JSON), secrets included (in memory zeroed when
    /// dropped), for a store to seal and keep.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut buffer = Zeroizing::new(Vec::new());
        RecordDef::serialize(self, &mut serde_json::Serializer::new(&mut *buffer))
            .expect("a record serializes");
        buffer
    }

    /// The record [`to_bytes`](Self::to_bytes) wrote, or `None`.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        RecordDef::deserialize(&mut serde_json::Deserializer::from_slice(bytes)).ok()
    }
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Record")]
struct RecordDef {
    kind: Kind,
    user: Option<String>,
    expires_at: SystemTime,
    binding: Option<Binding>,
    state: State,
}

/// The browser a record is bound to: its first visitor's cookie, and the
/// CSRF token a page's form posts back. Never printed.
#[derive(Clone, Copy, Serialize, Deserialize)]
pub struct Binding {
    pub(crate) cookie: Token,
    pub(crate) csrf: Token,
}

impl Binding {
    /// A fresh binding from the OS RNG.
    pub(crate) fn random() -> Result<Self, getrandom::Error> {
        Ok(Self {
            cookie: Token::random()?,
            csrf: Token::random()?,
        })
    }

    /// The binding as bytes (JSON), for a store to seal: whoever has it
    /// can finish the page or flow in their browser.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        Zeroizing::new(serde_json::to_vec(self).expect("a binding serializes"))
    }

    /// The binding [`to_bytes`](Self::to_bytes) wrote, or `None`.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }
}

impl fmt::Debug for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Binding(..)")
    }
}

/// Where a record is in its lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum State {
    /// Waiting for its answer.
    Open,
    /// Taken for its answer, which is on its way (an OAuth callback
    /// exchanging its code): its expiry no longer ends it.
    Taken,
    /// Answered: a later visit sees "already answered".
    Answered,
    /// Not answered in time.
    Expired,
    /// Given up by the agent (declined, cancelled, or its handle dropped).
    Cancelled,
}

impl State {
    /// The state's name in a store (`open`, `taken`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Taken => "taken",
            Self::Answered => "answered",
            Self::Expired => "expired",
            Self::Cancelled => "cancelled",
        }
    }

    /// The state named `name` ([`as_str`](Self::as_str)), or `None`.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "open" => Self::Open,
            "taken" => Self::Taken,
            "answered" => Self::Answered,
            "expired" => Self::Expired,
            "cancelled" => Self::Cancelled,
            _ => return None,
        })
    }

    /// Whether it still waits for its end (`Open` or `Taken`).
    pub fn is_waiting(self) -> bool {
        matches!(self, Self::Open | Self::Taken)
    }
}

/// How a record ended, as delivered to the agent waiting for it. Its
/// answer holds secrets: [`to_bytes`](Self::to_bytes) for a store to seal.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum End {
    /// Answered: the page's checked submission, or the OAuth callback's
    /// outcome.
    Answered(Answer),
    /// Not answered in time.
    Expired,
    /// Given up by the agent.
    Cancelled,
}

/// What answered a record.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Answer {
    /// A page's checked submission.
    Page(Submission),
    /// An OAuth flow's callback: the token, or why there is none.
    #[cfg(feature = "oauth")]
    OAuth(crate::sensitive::oauth::end::OAuthOutcome),
}

impl End {
    /// The state a record ends in.
    pub fn state(&self) -> State {
        match self {
            Self::Answered(_) => State::Answered,
            Self::Expired => State::Expired,
            Self::Cancelled => State::Cancelled,
        }
    }

    /// The end as bytes (JSON), its answer's secrets included (in memory
    /// zeroed when dropped), for a store to seal and keep.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut buffer = Zeroizing::new(Vec::new());
        EndDef::serialize(self, &mut serde_json::Serializer::new(&mut *buffer))
            .expect("an end serializes");
        buffer
    }

    /// The end [`to_bytes`](Self::to_bytes) wrote, or `None`.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        EndDef::deserialize(&mut serde_json::Deserializer::from_slice(bytes)).ok()
    }
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "End", tag = "end", rename_all = "snake_case")]
enum EndDef {
    Answered(#[serde(with = "AnswerDef")] Answer),
    Expired,
    Cancelled,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Answer", tag = "answer", rename_all = "snake_case")]
enum AnswerDef {
    Page(#[serde(with = "SubmissionDef")] Submission),
    #[cfg(feature = "oauth")]
    #[serde(rename = "oauth")]
    OAuth(
        #[serde(with = "crate::sensitive::oauth::end::outcome_serde")]
        crate::sensitive::oauth::end::OAuthOutcome,
    ),
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Submission")]
struct SubmissionDef {
    values: Content,
    #[serde(with = "exposed_map")]
    secrets: BTreeMap<String, SecretString>,
}

/// Secrets by name, written in clear.
mod exposed_map {
    use super::{BTreeMap, Deserialize, Deserializer, ExposeSecret, SecretString, Serializer};

    pub(super) fn serialize<S: Serializer>(
        secrets: &BTreeMap<String, SecretString>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(secrets.iter().map(|(k, v)| (k, v.expose_secret())))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<String, SecretString>, D::Error> {
        let map = BTreeMap::<String, String>::deserialize(d)?;
        Ok(map
            .into_iter()
            .map(|(k, v)| (k, SecretString::from(v)))
            .collect())
    }
}
