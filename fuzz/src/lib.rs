//! What the fuzz targets share: the derived forms under test (every form of
//! the integration tests, which covers every type and attribute, plus the
//! benchmark forms), and generators of JSON from the fuzzer's bytes.
//!
//! The generators build `serde_json::Value`s with `arbitrary`, biased
//! towards the words that matter (field names, option values, schema keys,
//! formats, hostile patterns), so most inputs reach the validation engine
//! instead of failing to parse.

use std::fmt::Debug;

use arbitrary::{Result, Unstructured};
use elicit_core::protocol::url::{UrlReview, UrlWarning, check_url};
use elicit_core::{Content, Elicit, FieldErrorKind};
use serde_json::{Map, Number, Value};

#[path = "../../tests/it/common/mod.rs"]
pub mod common;

#[path = "../../benches/forms/mod.rs"]
pub mod forms;

/// Nesting limit of generated values: content and schemas arrive as text,
/// which serde_json already limits to 128 levels.
const MAX_DEPTH: u32 = 4;

/// Wire names of the forms' fields, and a few that no form has.
const FIELD_NAMES: &[&str] = &[
    "strategy",
    "env",
    "replicas",
    "notify",
    "name",
    "handle",
    "email",
    "homepage",
    "birthday",
    "callback_at",
    "a_i8",
    "a_i16",
    "a_i32",
    "a_i64",
    "a_u8",
    "a_u16",
    "a_u32",
    "a_u64",
    "a_isize",
    "a_usize",
    "ratio",
    "temperature",
    "percent",
    "text",
    "flag",
    "count",
    "amount",
    "envs",
    "strategies",
    "any_of",
    "firstName",
    "surname",
    "yearsOfAge",
    "MAX_RETRIES",
    "dryRun",
    "stars",
    "comment",
    "internal_id",
    "branch",
    "force",
    "offset",
    "retries",
    "question",
    "answer",
    "choice",
    "more",
    "age",
    "name0",
    "email3",
    "envs4",
    "unknown",
    "",
    "a",
];

/// Strings that mean something to some rule.
const WORDS: &[&str] = &[
    "conservative",
    "balanced",
    "aggressive",
    "staging",
    "production",
    "dev",
    "Staging",
    "ada@example.com",
    "a@b",
    "not an email",
    "a..b@c.d",
    "x@-y.z",
    "https://example.com/ada",
    "mailto:x@y",
    "http://a%zz",
    "//no-scheme",
    "a:",
    "2024-02-29",
    "2023-02-29",
    "2024-13-01",
    "2024-01-01T12:00:00Z",
    "2024-01-01T12:00:00.5+01:00",
    "2024-01-01T24:00:00Z",
    "2024-01-01 12:00:00Z",
    "ada_l",
    "Ada-L",
    "main",
    "",
    " ",
    "é",
    "😀😀😀",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
    "123",
    "-1",
    "1e39",
    "true",
    "null",
    // schema vocabulary
    "object",
    "string",
    "number",
    "integer",
    "boolean",
    "array",
    "null",
    "email",
    "uri",
    "date",
    "date-time",
    "hostname",
    // patterns, hostile and refused ones included
    "^[a-z][a-z0-9_]*$",
    "^(a+)+$",
    "(a|aa)*b",
    "[0-9]",
    "(",
    "\\p{L}+",
    "a{1000}{1000}",
    "(?i)abc",
    "\\bword\\b",
    "^$",
    "(?<name>x)\\k<name>",
    "((((((((((a))))))))))",
];

/// Keys of a property schema (and of its options and items).
const SCHEMA_KEYS: &[&str] = &[
    "type",
    "title",
    "description",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "default",
    "enum",
    "oneOf",
    "anyOf",
    "const",
    "items",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "_meta",
];

/// Property names of generated schemas, shared with their content.
const PROPERTY_NAMES: &[&str] = &["a", "b", "name", "n", "x y", "", "type"];

