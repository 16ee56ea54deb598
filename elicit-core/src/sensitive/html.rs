//! The page: a form rendered as HTML on the server from a restricted schema,
//! and the pages that end a flow ([`Notice`]).

use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::Value;

use crate::error::NotRenderable;
use crate::format::Format;
use crate::schema::{
    BooleanSchema, ElicitationSchema, IntegerSchema, Items, MultiSelectSchema, NumberSchema,
    Options, PropertySchema, StringSchema,
};
use crate::{Content, FieldError};

/// `text` with the five characters that mean something in HTML replaced by
/// their references (`&`, `<`, `>`, `"`, `'`): safe in element text and in
/// a quoted attribute value. Every text the page shows goes through it.
pub(crate) fn escape(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"', '\'']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The page's one stylesheet, inlined in every page (the server allows it in
/// its `Content-Security-Policy` by hash). Readable on a phone and on a
/// desktop, light or dark as the system is; no web fonts, no images.
pub(crate) const STYLE: &str = "\
:root{color-scheme:light dark;--fg:#1c1c1e;--bg:#f6f6f8;--card:#fff;--line:#d0d0d6;--muted:#5c5c66;--accent:#2456c9;--bad:#b3261e}\
@media (prefers-color-scheme:dark){:root{--fg:#ececf1;--bg:#16161a;--card:#222228;--line:#44444e;--muted:#a4a4b0;--accent:#8ab0ff;--bad:#ff8a80}}\
*{box-sizing:border-box}\
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}\
main{max-width:34rem;margin:0 auto;padding:1.5rem 1rem 3rem}\
h1{font-size:1.4rem;margin:0 0 .75rem}\
.message{background:var(--card);border:1px solid var(--line);border-radius:.6rem;padding:.75rem 1rem;white-space:pre-wrap;overflow-wrap:anywhere}\
.description,.hint{color:var(--muted)}\
.hint{font-size:.9rem;margin:.25rem 0 0}\
form{margin-top:1.25rem}\
.field{margin:0 0 1.1rem;border:0;padding:0}\
label,legend{display:block;font-weight:600;margin-bottom:.3rem;padding:0}\
.req{color:var(--bad);margin-left:.2rem}\
input[type=text],input[type=password],input[type=email],input[type=url],input[type=date],input[type=number],select{width:100%;font:inherit;color:inherit;background:var(--card);border:1px solid var(--line);border-radius:.45rem;padding:.55rem .65rem}\
.choice{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.2rem 0}\
.invalid input,.invalid select{border-color:var(--bad)}\
.error,.summary{color:var(--bad);font-size:.95rem;margin:.3rem 0 0}\
button{font:inherit;font-weight:600;color:#fff;background:var(--accent);border:0;border-radius:.45rem;padding:.65rem 1.4rem;cursor:pointer}\
@media (prefers-color-scheme:dark){button{color:#10131a}}\
";

/// The `Content-Security-Policy` source that allows the pages' one inline
/// stylesheet and nothing else: `style-src 'sha256-…'`, so the page needs no `'unsafe-inline'`.
/// A test recomputes it from the stylesheet a page inlines, so the two
/// cannot drift apart.
pub const STYLE_HASH: &str = "'sha256-Lg8jsytionzjY4IztcWUotVp+AMp8BK4MFmoK4O03LM='";

/// The form page of a sensitive elicitation, rendered from its schema.
///
/// Every text is HTML-escaped; there is no script. Each property gets a
/// labelled control whose HTML constraint attributes mirror its rules, to
/// help the user (the server checks every submission with the engine
/// anyway). Secret properties are `type=password` with `autocomplete=off`,
/// and are never pre-filled: not with a default, not with what a rejected
/// submission sent.
///
/// ```
/// use elicit_core::sensitive::PageForm;
/// use elicit_core::{ElicitationSchema, StringSchema};
///
/// let schema = ElicitationSchema::new()
///     .property("account", StringSchema::new().title("Account"), true)
///     .property("token", StringSchema::new().title("API token").length(Some(20), None), true);
/// let html = PageForm::new("Connect <Acme>", &schema)
///     .secrets(&["token"])
///     .hidden("csrf", "k9")
///     .render()
///     .unwrap();
/// assert!(html.contains("Connect &lt;Acme&gt;"));
/// assert!(html.contains(r#"<input type="password" name="token""#));
/// assert!(html.contains(r#"<input type="hidden" name="csrf" value="k9">"#));
/// ```
#[derive(Debug, Clone)]
pub struct PageForm<'a> {
    message: &'a str,
    schema: &'a ElicitationSchema,
    secrets: &'a [&'a str],
    previous: Option<&'a Content>,
    errors: &'a [FieldError],
    action: Option<&'a str>,
    hidden: Vec<(&'a str, &'a str)>,
}

