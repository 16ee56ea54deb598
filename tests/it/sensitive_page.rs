//! Feature `sensitive`: the page a sensitive elicitation is answered on.
//! Each test is one rule of the page (see the threat model in the
//! `elicit_core::sensitive` docs) and fails without it.

use elicit_core::format::Format;
use elicit_core::sensitive::{PageForm, STYLE_HASH};
use elicit_core::{
    BooleanSchema, Content, ElicitationSchema, EnumOption, FieldError, FieldErrorKind,
    IntegerSchema, MultiSelectSchema, NumberSchema, Options, StringSchema,
};
use serde_json::json;

/// Markup that would run, or break out of an attribute, if it were not
/// escaped.
const HOSTILE: &str = "\"'><script>alert(1)</script><img src=x onerror=alert(2)>&amp;";

/// The `<input ..>` tag of the control named `name` (the first one).
fn input<'h>(html: &'h str, name: &str) -> &'h str {
    let at = html
        .find(&format!("name=\"{}\"", escape(name)))
        .unwrap_or_else(|| panic!("no control named {name}: {html}"));
    let start = html[..at].rfind('<').unwrap();
    let end = at + html[at..].find('>').unwrap();
    &html[start..=end]
}

/// HTML-escaped text, written here independently of the page's own escaping:
/// the five characters that could end a text or an attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn content(value: serde_json::Value) -> Content {
    serde_json::from_value(value).unwrap()
}

