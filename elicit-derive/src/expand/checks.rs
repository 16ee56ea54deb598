//! Compile-time checks that need a field's type or a rule of elicit-core:
//! `const` evaluations of elicit-core's own functions and traits.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::ast::{Data, Field, Input};
use crate::attr::{FormatAttr, Number};

use super::{last_span, mentions_generic, qualified, qualified_on_type, respan};

/// Compile-time checks that need the field's type or a rule of elicit-core:
/// they are `const` evaluations of elicit-core's own functions and traits,
/// so no rule is re-implemented here. Each failure is spanned on the field
/// or attribute that causes it.
pub(super) fn checks(krate: &TokenStream, input: &Input<'_>, fields: &[Field<'_>]) -> TokenStream {
    let is_form = matches!(input.data, Data::Form(_));
    let mut out = Vec::new();
    for field in fields {
        let a = &field.attrs;
        if a.skip.is_some() || a.flatten.is_some() {
            continue;
        }
        // `#[secret]` is already an error of its own; a transparent
        // newtype's field has no wire name (the form using it is checked).
        if is_form && a.not_secret.is_none() && a.secret.is_none() {
            out.push(credential_check(krate, field));
        }
        out.extend(format_default_check(krate, field));
        // A secret is a `SecretString` (its glue's bound says so), text that
        // takes `length`, `pattern` and the formats: no check through a
        // form field's type applies.
        if a.secret.is_some() {
            continue;
        }
        // Checks through the field's type: not for types that mention a
        // generic parameter (a `const` cannot name them); those are checked
        // where the form is used.
        if mentions_generic(field.ty, input.generics) {
            continue;
        }
        out.extend(literal_default_check(krate, is_form, field));
        out.extend(zero_check(krate, is_form, field));
        out.extend(range_check(krate, field));
        out.extend(length_check(krate, field));
        out.extend(text_check(krate, field));
    }
    // One `const` per check: a type error in one does not hide the others.
    quote! {
        #(const _: () = { #out };)*
    }
}

/// The wire name does not look like a credential. The message is one
/// constant of elicit-core, not a copy per field; the error points at the
/// wire name (the field, or its `rename`).
fn credential_check(krate: &TokenStream, field: &Field<'_>) -> TokenStream {
    let wire = &field.wire;
    let span = field.wire_span();
    quote_spanned! {span=>
        if #krate::__private::looks_like_credential(#wire) {
            ::core::panic!("{}", #krate::__private::FORM_FIELD_MESSAGE);
        }
    }
}

