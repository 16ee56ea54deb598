//! What goes with compile errors: the checks that need the compiler, and
//! impls whose bodies never run, so one build shows every mistake and no
//! cascade of missing-trait errors.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::ast::{Data, Input};

use super::{check_fn, checks::checks, krate, last_span, mentions_generic, qualified_on_type};

/// What is emitted next to compile errors: an impl whose bodies never run, so
/// uses of the type elsewhere do not add errors of their own.
pub fn fallback(input: &Input<'_>) -> TokenStream {
    let krate = krate(input);
    // The checks that need the compiler still run, so one build shows every
    // mistake: field types, and the `const` checks.
    let checks = match &input.data {
        Data::Form(fields) => {
            let types = fields
                .iter()
                .filter(|f| {
                    f.attrs.skip.is_none()
                        && f.attrs.flatten.is_none()
                        && !mentions_generic(f.ty, input.generics)
                        // Already an error of its own (see `valid.rs`).
                        && !f.is_nested_option()
                })
                // A secret of a form that is not sensitive is an error of its
                // own; a sensitive form's secret is a `SecretGlue` type.
                .filter(|f| f.attrs.secret.is_none() || input.attrs.sensitive.is_some())
                .map(|f| {
                    let ty = f.ty;
                    let glue = if f.attrs.secret.is_some() {
                        "__private::SecretGlue"
                    } else {
                        "FormField"
                    };
                    let form_field = qualified_on_type(&krate, ty, glue);
                    quote_spanned!(last_span(ty)=> let _: bool = #form_field::REQUIRED;)
                });
            let types = quote!(const _: () = { #(#types)* };);
            let checks = checks(&krate, input, fields);
            quote!(#types #checks)
        }
        Data::Transparent(t) => {
            let ty = t.field.ty;
            let form_value = qualified_on_type(&krate, ty, "FormValue");
            let checks = checks(&krate, input, std::slice::from_ref(&t.field));
            quote! {
                const _: () = { let _: &str = #form_value::RUST_TYPE; };
                #checks
            }
        }
        _ => TokenStream::new(),
    };
    let ident = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    // A form's `check` keeps its signature check, in a body that never runs.
    let check_fn = match &input.data {
        Data::Form(_) => check_fn(&krate, input),
        _ => None,
    };
    let fallback = match &input.data {
        // A generic enum is an error of its own; an impl would only add more.
        Data::Choice(_) | Data::Transparent(_) | Data::Converted
            if !input.generics.params.is_empty() =>
        {
            TokenStream::new()
        }
        Data::Transparent(_) | Data::Converted => fallback_form_value(&krate, input),
        Data::Choice(_) => {
            let form_value = fallback_form_value(&krate, input);
            quote! {
                #form_value
                impl #impl_generics #krate::Choice for #ident #ty_generics #where_clause {
                    const OPTIONS: &'static [#krate::ChoiceOption] = &[];
                    const TITLED: bool = false;
                    fn as_wire(&self) -> &'static str {
                        ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
                    }
                    fn from_wire(_: &str) -> ::core::option::Option<Self> {
                        ::core::option::Option::None
                    }
                }
            }
        }
        Data::Form(_) if input.attrs.sensitive.is_some() => quote! {
            impl #impl_generics #krate::sensitive::SensitiveForm for #ident #ty_generics #where_clause {
                const SECRET_FIELDS: &'static [&'static str] = &[];
                fn schema() -> #krate::ElicitationSchema {
                    ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
                }
                fn from_submission(
                    _: #krate::sensitive::Submission,
                ) -> ::core::result::Result<Self, #krate::ContentError> {
                    #check_fn
                    ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
                }
            }
        },
        _ => quote! {
            impl #impl_generics #krate::Elicit for #ident #ty_generics #where_clause {
                fn schema() -> #krate::ElicitationSchema {
                    ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
                }
                fn from_content(_: &#krate::Content) -> ::core::result::Result<Self, #krate::ContentError> {
                    ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
                }
                fn to_content(&self) -> #krate::Content {
                    ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
                }
            }
            impl #impl_generics #krate::__private::DerivedForm for #ident #ty_generics #where_clause {
                fn collect(
                    _: &#krate::Content,
                    _: &mut ::std::vec::Vec<#krate::FieldError>,
                ) -> ::core::option::Option<Self> {
                    ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
                }
                fn property_count() -> usize {
                    ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
                }
                fn write(&self, _: &mut #krate::Content) {
                    #check_fn
                    ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
                }
            }
        },
    };
    quote!(#checks #fallback)
}

/// The fallback `FormValue` impl of a single-select, `transparent` or
/// converted type (none of them generic: that is an error of its own).
fn fallback_form_value(krate: &TokenStream, input: &Input<'_>) -> TokenStream {
    let ident = input.ident;
    quote! {
        impl #krate::FormValue for #ident {
            const RUST_TYPE: &'static str = "";
            fn property() -> #krate::PropertySchema {
                ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
            }
            fn from_value(
                _: &#krate::__private::Value,
            ) -> ::core::result::Result<Self, #krate::FieldErrorKind> {
                ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
            }
            fn to_value(&self) -> #krate::__private::Value {
                ::core::unreachable!("`#[derive(Elicit)]` failed to compile")
            }
        }
    }
}
