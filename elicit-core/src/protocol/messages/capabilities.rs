//! `clientCapabilities.elicitation`: which modes a client advertises.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::json::lenient;

use super::request::Mode;

/// The capability object of one mode (`elicitation.form` or
/// `elicitation.url`). Its presence advertises the mode; its content is
/// `_meta` plus anything a future version adds, kept as received.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ModeCapabilities {
    /// `_meta`, kept as is (a malformed one reads as absent).
    #[serde(rename = "_meta", default, deserialize_with = "lenient")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Fields this crate does not know, kept and written back.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ModeCapabilities {
    /// An empty capability object, `{}`: advertises the mode.
    pub fn new() -> Self {
        Self::default()
    }
}

/// `clientCapabilities.elicitation`: which modes a client supports.
///
/// ACP's rules, which differ from MCP's: a mode is supported only when its
/// field is present and an object. `{}` and `{"form": null, "url": null}`
/// advertise **no** mode; an omitted or `null` `elicitation` field means
/// elicitation is unsupported (model that as `None`, see
/// [`from_client_capabilities`](Self::from_client_capabilities)). A mode
/// field that is not an object reads as not advertised (the official schema
/// marks these fields "default on error"). Unknown fields are kept.
///
/// ```
/// use elicit_core::protocol::{ElicitationCapabilities, Mode};
///
/// let caps: ElicitationCapabilities = serde_json::from_str(r#"{"form": {}}"#).unwrap();
/// assert!(caps.supports(Mode::Form) && !caps.supports(Mode::Url));
///
/// let empty: ElicitationCapabilities = serde_json::from_str("{}").unwrap();
/// assert!(empty.modes().is_empty()); // not MCP's form default
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ElicitationCapabilities {
    /// `form`: present means form mode is supported.
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub form: Option<ModeCapabilities>,
    /// `url`: present means URL mode is supported.
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub url: Option<ModeCapabilities>,
    /// `_meta`, kept as is (a malformed one reads as absent).
    #[serde(rename = "_meta", default, deserialize_with = "lenient")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Fields this crate does not know, kept and written back.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ElicitationCapabilities {
    /// A capability object advertising no mode (`{}`).
    pub fn none() -> Self {
        Self::default()
    }

    /// Advertises form mode only (`{"form": {}}`).
    pub fn form_only() -> Self {
        Self::none().with_form()
    }

    /// Advertises URL mode only (`{"url": {}}`).
    pub fn url_only() -> Self {
        Self::none().with_url()
    }

    /// Advertises both modes (`{"form": {}, "url": {}}`).
    pub fn form_and_url() -> Self {
        Self::none().with_form().with_url()
    }

    /// Adds form mode.
    #[must_use]
    pub(crate) fn with_form(mut self) -> Self {
        self.form.get_or_insert_with(ModeCapabilities::new);
        self
    }

    /// Adds URL mode.
    #[must_use]
    pub(crate) fn with_url(mut self) -> Self {
        self.url.get_or_insert_with(ModeCapabilities::new);
        self
    }

    /// Whether form mode is advertised.
    pub(crate) fn supports_form(&self) -> bool {
        self.form.is_some()
    }

    /// Whether URL mode is advertised.
    pub(crate) fn supports_url(&self) -> bool {
        self.url.is_some()
    }

    /// Whether `mode` is advertised.
    pub fn supports(&self, mode: Mode) -> bool {
        match mode {
            Mode::Form => self.supports_form(),
            Mode::Url => self.supports_url(),
        }
    }

    /// The advertised modes, form first.
    pub fn modes(&self) -> Vec<Mode> {
        [Mode::Form, Mode::Url]
            .into_iter()
            .filter(|m| self.supports(*m))
            .collect()
    }

    /// Reads `elicitation` out of a whole `clientCapabilities` object (the
    /// `initialize` request's field). `None` when the field is omitted,
    /// `null` or not an object: elicitation is unsupported.
    ///
    /// ```
    /// use elicit_core::protocol::{ElicitationCapabilities, Mode};
    /// use serde_json::json;
    ///
    /// assert_eq!(ElicitationCapabilities::from_client_capabilities(&json!({"fs": {}})), None);
    /// assert_eq!(
    ///     ElicitationCapabilities::from_client_capabilities(&json!({"elicitation": null})),
    ///     None
    /// );
    /// let caps = ElicitationCapabilities::from_client_capabilities(
    ///     &json!({"elicitation": {"url": {}}}),
    /// );
    /// assert!(caps.is_some_and(|c| c.modes() == [Mode::Url]));
    /// ```
    pub fn from_client_capabilities(client_capabilities: &Value) -> Option<Self> {
        client_capabilities
            .get("elicitation")
            .filter(|elicitation| elicitation.is_object())
            .and_then(|elicitation| Self::deserialize(elicitation).ok())
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn capabilities_read_per_acp() {
        let read = |v: Value| serde_json::from_value::<ElicitationCapabilities>(v).unwrap();
        assert!(read(json!({})).modes().is_empty());
        assert!(read(json!({"form": null, "url": null})).modes().is_empty());
        assert!(read(json!({"form": true, "url": 1})).modes().is_empty());
        assert_eq!(read(json!({"form": {}})).modes(), [Mode::Form]);
        assert_eq!(read(json!({"url": {}, "x": 1})).modes(), [Mode::Url]);
    }
}