fn pick<'a>(u: &mut Unstructured<'_>, words: &[&'a str]) -> Result<&'a str> {
    u.choose(words).copied()
}

/// A string: usually a meaningful word, sometimes anything.
pub fn string(u: &mut Unstructured<'_>) -> Result<String> {
    if u.ratio(3, 4)? {
        Ok(pick(u, WORDS)?.to_owned())
    } else {
        u.arbitrary()
    }
}

/// A JSON number: small integers (around every bound the forms use),
/// extremes, and finite floats.
pub fn number(u: &mut Unstructured<'_>) -> Result<Value> {
    Ok(match u.int_in_range(0..=5)? {
        0 => Value::from(u.int_in_range(-300i64..=300)?),
        1 => Value::from(u.arbitrary::<i64>()?),
        2 => Value::from(u.arbitrary::<u64>()?),
        3 => Value::from(f64::from(u.int_in_range(-2000i32..=2000)?) / 8.0),
        4 => {
            let edges = [
                0.5,
                -0.0,
                1e39,
                -1e39,
                3.402_823_5e38,
                1.7e38,
                9.3e18,
                -9.3e18,
                2.0,
                1e300,
            ];
            Value::from(*u.choose(&edges)?)
        }
        _ => Number::from_f64(u.arbitrary()?).map_or(Value::Null, Value::Number),
    })
}

/// Any JSON value, nested at most `depth` more levels.
pub fn value(u: &mut Unstructured<'_>, depth: u32) -> Result<Value> {
    let kinds = if depth == 0 { 5 } else { 7 };
    Ok(match u.int_in_range(0..=kinds)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 | 3 => number(u)?,
        4 | 5 => Value::String(string(u)?),
        6 => {
            let len = u.int_in_range(0..=4)?;
            Value::Array(
                (0..len)
                    .map(|_| value(u, depth - 1))
                    .collect::<Result<_>>()?,
            )
        }
        _ => {
            let mut map = Map::new();
            for _ in 0..u.int_in_range(0..=4)? {
                let key = if u.ratio(1, 2)? {
                    pick(u, SCHEMA_KEYS)?.to_owned()
                } else {
                    string(u)?
                };
                map.insert(key, value(u, depth - 1)?);
            }
            Value::Object(map)
        }
    })
}

/// Form content: entries keyed by (mostly) the forms' field names.
pub fn content(u: &mut Unstructured<'_>) -> Result<Content> {
    let mut content = Content::new();
    for _ in 0..u.int_in_range(0..=24)? {
        let key = if u.ratio(7, 8)? {
            pick(u, FIELD_NAMES)?.to_owned()
        } else {
            string(u)?
        };
        let value = if u.ratio(1, 3)? {
            // A list of words: what multi-selects take.
            let len = u.int_in_range(0..=4)?;
            Value::Array(
                (0..len)
                    .map(|_| string(u).map(Value::String))
                    .collect::<Result<_>>()?,
            )
        } else {
            value(u, 2)?
        };
        content.insert(key, value);
    }
    Ok(content)
}

/// A value for the schema key `key`: usually of the type the key wants.
fn schema_field(u: &mut Unstructured<'_>, key: &str) -> Result<Value> {
    if u.ratio(1, 8)? {
        return value(u, 2);
    }
    Ok(match key {
        "type" | "title" | "description" | "pattern" | "format" | "const" => {
            Value::String(string(u)?)
        }
        "minLength" | "maxLength" | "minItems" | "maxItems" => {
            Value::from(u.int_in_range(0u32..=6)?)
        }
        "minimum" | "maximum" | "default" => number(u)?,
        "enum" => words(u)?,
        "oneOf" | "anyOf" => options(u)?,
        "items" => {
            let mut items = Map::new();
            if u.ratio(1, 2)? {
                items.insert("type".into(), "string".into());
                items.insert("enum".into(), words(u)?);
            } else {
                items.insert("anyOf".into(), options(u)?);
            }
            Value::Object(items)
        }
        _ => value(u, 2)?,
    })
}

fn words(u: &mut Unstructured<'_>) -> Result<Value> {
    let len = u.int_in_range(0..=4)?;
    Ok(Value::Array(
        (0..len)
            .map(|_| string(u).map(Value::String))
            .collect::<Result<_>>()?,
    ))
}

fn options(u: &mut Unstructured<'_>) -> Result<Value> {
    let len = u.int_in_range(0..=3)?;
    let mut options = Vec::with_capacity(len);
    for _ in 0..len {
        let mut option = Map::new();
        option.insert("const".into(), Value::String(string(u)?));
        if u.ratio(7, 8)? {
            option.insert("title".into(), Value::String(string(u)?));
        }
        if u.ratio(1, 4)? {
            option.insert("description".into(), Value::String(string(u)?));
        }
        options.push(Value::Object(option));
    }
    Ok(Value::Array(options))
}

