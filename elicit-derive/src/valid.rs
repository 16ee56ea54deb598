//! Every semantic check of the derive input, in one pass. Each problem is a
//! spanned error in the [`Ctxt`] that names the problem and the fix; nothing
//! here stops at the first one.
//!
//! [`check`] lists every check in the order its errors are reported (the
//! compile-fail tests pin that order): the container's shape, then each field
//! or variant in source order, then the whole form. Each `check_*` function
//! enforces one rule, stated in its one-line doc comment.

use crate::ast::{Data, Field, Input, Transparent, Unsupported, Variant};
use crate::attr::{self, KNOWN_FORMATS, Number, Sp};
use crate::ctxt::Ctxt;

const URL_MODE: &str = "form mode must not collect secrets or credentials (passwords, API keys, \
    tokens, private keys, recovery codes, payment data): make this a sensitive form, \
    `#[elicit(sensitive)]` on the struct and this field a `SecretString` (elicit-core's feature \
    `sensitive`), so the user enters it on a page the agent serves, through URL mode, never in the \
    client or the model's context";

/// Runs every check.
pub fn check(cx: &Ctxt, input: &Input<'_>) {
    match &input.data {
        Data::Unsupported(shape) => check_shape(cx, shape),
        Data::Form(fields) => {
            let mut wire_names = Vec::new();
            for field in fields {
                check_secret(cx, input, field);
                check_not_secret_reason(cx, field);
                if let Some(skip) = field.attrs.skip {
                    check_skip_alone(cx, field, skip);
                    continue;
                }
                if let Some(flatten) = field.attrs.flatten {
                    check_flatten_alone(cx, field, flatten);
                    check_no_flatten_in_sensitive(cx, input, flatten);
                    continue;
                }
                check_one_format(cx, field);
                check_no_nested_option(cx, field);
                check_range_order(cx, field);
                check_length_order(cx, field);
                check_length_fits_wire(cx, field);
                let regex = check_pattern(cx, field);
                check_default_not_some(cx, field);
                check_default_in_range(cx, field);
                check_default_length(cx, field);
                check_default_matches_pattern(cx, field, regex.as_ref());
                check_wire(cx, &field.wire, field.wire_span(), &FIELD, &mut wire_names);
            }
            check_form_not_empty(cx, input, fields);
        }
        Data::Transparent(transparent) => {
            check_no_form_attrs(cx, input, "`transparent` newtype");
            check_not_generic(cx, input, "a `transparent` newtype");
            check_transparent_field(cx, transparent);
        }
        Data::Converted => {
            check_conversion_pair(cx, input);
            check_no_form_attrs(cx, input, "type converted with `try_from`/`from`");
            check_not_generic(cx, input, "a type converted with `try_from`/`from`");
        }
        Data::Choice(variants) => {
            check_choice_not_sensitive(cx, input);
            check_choice_no_check(cx, input);
            check_choice_not_empty(cx, input, variants);
            check_choice_not_generic(cx, input);
            let mut wire_values = Vec::new();
            for variant in variants {
                check_unit_variant(cx, variant);
                check_wire(
                    cx,
                    &variant.wire,
                    variant.wire_span(),
                    &OPTION,
                    &mut wire_values,
                );
            }
        }
    }
}

/// Only a struct with named fields or an enum can derive `Elicit`.
fn check_shape(cx: &Ctxt, shape: &Unsupported) {
    match shape {
        Unsupported::TupleStruct(span) => cx.error_at(
            *span,
            "`Elicit` cannot be derived for a tuple struct: form fields need names; \
             use a struct with named fields, e.g. `struct Form { name: String }`; \
             or, for a newtype used as one form field (`struct Port(u16)`), add \
             `#[elicit(transparent)]` to the struct",
        ),
        Unsupported::UnitStruct(span) => cx.error_at(
            *span,
            "`Elicit` cannot be derived for a unit struct: a form needs fields; \
             add named fields, e.g. `struct Form { confirm: bool }`",
        ),
        Unsupported::Union(span) => cx.error_at(
            *span,
            "`Elicit` cannot be derived for a union: use a struct with named fields (a form) \
             or a unit-only enum (a single-select)",
        ),
        Unsupported::NotANewtype(span) => cx.error_at(
            *span,
            "`transparent` needs a struct with exactly one field, a newtype such as \
             `struct Port(u16)`: the field is the form value; remove `transparent`, or keep \
             one field",
        ),
    }
}