impl<'a> PageForm<'a> {
    /// The page for `schema`, with the agent's `message` at the top.
    pub fn new(message: &'a str, schema: &'a ElicitationSchema) -> Self {
        Self {
            message,
            schema,
            secrets: &[],
            previous: None,
            errors: &[],
            action: None,
            hidden: Vec::new(),
        }
    }

    /// The wire names of the secret properties: a sensitive form's
    /// [`SECRET_FIELDS`](super::SensitiveForm::SECRET_FIELDS).
    #[must_use]
    pub fn secrets(mut self, names: &'a [&'a str]) -> Self {
        self.secrets = names;
        self
    }

    /// What a rejected submission sent, shown again so the user fixes only
    /// what was wrong. Never shown for a secret property.
    #[must_use]
    pub fn previous(mut self, content: &'a Content) -> Self {
        self.previous = Some(content);
        self
    }

    /// The errors of a rejected submission, each shown under its field.
    #[must_use]
    pub fn errors(mut self, errors: &'a [FieldError]) -> Self {
        self.errors = errors;
        self
    }

    /// Where the form posts to (default: the page's own URL).
    #[must_use]
    pub fn action(mut self, path: &'a str) -> Self {
        self.action = Some(path);
        self
    }

    /// A hidden field the server needs back (e.g. a CSRF token).
    #[must_use]
    pub fn hidden(mut self, name: &'a str, value: &'a str) -> Self {
        self.hidden.push((name, value));
        self
    }

    /// The whole page, or which property it cannot show (a property of an
    /// unknown type, or a multi-select of unknown `items`: no control is
    /// guessed for it).
    pub fn render(&self) -> Result<String, NotRenderable> {
        let title = self
            .schema
            .title
            .as_deref()
            .unwrap_or("Information requested");
        let mut html = head(title);
        let _ = write!(
            html,
            "<h1>{}</h1><p class=\"message\">{}</p>",
            escape(title),
            escape(self.message)
        );
        if let Some(description) = &self.schema.description {
            let _ = write!(html, "<p class=\"description\">{}</p>", escape(description));
        }
        if !self.errors.is_empty() {
            html.push_str(
                "<p class=\"summary\" role=\"alert\">Some answers need a change: see below.</p>",
            );
        }
        html.push_str("<form method=\"post\"");
        if let Some(action) = self.action {
            let _ = write!(html, " action=\"{}\"", escape(action));
        }
        html.push('>');
        for (name, value) in &self.hidden {
            let _ = write!(
                html,
                "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
                escape(name),
                escape(value)
            );
        }
        for (index, (name, property)) in self.schema.properties.iter().enumerate() {
            self.field(&mut html, index, name, property)?;
        }
        html.push_str("<button type=\"submit\">Send</button></form>");
        html.push_str(TAIL);
        Ok(html)
    }

    /// One property's control, label, hint and errors.
    fn field(
        &self,
        html: &mut String,
        index: usize,
        name: &str,
        property: &PropertySchema,
    ) -> Result<(), NotRenderable> {
        let field = Field {
            id: format!("f{index}"),
            name,
            label: property.title().unwrap_or(name),
            hint: property.description(),
            required: self.schema.required.iter().any(|r| r == name),
            errors: self.errors.iter().filter(|e| e.field() == name).collect(),
            previous: self.previous.and_then(|p| p.get(name)),
        };
        let secret = self.secrets.contains(&name);
        match property {
            PropertySchema::String(s) => match &s.options {
                Some(options) => field.select(html, s, options),
                None if secret => field.text(html, s, true),
                None => field.text(html, s, false),
            },
            PropertySchema::Integer(s) => field.integer(html, s),
            PropertySchema::Number(s) => field.number(html, s),
            PropertySchema::Boolean(s) => field.boolean(html, s),
            PropertySchema::MultiSelect(s) => match &s.items {
                Items::Options(options) => field.checkboxes(html, s, options),
                Items::Other(_) => return Err(NotRenderable::unknown_items(name)),
            },
            PropertySchema::Other(o) => return Err(NotRenderable::unknown_type(name, &o.type_)),
        }
        Ok(())
    }
}

