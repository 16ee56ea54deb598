//! Reading what the page posts: an `application/x-www-form-urlencoded`
//! body, strictly, into a [`Submission`].

use std::collections::{BTreeMap, BTreeSet};

use secrecy::SecretString;
use serde_json::{Number, Value};
use zeroize::Zeroizing;

use super::{SensitiveForm, Submission};
use crate::error::excerpt;
use crate::limits::{MAX_BODY_PAIRS, MAX_ECHOED_CHARS};
use crate::schema::{ElicitationSchema, PropertySchema};

/// Why a posted body is refused as a whole (the server answers 400): it is
/// not what the page's own form sends. Field names are cut to
/// 64 characters ([limits](crate::reference::limits)); no error holds a value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BodyError {
    /// A `%` not followed by two hexadecimal digits.
    BadPercentEncoding,
    /// A name or a value is not UTF-8 once decoded.
    NotUtf8 {
        /// The field (or `?` if the name itself is not UTF-8).
        field: String,
    },
    /// A name the page does not post.
    UnknownField {
        /// The name.
        field: String,
    },
    /// A name given twice that takes one value (only a multi-select's
    /// checkboxes repeat their name).
    RepeatedField {
        /// The name.
        field: String,
    },
    /// More name-value pairs than any page posts.
    TooManyPairs {
        /// The limit, 1024 ([limits](crate::reference::limits)).
        max: usize,
    },
}

impl std::fmt::Display for BodyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BadPercentEncoding => f.write_str(
                "the body is not URL-encoded: a `%` is not followed by two hexadecimal digits",
            ),
            Self::NotUtf8 { field } => write!(f, "a value of `{field}` is not UTF-8"),
            Self::UnknownField { field } => write!(f, "the page has no field `{field}`"),
            Self::RepeatedField { field } => write!(f, "`{field}` is given more than once"),
            Self::TooManyPairs { max } => write!(f, "the body has more than {max} fields"),
        }
    }
}

impl std::error::Error for BodyError {}

/// A posted body, read: the form's [`Submission`], and the values of the
/// server's own fields (`extra`, e.g. a CSRF token).
#[derive(Debug)]
#[non_exhaustive]
pub struct PostedBody {
    /// The form's fields.
    pub submission: Submission,
    /// The server's own fields, by name (each at most once).
    pub extra: BTreeMap<String, String>,
}

/// Reads a body the page of the sensitive form `T` posted, with `extra` the
/// names of the server's own hidden fields. The schema and the secret fields
/// are `T`'s own, so a secret can never be read as a plain value.
///
/// Strict, as a page that posts only its own form can afford: a name the
/// page does not post, a name given twice (but for a multi-select's
/// checkboxes), a bad `%` escape or a value that is not UTF-8 refuses the
/// whole body. An empty value is no answer (an empty text box, "Choose…"),
/// as if the field were not sent. Values are read as their property's JSON
/// type where they are one (`"3"` for an integer is `3`, `"true"` for a
/// boolean is `true`); anything else stays a string, for the engine to
/// refuse with its usual error. A secret is decoded into memory that is
/// zeroized when dropped, then kept only as a [`SecretString`].
///
/// ```
/// use elicit_core::Elicit;
/// use elicit_core::sensitive::{ExposeSecret, SecretString, SensitiveForm, read_body};
///
/// #[derive(Elicit)]
/// #[elicit(sensitive)]
/// struct Deploy {
///     replicas: u8,
///     #[secret]
///     key: SecretString,
/// }
///
/// let body = read_body::<Deploy>(b"csrf=k9&replicas=3&key=sk-a%2Bb+c", &["csrf"]).unwrap();
/// assert_eq!(body.extra["csrf"], "k9");
/// let deploy = Deploy::from_submission(body.submission).unwrap();
/// assert_eq!((deploy.replicas, deploy.key.expose_secret()), (3, "sk-a+b c"));
///
/// let again = read_body::<Deploy>(b"replicas=3&replicas=4", &[]).unwrap_err();
/// assert_eq!(again.to_string(), "`replicas` is given more than once");
/// ```
pub fn read_body<T: SensitiveForm>(body: &[u8], extra: &[&str]) -> Result<PostedBody, BodyError> {
    read(body, &T::schema(), T::SECRET_FIELDS, extra)
}