/// A `transparent` or converted type has none of a form's container
/// attributes (`what` names it): it is one field, not a form.
fn check_no_form_attrs(cx: &Ctxt, input: &Input<'_>, what: &str) {
    for (name, span) in input.attrs.form_attrs() {
        let fix = match name {
            "title" | "description" => {
                "put it on the field that uses this type (or, for a `transparent` newtype, on its inner field)"
            }
            _ => "remove it",
        };
        cx.error_at(
            span,
            format!("`{name}` has no effect on a {what}: it is one form value, not a form; {fix}"),
        );
    }
}

/// A `transparent` or converted type is not generic (`what` names it).
fn check_not_generic(cx: &Ctxt, input: &Input<'_>, what: &str) {
    if let Some(param) = input.generics.params.first() {
        cx.error_spanned_by(
            param,
            format!(
                "{what} cannot be generic: its property is fixed by one field type; remove the parameter"
            ),
        );
    }
}

/// The field of a `transparent` newtype carries rules (`range`, `length`,
/// `pattern`, a format, `title`, `description`), not a form field's
/// attributes; its rules are consistent.
fn check_transparent_field(cx: &Ctxt, transparent: &Transparent<'_>) {
    let field = &transparent.field;
    let a = &field.attrs;
    check_no_secret(cx, field);
    let misplaced = [
        ("default", a.default.as_ref().map(|d| d.span)),
        ("rename", a.rename.as_ref().map(|r| r.span)),
        ("skip", a.skip),
        ("flatten", a.flatten),
        ("not_secret", a.not_secret.as_ref().map(|n| n.span)),
        ("user_only", a.user_only),
    ];
    for (name, span) in misplaced {
        if let Some(span) = span {
            cx.error_at(
                span,
                format!(
                    "`{name}` has no effect on the field of a `transparent` newtype, which only \
                     carries the value's rules: put `{name}` on the form field that uses the newtype"
                ),
            );
        }
    }
    check_one_format(cx, field);
    check_range_order(cx, field);
    check_length_order(cx, field);
    check_length_fits_wire(cx, field);
    let _ = check_pattern(cx, field);
}

/// `try_from`/`from` and `into` come together (a field is read and
/// written), `try_from` and `from` not both, and not with `transparent`.
fn check_conversion_pair(cx: &Ctxt, input: &Input<'_>) {
    let a = &input.attrs;
    if let Some(span) = a.transparent {
        cx.error_at(
            span,
            "`transparent` and `try_from`/`from`/`into` are two ways to make this type one form \
             value: keep one",
        );
    }
    if let (Some(_), Some(from)) = (&a.try_from, &a.from) {
        cx.error_at(
            from.span,
            "`try_from` and `from` both say how to read this type: keep one (`try_from` when the \
             conversion can fail)",
        );
    }
    match (a.conversion(), &a.into) {
        (Some(conversion), None) => cx.error_at(
            conversion.span,
            "a form field is read and written back (`to_content`): add `into = \"..\"` with the \
             same type, with `impl From<ThisType> for ThatType` and `Clone` on this type",
        ),
        (None, Some(into)) => cx.error_at(
            into.span,
            "`into` says how to write this type, but not how to read it: add `try_from = \"..\"` \
             (or `from`) with the same type",
        ),
        (Some(conversion), Some(into)) => {
            let (read, written) = (&conversion.value, &into.value);
            if quote::quote!(#read).to_string() != quote::quote!(#written).to_string() {
                cx.error_at(
                    into.span,
                    "`into` names another type than `try_from`/`from`: the value written must \
                     read back through the same property; use one type for both",
                );
            }
        }
        (None, None) => {}
    }
}

/// A secret (`secret`) is a field of a sensitive form only, has no default
/// and no `range`; no field is marked both `secret` and `not_secret`.
fn check_secret(cx: &Ctxt, input: &Input<'_>, field: &Field<'_>) {
    let a = &field.attrs;
    let Some(span) = a.secret else {
        return;
    };
    if input.attrs.sensitive.is_none() {
        cx.error_at(span, URL_MODE);
    }
    if let Some(not_secret) = &a.not_secret {
        cx.error_at(
            not_secret.span,
            "`not_secret` contradicts `secret` on the same field: remove one",
        );
    }
    if input.attrs.sensitive.is_some() {
        if let Some(default) = &a.default {
            cx.error_at(
                default.span,
                "a secret has no default: the page would show it to whoever opens it; remove \
                 `default`",
            );
        }
        if let Some(span) = a.range.span {
            cx.error_at(
                span,
                "`range` applies to numbers, and a secret is text: bound its length with \
                 `length(min = .., max = ..)`",
            );
        }
    }
}