/// A string literal default of a field with a known format is valid in
/// that format, reported at the default.
fn format_default_check(krate: &TokenStream, field: &Field<'_>) -> Option<TokenStream> {
    let a = &field.attrs;
    if let (Some(format), Some(default)) = (a.formats.first(), &a.default)
        && let FormatAttr::Known(known) = format.value
        && let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = &default.value
    {
        let check = format_ident!("{}", known.check);
        let check = quote!(#krate::__private::#check);
        let message = format!(
            "the default \"{}\" is not a valid {}: fix the default or the format",
            text.value(),
            known.wire
        );
        let span = default.span;
        return Some(quote_spanned! {span=>
            if !#check(#text) {
                ::core::panic!(#message);
            }
        });
    }
    None
}

/// `range(..)`: the type takes a range (`RangeField`), integer bounds are
/// whole numbers, and the bounds fit the type.
fn range_check(krate: &TokenStream, field: &Field<'_>) -> Option<TokenStream> {
    let a = &field.attrs;
    let span = a.range.span?;
    let private = respan(quote!(#krate::__private), span);
    let range = qualified(&private, field.ty, "RangeField", span);
    let mut group = vec![quote_spanned!(span=> let _: i128 = #range::MIN;)];
    for (which, bound) in [("min", &a.range.min), ("max", &a.range.max)] {
        let Some(bound) = bound else { continue };
        let bspan = bound.span;
        match bound.value {
            Number::Float(x) => {
                let message = format!(
                    "`range({which} = {x:?})` on an integer field: integer bounds must be whole numbers"
                );
                group.push(quote_spanned! {bspan=>
                    if #range::INTEGER {
                        ::core::panic!(#message);
                    }
                });
            }
            Number::Int(n) => {
                let message = format!(
                    "`range({which} = {n})` is outside the values the field's type can hold: \
                     use a bound the type can reach, or a wider integer type"
                );
                group.push(quote_spanned! {bspan=>
                    if #n < #range::MIN || #n > #range::MAX {
                        ::core::panic!(#message);
                    }
                });
            }
        }
    }
    Some(quote!(#(#group)*))
}

/// `length(..)`: the type takes a length (`LengthField`), and a
/// multi-select's `min` is not above its number of options.
fn length_check(krate: &TokenStream, field: &Field<'_>) -> Option<TokenStream> {
    let a = &field.attrs;
    let span = a.length.span?;
    let private = respan(quote!(#krate::__private), span);
    let length = qualified(&private, field.ty, "LengthField", span);
    let mut group = vec![quote_spanned!(span=> let _: u64 = #length::OPTIONS;)];
    if let Some(min) = &a.length.min {
        let n = min.value;
        let message = format!(
            "`length(min = {n})` asks for more selected options than the multi-select has: \
             lower it or add options"
        );
        let mspan = min.span;
        group.push(quote_spanned! {mspan=>
            if #n > #length::OPTIONS {
                ::core::panic!(#message);
            }
        });
    }
    Some(quote!(#(#group)*))
}

/// `pattern` or a format: the type is read from text (`TextField`).
fn text_check(krate: &TokenStream, field: &Field<'_>) -> Option<TokenStream> {
    let a = &field.attrs;
    let span = a
        .pattern
        .as_ref()
        .map(|p| p.span)
        .or(a.formats.first().map(|f| f.span))?;
    let private = respan(quote!(#krate::__private), span);
    let text = qualified(&private, field.ty, "TextField", span);
    Some(quote_spanned!(span=> let _: () = #text::TEXT;))
}

/// A string literal default passes the `LiteralRule` of the field's value
/// type (`TextDefault::LITERAL`: `date`, `date-time`, `uri`, UUID, ..), at
/// compile time, reported at the default.
fn literal_default_check(
    krate: &TokenStream,
    input_is_form: bool,
    field: &Field<'_>,
) -> Option<TokenStream> {
    let default = field.attrs.default.as_ref()?;
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(text),
        ..
    }) = &default.value
    else {
        return None;
    };
    let span = default.span;
    let value_ty = respan(value_type(krate, input_is_form, field.ty), span);
    let text_default = respan(quote!(#krate::TextDefault), span);
    Some(quote_spanned! {span=>
        if let ::core::result::Result::Err(__reason) =
            <#value_ty as #text_default>::LITERAL.check(#text)
        {
            ::core::panic!("{}", __reason);
        }
    })
}

/// The value type of a field: `<T as __private::FieldGlue>::Default` (its
/// `FormField::Value`) in a form (`T` or `Option<T>`), the type itself for a `transparent` newtype's field (a
/// `FormValue`, named so a wrong one is reported once).
fn value_type(krate: &TokenStream, input_is_form: bool, ty: &syn::Type) -> TokenStream {
    if input_is_form {
        let glue = qualified_on_type(krate, ty, "__private::FieldGlue");
        quote_spanned!(last_span(ty)=> #glue::Default)
    } else {
        quote!(#ty)
    }
}

/// Whether the field's literal `range` leaves 0 out.
fn range_excludes_zero(field: &Field<'_>) -> bool {
    let positive = |n: Number| match n {
        Number::Int(i) => i > 0,
        Number::Float(x) => x > 0.0,
    };
    let negative = |n: Number| match n {
        Number::Int(i) => i < 0,
        Number::Float(x) => x < 0.0,
    };
    let range = &field.attrs.range;
    range.min.as_ref().is_some_and(|m| positive(m.value))
        || range.max.as_ref().is_some_and(|m| negative(m.value))
}

/// A field whose type refuses 0 that its property admits (a signed
/// `NonZero`, `FormValue::REFUSES_ZERO`) needs a `range` that leaves 0 out:
/// at compile time, reported at the `range` if written, else at the type.
fn zero_check(krate: &TokenStream, input_is_form: bool, field: &Field<'_>) -> Option<TokenStream> {
    if range_excludes_zero(field) || never_refuses_zero(field.ty) {
        return None;
    }
    let ty = field.ty;
    let span = field.attrs.range.span.unwrap_or_else(|| last_span(ty));
    let form_value = respan(quote!(#krate::FormValue), span);
    let value_ty = value_type(krate, input_is_form, ty);
    let message = respan(quote!(#krate::__private::REFUSES_ZERO_MESSAGE), span);
    Some(quote_spanned! {span=>
        if <#value_ty as #form_value>::REFUSES_ZERO {
            ::core::panic!("{}", #message);
        }
    })
}

/// Whether `ty` is written as one of std's own field types that never
/// refuse 0 (`String`, `bool`, the floats, the plain integers, a
/// multi-select collection, or an `Option` of one), so the signed-`NonZero`
/// check is not emitted for it: most fields, and one `const` less each to
/// evaluate. Anything else (a signed `NonZero`, an alias, an enum, a
/// newtype) keeps the check.
fn never_refuses_zero(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    if path.qself.is_some() {
        return false;
    }
    match last.ident.to_string().as_str() {
        "String" | "bool" | "char" | "f32" | "f64" | "u8" | "u16" | "u32" | "u64" | "usize"
        | "i8" | "i16" | "i32" | "i64" | "isize" => last.arguments.is_none(),
        // A multi-select's items are enum options, never numbers.
        "Vec" | "BTreeSet" | "HashSet" => true,
        "Option" => match &last.arguments {
            syn::PathArguments::AngleBracketed(args) => match args.args.first() {
                Some(syn::GenericArgument::Type(inner)) if args.args.len() == 1 => {
                    never_refuses_zero(inner)
                }
                _ => false,
            },
            _ => false,
        },
        _ => false,
    }
}
