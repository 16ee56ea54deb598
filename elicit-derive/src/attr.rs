//! Parsing `#[elicit(..)]`, `#[secret]`, doc comments and serde's renames.
//!
//! Parsing records what was written, with spans; whether it makes sense is
//! decided in `valid.rs`. Every problem goes to the [`Ctxt`], never stops the
//! parse of the other attributes.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Lit, LitStr, Token};

use crate::ctxt::Ctxt;

/// A value with the span of what the user wrote.
pub struct Sp<T> {
    pub value: T,
    /// Where errors about the value point.
    pub span: Span,
}

/// `value` spanned at `span`.
fn sp<T>(value: T, span: Span) -> Sp<T> {
    Sp { value, span }
}

/// A number literal in `range(..)` (or a literal default).
#[derive(Clone, Copy)]
pub enum Number {
    /// Written without a decimal point: `-3`.
    Int(i128),
    /// Written with one: `2.5`.
    Float(f64),
}

/// `range(min = .., max = ..)` or `length(min = .., max = ..)`.
pub struct Bounds<T> {
    /// `min = ..`, spanned on the value.
    pub min: Option<Sp<T>>,
    /// `max = ..`, spanned on the value.
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

/// A string format elicit-core knows and checks answers against.
///
/// [`KNOWN_FORMATS`] is the one list of them: the attribute keys, the
/// `format = ".."` names, the generated `Format` variants and the default
/// checks all come from it.
pub struct KnownFormat {
    /// The attribute key that asks for it: `#[elicit(date_time)]`.
    pub key: &'static str,
    /// Its name on the wire (the schema's `format`), also accepted as
    /// `format = ".."`.
    pub wire: &'static str,
    /// The variant of elicit-core's `__private::Format` it generates.
    pub variant: &'static str,
    /// The elicit-core function, in `elicit_core::format`, that a literal
    /// default must pass.
    pub check: &'static str,
    /// The variant of elicit-core's `LiteralRule` for the same check (what a
    /// string default of a transparent newtype with this format must pass).
    pub literal: &'static str,
}

/// Every known format, in the order the attribute keys are listed in
/// messages.
pub const KNOWN_FORMATS: &[KnownFormat] = &[
    KnownFormat {
        key: "email",
        wire: "email",
        variant: "Email",
        check: "is_email",
        literal: "Email",
    },
    KnownFormat {
        key: "uri",
        wire: "uri",
        variant: "Uri",
        check: "is_uri",
        literal: "Uri",
    },
    KnownFormat {
        key: "date",
        wire: "date",
        variant: "Date",
        check: "is_date",
        literal: "Date",
    },
    KnownFormat {
        key: "date_time",
        wire: "date-time",
        variant: "DateTime",
        check: "is_date_time",
        literal: "DateTime",
    },
];

impl KnownFormat {
    /// The format asked for by the attribute key `key`, if it is one.
    fn from_key(key: &str) -> Option<&'static Self> {
        KNOWN_FORMATS.iter().find(|f| f.key == key)
    }

    /// The format named `wire` in `format = ".."`, if elicit-core knows it.
    fn from_wire(wire: &str) -> Option<&'static Self> {
        KNOWN_FORMATS.iter().find(|f| f.wire == wire)
    }
}

