//! A tool's own arguments as the form: what the model gave is read as the
//! form; what it left out or gave wrong, and what only the user may fill,
//! is asked of the user, only that; the answer merged with the model's
//! valid values is checked whole, and the tool runs on the typed value.

use std::fmt;
use std::future::IntoFuture;

use ::rmcp::model::{CallToolResult, ContentBlock};

use super::handle::{FormAsk, Rounds};
use crate::flow::partial::{Given, Partial};
use crate::flow::{Check, ElicitError, FormAsked};
use crate::protocol::agent::Outcome;
use crate::{ContentError, Elicit};

/// The tool's arguments read as the form `T`, completed by the user where
/// the model left gaps, sent when awaited: [`Rounds::arguments`].
///
/// Awaited, it gives `Some(Ok(value))` once every field is given and
/// checked, `Some(Err(result))` when the user would not complete them (the
/// tool result to return, which the model reads: "the user declined to
/// give `env`"), or `None` once the form is asked in a round that ends
/// this call.
#[must_use = "nothing is read or asked until the arguments are awaited"]
pub struct ArgumentsAsk<'r, T> {
    ask: FormAsk<'r, T, Result<T, CallToolResult>>,
}

impl<T> fmt::Debug for ArgumentsAsk<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArgumentsAsk")
            .field("ask", &self.ask)
            .finish()
    }
}

impl<'r, T: Send + Sync + 'r> ArgumentsAsk<'r, T> {
    /// Asks again, up to `again` more times, when the user's answer (merged
    /// with the model's values) breaks the form's rules or the check, with
    /// the errors in the message: [`FormAsk::retry`].
    pub fn retry(self, again: u32) -> Self {
        Self {
            ask: self.ask.retry(again),
        }
    }

    /// Runs `check`, a rule of your own, on the whole value: on the model's
    /// arguments when they are complete (what it refuses is then asked of
    /// the user), and on each merged answer: [`FormAsk::check`].
    pub fn check<C>(self, check: C) -> Self
    where
        C: for<'f> Check<'f, T> + 'r,
    {
        Self {
            ask: self.ask.check(check),
        }
    }
}

impl<'r, T: 'r> IntoFuture for ArgumentsAsk<'r, T> {
    type Output = Option<Result<T, CallToolResult>>;
    type IntoFuture = crate::flow::BoxFuture<'r, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        let asked = self.ask.into_future();
        Box::pin(async move {
            Some(match asked.await? {
                Ok(given) => given,
                // The run turns every error into the tool's result.
                Err(error) => Err(ended(not_asked("the arguments", &error))),
            })
        })
    }
}