/// A newtype's field is no secret (`secret`): a secret is a field of a
/// sensitive form.
fn check_no_secret(cx: &Ctxt, field: &Field<'_>) {
    if let Some(span) = field.attrs.secret {
        cx.error_at(span, URL_MODE);
    }
}

/// A sensitive form does not flatten another form: its fields, secret or
/// not, are its own.
fn check_no_flatten_in_sensitive(cx: &Ctxt, input: &Input<'_>, flatten: proc_macro2::Span) {
    if input.attrs.sensitive.is_some() {
        cx.error_at(
            flatten,
            "a sensitive form cannot `flatten` another form: write the fields here",
        );
    }
}

/// `sensitive` is a form's attribute, not a single-select's.
fn check_choice_not_sensitive(cx: &Ctxt, input: &Input<'_>) {
    if let Some(span) = input.attrs.sensitive {
        cx.error_at(
            span,
            "`sensitive` applies to a struct with named fields (a form whose fields may be \
             secrets), not to a single-select enum: remove it",
        );
    }
}

/// `check` is a form's rule across its fields, not a single-select's.
fn check_choice_no_check(cx: &Ctxt, input: &Input<'_>) {
    if let Some(check) = &input.attrs.check {
        cx.error_at(
            check.span,
            "`check` applies to a struct with named fields (a form: its rule across the \
             fields), not to a single-select enum: put it on the form that has this field",
        );
    }
}

/// `not_secret` gives a reason, not an empty string.
fn check_not_secret_reason(cx: &Ctxt, field: &Field<'_>) {
    if let Some(reason) = &field.attrs.not_secret
        && reason.value.trim().is_empty()
    {
        cx.error_at(
            reason.span,
            "`not_secret` needs a reason a reviewer can check, e.g. \
             `not_secret = \"a public key fingerprint, not a secret\"`",
        );
    }
}

/// A skipped field has no schema attribute: it would have no effect.
fn check_skip_alone(cx: &Ctxt, field: &Field<'_>, skip: proc_macro2::Span) {
    for name in field.attrs.schema_attr_names() {
        cx.error_at(
            skip,
            format!(
                "`skip` leaves `{}` out of the form, so `{name}` has no effect: remove one of them",
                field.name
            ),
        );
    }
}

/// A flattened field has no schema attribute: its inner fields carry them.
fn check_flatten_alone(cx: &Ctxt, field: &Field<'_>, flatten: proc_macro2::Span) {
    for name in field.attrs.schema_attr_names() {
        if name != "flatten" {
            cx.error_at(
                flatten,
                format!(
                    "`flatten` merges the fields of `{}` into this form, so `{name}` has no \
                     effect here: put attributes on the inner struct's fields",
                    field.name
                ),
            );
        }
    }
}

/// A field has at most one format; every extra one is reported.
fn check_one_format(cx: &Ctxt, field: &Field<'_>) {
    let Some(extras) = field.attrs.formats.get(1..) else {
        return;
    };
    let keys: Vec<String> = KNOWN_FORMATS
        .iter()
        .map(|f| format!("`{}`", f.key))
        .collect();
    for extra in extras {
        cx.error_at(
            extra.span,
            format!(
                "a field has at most one format: keep one of {}, `format = \"..\"`",
                keys.join(", ")
            ),
        );
    }
}

/// A field is not `Option<Option<T>>`: an answer is given or left out.
fn check_no_nested_option(cx: &Ctxt, field: &Field<'_>) {
    if field.is_nested_option() {
        cx.error_spanned_by(
            field.ty,
            "`Option<Option<T>>` cannot be a form field: a field is answered or left out, \
             there is no third state; use `Option<T>`",
        );
    }
}

/// `range` min is not above its max.
fn check_range_order(cx: &Ctxt, field: &Field<'_>) {
    let range = &field.attrs.range;
    if let (Some(min), Some(max)) = (&range.min, &range.max)
        && as_f64(min.value) > as_f64(max.value)
    {
        cx.error_at(
            min.span,
            format!(
                "`range` min {} is above max {}: swap them",
                show(min.value),
                show(max.value)
            ),
        );
    }
}