/// A format attribute: a known format's key, or `format = ".."`.
pub enum FormatAttr {
    /// One of [`KNOWN_FORMATS`], by its key or its wire name.
    Known(&'static KnownFormat),
    /// Any other `format = ".."`, kept as an annotation.
    Custom(String),
}

/// The field attributes.
pub struct FieldAttrs {
    /// `title = ".."`.
    pub title: Option<Sp<String>>,
    /// `description = ".."`.
    pub description: Option<Sp<String>>,
    /// The doc comment (the description when none is written).
    pub doc: Option<String>,
    /// `range(min = .., max = ..)`.
    pub range: Bounds<Number>,
    /// `length(min = .., max = ..)`.
    pub length: Bounds<u64>,
    /// `pattern = ".."`.
    pub pattern: Option<Sp<String>>,
    /// Every format attribute written (more than one is an error).
    pub formats: Vec<Sp<FormatAttr>>,
    /// `default = expr`, spanned on the `default` key.
    pub default: Option<Sp<Expr>>,
    /// `rename = ".."`.
    pub rename: Option<Sp<String>>,
    /// `#[serde(rename = "..")]`.
    pub serde_rename: Option<String>,
    /// `skip`, spanned on the key.
    pub skip: Option<Span>,
    /// `flatten`, spanned on the key.
    pub flatten: Option<Span>,
    /// `#[secret]` or `#[elicit(secret)]`.
    pub secret: Option<Span>,
    /// `user_only`, spanned on the key: the model may not fill it.
    pub user_only: Option<Span>,
    /// `not_secret = "reason"`.
    pub not_secret: Option<Sp<String>>,
}

impl FieldAttrs {
    /// The names of the attributes written that shape the schema (none of
    /// them has an effect with `skip`), once per use.
    pub fn schema_attr_names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        let mut add = |name, written: bool| {
            if written {
                names.push(name);
            }
        };
        add("title", self.title.is_some());
        add("description", self.description.is_some());
        add("range", self.range.span.is_some());
        add("length", self.length.span.is_some());
        add("pattern", self.pattern.is_some());
        for _ in &self.formats {
            add("format", true);
        }
        add("default", self.default.is_some());
        add("rename", self.rename.is_some());
        add("flatten", self.flatten.is_some());
        add("user_only", self.user_only.is_some());
        names
    }
}

/// The container (struct or enum) attributes.
pub struct ContainerAttrs {
    /// `title = ".."`.
    pub title: Option<Sp<String>>,
    /// `description = ".."`.
    pub description: Option<Sp<String>>,
    /// The doc comment (the description when none is written).
    pub doc: Option<String>,
    /// `rename_all = ".."`, as written.
    pub rename_all: Option<Sp<String>>,
    /// `#[serde(rename_all = "..")]`, as written.
    pub serde_rename_all: Option<Sp<String>>,
    /// `deny_unknown_fields`, spanned on the key.
    pub deny_unknown_fields: Option<Span>,
    /// `allow_empty`, spanned on the key.
    pub allow_empty: Option<Span>,
    /// `crate = ".."`: the path elicit-core is reached by.
    pub krate: Option<syn::Path>,
    /// `transparent`, spanned on the key: a newtype that is one form value.
    pub transparent: Option<Span>,
    /// `try_from = "Type"`, spanned on the string.
    pub try_from: Option<Sp<syn::Type>>,
    /// `from = "Type"`, spanned on the string.
    pub from: Option<Sp<syn::Type>>,
    /// `into = "Type"`, spanned on the string.
    pub into: Option<Sp<syn::Type>>,
    /// `sensitive`, spanned on the key: a form collected on a page (URL
    /// mode), whose `#[secret]` fields are `SecretString`s.
    pub sensitive: Option<Span>,
    /// `check = path`: the form's own rule, a `fn(&Form) -> Result<(),
    /// ContentError>`, spanned on the key (the path keeps its own spans).
    pub check: Option<Sp<syn::ExprPath>>,
}

impl ContainerAttrs {
    /// The names of the attributes written that shape a form (none of them
    /// has an effect on a `transparent` or converted type), with their spans.
    pub fn form_attrs(&self) -> Vec<(&'static str, Span)> {
        let mut out = Vec::new();
        if let Some(t) = &self.title {
            out.push(("title", t.span));
        }
        if let Some(d) = &self.description {
            out.push(("description", d.span));
        }
        if let Some(r) = &self.rename_all {
            out.push(("rename_all", r.span));
        }
        if let Some(span) = self.deny_unknown_fields {
            out.push(("deny_unknown_fields", span));
        }
        if let Some(span) = self.allow_empty {
            out.push(("allow_empty", span));
        }
        if let Some(span) = self.sensitive {
            out.push(("sensitive", span));
        }
        if let Some(check) = &self.check {
            out.push(("check", check.span));
        }
        out
    }

