//! The form trait: [`Elicit`], and the [`Content`] it is read from.

use std::borrow::Cow;

use crate::json::Content;
use crate::{ContentError, ElicitationSchema};

/// A form that can be elicited: its schema, and conversions from and to the
/// content a client submits.
///
/// Derive it with `#[derive(Elicit)]`; implementing it by hand is possible but
/// then the schema and the parsing must be kept in agreement by hand.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a form that can be sent in form mode",
    label = "not an `Elicit` form",
    note = "a form is a struct with named fields and `#[derive(Elicit)]`",
    note = "a sensitive form (`#[elicit(sensitive)]`) holds secrets, so it is never sent in form mode: ask for it on its own page, through URL mode, with `elicitor.elicit_secret::<T>(scope, message, &pages)` (ACP SDK) or `r.secret::<T>(key, message, &pages)` (rmcp, in `mcp::ask`); see `elicit_core::sensitive`"
)]
pub trait Elicit: Sized {
    /// The form's `requestedSchema`, properties in declaration order.
    fn schema() -> ElicitationSchema;

    /// Parses and validates accepted content. Every rule of the schema is
    /// checked again here (agents must not trust the client's validation),
    /// plus what only the Rust type knows (e.g. that `1e39` does not fit an
    /// `f32`). Collects every failing field.
    fn from_content(content: &Content) -> Result<Self, ContentError>;

    /// [`from_content`](Self::from_content) for content the caller owns,
    /// such as the `content` of a response it received. Same checks, same
    /// errors. A derived form moves the strings into the struct instead of
    /// copying them; the default reads the content borrowed.
    ///
    /// ```
    /// use elicit_core::{Content, Elicit};
    ///
    /// #[derive(Elicit, Debug, PartialEq)]
    /// struct Rename {
    ///     #[elicit(length(min = 1))]
    ///     name: String,
    /// }
    ///
    /// let content: Content = serde_json::from_str(r#"{"name": "Ada"}"#).unwrap();
    /// assert_eq!(Rename::from_content_owned(content).unwrap(), Rename { name: "Ada".into() });
    /// ```
    fn from_content_owned(content: Content) -> Result<Self, ContentError> {
        Self::from_content(&content)
    }

    /// The content a client would submit for this value.
    fn to_content(&self) -> Content;

    /// The wire names of the fields only the user may fill
    /// (`#[elicit(user_only)]`): when the form is a tool's arguments
    /// (`Rounds::arguments`, feature `rmcp`), the model's value for them is
    /// ignored and the user is always asked; a tool's input schema
    /// (`mcp::input_schema`) leaves them out. None unless a field says so.
    ///
    /// ```
    /// use elicit_core::Elicit;
    ///
    /// #[derive(Elicit)]
    /// struct Transfer {
    ///     amount: u32,
    ///     /// Send it now?
    ///     #[elicit(user_only)]
    ///     confirm: bool,
    /// }
    ///
    /// assert_eq!(Transfer::user_only_fields(), ["confirm"]);
    /// ```
    fn user_only_fields() -> Vec<&'static str> {
        Vec::new()
    }

    /// The form's `requestedSchema` as JSON text: what
    /// `serde_json::to_string(&Self::schema())` gives.
    ///
    /// A derived form that is not generic builds and serializes its schema
    /// once per process and hands out that text ever after, so sending the
    /// form costs a copy, not a build and a serialization. (A generic form
    /// builds it on each call.)
    ///
    /// ```
    /// use elicit_core::Elicit;
    ///
    /// #[derive(Elicit)]
    /// struct Rename {
    ///     #[elicit(length(min = 1))]
    ///     name: String,
    /// }
    ///
    /// assert_eq!(
    ///     Rename::schema_json(),
    ///     r#"{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"]}"#
    /// );
    /// assert_eq!(Rename::schema_json(), serde_json::to_string(&Rename::schema()).unwrap());
    /// ```
    fn schema_json() -> Cow<'static, str> {
        Cow::Owned(crate::schema::to_json(&Self::cached_schema()))
    }

    /// The form's `requestedSchema`, built once where the type can keep it:
    /// what an agent sends, validates and checks answers against.
    ///
    /// A derived form that is not generic builds its schema on first use and
    /// lends it ever after; otherwise (a generic form, a hand-written impl)
    /// this is [`schema`](Self::schema), built now.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use elicit_core::Elicit;
    ///
    /// #[derive(Elicit)]
    /// struct Rename {
    ///     name: String,
    /// }
    ///
    /// assert!(matches!(Rename::cached_schema(), Cow::Borrowed(_)));
    /// assert_eq!(*Rename::cached_schema(), Rename::schema());
    /// ```
    fn cached_schema() -> Cow<'static, ElicitationSchema> {
        Cow::Owned(Self::schema())
    }
}