/// [`read_body`] for a schema and its secret fields.
pub(crate) fn read(
    body: &[u8],
    schema: &ElicitationSchema,
    secrets: &[&str],
    extra: &[&str],
) -> Result<PostedBody, BodyError> {
    let mut submission = Submission::new();
    let mut extras = BTreeMap::new();
    let mut multi: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    let pairs = body.split(|&b| b == b'&').filter(|pair| !pair.is_empty());
    for (count, pair) in pairs.enumerate() {
        if count == MAX_BODY_PAIRS {
            return Err(BodyError::TooManyPairs {
                max: MAX_BODY_PAIRS,
            });
        }
        let (raw_name, raw_value) = match pair.iter().position(|&b| b == b'=') {
            Some(at) => (&pair[..at], &pair[at + 1..]),
            None => (pair, &pair[pair.len()..]),
        };
        let name = decode(raw_name)?;
        let name = String::from_utf8(name.to_vec()).map_err(|_| BodyError::NotUtf8 {
            field: "?".to_owned(),
        })?;
        let shown = || excerpt(&name, MAX_ECHOED_CHARS);
        let value = decode(raw_value)?;
        let Ok(text) = std::str::from_utf8(&value) else {
            return Err(BodyError::NotUtf8 { field: shown() });
        };
        if extra.contains(&name.as_str()) {
            if extras.insert(name.clone(), text.to_owned()).is_some() {
                return Err(BodyError::RepeatedField { field: shown() });
            }
            continue;
        }
        let Some(property) = schema.properties.get(&name) else {
            return Err(BodyError::UnknownField { field: shown() });
        };
        if let PropertySchema::MultiSelect(_) = property {
            let chosen = multi.entry(name.clone()).or_default();
            if !text.is_empty() {
                chosen.push(Value::String(text.to_owned()));
            }
            continue;
        }
        // Seen even when empty: a second one is still a repeat.
        if !seen.insert(name.clone()) {
            return Err(BodyError::RepeatedField { field: shown() });
        }
        if text.is_empty() {
            continue;
        }
        if secrets.contains(&name.as_str()) {
            submission
                .secrets
                .insert(name, SecretString::from(text.to_owned()));
        } else {
            submission.values.insert(name, typed(property, text));
        }
    }
    for (name, chosen) in multi {
        // No box ticked: no answer.
        if !chosen.is_empty() {
            submission.values.insert(name, Value::Array(chosen));
        }
    }
    Ok(PostedBody {
        submission,
        extra: extras,
    })
}

/// `text` as `property`'s JSON type where it is one, else a string.
fn typed(property: &PropertySchema, text: &str) -> Value {
    let number = || -> Option<Value> {
        if let Ok(n) = text.parse::<i64>() {
            return Some(Value::from(n));
        }
        text.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .and_then(Number::from_f64)
            .map(Value::Number)
    };
    let read = match property {
        PropertySchema::Integer(_) | PropertySchema::Number(_) => number(),
        PropertySchema::Boolean(_) => match text {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        _ => None,
    };
    read.unwrap_or_else(|| Value::String(text.to_owned()))
}

/// Percent-decodes `raw` (`+` is a space) into memory zeroized on drop.
fn decode(raw: &[u8]) -> Result<Zeroizing<Vec<u8>>, BodyError> {
    let mut out = Zeroizing::new(Vec::with_capacity(raw.len()));
    let mut bytes = raw.iter();
    while let Some(&b) = bytes.next() {
        match b {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = |b: Option<&u8>| b.and_then(|b| (*b as char).to_digit(16));
                match (hex(bytes.next()), hex(bytes.next())) {
                    // Two hex digits: at most 0xff.
                    (Some(hi), Some(lo)) => out.push((hi * 16 + lo) as u8),
                    _ => return Err(BodyError::BadPercentEncoding),
                }
            }
            b => out.push(b),
        }
    }
    Ok(out)
}