    /// `try_from` or `from`, whichever is written (`try_from` first).
    pub fn conversion(&self) -> Option<&Sp<syn::Type>> {
        self.try_from.as_ref().or(self.from.as_ref())
    }
}

/// The variant attributes.
pub struct VariantAttrs {
    /// `title = ".."`.
    pub title: Option<Sp<String>>,
    /// `description = ".."`.
    pub description: Option<Sp<String>>,
    /// The doc comment (the description when none is written).
    pub doc: Option<String>,
    /// `rename = ".."`.
    pub rename: Option<Sp<String>>,
    /// `#[serde(rename = "..")]`.
    pub serde_rename: Option<String>,
}

/// Every field attribute key, for suggestions and the list in messages.
fn field_keys() -> Vec<&'static str> {
    let mut keys = vec!["title", "description", "range", "length", "pattern"];
    keys.extend(KNOWN_FORMATS.iter().map(|f| f.key));
    keys.extend([
        "format",
        "default",
        "rename",
        "skip",
        "flatten",
        "secret",
        "not_secret",
        "user_only",
    ]);
    keys
}

/// Every container attribute key.
const CONTAINER_KEYS: &[&str] = &[
    "title",
    "description",
    "rename_all",
    "deny_unknown_fields",
    "allow_empty",
    "crate",
    "transparent",
    "try_from",
    "from",
    "into",
    "sensitive",
    "check",
];

/// Every variant attribute key.
const VARIANT_KEYS: &[&str] = &["title", "description", "rename"];

/// One attribute while the `#[elicit(..)]` items are read: the first value
/// written, and the name a second one is reported by.
struct Attr<'c, T> {
    cx: &'c Ctxt,
    name: &'static str,
    /// The attribute this is a bound of (`range` for `min` in `range(..)`).
    within: Option<&'static str>,
    value: Option<Sp<T>>,
}

impl<'c, T> Attr<'c, T> {
    /// The attribute `name`, not written yet.
    fn none(cx: &'c Ctxt, name: &'static str) -> Self {
        Self {
            cx,
            name,
            within: None,
            value: None,
        }
    }

    /// The bound `name` (`min`, `max`) of `within(..)`, not written yet.
    fn bound(cx: &'c Ctxt, name: &'static str, within: &'static str) -> Self {
        Self {
            within: Some(within),
            ..Self::none(cx, name)
        }
    }

    /// Records `value`, written at `at`. A second value is reported at `at`
    /// as a duplicate and dropped; the first one stays.
    fn set(&mut self, at: Span, value: Sp<T>) {
        if self.value.is_some() {
            self.duplicate(at);
        } else {
            self.value = Some(value);
        }
    }