/// A property schema: a known `type` (usually) and a few keys, each usually
/// of the right type.
fn property(u: &mut Unstructured<'_>) -> Result<Value> {
    if u.ratio(1, 16)? {
        return value(u, 2);
    }
    let mut property = Map::new();
    if u.ratio(15, 16)? {
        let kinds = ["string", "number", "integer", "boolean", "array", "object"];
        property.insert("type".into(), Value::String(pick(u, &kinds)?.to_owned()));
    }
    for _ in 0..u.int_in_range(0..=5)? {
        let key = pick(u, SCHEMA_KEYS)?;
        property.insert(key.to_owned(), schema_field(u, key)?);
    }
    Ok(Value::Object(property))
}

/// A `requestedSchema`, as a client receives it: usually well-formed in
/// shape, with any key possibly wrong.
pub fn schema(u: &mut Unstructured<'_>) -> Result<Value> {
    if u.ratio(1, 16)? {
        return value(u, MAX_DEPTH);
    }
    let mut schema = Map::new();
    if u.ratio(7, 8)? {
        schema.insert("type".into(), "object".into());
    }
    let mut properties = Map::new();
    for _ in 0..u.int_in_range(0..=4)? {
        properties.insert(pick(u, PROPERTY_NAMES)?.to_owned(), property(u)?);
    }
    schema.insert("properties".into(), Value::Object(properties));
    if u.ratio(3, 4)? {
        let len = u.int_in_range(0..=3)?;
        let required = (0..len)
            .map(|_| pick(u, PROPERTY_NAMES).map(|n| Value::String(n.to_owned())))
            .collect::<Result<_>>()?;
        schema.insert("required".into(), Value::Array(required));
    }
    for key in ["title", "description", "_meta"] {
        if u.ratio(1, 8)? {
            schema.insert(key.into(), value(u, 1)?);
        }
    }
    Ok(Value::Object(schema))
}

/// Content for a generated schema: keyed by its property names.
pub fn schema_content(u: &mut Unstructured<'_>) -> Result<Content> {
    let mut content = Content::new();
    for _ in 0..u.int_in_range(0..=5)? {
        let key = pick(u, PROPERTY_NAMES)?.to_owned();
        let value = if u.ratio(1, 3)? {
            words(u)?
        } else {
            value(u, 2)?
        };
        content.insert(key, value);
    }
    Ok(content)
}

/// Parses `content` with the form `T` and checks what must hold whatever the
/// content: never a panic; accepted content passes the schema's own
/// `validate` and round-trips through `to_content`; content the schema
/// accepts is refused only for unknown keys (with `deny_unknown_fields`);
/// and every error names a field.
pub fn check_form<T: Elicit + PartialEq + Debug>(content: &Content) {
    let schema = T::schema();
    let validated = schema.validate(content);
    match T::from_content(content) {
        Ok(form) => {
            assert!(
                validated.is_ok(),
                "accepted, but validate refuses: {validated:?}"
            );
            let back = form.to_content();
            assert!(
                schema.validate(&back).is_ok(),
                "to_content breaks the schema: {back:?}"
            );
            let again = T::from_content(&back).expect("to_content parses back");
            assert_eq!(again, form, "round trip through {back:?}");
        }
        Err(err) => {
            assert!(!err.errors().is_empty(), "an error names no field");
            assert!(!err.to_string().is_empty());
            if validated.is_ok() {
                for e in err.errors() {
                    assert!(
                        matches!(e.kind(), FieldErrorKind::UnknownField),
                        "validate accepts, from_content refuses: {err}"
                    );
                }
            }
        }
    }
}

/// Every derived form of the suite against one content.
pub fn check_every_form(content: &Content) {
    use common::*;
    check_form::<Refactor>(content);
    check_form::<Deploy>(content);
    check_form::<Profile>(content);
    check_form::<Integers>(content);
    check_form::<Numbers>(content);
    check_form::<Optionals>(content);
    check_form::<MultiSelects>(content);
    check_form::<Renamed>(content);
    check_form::<SerdeRenamed>(content);
    check_form::<Feedback>(content);
    check_form::<Defaults>(content);
    check_form::<Reexported>(content);
    check_form::<Pick<Strategy>>(content);
    check_form::<forms::Form10>(content);
    check_form::<forms::Form1>(content);
}

// ---------------------------------------------------------------------------
// URLs and protocol messages (targets `url_review`, `client_receive`,
// `acp_convert`)

