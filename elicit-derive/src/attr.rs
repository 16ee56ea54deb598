//! Parsing `#[elicit(..)]`, `#[secret]`, doc comments and serde's renames.
//!
//! Parsing records what was written, with spans; whether it makes sense is
//! decided in `valid.rs`. Every problem goes to the [`Ctxt`], never stops the
//! parse of the other attributes.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Lit, LitStr, Token};

use crate::ctxt::Ctxt;

/// A value with the span of what the user wrote.
#[derive(Clone)]
pub struct Sp<T> {
    pub value: T,
    pub span: Span,
}

fn sp<T>(value: T, span: Span) -> Sp<T> {
    Sp { value, span }
}

/// A number literal in `range(..)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i128),
    Float(f64),
}

/// `range(min = .., max = ..)` or `length(min = .., max = ..)`.
#[derive(Clone)]
pub struct Bounds<T> {
    pub min: Option<Sp<T>>,
    pub max: Option<Sp<T>>,
    /// The span of the whole `range(..)` / `length(..)`.
    pub span: Option<Span>,
}

impl<T> Default for Bounds<T> {
    fn default() -> Self {
        Self {
            min: None,
            max: None,
            span: None,
        }
    }
}

/// A known string format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KnownFormat {
    Email,
    Uri,
    Date,
    DateTime,
}

impl KnownFormat {
    pub fn wire(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Uri => "uri",
            Self::Date => "date",
            Self::DateTime => "date-time",
        }
    }
}

/// `email` / `uri` / `date` / `date_time` or `format = ".."`.
#[derive(Clone)]
pub enum FormatAttr {
    Known(KnownFormat),
    Custom(String),
}

/// The field attributes.
#[derive(Default)]
pub struct FieldAttrs {
    pub title: Option<Sp<String>>,
    pub description: Option<Sp<String>>,
    pub doc: Option<String>,
    pub range: Bounds<Number>,
    pub length: Bounds<u64>,
    pub pattern: Option<Sp<String>>,
    /// Every format attribute written (more than one is an error).
    pub formats: Vec<Sp<FormatAttr>>,
    pub default: Option<Sp<Expr>>,
    pub rename: Option<Sp<String>>,
    pub serde_rename: Option<String>,
    pub skip: Option<Span>,
    pub flatten: Option<Span>,
    /// `#[secret]` or `#[elicit(secret)]`.
    pub secret: Option<Span>,
    pub not_secret: Option<Sp<String>>,
}

impl FieldAttrs {
    /// Spans of the attributes that shape the schema (not allowed with `skip`).
    pub fn schema_attr_spans(&self) -> Vec<(&'static str, Span)> {
        let mut spans = Vec::new();
        let mut add = |name, span: Option<Span>| {
            if let Some(span) = span {
                spans.push((name, span));
            }
        };
        add("title", self.title.as_ref().map(|s| s.span));
        add("description", self.description.as_ref().map(|s| s.span));
        add("range", self.range.span);
        add("length", self.length.span);
        add("pattern", self.pattern.as_ref().map(|s| s.span));
        for f in &self.formats {
            add("format", Some(f.span));
        }
        add("default", self.default.as_ref().map(|s| s.span));
        add("rename", self.rename.as_ref().map(|s| s.span));
        add("flatten", self.flatten);
        spans
    }
}

/// The container (struct or enum) attributes.
#[derive(Default)]
pub struct ContainerAttrs {
    pub title: Option<Sp<String>>,
    pub description: Option<Sp<String>>,
    pub doc: Option<String>,
    pub rename_all: Option<Sp<String>>,
    pub serde_rename_all: Option<Sp<String>>,
    pub deny_unknown_fields: Option<Span>,
    pub allow_empty: Option<Span>,
    pub krate: Option<syn::Path>,
}

/// The variant attributes.
#[derive(Default)]
pub struct VariantAttrs {
    pub title: Option<Sp<String>>,
    pub description: Option<Sp<String>>,
    pub doc: Option<String>,
    pub rename: Option<Sp<String>>,
    pub serde_rename: Option<String>,
}

pub const FIELD_KEYS: &[&str] = &[
    "title",
    "description",
    "range",
    "length",
    "pattern",
    "email",
    "uri",
    "date",
    "date_time",
    "format",
    "default",
    "rename",
    "skip",
    "flatten",
    "secret",
    "not_secret",
];
pub const CONTAINER_KEYS: &[&str] = &[
    "title",
    "description",
    "rename_all",
    "deny_unknown_fields",
    "allow_empty",
    "crate",
];
pub const VARIANT_KEYS: &[&str] = &["title", "description", "rename"];