    /// Records a bare flag (`skip`, not `skip = ..`) at its key.
    fn set_flag(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()>
    where
        T: Default,
    {
        flag(self.cx, meta)?;
        let span = meta.path.span();
        self.set(span, sp(T::default(), span));
        Ok(())
    }

    /// For an attribute whose value is read only once (`range(..)`,
    /// `length(..)`): when it is already set, reports `meta` as a duplicate,
    /// consumes its value unread and returns `true`.
    fn is_set_again(&self, meta: &ParseNestedMeta<'_>) -> bool {
        if self.value.is_none() {
            return false;
        }
        self.duplicate(meta.path.span());
        let _ = skip_value(meta);
        true
    }

    /// Records `value` in place of any earlier one, without a duplicate
    /// error: for `#[secret]`, a marker attribute.
    fn overwrite(&mut self, value: Sp<T>) {
        self.value = Some(value);
    }

    /// Reports a second value at `at`.
    fn duplicate(&self, at: Span) {
        let name = self.name;
        let message = match self.within {
            None => format!("duplicate `{name}` attribute: remove one"),
            Some(within) => format!("duplicate `{name}` in `{within}`"),
        };
        self.cx.error_at(at, message);
    }

    /// The value written, if any.
    fn get(self) -> Option<Sp<T>> {
        self.value
    }

    /// Where the attribute was written, if it was (for flags).
    fn span(self) -> Option<Span> {
        self.value.map(|v| v.span)
    }
}

/// Reads the attributes of a field.
pub fn parse_field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut title = Attr::none(cx, "title");
    let mut description = Attr::none(cx, "description");
    let mut range = Attr::none(cx, "range");
    let mut length = Attr::none(cx, "length");
    let mut pattern = Attr::none(cx, "pattern");
    let mut formats = Vec::new();
    let mut default = Attr::none(cx, "default");
    let mut rename = Attr::none(cx, "rename");
    let mut serde_rename_value = None;
    let mut skip = Attr::<()>::none(cx, "skip");
    let mut flatten = Attr::<()>::none(cx, "flatten");
    let mut secret = Attr::<()>::none(cx, "secret");
    let mut not_secret = Attr::none(cx, "not_secret");
    let mut user_only = Attr::<()>::none(cx, "user_only");
    for attr in attrs {
        if attr.path().is_ident("secret") {
            secret.overwrite(sp((), attr.path().span()));
        } else if attr.path().is_ident("serde") {
            // A `#[serde(..)]` without a rename keeps the one already read.
            serde_rename_value = serde_rename(attr).or(serde_rename_value);
        } else if attr.path().is_ident("elicit") {
            each(cx, attr, |meta, key| {
                let at = meta.path.span();
                match key.as_str() {
                    "title" => title.set(at, lit_string(&meta)?),
                    "description" => description.set(at, lit_string(&meta)?),
                    "pattern" => pattern.set(at, lit_string(&meta)?),
                    "rename" => rename.set(at, lit_string(&meta)?),
                    "not_secret" => not_secret.set(at, lit_string(&meta)?),
                    "range" => {
                        if !range.is_set_again(&meta) {
                            range.set(at, sp(bounds(cx, &meta, "range", number)?, at));
                        }
                    }
                    "length" => {
                        if !length.is_set_again(&meta) {
                            length.set(at, sp(bounds(cx, &meta, "length", unsigned)?, at));
                        }
                    }
                    "format" => {
                        let s = lit_string(&meta)?;
                        let format = match KnownFormat::from_wire(&s.value) {
                            Some(known) => FormatAttr::Known(known),
                            None => FormatAttr::Custom(s.value),
                        };
                        formats.push(sp(format, s.span));
                    }
                    "default" => {
                        let expr = expression(meta.value()?)?;
                        default.set(at, sp(expr, at));
                    }
                    "skip" => skip.set_flag(&meta)?,
                    "flatten" => flatten.set_flag(&meta)?,
                    "secret" => secret.set_flag(&meta)?,
                    "user_only" => user_only.set_flag(&meta)?,
                    "check" => misplaced_check(cx, &meta, "a field")?,
                    other => match KnownFormat::from_key(other) {
                        Some(known) => {
                            flag(cx, &meta)?;
                            formats.push(sp(FormatAttr::Known(known), at));
                        }
                        None => unknown(cx, &meta, &key, "field", &field_keys())?,
                    },
                }
                Ok(())
            });
        }
    }
    FieldAttrs {
        title: title.get(),
        description: description.get(),
        doc: doc_comment(attrs),
        range: range.get().map_or_else(Bounds::default, |b| b.value),
        length: length.get().map_or_else(Bounds::default, |b| b.value),
        pattern: pattern.get(),
        formats,
        default: default.get(),
        rename: rename.get(),
        serde_rename: serde_rename_value,
        skip: skip.span(),
        flatten: flatten.span(),
        secret: secret.span(),
        not_secret: not_secret.get(),
        user_only: user_only.span(),
    }
}