/// Schemes of generated URLs: the allowed ones in several cases, refused
/// ones, and look-alikes.
const SCHEMES: &[&str] = &[
    "https",
    "http",
    "HTTPS",
    "HtTp",
    "ftp",
    "javascript",
    "data",
    "file",
    "ws",
    "wss",
    "",
    "h",
];

/// Host labels: ASCII, Punycode (valid and not), digits and hex (IPv4 in
/// other bases), Unicode look-alikes, and characters a browser treats
/// specially.
const HOST_LABELS: &[&str] = &[
    "example",
    "com",
    "localhost",
    "xn--pple-43d",
    "xn--mnchen-3ya",
    "XN--80AK6AA92E",
    "xn--a",
    "xn--",
    "xn--zz-",
    "127",
    "0",
    "1",
    "255",
    "256",
    "0x7f",
    "0X1",
    "017",
    "4294967295",
    "\u{430}pple",
    "\u{212A}",
    "m\u{fc}nchen",
    "ex--ample",
    "a-",
    "-a",
    "%41",
    "%2e",
    "\u{ff0e}",
    "\u{3002}",
    "\u{ad}",
    "\u{200b}",
    "ß",
    "ſ",
    // `xn--` labels a browser refuses (IDNA, UTS #46): not in NFC (a
    // nukta that composes, a Thai tone mark before a vowel below), a
    // leading mark, an uppercase letter, an accent written apart from its
    // letter, mixed digits in a right-to-left label.
    "xn--l2b4b",
    "xn--12c4i0b",
    "xn--11b5f",
    "xn--mnchen-psa",
    "xn--ecole-6ed",
    "xn--1-ooc9f",
    // Right-to-left labels (Hebrew, Arabic) and a label a bidi host must
    // not have (a digit first); an emoji and a label that decodes to
    // another `xn--` label, which a browser opens and we refuse.
    "xn--4dbrk0ce",
    "xn--mgbh0fb",
    "1a",
    "xn--ls8h",
    "xn--xn---epa",
    " ",
    "\t",
    "\\",
    "",
];

/// Pieces that may follow a host: ports, paths, queries (credential-like
/// parameter names among them) and fragments.
const URL_TAILS: &[&str] = &[
    "",
    "/",
    ":443/",
    ":8080",
    ":",
    ":0",
    ":65535",
    ":65536",
    ":99999999999",
    ":-1",
    "/a/../b",
    "/%2F",
    "?q=1",
    "?access_token=x",
    "?ACCESS%5FTOKEN=x",
    "?password",
    "?api_key=1&x=2",
    "?token_count=2",
    "#frag",
    "#@evil.io",
    "\\evil.io",
    "/\\evil.io",
    "@evil.io",
    "?@x",
    "\u{0}",
    "\n",
];

/// A URL string: usually `scheme://[userinfo@]host[tail]` from the pieces
/// above, sometimes arbitrary text.
pub fn url_string(u: &mut Unstructured<'_>) -> Result<String> {
    if u.ratio(1, 8)? {
        return u.arbitrary();
    }
    let mut url = String::new();
    url.push_str(pick(u, SCHEMES)?);
    url.push_str(u.choose(&["://", ":", ":/", ":///", "//", ":\\\\", "://\t"])?);
    if u.ratio(1, 6)? {
        url.push_str(u.choose(&["user", "", ":", "u:p", "a@b", "%40"])?);
        url.push('@');
    }
    match u.int_in_range(0..=5)? {
        0 => {
            let [a, b, c, d]: [u8; 4] = u.arbitrary()?;
            url.push_str(&format!("{a}.{b}.{c}.{d}"));
        }
        1 => {
            let groups: [u16; 8] = u.arbitrary()?;
            let groups = groups.map(|g| g % 3);
            url.push_str(&format!("[{}]", std::net::Ipv6Addr::from(groups)));
        }
        2 => {
            url.push_str(u.choose(&[
                "[::1]",
                "[::ffff:1.2.3.4]",
                "[0:0:0:0:0:0:0:1]",
                "[1:2:3:4:5:6:7::]",
                "[fe80::1%25eth0]",
                "[::1",
                "[]",
                "[v1.x]",
            ])?);
        }
        _ => {
            let labels = u.int_in_range(1..=5)?;
            for i in 0..labels {
                if i > 0 {
                    url.push('.');
                }
                if u.ratio(1, 10)? {
                    let s: String = u.arbitrary()?;
                    url.push_str(&s);
                } else {
                    url.push_str(pick(u, HOST_LABELS)?);
                }
            }
            if u.ratio(1, 8)? {
                url.push('.');
            }
        }
    }
    for _ in 0..u.int_in_range(0..=3)? {
        if u.ratio(1, 8)? {
            let s: String = u.arbitrary()?;
            url.push_str(&s);
        } else {
            url.push_str(pick(u, URL_TAILS)?);
        }
    }
    Ok(url)
}