pub fn parse_field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs {
        doc: doc_comment(attrs),
        ..FieldAttrs::default()
    };
    for attr in attrs {
        if attr.path().is_ident("secret") {
            out.secret = Some(attr.path().span());
        } else if attr.path().is_ident("serde") {
            out.serde_rename = serde_rename(attr, "rename");
        } else if attr.path().is_ident("elicit") {
            each(cx, attr, |meta, key| {
                match key.as_str() {
                    "title" => set(cx, &meta, &mut out.title, lit_string(&meta)?),
                    "description" => set(cx, &meta, &mut out.description, lit_string(&meta)?),
                    "pattern" => set(cx, &meta, &mut out.pattern, lit_string(&meta)?),
                    "rename" => set(cx, &meta, &mut out.rename, lit_string(&meta)?),
                    "not_secret" => set(cx, &meta, &mut out.not_secret, lit_string(&meta)?),
                    "range" => {
                        if dup(cx, &meta, out.range.span.is_some()) {
                            return Ok(());
                        }
                        out.range = bounds(cx, &meta, number)?;
                    }
                    "length" => {
                        if dup(cx, &meta, out.length.span.is_some()) {
                            return Ok(());
                        }
                        out.length = bounds(cx, &meta, unsigned)?;
                    }
                    "email" | "uri" | "date" | "date_time" => {
                        let known = match key.as_str() {
                            "email" => KnownFormat::Email,
                            "uri" => KnownFormat::Uri,
                            "date" => KnownFormat::Date,
                            _ => KnownFormat::DateTime,
                        };
                        flag(cx, &meta)?;
                        out.formats
                            .push(sp(FormatAttr::Known(known), meta.path.span()));
                    }
                    "format" => {
                        let s = lit_string(&meta)?;
                        let format = match s.value.as_str() {
                            "email" => FormatAttr::Known(KnownFormat::Email),
                            "uri" => FormatAttr::Known(KnownFormat::Uri),
                            "date" => FormatAttr::Known(KnownFormat::Date),
                            "date-time" => FormatAttr::Known(KnownFormat::DateTime),
                            other => FormatAttr::Custom(other.to_owned()),
                        };
                        out.formats.push(sp(format, s.span));
                    }
                    "default" => {
                        let expr: Expr = meta.value()?.parse()?;
                        let span = meta.path.span();
                        if out.default.is_some() {
                            cx.error_at(span, "duplicate `default` attribute: remove one");
                        } else {
                            out.default = Some(sp(expr, span));
                        }
                    }
                    "skip" => set_flag(cx, &meta, &mut out.skip)?,
                    "flatten" => set_flag(cx, &meta, &mut out.flatten)?,
                    "secret" => set_flag(cx, &meta, &mut out.secret)?,
                    _ => unknown(cx, &meta, &key, "field", FIELD_KEYS)?,
                }
                Ok(())
            });
        }
    }
    out
}

pub fn parse_container(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
    let mut out = ContainerAttrs {
        doc: doc_comment(attrs),
        ..ContainerAttrs::default()
    };
    for attr in attrs {
        if attr.path().is_ident("serde") {
            out.serde_rename_all = serde_rename_all(attr);
        } else if attr.path().is_ident("elicit") {
            each(cx, attr, |meta, key| {
                match key.as_str() {
                    "title" => set(cx, &meta, &mut out.title, lit_string(&meta)?),
                    "description" => set(cx, &meta, &mut out.description, lit_string(&meta)?),
                    "rename_all" => set(cx, &meta, &mut out.rename_all, lit_string(&meta)?),
                    "deny_unknown_fields" => set_flag(cx, &meta, &mut out.deny_unknown_fields)?,
                    "allow_empty" => set_flag(cx, &meta, &mut out.allow_empty)?,
                    "crate" => {
                        let s = lit_string(&meta)?;
                        match syn::parse_str::<syn::Path>(&s.value) {
                            Ok(path) if out.krate.is_none() => out.krate = Some(path),
                            Ok(_) => cx.error_at(s.span, "duplicate `crate` attribute: remove one"),
                            Err(_) => cx.error_at(
                                s.span,
                                format!(
                                    "`crate = \"{}\"` is not a path: write the path elicit_core is \
                                     re-exported at, e.g. `crate = \"my_sdk::elicit\"`",
                                    s.value
                                ),
                            ),
                        }
                    }
                    _ => unknown(cx, &meta, &key, "container", CONTAINER_KEYS)?,
                }
                Ok(())
            });
        }
    }
    out
}