/// Reads the attributes of the struct or enum.
pub fn parse_container(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
    let mut title = Attr::none(cx, "title");
    let mut description = Attr::none(cx, "description");
    let mut rename_all = Attr::none(cx, "rename_all");
    let mut serde_rename_all_value = None;
    let mut deny_unknown_fields = Attr::<()>::none(cx, "deny_unknown_fields");
    let mut allow_empty = Attr::<()>::none(cx, "allow_empty");
    let mut krate = Attr::none(cx, "crate");
    let mut transparent = Attr::<()>::none(cx, "transparent");
    let mut try_from = Attr::none(cx, "try_from");
    let mut from = Attr::none(cx, "from");
    let mut into = Attr::none(cx, "into");
    let mut sensitive = Attr::<()>::none(cx, "sensitive");
    let mut check = Attr::none(cx, "check");
    for attr in attrs {
        if attr.path().is_ident("serde") {
            serde_rename_all_value = serde_rename_all(attr).or(serde_rename_all_value);
        } else if attr.path().is_ident("elicit") {
            each(cx, attr, |meta, key| {
                let at = meta.path.span();
                match key.as_str() {
                    "title" => title.set(at, lit_string(&meta)?),
                    "description" => description.set(at, lit_string(&meta)?),
                    "rename_all" => rename_all.set(at, lit_string(&meta)?),
                    "deny_unknown_fields" => deny_unknown_fields.set_flag(&meta)?,
                    "allow_empty" => allow_empty.set_flag(&meta)?,
                    "transparent" => transparent.set_flag(&meta)?,
                    "try_from" => try_from.set(at, lit_type(&meta)?),
                    "from" => from.set(at, lit_type(&meta)?),
                    "into" => into.set(at, lit_type(&meta)?),
                    "sensitive" => sensitive.set_flag(&meta)?,
                    "check" => {
                        if let Some(path) = check_path(cx, &meta)? {
                            check.set(at, path);
                        }
                    }
                    "crate" => {
                        let s = lit_string(&meta)?;
                        match syn::parse_str::<syn::Path>(&s.value) {
                            // A second `crate` is reported at its string.
                            Ok(path) => krate.set(s.span, sp(path, s.span)),
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
    ContainerAttrs {
        title: title.get(),
        description: description.get(),
        doc: doc_comment(attrs),
        rename_all: rename_all.get(),
        serde_rename_all: serde_rename_all_value,
        deny_unknown_fields: deny_unknown_fields.span(),
        allow_empty: allow_empty.span(),
        krate: krate.get().map(|k| k.value),
        transparent: transparent.span(),
        try_from: try_from.get(),
        from: from.get(),
        into: into.get(),
        sensitive: sensitive.span(),
        check: check.get(),
    }
}

/// Reads the attributes of an enum variant.
pub fn parse_variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut title = Attr::none(cx, "title");
    let mut description = Attr::none(cx, "description");
    let mut rename = Attr::none(cx, "rename");
    let mut serde_rename_value = None;
    for attr in attrs {
        if attr.path().is_ident("serde") {
            serde_rename_value = serde_rename(attr).or(serde_rename_value);
        } else if attr.path().is_ident("elicit") {
            each(cx, attr, |meta, key| {
                let at = meta.path.span();
                match key.as_str() {
                    "title" => title.set(at, lit_string(&meta)?),
                    "description" => description.set(at, lit_string(&meta)?),
                    "rename" => rename.set(at, lit_string(&meta)?),
                    "check" => misplaced_check(cx, &meta, "an enum variant")?,
                    _ => unknown(cx, &meta, &key, "variant", VARIANT_KEYS)?,
                }
                Ok(())
            });
        }
    }
    VariantAttrs {
        title: title.get(),
        description: description.get(),
        doc: doc_comment(attrs),
        rename: rename.get(),
        serde_rename: serde_rename_value,
    }
}

/// The path of `check = path`, spanned on it: a path expression
/// (`dates_in_order`, `Self::dates_in_order`), not a string. A value that
/// is no path is reported (`None`).
fn check_path(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<Sp<syn::ExprPath>>> {
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(
            &meta.path,
            "`check` names the form's rule: `check = path`, a \
             `fn(&Form) -> Result<(), ContentError>` such as `check = Self::dates_in_order`",
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let expr = expression(meta.value()?)?;
    match expr {
        Expr::Path(path) => Ok(Some(sp(path, meta.path.span()))),
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => {
            cx.error_at(
                s.span(),
                format!(
                    "`check` takes a path, not a string: write `check = {}`",
                    s.value()
                ),
            );
            Ok(None)
        }
        other => {
            cx.error_spanned_by(
                &other,
                "`check` takes the path of a function, e.g. `check = Self::dates_in_order`: \
                 a `fn(&Form) -> Result<(), ContentError>`",
            );
            Ok(None)
        }
    }
}

/// `check` written on `what` (a field, a variant): it is a form's
/// attribute, on the struct.
fn misplaced_check(cx: &Ctxt, meta: &ParseNestedMeta<'_>, what: &str) -> syn::Result<()> {
    cx.error_spanned_by(
        &meta.path,
        format!(
            "`check` is not an attribute of {what}: it is the form's rule across its fields; \
             put `#[elicit(check = path)]` on the struct"
        ),
    );
    skip_value(meta)
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

/// The expression after `key =`, up to the next `,` of the attribute: any
/// Rust expression. It is read by syn's expression parser when it can: a
/// literal, `-` and a literal, a path, a call such as `Some(3)`, the forms
/// the checks look at. Anything else (`BTreeSet::from([..])`, a `const`
/// block) is kept as written, `Expr::Verbatim`, and compiled where the
/// default is used. This is what lets the derive use syn without its
/// `full` feature, whose parser for every expression would cost each
/// user's build about a second (BENCHMARKS.md, "Build cost").
fn expression(input: ParseStream<'_>) -> syn::Result<Expr> {
    let mut tokens = TokenStream::new();
    // `<` and `>` are not delimiters: count the ones of a turbofish
    // (`HashSet::<A, B>::new()`), whose `,` does not end the expression.
    let mut generics = 0usize;
    let mut after_path_sep = false;
    loop {
        let at_end = input.is_empty() || (generics == 0 && input.peek(Token![,]));
        if at_end {
            break;
        }
        let token: TokenTree = input.parse()?;
        if let TokenTree::Punct(p) = &token {
            match p.as_char() {
                '<' if after_path_sep || generics > 0 => generics += 1,
                '>' if generics > 0 => generics -= 1,
                _ => {}
            }
        }
        after_path_sep =
            matches!(&token, TokenTree::Punct(p) if p.as_char() == ':') && input.peek(Token![<]);
        tokens.extend([token]);
    }
    if tokens.is_empty() {
        return Err(input.error("expected a value after `=`"));
    }
    Ok(syn::parse2::<Expr>(tokens.clone()).unwrap_or(Expr::Verbatim(tokens)))
}

/// Consumes `= value` or `(..)` after a key we could not use.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        expression(meta.value()?)?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// Reports the unknown `key` of a `what` (field, container, variant), with
/// the closest of the `known` keys or the list of them, and skips its value.
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

/// The Levenshtein distance between `a` and `b`, in characters.
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

/// The string literal of `key = ".."`, spanned on the literal.
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

/// The type named by the string of `key = "Type"`, spanned on the string.
fn lit_type(meta: &ParseNestedMeta<'_>) -> syn::Result<Sp<syn::Type>> {
    let key = key_of(meta);
    let s = lit_string(meta)?;
    let lit = LitStr::new(&s.value, s.span);
    match lit.parse::<syn::Type>() {
        Ok(ty) => Ok(sp(ty, s.span)),
        Err(_) => Err(syn::Error::new(
            s.span,
            format!(
                "`{key} = \"{}\"` is not a type: write a type, e.g. `{key} = \"String\"`",
                s.value
            ),
        )),
    }
}

/// Parses `(min = .., max = ..)`.
fn bounds<T>(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &'static str,
    parse: fn(&str, &Expr) -> syn::Result<T>,
) -> syn::Result<Bounds<T>> {
    let mut min = Attr::bound(cx, "min", key);
    let mut max = Attr::bound(cx, "max", key);
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!(
            "`{key}` takes bounds: `{key}(min = .., max = ..)` (either may be left out)"
        )));
    }
    let mut unknown_bound = false;
    meta.parse_nested_meta(|inner| {
        let which = key_of(&inner);
        let slot = match which.as_str() {
            "min" => &mut min,
            "max" => &mut max,
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
        let value = parse(key, &expr)?;
        slot.set(inner.path.span(), sp(value, expr.span()));
        Ok(())
    })?;
    let (min, max) = (min.get(), max.get());
    if min.is_none() && max.is_none() && !unknown_bound {
        cx.error_at(
            meta.path.span(),
            format!("`{key}()` is empty: give `min = ..`, `max = ..`, or both"),
        );
    }
    Ok(Bounds {
        min,
        max,
        span: Some(meta.path.span()),
    })
}

/// `expr` without a leading `-`, and whether it had one.
pub fn strip_minus(expr: &Expr) -> (bool, &Expr) {
    match expr {
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => (true, &**expr),
        other => (false, other),
    }
}

/// A `range` bound: an integer or float literal, maybe negative.
fn number(key: &str, expr: &Expr) -> syn::Result<Number> {
    let (negative, lit) = strip_minus(expr);
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

/// A `length` bound: a non-negative integer literal.
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
fn serde_rename(attr: &Attribute) -> Option<String> {
    serde_read_name(attr, "rename").map(|s| s.value())
}

/// `#[serde(rename_all = "..")]` (or `rename_all(deserialize = "..")`, the
/// rule content is read by), spanned on the string.
fn serde_rename_all(attr: &Attribute) -> Option<Sp<String>> {
    serde_read_name(attr, "rename_all").map(|s| sp(s.value(), s.span()))
}

/// The string of serde's `key` in `attr`, for reading content: `key = ".."`,
/// or the `deserialize` half of `key(serialize = "..", deserialize = "..")`.
/// Every other serde key is skipped.
fn serde_read_name(attr: &Attribute, key: &str) -> Option<LitStr> {
    let mut found = None;
    let _ = attr.parse_nested_meta(|meta| {
        if !meta.path.is_ident(key) {
            return skip_value(&meta);
        }
        if meta.input.peek(Token![=]) {
            found = Some(meta.value()?.parse()?);
        } else if meta.input.peek(syn::token::Paren) {
            meta.parse_nested_meta(|inner| {
                if inner.path.is_ident("deserialize") {
                    found = Some(inner.value()?.parse()?);
                    Ok(())
                } else {
                    skip_value(&inner)
                }
            })?;
        }
        Ok(())
    });
    found
}

#[cfg(test)]
mod tests {
    use super::KNOWN_FORMATS;
    use elicit_core::format::Format;

    /// The derive's copy of the known formats (a proc-macro cannot depend on
    /// elicit-core) is elicit-core's list: same order, wire names, variants.
    #[test]
    fn known_formats_agree_with_elicit_core() {
        let ours: Vec<(&str, &str)> = KNOWN_FORMATS.iter().map(|f| (f.wire, f.variant)).collect();
        let core: Vec<(String, String)> = Format::KNOWN
            .iter()
            .map(|f| (f.as_str().to_owned(), format!("{f:?}")))
            .collect();
        let core: Vec<(&str, &str)> = core.iter().map(|(w, v)| (w.as_str(), v.as_str())).collect();
        assert_eq!(ours, core);
    }
}