/// `length` min is not above its max.
fn check_length_order(cx: &Ctxt, field: &Field<'_>) {
    let length = &field.attrs.length;
    if let (Some(min), Some(max)) = (&length.min, &length.max)
        && min.value > max.value
    {
        cx.error_at(
            min.span,
            format!(
                "`length` min {} is above max {}: swap them",
                min.value, max.value
            ),
        );
    }
}

/// `length` bounds fit the wire's 32-bit `minLength` / `maxLength`.
fn check_length_fits_wire(cx: &Ctxt, field: &Field<'_>) {
    let length = &field.attrs.length;
    for bound in [&length.min, &length.max].into_iter().flatten() {
        if bound.value > u64::from(u32::MAX) {
            cx.error_at(
                bound.span,
                format!(
                    "`length` bound {} does not fit the wire's 32-bit `minLength`/`maxLength`",
                    bound.value
                ),
            );
        }
    }
}

/// A `pattern` is ECMA-262 (`u` mode) and compiles within the runtime's
/// limits: the same `elicit_pattern::compile` the runtime calls. Returns it
/// compiled.
fn check_pattern(cx: &Ctxt, field: &Field<'_>) -> Option<elicit_pattern::Regex> {
    let p = field.attrs.pattern.as_ref()?;
    match elicit_pattern::compile(&p.value) {
        Ok(regex) => Some(regex),
        Err(e) => {
            let what = if matches!(e.kind(), elicit_pattern::PatternErrorKind::NeedsUnicode(_)) {
                "this pattern needs Unicode's tables"
            } else if e.is_valid_javascript() {
                "this pattern cannot be checked in linear time"
            } else {
                "this pattern is not a JavaScript (ECMA-262 `u` mode) regular expression, \
                 which is what a JSON Schema `pattern` is"
            };
            cx.error_at(p.span, format!("{what}:\n{e}"));
            None
        }
    }
}

/// The default of an `Option<T>` field is a `T`, not `Some(..)`.
fn check_default_not_some(cx: &Ctxt, field: &Field<'_>) {
    if let Some(default) = &field.attrs.default
        && let syn::Expr::Call(call) = &default.value
        && matches!(&*call.func, syn::Expr::Path(p) if p.path.is_ident("Some"))
    {
        cx.error_at(
            default.span,
            "the default of an `Option<T>` field is a `T`: write `default = x`, not `Some(x)`",
        );
    }
}

/// A number default lies within `range`.
fn check_default_in_range(cx: &Ctxt, field: &Field<'_>) {
    let Some((default, Lit::Number(n))) = literal_default(field) else {
        return;
    };
    let range = &field.attrs.range;
    if let Some(min) = &range.min
        && as_f64(n) < as_f64(min.value)
    {
        cx.error_at(
            default.span,
            format!(
                "the default {} is below `range` min {}",
                show(n),
                show(min.value)
            ),
        );
    }
    if let Some(max) = &range.max
        && as_f64(n) > as_f64(max.value)
    {
        cx.error_at(
            default.span,
            format!(
                "the default {} is above `range` max {}",
                show(n),
                show(max.value)
            ),
        );
    }
}

/// A string default has a character count within `length`.
fn check_default_length(cx: &Ctxt, field: &Field<'_>) {
    let Some((default, Lit::Text(text))) = literal_default(field) else {
        return;
    };
    let length = &field.attrs.length;
    let chars = text.chars().count() as u64;
    if let Some(min) = &length.min
        && chars < min.value
    {
        cx.error_at(
            default.span,
            format!(
                "the default \"{text}\" has {chars} characters, fewer than `length` min {}",
                min.value
            ),
        );
    }
    if let Some(max) = &length.max
        && chars > max.value
    {
        cx.error_at(
            default.span,
            format!(
                "the default \"{text}\" has {chars} characters, more than `length` max {}",
                max.value
            ),
        );
    }
}

/// A string default matches the `pattern` (`regex`, when it compiled).
fn check_default_matches_pattern(
    cx: &Ctxt,
    field: &Field<'_>,
    regex: Option<&elicit_pattern::Regex>,
) {
    let Some((default, Lit::Text(text))) = literal_default(field) else {
        return;
    };
    if let (Some(regex), Some(pattern)) = (regex, &field.attrs.pattern)
        && !regex.is_match(&text)
    {
        cx.error_at(
            default.span,
            format!(
                "the default \"{text}\" does not match the pattern `{}`",
                pattern.value
            ),
        );
    }
}