#[test]
fn every_text_is_escaped() {
    let mut option = EnumOption::new(HOSTILE, HOSTILE);
    option.description = Some(HOSTILE.into());
    let mut schema = ElicitationSchema::new()
        .property(
            HOSTILE,
            StringSchema::new()
                .title(HOSTILE)
                .description(HOSTILE)
                .default_value(HOSTILE),
            true,
        )
        .property(
            "pick",
            StringSchema::select(Options::Titled(vec![option.clone()])).title(HOSTILE),
            false,
        )
        .property(
            "many",
            MultiSelectSchema::new(Options::Untitled(vec![HOSTILE.into()])),
            false,
        );
    schema.title = Some(HOSTILE.into());
    schema.description = Some(HOSTILE.into());
    let previous = content(json!({"pick": HOSTILE}));
    let errors = [FieldError::new(
        HOSTILE,
        FieldErrorKind::NotAnOption {
            value: HOSTILE.into(),
            allowed: vec![HOSTILE.into()],
        },
    )];
    let html = PageForm::new(HOSTILE, &schema)
        .previous(&previous)
        .errors(&errors)
        .hidden(HOSTILE, HOSTILE)
        .action(HOSTILE)
        .render()
        .unwrap();
    // No markup from the input survives: not as a tag, not as an attribute.
    assert!(!html.contains("<script"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(!html.contains("\"'>"), "{html}");
    // Every place shows the escaped text instead (`&amp;` itself escaped).
    let escaped = escape(HOSTILE);
    assert!(escaped.contains("&amp;amp;"));
    for place in [
        format!("<title>{escaped}</title>"),
        format!("<h1>{escaped}</h1>"),
        format!("<p class=\"message\">{escaped}</p>"),
        format!("<p class=\"description\">{escaped}</p>"),
        format!("name=\"{escaped}\""),
        format!("value=\"{escaped}\""),
        format!("action=\"{escaped}\""),
        format!("<option value=\"{escaped}\" selected>{escaped}</option>"),
        format!("must be one of `{escaped}`, got `{escaped}`"),
    ] {
        assert!(html.contains(&place), "missing {place}: {html}");
    }
}

#[test]
fn a_secret_is_never_pre_filled_or_echoed() {
    let schema = ElicitationSchema::new()
        .property("account", StringSchema::new().default_value("ada"), true)
        .property(
            "token",
            StringSchema::new()
                .length(Some(8), Some(64))
                .default_value("DEFAULT-SECRET"),
            true,
        );
    // A rejected submission sent the secret back: it must not come back out.
    let previous = content(json!({"account": "grace", "token": "TYPED-SECRET"}));
    let errors = [FieldError::new(
        "token",
        FieldErrorKind::TooShort {
            min_length: 8,
            length: 5,
        },
    )];
    let html = PageForm::new("Connect", &schema)
        .secrets(&["token"])
        .previous(&previous)
        .errors(&errors)
        .render()
        .unwrap();
    let token = input(&html, "token");
    assert!(token.starts_with("<input type=\"password\""), "{token}");
    assert!(token.contains(" autocomplete=\"off\""), "{token}");
    assert!(!token.contains("value="), "{token}");
    assert!(!html.contains("TYPED-SECRET"), "{html}");
    assert!(!html.contains("DEFAULT-SECRET"), "{html}");
    // Its error is shown, without its value.
    assert!(
        html.contains(
            "<p class=\"error\" id=\"f1-error\">must be at least 8 characters, got 5</p>"
        ),
        "{html}"
    );
    // The field that is not secret gets what was sent, not its default.
    assert!(input(&html, "account").contains(" value=\"grace\""));
}

#[test]
fn the_rules_become_constraint_attributes() {
    let schema = ElicitationSchema::new()
        .property("name", StringSchema::new().length(Some(2), Some(10)), true)
        .property("mail", StringSchema::new().format(Format::Email), false)
        .property("site", StringSchema::new().format(Format::Uri), false)
        .property("day", StringSchema::new().format(Format::Date), false)
        .property("at", StringSchema::new().format(Format::DateTime), false)
        .property(
            "replicas",
            IntegerSchema {
                minimum: Some(1),
                maximum: Some(16),
                default: Some(2),
                ..IntegerSchema::default()
            },
            true,
        )
        .property(
            "ratio",
            NumberSchema {
                minimum: Some(0.0),
                maximum: Some(0.5),
                ..NumberSchema::default()
            },
            false,
        );
    let html = PageForm::new("m", &schema).render().unwrap();
    assert_eq!(
        input(&html, "name"),
        // The browser counts UTF-16 units: maxlength is twice the bound.
        "<input type=\"text\" name=\"name\" id=\"f0\" required minlength=\"2\" maxlength=\"20\">"
    );
    assert_eq!(
        input(&html, "mail"),
        "<input type=\"email\" name=\"mail\" id=\"f1\">"
    );
    assert_eq!(
        input(&html, "site"),
        "<input type=\"url\" name=\"site\" id=\"f2\">"
    );
    assert_eq!(
        input(&html, "day"),
        "<input type=\"date\" name=\"day\" id=\"f3\">"
    );
    // No HTML type reads RFC 3339 with a zone: text, with an example.
    assert!(input(&html, "at").starts_with("<input type=\"text\""));
    assert!(html.contains("e.g. 2026-01-31T09:00:00Z"));
    assert_eq!(
        input(&html, "replicas"),
        "<input type=\"number\" step=\"1\" inputmode=\"numeric\" name=\"replicas\" id=\"f5\" \
         required min=\"1\" max=\"16\" value=\"2\">"
    );
    assert_eq!(
        input(&html, "ratio"),
        "<input type=\"number\" step=\"any\" inputmode=\"decimal\" name=\"ratio\" id=\"f6\" \
         min=\"0\" max=\"0.5\">"
    );
    // Required fields are marked for the eye too.
    assert_eq!(html.matches("class=\"req\"").count(), 2);
}

#[test]
fn choices_render_as_select_radios_and_checkboxes() {
    let schema = ElicitationSchema::new()
        .property(
            "env",
            StringSchema::select(Options::Titled(vec![
                EnumOption::new("prod", "Production"),
                EnumOption::new("dev", "Development"),
            ]))
            .default_value("dev"),
            true,
        )
        .property(
            "region",
            StringSchema::select(Options::Untitled(vec!["eu".into(), "us".into()])),
            true,
        )
        .property(
            "notify",
            BooleanSchema {
                default: Some(false),
                ..BooleanSchema::default()
            },
            false,
        )
        .property(
            "tags",
            {
                let mut tags = MultiSelectSchema::new(Options::Untitled(vec![
                    "a".into(),
                    "b".into(),
                    "c".into(),
                ]));
                tags.default = Some(vec!["b".into()]);
                tags.min_items = Some(1);
                tags.max_items = Some(2);
                tags
            },
            false,
        );
    let html = PageForm::new("m", &schema).render().unwrap();
    // A default is chosen; a required select without one starts empty.
    assert!(
        html.contains(
            "<select name=\"env\" id=\"f0\" required><option value=\"prod\">Production</option>\
         <option value=\"dev\" selected>Development</option></select>"
        ),
        "{html}"
    );
    assert!(
        html.contains(
            "<select name=\"region\" id=\"f1\" required><option value=\"\">Choose…</option>\
         <option value=\"eu\">eu</option><option value=\"us\">us</option></select>"
        ),
        "{html}"
    );
    // A boolean is Yes / No, so "no" is an answer of its own.
    assert!(html.contains("<input type=\"radio\" name=\"notify\" value=\"true\">Yes"));
    assert!(html.contains("<input type=\"radio\" name=\"notify\" value=\"false\" checked>No"));
    // A multi-select is one checkbox per option, its bounds in words.
    assert!(html.contains("<input type=\"checkbox\" name=\"tags\" value=\"a\">a"));
    assert!(html.contains("<input type=\"checkbox\" name=\"tags\" value=\"b\" checked>b"));
    assert!(html.contains("Choose 1 to 2."));
}

#[test]
fn a_rejected_submission_shows_each_error_under_its_field() {
    let schema = ElicitationSchema::new()
        .property("name", StringSchema::new(), true)
        .property(
            "replicas",
            IntegerSchema {
                maximum: Some(16),
                ..IntegerSchema::default()
            },
            true,
        );
    let previous = content(json!({"name": "ok", "replicas": 40}));
    let errors = [FieldError::new(
        "replicas",
        FieldErrorKind::AboveMaximum {
            maximum: elicit_core::Num::Int(16),
            value: elicit_core::Num::Int(40),
        },
    )];
    let html = PageForm::new("m", &schema)
        .previous(&previous)
        .errors(&errors)
        .render()
        .unwrap();
    assert!(html.contains("role=\"alert\""));
    let replicas = input(&html, "replicas");
    assert!(replicas.contains(" aria-invalid=\"true\""), "{replicas}");
    assert!(
        replicas.contains(" aria-describedby=\"f1-error\""),
        "{replicas}"
    );
    assert!(replicas.contains(" value=\"40\""), "{replicas}");
    assert!(html.contains("<p class=\"error\" id=\"f1-error\">must be at most 16, got 40</p>"));
    // The field without an error has none.
    assert!(!input(&html, "name").contains("aria-invalid"));
    assert_eq!(html.matches("class=\"error\"").count(), 1);
}

#[test]
fn a_property_of_an_unknown_type_is_not_rendered() {
    let schema: ElicitationSchema = serde_json::from_value(json!({
        "type": "object", "properties": {"where": {"type": "_location"}}
    }))
    .unwrap();
    let not_renderable = PageForm::new("m", &schema).render().unwrap_err();
    assert_eq!(not_renderable.unknown_types(), [("where", "_location")]);
    assert!(
        not_renderable
            .to_string()
            .contains("property `where` has unknown type `_location`"),
        "{not_renderable}"
    );
}

/// Standard base64 with padding, as CSP hash sources are written.
fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn the_style_hash_is_the_stylesheets() {
    use sha2::{Digest, Sha256};
    // A page inlines one stylesheet, and the hash is of exactly that text.
    let schema = ElicitationSchema::new().property("name", StringSchema::new(), true);
    let html = PageForm::new("Name?", &schema).render().unwrap();
    assert_eq!(html.matches("<style>").count(), 1);
    let start = html.find("<style>").unwrap() + "<style>".len();
    let style = &html[start..start + html[start..].find("</style>").unwrap()];
    assert!(!style.is_empty());
    let expected = format!("'sha256-{}'", base64(&Sha256::digest(style.as_bytes())));
    assert_eq!(STYLE_HASH, expected);
}