/// What one control needs to know.
struct Field<'a> {
    id: String,
    name: &'a str,
    label: &'a str,
    hint: Option<&'a str>,
    required: bool,
    errors: Vec<&'a FieldError>,
    /// What a rejected submission sent (never passed for a secret).
    previous: Option<&'a Value>,
}

impl Field<'_> {
    /// `<div class="field">` and its label.
    fn open(&self, html: &mut String) {
        let invalid = if self.errors.is_empty() {
            ""
        } else {
            " invalid"
        };
        let _ = write!(
            html,
            "<div class=\"field{invalid}\"><label for=\"{}\">{}{}</label>",
            self.id,
            escape(self.label),
            self.required_mark()
        );
    }

    fn required_mark(&self) -> &'static str {
        if self.required {
            "<span class=\"req\" aria-hidden=\"true\">*</span>"
        } else {
            ""
        }
    }

    /// The attributes every control shares: name, id, `required`, and what
    /// describes it (hint, errors).
    fn common(&self, html: &mut String, with_id: bool) {
        let _ = write!(html, " name=\"{}\"", escape(self.name));
        if with_id {
            let _ = write!(html, " id=\"{}\"", self.id);
        }
        if self.required {
            html.push_str(" required");
        }
        let described: Vec<String> = [
            self.hint.map(|_| format!("{}-hint", self.id)),
            (!self.errors.is_empty()).then(|| format!("{}-error", self.id)),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !described.is_empty() {
            let _ = write!(html, " aria-describedby=\"{}\"", described.join(" "));
        }
        if !self.errors.is_empty() {
            html.push_str(" aria-invalid=\"true\"");
        }
    }

    /// The hint and the errors, then `end` (the closing tag).
    fn close(&self, html: &mut String, extra_hint: Option<String>, end: &str) {
        let hint = match (self.hint, extra_hint) {
            (Some(h), Some(x)) => Some(format!("{h} {x}")),
            (Some(h), None) => Some(h.to_owned()),
            (None, x) => x,
        };
        if let Some(hint) = hint {
            let _ = write!(
                html,
                "<p class=\"hint\" id=\"{}-hint\">{}</p>",
                self.id,
                escape(&hint)
            );
        }
        if !self.errors.is_empty() {
            let _ = write!(html, "<p class=\"error\" id=\"{}-error\">", self.id);
            let messages: Vec<String> = self
                .errors
                .iter()
                .map(|e| escape(&e.kind().to_string()).into_owned())
                .collect();
            html.push_str(&messages.join("<br>"));
            html.push_str("</p>");
        }
        html.push_str(end);
    }

    /// A text input: `type` from the format (`password` for a secret).
    fn text(&self, html: &mut String, s: &StringSchema, secret: bool) {
        self.open(html);
        let kind = match (&s.format, secret) {
            (_, true) => "password",
            (Some(Format::Email), _) => "email",
            (Some(Format::Uri), _) => "url",
            (Some(Format::Date), _) => "date",
            _ => "text",
        };
        let _ = write!(html, "<input type=\"{kind}\"");
        self.common(html, true);
        if let Some(min) = s.min_length {
            let _ = write!(html, " minlength=\"{min}\"");
        }
        // The browser counts UTF-16 code units, the rules count characters
        // (a character outside the BMP is two units): twice the bound never
        // stops the user short of a value the rules accept.
        if let Some(max) = s.max_length {
            let _ = write!(html, " maxlength=\"{}\"", u64::from(max) * 2);
        }
        if secret {
            // Never pre-filled, never kept by the browser.
            html.push_str(" autocomplete=\"off\" spellcheck=\"false\"");
        } else {
            let value = match self.previous {
                Some(Value::String(v)) => Some(v.as_str()),
                Some(_) => None,
                None => s.default.as_deref(),
            };
            if let Some(value) = value {
                let _ = write!(html, " value=\"{}\"", escape(value));
            }
        }
        html.push('>');
        let extra = matches!(s.format, Some(Format::DateTime))
            .then(|| "A date and time with its zone, e.g. 2026-01-31T09:00:00Z.".to_owned());
        self.close(html, extra, "</div>");
    }

    /// A number input for an integer.
    fn integer(&self, html: &mut String, s: &IntegerSchema) {
        let show = |n: Option<i64>| n.map(|n| n.to_string());
        let bounds = (show(s.minimum), show(s.maximum), show(s.default));
        self.number_input(html, "step=\"1\" inputmode=\"numeric\"", bounds);
    }

    /// A number input for any number.
    fn number(&self, html: &mut String, s: &NumberSchema) {
        let show = |n: Option<f64>| n.map(|n| n.to_string());
        let bounds = (show(s.minimum), show(s.maximum), show(s.default));
        self.number_input(html, "step=\"any\" inputmode=\"decimal\"", bounds);
    }

    /// `<input type="number">` with `kind`'s attributes, the `min`, `max`
    /// and default given, and what a rejected submission sent.
    fn number_input(
        &self,
        html: &mut String,
        kind: &str,
        (min, max, default): (Option<String>, Option<String>, Option<String>),
    ) {
        self.open(html);
        let _ = write!(html, "<input type=\"number\" {kind}");
        self.common(html, true);
        if let Some(min) = min {
            let _ = write!(html, " min=\"{min}\"");
        }
        if let Some(max) = max {
            let _ = write!(html, " max=\"{max}\"");
        }
        let value = match self.previous {
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(_) => None,
            None => default,
        };
        if let Some(value) = value {
            let _ = write!(html, " value=\"{}\"", escape(&value));
        }
        html.push('>');
        self.close(html, None, "</div>");
    }

    /// `<fieldset>` with its legend, for a group of choices.
    fn open_group(&self, html: &mut String) {
        let invalid = if self.errors.is_empty() {
            ""
        } else {
            " invalid"
        };
        let _ = write!(
            html,
            "<fieldset class=\"field{invalid}\" id=\"{}\"><legend>{}{}</legend>",
            self.id,
            escape(self.label),
            self.required_mark()
        );
    }

    /// Two radios, Yes and No: unlike a checkbox, "no" is an answer and
    /// "no answer" stays possible for an optional field.
    fn boolean(&self, html: &mut String, s: &BooleanSchema) {
        self.open_group(html);
        let chosen = match self.previous {
            Some(Value::Bool(b)) => Some(*b),
            Some(_) => None,
            None => s.default,
        };
        for (value, label) in [(true, "Yes"), (false, "No")] {
            html.push_str("<label class=\"choice\"><input type=\"radio\"");
            self.common(html, false);
            let _ = write!(html, " value=\"{value}\"");
            if chosen == Some(value) {
                html.push_str(" checked");
            }
            let _ = write!(html, ">{label}</label>");
        }
        self.close(html, None, "</fieldset>");
    }

    /// A `<select>` for a single-select.
    fn select(&self, html: &mut String, s: &StringSchema, options: &Options) {
        self.open(html);
        html.push_str("<select");
        self.common(html, true);
        html.push('>');
        let chosen = match self.previous {
            Some(Value::String(v)) => Some(v.as_str()),
            Some(_) => None,
            None => s.default.as_deref(),
        };
        // Nothing is chosen for the user: a required select starts on an
        // empty placeholder the browser will not submit.
        if chosen.is_none() || !self.required {
            html.push_str("<option value=\"\">Choose…</option>");
        }
        for (value, label) in option_labels(options) {
            let selected = if chosen == Some(value) {
                " selected"
            } else {
                ""
            };
            let _ = write!(
                html,
                "<option value=\"{}\"{selected}>{}</option>",
                escape(value),
                escape(label)
            );
        }
        html.push_str("</select>");
        self.close(html, None, "</div>");
    }

    /// Checkboxes for a multi-select, one per option.
    fn checkboxes(&self, html: &mut String, s: &MultiSelectSchema, options: &Options) {
        self.open_group(html);
        let chosen: Vec<&str> = match self.previous {
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
            Some(_) => Vec::new(),
            None => s.default.iter().flatten().map(String::as_str).collect(),
        };
        for (value, label) in option_labels(options) {
            html.push_str("<label class=\"choice\"><input type=\"checkbox\"");
            // A checkbox group cannot say "at least one" in HTML: the bound
            // is in the hint, and the server checks it.
            let _ = write!(html, " name=\"{}\"", escape(self.name));
            let _ = write!(html, " value=\"{}\"", escape(value));
            if chosen.contains(&value) {
                html.push_str(" checked");
            }
            let _ = write!(html, ">{}</label>", escape(label));
        }
        let extra = match (s.min_items, s.max_items) {
            (Some(min), Some(max)) if min == max => Some(format!("Choose {min}.")),
            (Some(min), Some(max)) => Some(format!("Choose {min} to {max}.")),
            (Some(min), None) => Some(format!("Choose at least {min}.")),
            (None, Some(max)) => Some(format!("Choose at most {max}.")),
            (None, None) => None,
        };
        self.close(html, extra, "</fieldset>");
    }
}