/// A form asks for at least one field, unless it says `allow_empty`.
fn check_form_not_empty(cx: &Ctxt, input: &Input<'_>, fields: &[Field<'_>]) {
    let asked = fields.iter().any(|f| f.attrs.skip.is_none());
    if !asked && input.attrs.allow_empty.is_none() {
        cx.error_at(
            input.ident.span(),
            "this form has no fields to ask: add a field, or add `#[elicit(allow_empty)]` \
             if an empty confirmation form is intended",
        );
    }
}

/// A single-select has at least one option.
fn check_choice_not_empty(cx: &Ctxt, input: &Input<'_>, variants: &[Variant<'_>]) {
    if variants.is_empty() {
        cx.error_at(
            input.ident.span(),
            "a single-select needs at least one option: add a unit variant",
        );
    }
}

/// A single-select enum is not generic.
fn check_choice_not_generic(cx: &Ctxt, input: &Input<'_>) {
    if let Some(param) = input.generics.params.first() {
        cx.error_spanned_by(
            param,
            "a single-select enum cannot be generic: its options are fixed names; remove the parameter",
        );
    }
}

/// A single-select option is a unit variant.
fn check_unit_variant(cx: &Ctxt, variant: &Variant<'_>) {
    if !matches!(variant.fields, syn::Fields::Unit) {
        cx.error_spanned_by(
            variant.fields,
            format!(
                "variant `{}` carries data, but a single-select option is just a name: \
                 make it a unit variant, and ask for the data in another field of the form",
                variant.ident
            ),
        );
    }
}

/// A literal default value (`-3`, `2.5`, `"main"`).
enum Lit {
    Number(Number),
    Text(String),
}

/// The field's default with its value, if the default is a literal.
fn literal_default<'f>(field: &'f Field<'_>) -> Option<(&'f Sp<syn::Expr>, Lit)> {
    let default = field.attrs.default.as_ref()?;
    Some((default, literal(&default.value)?))
}

/// A literal default, if it is one (`-3`, `2.5`, `"main"`).
fn literal(expr: &syn::Expr) -> Option<Lit> {
    let (negative, inner) = attr::strip_minus(expr);
    let syn::Expr::Lit(syn::ExprLit { lit, .. }) = inner else {
        return None;
    };
    match lit {
        syn::Lit::Int(i) => i
            .base10_parse::<i128>()
            .ok()
            .map(|n| Lit::Number(Number::Int(if negative { -n } else { n }))),
        syn::Lit::Float(f) => f
            .base10_parse::<f64>()
            .ok()
            .map(|x| Lit::Number(Number::Float(if negative { -x } else { x }))),
        syn::Lit::Str(s) if !negative => Some(Lit::Text(s.value())),
        _ => None,
    }
}

/// A bound or default as a float, to compare an integer with a float.
#[allow(clippy::cast_precision_loss)]
fn as_f64(n: Number) -> f64 {
    match n {
        Number::Int(i) => i as f64,
        Number::Float(x) => x,
    }
}

/// A bound or default as the user would write it.
fn show(n: Number) -> String {
    match n {
        Number::Int(i) => i.to_string(),
        Number::Float(x) => x.to_string(),
    }
}

/// How the two wire-name checks speak of a form field or an enum option.
struct WireNoun {
    empty: &'static str,
    twice: &'static str,
}

const FIELD: WireNoun = WireNoun {
    empty: "the wire name is empty",
    twice: "two fields have the wire name",
};

const OPTION: WireNoun = WireNoun {
    empty: "the option value is empty",
    twice: "two variants have the wire value",
};

/// A field's wire name (an option's wire value) is not empty, and no
/// earlier field of the form (option of the enum) has it (`seen`: theirs).
fn check_wire<'a>(
    cx: &Ctxt,
    wire: &'a str,
    span: proc_macro2::Span,
    noun: &WireNoun,
    seen: &mut Vec<&'a str>,
) {
    if wire.is_empty() {
        cx.error_at(span, format!("{}: give a non-empty `rename`", noun.empty));
    }
    if seen.contains(&wire) {
        cx.error_at(
            span,
            format!(
                "{} `{wire}`: give one a different `#[elicit(rename = \"..\")]`",
                noun.twice
            ),
        );
    }
    seen.push(wire);
}