pub fn parse_variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut out = VariantAttrs {
        doc: doc_comment(attrs),
        ..VariantAttrs::default()
    };
    for attr in attrs {
        if attr.path().is_ident("serde") {
            out.serde_rename = serde_rename(attr, "rename");
        } else if attr.path().is_ident("elicit") {
            each(cx, attr, |meta, key| {
                match key.as_str() {
                    "title" => set(cx, &meta, &mut out.title, lit_string(&meta)?),
                    "description" => set(cx, &meta, &mut out.description, lit_string(&meta)?),
                    "rename" => set(cx, &meta, &mut out.rename, lit_string(&meta)?),
                    _ => unknown(cx, &meta, &key, "variant", VARIANT_KEYS)?,
                }
                Ok(())
            });
        }
    }
    out
}

/// Runs `f` on each item of `#[elicit(..)]`; a syntax error is recorded and
/// ends only this attribute.
fn each<F>(cx: &Ctxt, attr: &Attribute, mut f: F)
where
    F: FnMut(ParseNestedMeta<'_>, String) -> syn::Result<()>,
{
    if let syn::Meta::Path(_) = attr.meta {
        cx.error_spanned_by(
            attr,
            "`#[elicit]` needs arguments, e.g. `#[elicit(title = \"..\")]`",
        );
        return;
    }
    let result = attr.parse_nested_meta(|meta| {
        let key = match meta.path.get_ident() {
            Some(ident) => ident.to_string(),
            None => {
                cx.error_spanned_by(&meta.path, "expected a single attribute name, not a path");
                return skip_value(&meta);
            }
        };
        f(meta, key)
    });
    if let Err(err) = result {
        cx.syn_error(err);
    }
}

/// Consumes `= value` or `(..)` after a key we could not use.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

fn unknown(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    what: &str,
    known: &[&str],
) -> syn::Result<()> {
    let hint = match did_you_mean(key, known) {
        Some(best) => format!("; did you mean `{best}`?"),
        None => format!("; expected one of: {}", known.join(", ")),
    };
    cx.error_spanned_by(
        &meta.path,
        format!("unknown {what} attribute `{key}`{hint}"),
    );
    skip_value(meta)
}

/// The closest known name, if it is close enough to be a typo.
pub fn did_you_mean<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (edit_distance(key, k), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// The attribute's name as written (`title` in `title = ".."`).
fn key_of(meta: &ParseNestedMeta<'_>) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default()
}

fn duplicate(cx: &Ctxt, meta: &ParseNestedMeta<'_>) {
    cx.error_spanned_by(
        &meta.path,
        format!("duplicate `{}` attribute: remove one", key_of(meta)),
    );
}

fn dup(cx: &Ctxt, meta: &ParseNestedMeta<'_>, already: bool) -> bool {
    if already {
        duplicate(cx, meta);
        let _ = skip_value(meta);
    }
    already
}

fn set<T>(cx: &Ctxt, meta: &ParseNestedMeta<'_>, slot: &mut Option<Sp<T>>, value: Sp<T>) {
    if slot.is_some() {
        duplicate(cx, meta);
    } else {
        *slot = Some(value);
    }
}

/// A bare flag: `skip`, not `skip = ..`.
fn flag(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        let key = key_of(meta);
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` takes no value: write `#[elicit({key})]`"),
        );
        skip_value(meta)?;
    }
    Ok(())
}

fn set_flag(cx: &Ctxt, meta: &ParseNestedMeta<'_>, slot: &mut Option<Span>) -> syn::Result<()> {
    flag(cx, meta)?;
    if slot.is_some() {
        duplicate(cx, meta);
    } else {
        *slot = Some(meta.path.span());
    }
    Ok(())
}

fn lit_string(meta: &ParseNestedMeta<'_>) -> syn::Result<Sp<String>> {
    let key = key_of(meta);
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("`{key}` needs a string: `{key} = \"..\"`")));
    }
    let expr: Expr = meta.value()?.parse()?;
    match &expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(sp(s.value(), s.span())),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{key}` takes a string literal: `{key} = \"..\"`"),
        )),
    }
}