impl Rounds {
    /// The tool's arguments read as the form `T` (a derived form: the
    /// struct the tool's input schema describes,
    /// [`input_schema`](super::super::input_schema)), under `key`.
    ///
    /// - Every field present and valid, and none `#[elicit(user_only)]`:
    ///   no question; the value, after the [`check`](ArgumentsAsk::check).
    /// - Otherwise the user is asked a form of **only** the fields the model
    ///   left out or gave wrong (each refused value in the message with its
    ///   error, after `message`) and the `user_only` ones (whatever the
    ///   model gave for them is ignored); the model's valid values are
    ///   kept. The answer, merged with them (the user's answer over the
    ///   model's), is checked whole: the form's rules and its own `check`,
    ///   then the call's; a refusal of a value the model gave asks that
    ///   field too.
    /// - Decline, cancel, or answers still refused after the
    ///   [`retry`](ArgumentsAsk::retry): `Err` with the tool result to
    ///   return ("the user declined to give `env`"), never a parse error.
    ///
    /// The same on every regime: in the call on 2025-11-25, in rounds on
    /// 2026-07-28 (the arguments are bound to the state: the client sends
    /// the same ones each round), in a task.
    pub fn arguments<'r, T: Elicit + Send + Sync + 'r>(
        &'r self,
        key: &str,
        message: impl Into<String>,
    ) -> ArgumentsAsk<'r, T> {
        let ask = FormAsk::new(key, message.into(), move |key, ask| {
            Box::pin(async move { Some(Ok(self.arguments_asked(&key, ask).await?)) })
        });
        ArgumentsAsk { ask }
    }

    /// [`arguments`](Self::arguments), once awaited: the value, the tool
    /// result that ends the call, or `None` once asked.
    async fn arguments_asked<T: Elicit + Send>(
        &self,
        key: &str,
        ask: FormAsked<'_, T>,
    ) -> Option<Result<T, CallToolResult>> {
        let content = self.call.arguments.as_ref();
        let (errors, partial) = match Given::<T>::read(content) {
            Given::Gaps { errors, partial } => (errors, *partial),
            Given::Complete(value) => {
                let Some(check) = &ask.check else {
                    return Some(Ok(value));
                };
                match check(Ok(Outcome::Accepted(value))).await {
                    Ok(Ok(Outcome::Accepted(value))) => return Some(Ok(value)),
                    Ok(Ok(_)) => return Some(Err(ended("the arguments were not accepted"))),
                    Ok(Err(errors)) => {
                        let blamed = errors.errors().iter().map(|e| e.field());
                        let partial =
                            Partial::new::<T>(&content.cloned().unwrap_or_default(), blamed);
                        (Some(errors), partial)
                    }
                    Err(error) => {
                        // The check's own error (its backend's) goes to the
                        // log; the model reads a short, stable line.
                        error.trace();
                        return Some(Err(ended(not_asked("the arguments", &error))));
                    }
                }
            }
        };
        let fields = partial.fields().to_vec();
        let message = with_errors(&ask.message, errors.as_ref(), content);
        let ask = FormAsked {
            message,
            partial: Some(partial),
            ..ask
        };
        let answer = self.form_asked::<T>(key, ask).await?;
        let fields = listed(&fields);
        Some(match answer {
            Ok(Outcome::Accepted(value)) => Ok(value),
            Ok(Outcome::Declined) => Err(ended(format!(
                "the user declined to give {fields}: nothing was done"
            ))),
            Ok(Outcome::Cancelled | Outcome::UnknownAction(_)) => Err(ended(format!(
                "the user dismissed the question for {fields}: nothing was done"
            ))),
            Err(ElicitError::Invalid { errors, attempts }) => Err(ended(format!(
                "the user's answers for {fields} were refused {attempts} times ({errors}): \
                 nothing was done"
            ))),
            Err(error) => Err(ended(not_asked(&fields, &error))),
        })
    }
}

/// The input schema of a tool whose arguments are the form `T`: the form's
/// schema (its fields' types and rules, in declaration order, what it
/// requires) without the fields only the user may fill
/// (`#[elicit(user_only)]`), which the model is not shown. For
/// `#[tool(input_schema = elicit_core::mcp::input_schema::<T>())]`.
///
/// ```
/// use elicit_core::Elicit;
///
/// #[derive(Elicit)]
/// struct Transfer {
///     #[elicit(range(min = 1))]
///     amount: u32,
///     /// Send it now?
///     #[elicit(user_only)]
///     confirm: bool,
/// }
///
/// let schema = elicit_core::mcp::input_schema::<Transfer>();
/// assert_eq!(schema["properties"]["amount"]["minimum"], 1);
/// assert!(schema["properties"].get("confirm").is_none());
/// assert_eq!(schema["required"], serde_json::json!(["amount"]));
/// ```
pub fn input_schema<T: Elicit>() -> std::sync::Arc<::rmcp::model::JsonObject> {
    let user_only = T::user_only_fields();
    let schema = T::cached_schema();
    let fields: Vec<String> = (schema.properties.names())
        .filter(|name| !user_only.contains(name))
        .map(str::to_owned)
        .collect();
    let json = crate::schema::to_json(&crate::flow::partial::narrowed(&schema, &fields));
    let object = serde_json::from_str(&json).unwrap_or_default();
    std::sync::Arc::new(object)
}

