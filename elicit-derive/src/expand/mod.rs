//! Code generation, from the resolved [`ast`](crate::ast) (wire names and
//! descriptions are not worked out here). Every rule about answers runs in
//! elicit-core; the output is glue. One file per kind of output; this one
//! dispatches and holds the token helpers they share:
//!
//! - a form (`form.rs`): the `Elicit` and `__private::DerivedForm` impls.
//!   `schema()` pushes each field's property through its type's
//!   `__private::FieldGlue::push`, with the attributes as `__private::Attrs`
//!   and the default; `collect_from` (`&Content`, or `&mut Content` to
//!   take strings from; one generic body) sorts the content's entries into
//!   one slot per field in one `match` on the wire names, then takes each
//!   with `FieldGlue::take`; `from_content`/`from_content_owned`/
//!   `to_content` call elicit-core's helpers; `write` puts each field back
//!   with `FieldGlue::put`. A flattened field delegates to its own
//!   `DerivedForm`. A non-generic form keeps its schema and its JSON in
//!   statics. With `check = path` (or a flattened field),
//!   `DerivedForm::check` runs the flattened forms' checks and the path, as
//!   a `fn(&Self) -> Result<(), ContentError>`, through
//!   `__private::run_check`; elicit-core's `from_content` calls it once
//!   every field parsed.
//! - a sensitive form (`sensitive.rs`): the `sensitive::SensitiveForm` impl,
//!   each `#[secret]` field through `__private::SecretGlue`, the others as a
//!   form's; a `check` through `__private::finish_checked`.
//! - a single-select (`choice.rs`): the `FormValue` and `Choice` impls, with a
//!   `match` per direction between variants and wire values.
//! - a newtype used as one field (`newtype.rs`): `transparent`, and
//!   `try_from`/`from` with `into`.
//! - `checks.rs`: `const` blocks that make elicit-core's own functions and
//!   traits judge, at compile time, what needs them or the field's type: a
//!   credential-like wire name, a literal default's format, whether the type
//!   takes `range` / `length` / `pattern` and can hold the bounds.
//! - `fallback.rs`: what goes with compile errors: the same checks and impls
//!   whose bodies never run, so one build shows every mistake and no
//!   cascade of missing-trait errors.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Data, Input};
use crate::attr::Number;

mod checks;
mod choice;
mod fallback;
mod form;
mod newtype;
mod sensitive;

pub use fallback::fallback;

/// The path elicit-core is reached by: `crate = ".."`, else `::elicit_core`.
fn krate(input: &Input<'_>) -> TokenStream {
    match &input.attrs.krate {
        Some(path) => quote!(#path),
        None => quote!(::elicit_core),
    }
}

/// The impls for an input that passed every check in `valid.rs`.
pub fn expand(input: &Input<'_>) -> TokenStream {
    match &input.data {
        Data::Form(fields) if input.attrs.sensitive.is_some() => {
            sensitive::sensitive(input, fields)
        }
        Data::Form(fields) => form::form(input, fields),
        Data::Choice(variants) => choice::choice(input, variants),
        Data::Transparent(t) => newtype::transparent(input, t),
        Data::Converted => newtype::converted(input),
        // `valid.rs` reports every unsupported shape, so this is not reached.
        Data::Unsupported(_) => fallback(input),
    }
}

/// `let __check: fn(&Self) -> Result<(), ContentError> = path;`, the
/// form's `check = path` as a function pointer: a function of another
/// signature is one type error at the path, which names the signature
/// expected, "expected due to" the `check` key (where the type is spanned).
fn check_fn(krate: &TokenStream, input: &Input<'_>) -> Option<TokenStream> {
    let check = input.attrs.check.as_ref()?;
    let path = &check.value;
    let ty = respan(
        quote!(fn(&Self) -> ::core::result::Result<(), #krate::ContentError>),
        check.span,
    );
    Some(quote_spanned!(path.span()=> let __check: #ty = #path;))
}

/// The same tokens, all at `span`: a path like `::elicit_core::FormField`
/// written next to a user's type then reports errors at that type only.
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let proc_macro2::TokenTree::Group(g) = &tt {
                let mut group = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                tt = proc_macro2::TokenTree::Group(group);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}

/// `<Ty as krate::Trait>` with every token at `span`, so an error in it
/// points there (at the type, or at the attribute that needs the trait).
fn qualified(
    krate: &TokenStream,
    ty: &syn::Type,
    trait_: &str,
    span: proc_macro2::Span,
) -> TokenStream {
    let path = respan(trait_path(krate, trait_, span), span);
    let lt = respan(quote!(<), span);
    let gt = respan(quote!(>), span);
    let as_ = respan(quote!(as), span);
    let ty = respan(quote!(#ty), span);
    quote!(#lt #ty #as_ #path #gt)
}

/// `<#ty as #krate::Trait>` reported on the type itself: the type's tokens
/// keep their own spans, the glue before it takes the first token's span and
/// the closing `>` the last token's, so a diagnostic covers the whole type
/// (`Box<String>`, not just `Box`) on stable, where spans cannot be joined.
fn qualified_on_type(krate: &TokenStream, ty: &syn::Type, trait_: &str) -> TokenStream {
    let first = ty.span();
    let path = respan(trait_path(krate, trait_, first), first);
    let lt = respan(quote!(<), first);
    let as_ = respan(quote!(as), first);
    let gt = respan(quote!(>), last_span(ty));
    quote!(#lt #ty #as_ #path #gt)
}

/// `krate::a::B` from `"a::B"`.
fn trait_path(krate: &TokenStream, trait_: &str, span: proc_macro2::Span) -> TokenStream {
    let segments = trait_.split("::").map(|s| syn::Ident::new(s, span));
    quote!(#krate #(:: #segments)*)
}

/// The span of a type's last token.
fn last_span(ty: &syn::Type) -> proc_macro2::Span {
    quote!(#ty)
        .into_iter()
        .last()
        .map_or_else(|| ty.span(), |tt| tt.span())
}

/// `Some(value)` or `None`, as an expression.
fn option<T: ToTokens>(value: Option<T>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

/// An owned `String` from the string literal `s`.
fn string(s: &str) -> TokenStream {
    quote!(::std::string::String::from(#s))
}

/// A bound as elicit-core's `__private::Num`.
fn num(krate: &TokenStream, n: Number) -> TokenStream {
    match n {
        Number::Int(i) => quote!(#krate::__private::Num::Int(#i)),
        Number::Float(x) => quote!(#krate::__private::Num::Float(#x)),
    }
}

/// Whether a type names one of the generic parameters.
fn mentions_generic(ty: &syn::Type, generics: &syn::Generics) -> bool {
    fn walk(tokens: TokenStream, params: &[String]) -> bool {
        tokens.into_iter().any(|tt| match tt {
            proc_macro2::TokenTree::Ident(i) => params.contains(&i.to_string()),
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), params),
            _ => false,
        })
    }
    let params: Vec<String> = generics
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Type(t) => Some(t.ident.to_string()),
            syn::GenericParam::Const(c) => Some(c.ident.to_string()),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect();
    !params.is_empty() && walk(quote!(#ty), &params)
}
