//! `#[derive(Elicit)]`: the derive macro of
//! [elicit-core](https://docs.rs/elicit-core). Depend on elicit-core, which
//! re-exports it; the generated code calls elicit-core's runtime.
//!
//! The pipeline is parse ([`ast`], [`attr`]) -> validate ([`valid`], every
//! error collected with its span) -> expand ([`expand`]). When validation
//! finds errors, the derive emits them together with a fallback impl, so a
//! user sees our errors and not a cascade of missing-trait errors.

mod ast;
mod attr;
mod case;
mod ctxt;
mod expand;
mod valid;

use proc_macro::TokenStream;

/// Derives `elicit_core::Elicit` for a struct with named fields (a form), or
/// `elicit_core::Choice` for a unit-only enum (a single-select).
///
/// See the elicit-core documentation for the attributes.
#[proc_macro_derive(Elicit, attributes(elicit, secret))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derive(&input).into()
}

fn derive(input: &syn::DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::default();
    let input = ast::Input::from_syn(&cx, input);
    let rule = valid::check(&cx, &input);
    if cx.has_errors() {
        let fallback = expand::fallback(&input, rule);
        let errors = cx.into_compile_errors();
        return quote::quote!(#errors #fallback);
    }
    expand::expand(&input, rule)
}
