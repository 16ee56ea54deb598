//! Every semantic check of the derive input, in one pass. Each problem is a
//! spanned error in the [`Ctxt`] that names the problem and the fix; nothing
//! here stops at the first one.

use crate::ast::{Data, Field, Input, Unsupported, Variant};
use crate::attr::{self, Number};
use crate::ctxt::Ctxt;
use crate::limits::{
    PATTERN_DFA_SIZE_LIMIT, PATTERN_MAX_LEN, PATTERN_NEST_LIMIT, PATTERN_SIZE_LIMIT,
};

const URL_MODE: &str = "form mode must not collect secrets or credentials (passwords, API keys, \
    tokens, private keys, recovery codes, payment data): remove this field and ask through URL \
    mode with `AgentConnection::sensitive` (elicit_core::protocol), so the user enters it on your \
    own HTTPS page, never in the client or the model's context";

/// Runs every check.
pub fn check(cx: &Ctxt, input: &Input<'_>) {
    match &input.data {
        Data::Unsupported(shape) => unsupported(cx, shape),
        Data::Form(fields) => form(cx, input, fields),
        Data::Choice(variants) => choice(cx, input, variants),
    }
}

fn unsupported(cx: &Ctxt, shape: &Unsupported) {
    match shape {
        Unsupported::TupleStruct(span) => cx.error_at(
            *span,
            "`Elicit` cannot be derived for a tuple struct: form fields need names; \
             use a struct with named fields, e.g. `struct Form { name: String }`",
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
    }
}

fn form(cx: &Ctxt, input: &Input<'_>, fields: &[Field<'_>]) {
    let mut names: Vec<&str> = Vec::new();
    let mut properties = 0;
    for field in fields {
        let a = &field.attrs;
        if let Some(span) = a.secret {
            cx.error_at(span, URL_MODE);
            if let Some(not_secret) = &a.not_secret {
                cx.error_at(
                    not_secret.span,
                    "`not_secret` contradicts `secret` on the same field: remove one",
                );
            }
        }
        if let Some(reason) = &a.not_secret
            && reason.value.trim().is_empty()
        {
            cx.error_at(
                reason.span,
                "`not_secret` needs a reason a reviewer can check, e.g. \
                 `not_secret = \"a public key fingerprint, not a secret\"`",
            );
        }
        if let Some(skip) = a.skip {
            for name in a.schema_attr_names() {
                cx.error_at(
                    skip,
                    format!(
                        "`skip` leaves `{}` out of the form, so `{name}` has no effect: remove one of them",
                        field.name
                    ),
                );
            }
            continue;
        }
        properties += 1;
        if let Some(flatten) = a.flatten {
            for name in a.schema_attr_names() {
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
            continue;
        }
        if a.formats.len() > 1 {
            for extra in &a.formats[1..] {
                cx.error_at(
                    extra.span,
                    format!(
                        "a field has at most one format: keep one of {}, `format = \"..\"`",
                        attr::KNOWN_FORMATS
                            .iter()
                            .map(|f| format!("`{}`", f.key))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
        if field.is_nested_option() {
            cx.error_spanned_by(
                field.ty,
                "`Option<Option<T>>` cannot be a form field: a field is answered or left out, \
                 there is no third state; use `Option<T>`",
            );
        }
        literals(cx, field);
        let wire = field.wire.as_str();
        let span = field.wire_span();
        if wire.is_empty() {
            cx.error_at(span, "the wire name is empty: give a non-empty `rename`");
        }
        if names.contains(&wire) {
            cx.error_at(
                span,
                format!(
                    "two fields have the wire name `{wire}`: give one a different `#[elicit(rename = \"..\")]`"
                ),
            );
        }
        names.push(wire);
    }
    if properties == 0 && input.attrs.allow_empty.is_none() {
        cx.error_at(
            input.ident.span(),
            "this form has no fields to ask: add a field, or add `#[elicit(allow_empty)]` \
             if an empty confirmation form is intended",
        );
    }
}

/// The literal values written in the attributes must agree with each other.
fn literals(cx: &Ctxt, field: &Field<'_>) {
    let a = &field.attrs;
    if let (Some(min), Some(max)) = (&a.range.min, &a.range.max)
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
    if let (Some(min), Some(max)) = (&a.length.min, &a.length.max)
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
    for bound in [&a.length.min, &a.length.max].into_iter().flatten() {
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
    let regex = a.pattern.as_ref().and_then(|p| {
        match regex::RegexBuilder::new(&p.value)
            .size_limit(PATTERN_SIZE_LIMIT)
            .dfa_size_limit(PATTERN_DFA_SIZE_LIMIT)
            .nest_limit(PATTERN_NEST_LIMIT)
            .build()
        {
            Ok(r) if p.value.len() <= PATTERN_MAX_LEN => Some(r),
            Ok(_) => {
                cx.error_at(
                    p.span,
                    format!(
                        "this pattern is longer than the {PATTERN_MAX_LEN}-byte limit: simplify it"
                    ),
                );
                None
            }
            Err(e) => {
                let reason = match e {
                    regex::Error::Syntax(s) => s,
                    other => other.to_string(),
                };
                cx.error_at(
                    p.span,
                    format!(
                        "this pattern is refused by the linear-time regex engine that evaluates it:\n{reason}"
                    ),
                );
                None
            }
        }
    });
    let Some(default) = &a.default else { return };
    if let syn::Expr::Call(call) = &default.value
        && matches!(&*call.func, syn::Expr::Path(p) if p.path.is_ident("Some"))
    {
        cx.error_at(
            default.span,
            "the default of an `Option<T>` field is a `T`: write `default = x`, not `Some(x)`",
        );
    }
    match literal(&default.value) {
        Some(Lit::Number(n)) => {
            if let Some(min) = &a.range.min
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
            if let Some(max) = &a.range.max
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
        Some(Lit::Text(text)) => {
            let chars = text.chars().count() as u64;
            if let Some(min) = &a.length.min
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
            if let Some(max) = &a.length.max
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
            if let (Some(regex), Some(pattern)) = (&regex, &a.pattern)
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
        None => {}
    }
}

enum Lit {
    Number(Number),
    Text(String),
}

/// A literal default, if it is one (`-3`, `2.5`, `"main"`).
fn literal(expr: &syn::Expr) -> Option<Lit> {
    let (negative, inner) = match expr {
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => (true, &**expr),
        other => (false, other),
    };
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

#[allow(clippy::cast_precision_loss)]
fn as_f64(n: Number) -> f64 {
    match n {
        Number::Int(i) => i as f64,
        Number::Float(x) => x,
    }
}

fn show(n: Number) -> String {
    match n {
        Number::Int(i) => i.to_string(),
        Number::Float(x) => x.to_string(),
    }
}

fn choice(cx: &Ctxt, input: &Input<'_>, variants: &[Variant<'_>]) {
    if variants.is_empty() {
        cx.error_at(
            input.ident.span(),
            "a single-select needs at least one option: add a unit variant",
        );
    }
    if let Some(param) = input.generics.params.first() {
        cx.error_spanned_by(
            param,
            "a single-select enum cannot be generic: its options are fixed names; remove the parameter",
        );
    }
    let mut names: Vec<&str> = Vec::new();
    for variant in variants {
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
        let wire = variant.wire.as_str();
        let span = variant.wire_span();
        if wire.is_empty() {
            cx.error_at(span, "the option value is empty: give a non-empty `rename`");
        }
        if names.contains(&wire) {
            cx.error_at(
                span,
                format!(
                    "two variants have the wire value `{wire}`: give one a different `#[elicit(rename = \"..\")]`"
                ),
            );
        }
        names.push(wire);
    }
}