/// Each option's value and label (its title, or the value itself).
fn option_labels(options: &Options) -> Vec<(&str, &str)> {
    match options {
        Options::Untitled(values) => values.iter().map(|v| (v.as_str(), v.as_str())).collect(),
        Options::Titled(titled) => titled
            .iter()
            .map(|o| (o.value.as_str(), o.title.as_str()))
            .collect(),
    }
}

/// The start of every page, through `<main>`.
fn head(title: &str) -> String {
    let mut html = String::with_capacity(8 * 1024);
    let _ = write!(
        html,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"referrer\" content=\"no-referrer\"><title>{}</title>\
         <style>{STYLE}</style></head><body><main>",
        escape(title)
    );
    html
}

/// The end of every page.
const TAIL: &str = "</main></body></html>";

/// The pages that end a flow, or refuse a visitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum Notice {
    /// The answer was received: the user can go back to the client.
    Done,
    /// The request expired before it was answered.
    Expired,
    /// The request was already answered (or declined, or cancelled).
    Used,
    /// This visitor is not the user the request was made for.
    Refused,
}

impl Notice {
    /// The whole page.
    pub(crate) fn render(self) -> String {
        let (title, text) = match self {
            Self::Done => (
                "Received",
                "Thank you. You can close this page and return to your client.",
            ),
            Self::Expired => (
                "This request has expired",
                "Nothing was sent. Return to your client and ask again if you still need to.",
            ),
            Self::Used => (
                "This request was already answered",
                "It can be answered once. Return to your client.",
            ),
            Self::Refused => (
                "This page is not for this browser",
                "Open the link in the browser where you first opened it, from the client \
                 where you started.",
            ),
        };
        notice_page(title, text)
    }
}

