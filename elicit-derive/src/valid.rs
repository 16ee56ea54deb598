//! Every semantic check of the derive input, in one pass. Each problem is a
//! spanned error in the [`Ctxt`] that names the problem and the fix; nothing
//! here stops at the first one.

use crate::ast::{Data, Field, Input, Unsupported, Variant};
use crate::attr::{self, Sp};
use crate::case::{RULE_NAMES, RenameRule};
use crate::ctxt::Ctxt;

const URL_MODE: &str = "form mode must not collect secrets or credentials (passwords, API keys, \
    tokens, private keys, recovery codes, payment data): ask for them through URL mode instead, \
    with `elicit_core`'s URL-mode request (the user enters them on your own HTTPS page, never in \
    the client or the model's context)";

/// The container's `rename_all` rule, if any (an unknown one is reported).
pub fn rename_rule(cx: &Ctxt, input: &Input<'_>) -> Option<RenameRule> {
    let written = input
        .attrs
        .rename_all
        .as_ref()
        .or(input.attrs.serde_rename_all.as_ref())?;
    match RenameRule::from_str(&written.value) {
        Some(rule) => Some(rule),
        None => {
            let hint = match attr::did_you_mean(&written.value, RULE_NAMES) {
                Some(best) => format!("did you mean \"{best}\"?"),
                None => format!("expected one of: {}", RULE_NAMES.join(", ")),
            };
            cx.error_at(
                written.span,
                format!("unknown `rename_all` rule \"{}\": {hint}", written.value),
            );
            None
        }
    }
}

/// The wire name of a field: `elicit(rename)`, else `serde(rename)`, else the
/// container rule applied to the Rust name.
pub fn field_wire_name(field: &Field<'_>, rule: Option<RenameRule>) -> String {
    if let Some(rename) = &field.attrs.rename {
        return rename.value.clone();
    }
    if let Some(rename) = &field.attrs.serde_rename {
        return rename.clone();
    }
    match rule {
        Some(rule) => rule.apply_to_field(&field.name),
        None => field.name.clone(),
    }
}

/// The wire value of a variant, with the same precedence.
pub fn variant_wire_name(variant: &Variant<'_>, rule: Option<RenameRule>) -> String {
    if let Some(rename) = &variant.attrs.rename {
        return rename.value.clone();
    }
    if let Some(rename) = &variant.attrs.serde_rename {
        return rename.clone();
    }
    let name = variant.ident.to_string();
    match rule {
        Some(rule) => rule.apply_to_variant(&name),
        None => name,
    }
}

pub fn check(cx: &Ctxt, input: &Input<'_>) {
    let rule = rename_rule(cx, input);
    match &input.data {
        Data::Unsupported(shape) => unsupported(cx, shape),
        Data::Form(fields) => form(cx, input, fields, rule),
        Data::Choice(variants) => choice(cx, input, variants, rule),
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

fn form(cx: &Ctxt, input: &Input<'_>, fields: &[Field<'_>], rule: Option<RenameRule>) {
    let mut names: Vec<Sp<String>> = Vec::new();
    let mut properties = 0;
    for field in fields {
        let a = &field.attrs;
        if let Some(span) = a.secret {
            cx.error_at(span, URL_MODE);
        }
        if let Some(skip) = a.skip {
            for (name, _) in a.schema_attr_spans() {
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
        if a.formats.len() > 1 {
            for extra in &a.formats[1..] {
                cx.error_at(
                    extra.span,
                    "a field has at most one format: keep one of `email`, `uri`, `date`, \
                     `date_time`, `format = \"..\"`",
                );
            }
        }
        if a.flatten.is_some() {
            properties += 1;
            continue;
        }
        properties += 1;
        let wire = field_wire_name(field, rule);
        let span = a
            .rename
            .as_ref()
            .map(|r| r.span)
            .unwrap_or_else(|| field.ident.span());
        if wire.is_empty() {
            cx.error_at(span, "the wire name is empty: give a non-empty `rename`");
        }
        if names.iter().any(|n| n.value == wire) {
            cx.error_at(
                span,
                format!(
                    "two fields have the wire name `{wire}`: give one a different `#[elicit(rename = \"..\")]`"
                ),
            );
        }
        names.push(Sp { value: wire, span });
    }
    if properties == 0 && input.attrs.allow_empty.is_none() {
        cx.error_at(
            input.ident.span(),
            "this form has no fields to ask: add a field, or add `#[elicit(allow_empty)]` \
             if an empty confirmation form is intended",
        );
    }
}

fn choice(cx: &Ctxt, input: &Input<'_>, variants: &[Variant<'_>], rule: Option<RenameRule>) {
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
    let mut names: Vec<String> = Vec::new();
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
        let wire = variant_wire_name(variant, rule);
        let span = variant
            .attrs
            .rename
            .as_ref()
            .map(|r| r.span)
            .unwrap_or_else(|| variant.ident.span());
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