/// The `url_review` target's URL: after a first byte 0, the rest as text
/// (the seeds' form, see seeds.py); otherwise one generated by
/// [`url_string`]. `None` when the bytes make neither.
pub fn url_review_input(data: &[u8]) -> Option<String> {
    match data.split_first() {
        Some((0, rest)) => std::str::from_utf8(rest).ok().map(str::to_owned),
        _ => url_string(&mut Unstructured::new(data)).ok(),
    }
}

/// The `url_review` oracle: `UrlReview::new` and `check_url` on `url`,
/// against the WHATWG parser of the `url` crate (what a browser opens).
/// Panics when an invariant breaks (they are listed in
/// fuzz_targets/url_review.rs).
pub fn check_url_review(url: &str) {
    let ours = UrlReview::new(url);
    assert_eq!(ours.url(), url);
    assert_eq!(
        check_url(url).err().as_ref(),
        ours.verdict().rejection(),
        "check_url and UrlReview disagree on {url:?}"
    );
    if let Some((before, host, after)) = ours.split_for_display() {
        assert_eq!(format!("{before}{host}{after}"), url, "split of {url:?}");
    }

    let theirs = match url::Url::parse(url) {
        Ok(theirs) => theirs,
        // Whatever a browser refuses, its host above all (an IDN label
        // UTS #46 refuses, a bad IP address, a forbidden character), we
        // refuse.
        Err(e) => {
            let what = match e {
                url::ParseError::EmptyHost
                | url::ParseError::IdnaError
                | url::ParseError::InvalidIpv4Address
                | url::ParseError::InvalidIpv6Address
                | url::ParseError::InvalidDomainCharacter => "its host",
                _ => "it",
            };
            assert!(
                ours.verdict().is_refused(),
                "{url:?}: a browser refuses {what} ({e}), and we allow it"
            );
            return;
        }
    };
    if !theirs.username().is_empty() || theirs.password().is_some() {
        assert!(
            ours.verdict().is_refused(),
            "{url:?}: a browser sees userinfo, and we allow it"
        );
    }
    if ours.verdict().is_refused() {
        return;
    }
    assert_eq!(Some(theirs.scheme()), ours.scheme(), "scheme of {url:?}");
    assert_eq!(theirs.username(), "", "username in {url:?}");
    assert_eq!(theirs.password(), None, "password in {url:?}");
    // Exactly the host a browser shows, of the same kind.
    let shown = ours
        .host()
        .unwrap_or_else(|| panic!("{url:?}: allowed without a host"));
    assert_eq!(theirs.host_str(), Some(shown), "host of {url:?}");
    // An IP host (never a domain) is the one the review warns about.
    let ip = match theirs.host() {
        Some(url::Host::Domain(_)) => false,
        Some(url::Host::Ipv4(_) | url::Host::Ipv6(_)) => true,
        None => unreachable!("the host is {shown:?}"),
    };
    assert_eq!(
        ours.warnings().contains(&UrlWarning::IpLiteral),
        ip,
        "IP host warned of in {url:?}"
    );
}

/// Elicitation ids: few, so that requests, completions and `forget`s of
/// the same id meet.
pub const IDS: &[&str] = &["e1", "e2", "github-oauth-001", "", "E1", "e1 "];

fn scope_into(u: &mut Unstructured<'_>, params: &mut Map<String, Value>) -> Result<()> {
    match u.int_in_range(0..=5)? {
        0 => {
            params.insert("sessionId".into(), "sess_1".into());
        }
        1 => {
            params.insert("sessionId".into(), "sess_1".into());
            params.insert("toolCallId".into(), "call_1".into());
        }
        2 => {
            params.insert("requestId".into(), Value::from(u.int_in_range(-3i64..=3)?));
        }
        3 => {
            params.insert("requestId".into(), Value::String(string(u)?));
        }
        4 => {
            params.insert("requestId".into(), Value::Null);
        }
        _ => {
            // Any scope key with any value, or none at all.
            for key in ["sessionId", "toolCallId", "requestId"] {
                if u.ratio(1, 3)? {
                    params.insert(key.into(), value(u, 1)?);
                }
            }
        }
    }
    Ok(())
}