/// A page with a title and one paragraph, both escaped: the notices, and
/// the server's refusals.
pub(crate) fn notice_page(title: &str, text: &str) -> String {
    let mut html = head(title);
    let _ = write!(
        html,
        "<h1>{}</h1><p class=\"message\">{}</p>",
        escape(title),
        escape(text)
    );
    html.push_str(TAIL);
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_replaces_the_five_characters_and_borrows_plain_text() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert!(matches!(escape("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn the_notices_are_distinct_whole_pages_with_the_one_stylesheet() {
        let pages =
            [Notice::Done, Notice::Expired, Notice::Used, Notice::Refused].map(Notice::render);
        for page in &pages {
            assert!(page.starts_with("<!doctype html>"));
            assert!(page.ends_with("</main></body></html>"));
            assert!(!page.contains("<form"), "a notice asks for nothing: {page}");
            assert_eq!(page.matches("<style>").count(), 1);
            assert!(page.contains(&format!("<style>{STYLE}</style>")));
        }
        assert!(pages[0].contains("return to your client"));
        let titles: std::collections::BTreeSet<&str> = pages
            .iter()
            .map(|p| {
                let start = p.find("<h1>").unwrap() + 4;
                &p[start..start + p[start..].find("</h1>").unwrap()]
            })
            .collect();
        assert_eq!(titles.len(), 4, "{titles:?}");
    }
}