/// Why the user could not be asked for `fields`, as the model reads it:
/// short and stable; the error itself (which may hold a client's or a
/// check's own text) is traced where it was made.
fn not_asked(fields: &str, error: &ElicitError) -> String {
    use crate::protocol::agent::SendError;
    let why = match error {
        ElicitError::NotSent(SendError::ModeNotAdvertised { .. }) => {
            "the client cannot show the user a form"
        }
        ElicitError::NotSent(SendError::NoSession) => "this server cannot ask during a call",
        ElicitError::Check(_) => "the answer could not be checked",
        _ => "the question failed",
    };
    format!("could not ask the user for {fields} ({why}): nothing was done")
}

/// `message`, then the model's refused values with their errors (a field
/// it left out is simply asked: the form says what it is).
fn with_errors(
    message: &str,
    errors: Option<&ContentError>,
    given: Option<&crate::Content>,
) -> String {
    let said: Vec<String> = errors
        .map(ContentError::errors)
        .unwrap_or_default()
        .iter()
        .filter(|error| !matches!(error.kind(), crate::FieldErrorKind::Missing))
        .map(|error| {
            let said = error.to_string();
            // The value the model gave, where the error does not say it.
            match given.and_then(|given| given.get(error.field())) {
                Some(value) if !said.contains(", got ") => {
                    format!("{said} (given: {})", shown(value))
                }
                _ => said,
            }
        })
        .collect();
    if said.is_empty() {
        return message.to_owned();
    }
    format!(
        "{message}\n\nThe arguments the model gave were not accepted: {}.",
        said.join("; ")
    )
}

/// A value the model gave, as a message shows it: its JSON, cut to 64
/// characters.
fn shown(value: &serde_json::Value) -> String {
    let json = value.to_string();
    match json.char_indices().nth(64) {
        Some((cut, _)) => format!("{}…", &json[..cut]),
        None => json,
    }
}

/// `fields` as a message names them: "`a`", "`a` and `b`", "`a`, `b` and `c`".
fn listed(fields: &[String]) -> String {
    let quoted: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
    match quoted.split_last() {
        None => "the arguments".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// A tool result that ends the call, for the model to read.
fn ended(text: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text.into())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_value_is_shown_where_its_error_does_not_say_it() {
        use crate::{FieldError, FieldErrorKind};
        let given: crate::Content =
            serde_json::from_value(serde_json::json!({"branch": "Not A Branch", "n": 40})).unwrap();
        let errors = ContentError::new(vec![
            FieldError::rule("branch", "must be a branch name"),
            FieldError::new("n", FieldErrorKind::Missing),
        ]);
        let message = with_errors("Deploy?", Some(&errors), Some(&given));
        assert_eq!(
            message,
            "Deploy?\n\nThe arguments the model gave were not accepted: `branch` must be a \
             branch name (given: \"Not A Branch\")."
        );
        assert_eq!(with_errors("Deploy?", None, Some(&given)), "Deploy?");
        let long = serde_json::Value::String("x".repeat(100));
        assert_eq!(shown(&long).chars().count(), 65);
    }

    #[test]
    fn the_model_reads_why_in_a_short_line_never_a_checks_own_text() {
        let error = ElicitError::Check("db01: connection refused by 10.0.0.7".into());
        let said = not_asked("`port`", &error);
        assert_eq!(
            said,
            "could not ask the user for `port` (the answer could not be checked): nothing was done"
        );
        assert!(!said.contains("db01"));
    }

    #[test]
    fn fields_are_listed_as_a_message_names_them() {
        let names = |n: &[&str]| listed(&n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(names(&[]), "the arguments");
        assert_eq!(names(&["env"]), "`env`");
        assert_eq!(names(&["env", "port"]), "`env` and `port`");
        assert_eq!(names(&["a", "b", "c"]), "`a`, `b` and `c`");
    }
}