/// The params of an `elicitation/create` request: usually the shape of a
/// form or URL request (any member possibly missing or of the wrong type),
/// sometimes any JSON value.
pub fn request_params(u: &mut Unstructured<'_>) -> Result<Value> {
    if u.ratio(1, 16)? {
        return value(u, MAX_DEPTH);
    }
    let mut params = Map::new();
    scope_into(u, &mut params)?;
    let mode = *u.choose(&["form", "url", "url", "other", "Form", ""])?;
    if u.ratio(15, 16)? {
        params.insert("mode".into(), mode.into());
    }
    if u.ratio(15, 16)? {
        params.insert("message".into(), Value::String(string(u)?));
    }
    match mode {
        "form" => {
            params.insert("requestedSchema".into(), schema(u)?);
        }
        "url" => {
            if u.ratio(15, 16)? {
                params.insert("elicitationId".into(), pick(u, IDS)?.into());
            }
            if u.ratio(15, 16)? {
                params.insert("url".into(), Value::String(url_string(u)?));
            }
        }
        _ => {}
    }
    for _ in 0..u.int_in_range(0..=2)? {
        let key = *u.choose(&[
            "_meta",
            "requestedSchema",
            "url",
            "elicitationId",
            "mode",
            "extra",
        ])?;
        params.insert(key.into(), value(u, 2)?);
    }
    Ok(Value::Object(params))
}

/// Whether the JSON text has an object with a key twice (serde_json's
/// `Value` keeps the last one; a derived struct may refuse the text).
/// `None` when the text is not JSON.
pub fn has_duplicate_keys(text: &str) -> Option<bool> {
    use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
    use std::collections::HashSet;
    use std::fmt;

    struct Dup(bool);
    impl<'de> serde::Deserialize<'de> for Dup {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            d.deserialize_any(DupVisitor)
        }
    }
    struct DupVisitor;
    impl<'de> Visitor<'de> for DupVisitor {
        type Value = Dup;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("JSON")
        }
        fn visit_bool<E>(self, _: bool) -> std::result::Result<Dup, E> {
            Ok(Dup(false))
        }
        fn visit_i64<E>(self, _: i64) -> std::result::Result<Dup, E> {
            Ok(Dup(false))
        }
        fn visit_u64<E>(self, _: u64) -> std::result::Result<Dup, E> {
            Ok(Dup(false))
        }
        fn visit_f64<E>(self, _: f64) -> std::result::Result<Dup, E> {
            Ok(Dup(false))
        }
        fn visit_str<E>(self, _: &str) -> std::result::Result<Dup, E> {
            Ok(Dup(false))
        }
        fn visit_unit<E>(self) -> std::result::Result<Dup, E> {
            Ok(Dup(false))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Dup, A::Error> {
            let mut dup = false;
            while let Some(Dup(d)) = seq.next_element()? {
                dup |= d;
            }
            Ok(Dup(dup))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Dup, A::Error> {
            let mut dup = false;
            let mut keys = HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                dup |= !keys.insert(key);
                let Dup(d) = map.next_value()?;
                dup |= d;
            }
            Ok(Dup(dup))
        }
    }
    serde_json::from_str::<Dup>(text).ok().map(|Dup(d)| d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays the committed inputs of the `url_review` target (its seeds
    /// and findings) through its oracle, then inputs made of pseudo-random
    /// bytes: `cargo test --lib` here, on stable, without libFuzzer.
    #[test]
    fn url_review_replay() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut replayed = 0;
        for dir in ["seeds/url_review", "findings/url_review"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            for entry in entries {
                let data = std::fs::read(entry.unwrap().path()).unwrap();
                if let Some(url) = url_review_input(&data) {
                    check_url_review(&url);
                    replayed += 1;
                }
            }
        }
        assert!(replayed > 100, "{replayed} committed inputs");
        // xorshift64: the same inputs on every run.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200_000 {
            let len = 1 + next() % 64;
            let data: Vec<u8> = (0..len).map(|_| next().to_le_bytes()[0]).collect();
            if let Some(url) = url_review_input(&data) {
                check_url_review(&url);
            }
        }
    }
}