/// Parses `(min = .., max = ..)`.
fn bounds<T>(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    parse: fn(&str, &Expr) -> syn::Result<T>,
) -> syn::Result<Bounds<T>> {
    let key = key_of(meta);
    let mut out = Bounds {
        min: None,
        max: None,
        span: Some(meta.path.span()),
    };
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!(
            "`{key}` takes bounds: `{key}(min = .., max = ..)` (either may be left out)"
        )));
    }
    let mut unknown_bound = false;
    meta.parse_nested_meta(|inner| {
        let which = key_of(&inner);
        let slot = match which.as_str() {
            "min" => &mut out.min,
            "max" => &mut out.max,
            _ => {
                let hint = did_you_mean(&which, &["min", "max"])
                    .map(|k| format!("; did you mean `{k}`?"))
                    .unwrap_or_default();
                cx.error_spanned_by(
                    &inner.path,
                    format!("unknown `{key}` bound `{which}`: expected `min` or `max`{hint}"),
                );
                unknown_bound = true;
                return skip_value(&inner);
            }
        };
        let expr: Expr = inner.value()?.parse()?;
        let value = parse(&key, &expr)?;
        if slot.is_some() {
            cx.error_spanned_by(&inner.path, format!("duplicate `{which}` in `{key}`"));
        } else {
            *slot = Some(sp(value, expr.span()));
        }
        Ok(())
    })?;
    if out.min.is_none() && out.max.is_none() && !unknown_bound {
        cx.error_at(
            meta.path.span(),
            format!("`{key}()` is empty: give `min = ..`, `max = ..`, or both"),
        );
    }
    Ok(out)
}

fn number(key: &str, expr: &Expr) -> syn::Result<Number> {
    let (negative, lit) = match expr {
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => (true, &**expr),
        other => (false, other),
    };
    let err = || {
        syn::Error::new_spanned(
            expr,
            format!("`{key}` bounds must be number literals, e.g. `{key}(min = 1, max = 16)`"),
        )
    };
    let Expr::Lit(syn::ExprLit { lit, .. }) = lit else {
        return Err(err());
    };
    match lit {
        Lit::Int(i) => {
            let n: i128 = i
                .base10_parse()
                .map_err(|_| syn::Error::new_spanned(i, "this bound does not fit in 128 bits"))?;
            Ok(Number::Int(if negative { -n } else { n }))
        }
        Lit::Float(f) => {
            let x: f64 = f.base10_parse()?;
            if !x.is_finite() {
                return Err(syn::Error::new_spanned(f, "bounds must be finite numbers"));
            }
            Ok(Number::Float(if negative { -x } else { x }))
        }
        _ => Err(err()),
    }
}

fn unsigned(key: &str, expr: &Expr) -> syn::Result<u64> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse().map_err(|_| {
            syn::Error::new_spanned(i, format!("`{key}` bounds must be non-negative integers"))
        }),
        other => Err(syn::Error::new_spanned(
            other,
            format!(
                "`{key}` bounds must be non-negative integer literals, e.g. `{key}(min = 1, max = 64)`"
            ),
        )),
    }
}

/// The doc comment, as a description: lines of a paragraph joined with a
/// space, paragraphs separated by a blank line.
fn doc_comment(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(syn::ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            let value = s.value();
            if value.trim().is_empty() {
                lines.push(String::new());
            }
            for line in value.lines() {
                lines.push(line.trim().to_owned());
            }
        }
    }
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines {
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(&line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    (!paragraphs.is_empty()).then(|| paragraphs.join("\n\n"))
}

/// `#[serde(rename = "..")]` (or `rename(deserialize = "..")`, which is the
/// name content is read by).
fn serde_rename(attr: &Attribute, key: &str) -> Option<String> {
    let mut found = None;
    let _ = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident(key) {
            if meta.input.peek(Token![=]) {
                let s: LitStr = meta.value()?.parse()?;
                found = Some(s.value());
            } else if meta.input.peek(syn::token::Paren) {
                meta.parse_nested_meta(|inner| {
                    if inner.path.is_ident("deserialize") {
                        let s: LitStr = inner.value()?.parse()?;
                        found = Some(s.value());
                    } else {
                        skip_value(&inner)?;
                    }
                    Ok(())
                })?;
            }
        } else {
            skip_value(&meta)?;
        }
        Ok(())
    });
    found
}

fn serde_rename_all(attr: &Attribute) -> Option<Sp<String>> {
    let mut found = None;
    let _ = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident("rename_all") && meta.input.peek(Token![=]) {
            let s: LitStr = meta.value()?.parse()?;
            found = Some(sp(s.value(), s.span()));
        } else {
            skip_value(&meta)?;
        }
        Ok(())
    });
    found
}
