//! Code generation, from the resolved [`ast`](crate::ast) (wire names and
//! descriptions are not worked out here). Every rule about answers runs in
//! elicit-core; the output is glue:
//!
//! - a form (`form`): the `Elicit` impl. `schema()` pushes each field's
//!   property through its type's `FormField::__push`, with the attributes as
//!   `__private::Attrs` and the default; `__collect_from` (borrowed or owned
//!   content, one generic body) sorts the content's entries into one slot
//!   per field in one `match` on the wire names, then takes each with
//!   `FormField::__take`; `from_content`/`to_content` call elicit-core's
//!   non-generic helpers; `to_content` writes each field with
//!   `FormField::__put`. A flattened field delegates to its own `Elicit`. A
//!   non-generic form keeps its schema and its JSON in statics.
//! - a single-select (`choice`): the `FormValue` and `Choice` impls, with a
//!   `match` per direction between variants and wire values.
//! - `checks`: `const` blocks that make elicit-core's own functions and
//!   traits judge, at compile time, what needs them or the field's type: a
//!   credential-like wire name, a literal default's format, whether the type
//!   takes `range` / `length` / `pattern` and can hold the bounds.
//! - `fallback`: what goes with compile errors: the same checks and impls
//!   whose bodies never run, so one build shows every mistake and no
//!   cascade of missing-trait errors.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Data, Field, Input, Transparent, Variant};
use crate::attr::{FormatAttr, Number};

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
        Data::Form(fields) => form(input, fields),
        Data::Choice(variants) => choice(input, variants),
        Data::Transparent(t) => transparent(input, t),
        Data::Converted => converted(input),
        // `valid.rs` reports every unsupported shape, so this is not reached.
        Data::Unsupported(_) => fallback(input),
    }
}

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
                .map(|f| {
                    let ty = f.ty;
                    let form_field = qualified_on_type(&krate, ty, "FormField");
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
    let trait_ident = syn::Ident::new(trait_, span);
    let path = respan(quote!(#krate::#trait_ident), span);
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
    let trait_ident = syn::Ident::new(trait_, first);
    let path = respan(quote!(#krate::#trait_ident), first);
    let lt = respan(quote!(<), first);
    let as_ = respan(quote!(as), first);
    let gt = respan(quote!(>), last_span(ty));
    quote!(#lt #ty #as_ #path #gt)
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

/// `__private::Attrs { .. }` for a field.
fn attrs(krate: &TokenStream, field: &Field<'_>) -> TokenStream {
    let a = &field.attrs;
    let mut items = Vec::new();
    if let Some(title) = &a.title {
        let title = &title.value;
        items.push(quote!(title: ::core::option::Option::Some(#title)));
    }
    if let Some(description) = &field.description {
        items.push(quote!(description: ::core::option::Option::Some(#description)));
    }
    if let Some(min) = &a.range.min {
        let n = num(krate, min.value);
        items.push(quote!(min: ::core::option::Option::Some(#n)));
    }
    if let Some(max) = &a.range.max {
        let n = num(krate, max.value);
        items.push(quote!(max: ::core::option::Option::Some(#n)));
    }
    if let Some(min) = &a.length.min {
        let n = min.value;
        items.push(quote!(min_length: ::core::option::Option::Some(#n)));
    }
    if let Some(max) = &a.length.max {
        let n = max.value;
        items.push(quote!(max_length: ::core::option::Option::Some(#n)));
    }
    if let Some(pattern) = &a.pattern {
        let p = &pattern.value;
        items.push(quote!(pattern: ::core::option::Option::Some(#p)));
    }
    if let Some(format) = a.formats.first() {
        let f = match &format.value {
            FormatAttr::Known(known) => {
                let variant = format_ident!("{}", known.variant);
                quote!(#krate::__private::Format::#variant)
            }
            FormatAttr::Custom(s) => {
                let s = string(s);
                quote!(#krate::__private::Format::Other(#s))
            }
        };
        items.push(quote!(format: ::core::option::Option::Some(#f)));
    }
    quote! {
        #krate::__private::Attrs {
            #(#items,)*
            ..::core::default::Default::default()
        }
    }
}

/// `Option<fn() -> <T as FormField>::Value>` for the field's default.
fn default_fn(krate: &TokenStream, field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    let form_field = qualified_on_type(krate, ty, "FormField");
    let value_ty = quote_spanned!(last_span(ty)=> #form_field::Value);
    match &field.attrs.default {
        Some(default) => {
            let expr = &default.value;
            // A string literal default fills a field read from text.
            let body = match expr {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(_),
                    ..
                }) => {
                    let literal_ty = respan(value_ty.clone(), default.span);
                    let text_default = respan(quote!(#krate::TextDefault), default.span);
                    quote_spanned!(default.span=> <#literal_ty as #text_default>::from_literal(#expr))
                }
                _ => quote_spanned!(expr.span()=> #expr),
            };
            quote_spanned! {ty.span()=>
                ::core::option::Option::Some((|| -> #value_ty { #body }) as fn() -> #value_ty)
            }
        }
        None => {
            let gt = respan(quote!(>), last_span(ty));
            quote_spanned!(ty.span()=> ::core::option::Option::None::<fn() -> #value_ty #gt)
        }
    }
}

/// The `Elicit` impl of a form, with its compile-time checks.
fn form(input: &Input<'_>, fields: &[Field<'_>]) -> TokenStream {
    let krate = krate(input);
    let ident = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let is_generic = !input.generics.params.is_empty();

    let title = option(input.attrs.title.as_ref().map(|t| string(&t.value)));
    let description = option(input.description.as_deref().map(string));

    let mut build = Vec::new();
    let mut collect = Vec::new();
    let mut write = Vec::new();
    let mut init = Vec::new();
    // The wire names of the form's own fields, by slot: `from_content`
    // sorts the content's entries into these in one pass.
    let mut slots = Vec::new();
    // The flattened forms, whose properties follow in the schema.
    let mut flattened = Vec::new();
    // Own fields without a default: at most this many are required.
    let mut may_be_required = 0usize;
    for (i, field) in fields.iter().enumerate() {
        let member = field.ident;
        let ty = field.ty;
        let var = format_ident!("__field{}", i);
        if field.attrs.skip.is_some() {
            init.push(quote!(#member: ::core::default::Default::default()));
            continue;
        }
        if field.attrs.flatten.is_some() {
            let elicit = qualified(&krate, ty, "Elicit", ty.span());
            build.push(quote!(#krate::__private::merge(&mut __schema, #elicit::schema());));
            collect.push(quote! {
                let #var = #elicit::__collect(__content, __errors);
                __index += #elicit::__property_count();
            });
            write.push(quote!(#krate::Elicit::__write(&self.#member, __content);));
            init.push(quote!(#member: #var?));
            flattened.push(elicit);
            continue;
        }
        let wire = &field.wire;
        let attrs = attrs(&krate, field);
        let default = default_fn(&krate, field);
        let form_field = qualified_on_type(&krate, ty, "FormField");
        // Spanned on the type, so an unsupported type is reported there once.
        let span = last_span(ty);
        build.push(quote_spanned! {span=>
            #form_field::__push(&mut __schema, #wire, &#attrs, #default);
        });
        if field.attrs.default.is_none() {
            may_be_required += 1;
        }
        let slot = slots.len();
        slots.push(wire);
        collect.push(quote_spanned! {span=>
            let #var = #form_field::__take(__slots[#slot].take(), __schema, &mut __index, #default, __errors);
        });
        write.push(quote_spanned!(span=> #form_field::__put(&self.#member, __content, #wire);));
        init.push(quote!(#member: #var?));
    }

    // One pass over the content: a `match` on the wire names (what serde
    // generates too) instead of one map lookup per field.
    let count = slots.len();
    let arms: Vec<TokenStream> = slots
        .iter()
        .enumerate()
        .map(|(i, wire)| quote!(#wire => ::core::option::Option::Some(#i)))
        .collect();
    let slot_pass = quote! {
        #[allow(unused_mut)]
        let mut __slots: [::core::option::Option<__S::Entry>; #count] =
            #krate::__private::Source::slots(__content, |__key: &str| match __key {
                #(#arms,)*
                _ => ::core::option::Option::None,
            });
    };

    let own_fields = slots.len();
    let checks = checks(&krate, input, fields);
    // A non-generic form builds its schema once, and its JSON once (through
    // non-generic helpers, so each form adds only a static and a call); a
    // generic one per call (a static in a generic function would be shared
    // by every instantiation), through the trait's default methods.
    let statics = (!is_generic).then(|| {
        quote! {
            fn __static_schema() -> ::core::option::Option<&'static #krate::ElicitationSchema> {
                static __SCHEMA: #krate::__private::OnceLock<#krate::ElicitationSchema> =
                    #krate::__private::OnceLock::new();
                ::core::option::Option::Some(#krate::__private::cached_schema(
                    &__SCHEMA,
                    <Self as #krate::Elicit>::schema,
                ))
            }

            fn schema_json() -> #krate::__private::Cow<'static, str> {
                static __JSON: #krate::__private::OnceLock<::std::string::String> =
                    #krate::__private::OnceLock::new();
                #krate::__private::Cow::Borrowed(#krate::__private::cached_json(
                    &__JSON,
                    <Self as #krate::Elicit>::schema,
                ))
            }
        }
    });
    let schema_ref = quote! {
        let __schema = <Self as #krate::Elicit>::__schema();
        let __schema: &#krate::ElicitationSchema = __schema.as_ref();
    };

    // Unknown keys are judged by the outermost form only: a flattened form
    // does not see its parent's fields.
    let deny = input.attrs.deny_unknown_fields.map(|_| {
        quote! {
            fn __deny_unknown(
                __content: &#krate::Content,
                __errors: &mut ::std::vec::Vec<#krate::FieldError>,
            ) {
                #schema_ref
                #krate::__private::deny_unknown(__content, __schema, __errors);
            }
        }
    });

    let body = quote! {
        #schema_ref
        let mut __index: usize = 0;
        #(#collect)*
        let _ = __index;
        ::core::option::Option::Some(Self { #(#init,)* })
    };
    // Without flattened fields, one generic body reads borrowed and owned
    // content alike (moving strings out of owned content); it is compiled
    // for owned content only where `from_content_owned` is called. A
    // flattened form shares its content with the inner form, so it reads
    // borrowed content only.
    let collect_fns = if flattened.is_empty() {
        quote! {
            fn __collect(
                __content: &#krate::Content,
                __errors: &mut ::std::vec::Vec<#krate::FieldError>,
            ) -> ::core::option::Option<Self> {
                <Self as #krate::Elicit>::__collect_from(__content, __errors)
            }

            fn __collect_from<__S: #krate::__private::Source>(
                __content: __S,
                __errors: &mut ::std::vec::Vec<#krate::FieldError>,
            ) -> ::core::option::Option<Self> {
                #slot_pass
                #body
            }
        }
    } else {
        quote! {
            fn __collect(
                __content: &#krate::Content,
                __errors: &mut ::std::vec::Vec<#krate::FieldError>,
            ) -> ::core::option::Option<Self> {
                #[allow(unused_mut)]
                let mut __slots: [::core::option::Option<&#krate::__private::Value>; #count] =
                    #krate::__private::Source::slots(__content, |__key: &str| match __key {
                        #(#arms,)*
                        _ => ::core::option::Option::None,
                    });
                #body
            }
        }
    };

    quote! {
        #checks

        #[automatically_derived]
        impl #impl_generics #krate::Elicit for #ident #ty_generics #where_clause {
            fn schema() -> #krate::ElicitationSchema {
                let mut __schema =
                    #krate::__private::schema_with_capacity(#own_fields, #may_be_required);
                __schema.title = #title;
                __schema.description = #description;
                #(#build)*
                __schema
            }

            fn from_content(
                __content: &#krate::Content,
            ) -> ::core::result::Result<Self, #krate::ContentError> {
                #krate::__private::from_content(__content)
            }

            fn to_content(&self) -> #krate::Content {
                #krate::__private::to_content(self)
            }

            #collect_fns

            #deny

            fn __write(&self, __content: &mut #krate::Content) {
                #(#write)*
            }

            fn __property_count() -> usize {
                #own_fields #(+ #flattened::__property_count())*
            }

            #statics
        }
    }
}

/// Compile-time checks that need the field's type or a rule of elicit-core:
/// they are `const` evaluations of elicit-core's own functions and traits,
/// so no rule is re-implemented here. Each failure is spanned on the field
/// or attribute that causes it.
fn checks(krate: &TokenStream, input: &Input<'_>, fields: &[Field<'_>]) -> TokenStream {
    let mut out = Vec::new();
    for field in fields {
        let a = &field.attrs;
        if a.skip.is_some() || a.flatten.is_some() {
            continue;
        }
        let wire = &field.wire;
        // `#[secret]` is already an error of its own; a transparent
        // newtype's field has no wire name (the form using it is checked).
        let is_form = matches!(input.data, Data::Form(_));
        if is_form && a.not_secret.is_none() && a.secret.is_none() {
            // The message is one constant of elicit-core, not a copy per
            // field; the error points at the wire name (the field, or its
            // `rename`).
            let span = field.wire_span();
            out.push(quote_spanned! {span=>
                if #krate::credential::looks_like_credential(#wire) {
                    ::core::panic!("{}", #krate::credential::FORM_FIELD_MESSAGE);
                }
            });
        }
        if let (Some(format), Some(default)) = (a.formats.first(), &a.default)
            && let FormatAttr::Known(known) = format.value
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) = &default.value
        {
            let check = format_ident!("{}", known.check);
            let check = quote!(#krate::format::#check);
            let message = format!(
                "the default \"{}\" is not a valid {}: fix the default or the format",
                text.value(),
                known.wire
            );
            let span = default.span;
            out.push(quote_spanned! {span=>
                if !#check(#text) {
                    ::core::panic!(#message);
                }
            });
        }
        // Checks through the field's type: not for types that mention a
        // generic parameter (a `const` cannot name them); those are checked
        // where the form is used.
        if mentions_generic(field.ty, input.generics) {
            continue;
        }
        let ty = field.ty;
        if let Some(check) = literal_default_check(krate, is_form, field) {
            out.push(check);
        }
        if let Some(check) = zero_check(krate, is_form, field) {
            out.push(check);
        }
        if let Some(span) = a.range.span {
            let field_mod = respan(quote!(#krate::field), span);
            let range = qualified(&field_mod, ty, "RangeField", span);
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
            out.push(quote!(#(#group)*));
        }
        if let Some(span) = a.length.span {
            let field_mod = respan(quote!(#krate::field), span);
            let length = qualified(&field_mod, ty, "LengthField", span);
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
            out.push(quote!(#(#group)*));
        }
        let text_span = a
            .pattern
            .as_ref()
            .map(|p| p.span)
            .or(a.formats.first().map(|f| f.span));
        if let Some(span) = text_span {
            let field_mod = respan(quote!(#krate::field), span);
            let text = qualified(&field_mod, ty, "TextField", span);
            out.push(quote_spanned!(span=> let _: () = #text::TEXT;));
        }
    }
    // One `const` per check: a type error in one does not hide the others.
    quote! {
        #(const _: () = { #out };)*
    }
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

/// The value type of a field: `<T as FormField>::Value` in a form (`T` or
/// `Option<T>`), the type itself for a `transparent` newtype's field (a
/// `FormValue`, named so a wrong one is reported once).
fn value_type(krate: &TokenStream, input_is_form: bool, ty: &syn::Type) -> TokenStream {
    if input_is_form {
        let form_field = qualified_on_type(krate, ty, "FormField");
        quote_spanned!(last_span(ty)=> #form_field::Value)
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
    let message = respan(quote!(#krate::field::REFUSES_ZERO_MESSAGE), span);
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

/// The `FormValue` and `Choice` impls of a single-select enum.
fn choice(input: &Input<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let krate = krate(input);
    let ident = input.ident;
    let titled = variants
        .iter()
        .any(|v| v.attrs.title.is_some() || v.attrs.description.is_some());
    let mut options = Vec::new();
    let mut to_wire = Vec::new();
    let mut from_wire = Vec::new();
    for variant in variants {
        let v = variant.ident;
        let wire = &variant.wire;
        let title = option(variant.attrs.title.as_ref().map(|t| &t.value));
        let description = option(variant.description.as_ref());
        options.push(quote! {
            #krate::ChoiceOption { value: #wire, title: #title, description: #description }
        });
        to_wire.push(quote!(Self::#v => #wire));
        from_wire.push(quote!(#wire => ::core::option::Option::Some(Self::#v)));
    }
    let rust_type = ident.to_string();
    quote! {
        #[automatically_derived]
        impl #krate::FormValue for #ident {
            const RUST_TYPE: &'static str = #rust_type;
            fn property() -> #krate::PropertySchema {
                #krate::__private::choice_property::<Self>()
            }
            fn from_value(
                __value: &#krate::__private::Value,
            ) -> ::core::result::Result<Self, #krate::FieldErrorKind> {
                #krate::__private::choice_from_value::<Self>(__value)
            }
            fn to_value(&self) -> #krate::__private::Value {
                #krate::__private::choice_to_value(self)
            }
            fn __check(
                __property: &#krate::PropertySchema,
                __value: &#krate::__private::Value,
            ) -> ::core::result::Result<Self, #krate::FieldErrorKind> {
                #krate::__private::choice_check::<Self>(__property, __value)
            }
        }

        #[automatically_derived]
        impl #krate::Choice for #ident {
            const OPTIONS: &'static [#krate::ChoiceOption] = &[#(#options),*];
            const TITLED: bool = #titled;
            fn as_wire(&self) -> &'static str {
                match *self {
                    #(#to_wire,)*
                }
            }
            fn from_wire(__value: &str) -> ::core::option::Option<Self> {
                match __value {
                    #(#from_wire,)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    }
}

/// The `FormValue` impl of a `transparent` newtype: the inner field's type
/// with the inner field's attributes as its property; reading and writing go
/// through the inner type. Also `Wrapper`, so a string default fills it when
/// one fills the inner type (checked against the newtype's own format).
fn transparent(input: &Input<'_>, t: &Transparent<'_>) -> TokenStream {
    let krate = krate(input);
    let ident = input.ident;
    let field = &t.field;
    let member = &t.member;
    let ty = field.ty;
    let form_value = qualified_on_type(&krate, ty, "FormValue");
    let attrs = attrs(&krate, field);
    let format = match field.attrs.formats.first().map(|f| &f.value) {
        Some(FormatAttr::Known(known)) => {
            let variant = format_ident!("{}", known.literal);
            quote!(::core::option::Option::Some(#krate::__private::LiteralRule::#variant))
        }
        _ => quote!(::core::option::Option::None),
    };
    let rust_type = ident.to_string();
    let checks = checks(&krate, input, std::slice::from_ref(field));
    quote! {
        #checks

        #[automatically_derived]
        impl #krate::FormValue for #ident {
            const RUST_TYPE: &'static str = #rust_type;
            fn property() -> #krate::PropertySchema {
                #krate::__private::transparent_property(#form_value::property(), &#attrs)
            }
            fn from_value(
                __value: &#krate::__private::Value,
            ) -> ::core::result::Result<Self, #krate::FieldErrorKind> {
                #form_value::from_value(__value).map(|__inner| Self { #member: __inner })
            }
            fn to_value(&self) -> #krate::__private::Value {
                #form_value::to_value(&self.#member)
            }
        }

        #[automatically_derived]
        impl #krate::__private::Wrapper for #ident {
            type Inner = #ty;
            const FORMAT: ::core::option::Option<#krate::__private::LiteralRule> = #format;
        }
    }
}

/// The `FormValue` impl of a type with `try_from = "U"` (or `from`) and
/// `into = "U"`: `U`'s property; read as `U`, then converted with the
/// type's `TryFrom<U>` (its error's `Display` is the field error) or
/// `From<U>`; written through `U: From<Self>` on a clone.
fn converted(input: &Input<'_>) -> TokenStream {
    let krate = krate(input);
    let ident = input.ident;
    let a = &input.attrs;
    let (Some(conversion), Some(_)) = (a.conversion(), &a.into) else {
        // `valid.rs` reports a missing half, so this is not reached.
        return fallback(input);
    };
    let via = &conversion.value;
    let span = conversion.span;
    let form_value = qualified(&krate, via, "FormValue", span);
    let rust_type = ident.to_string();
    let read = if a.try_from.is_some() {
        quote_spanned! {span=>
            #form_value::from_value(__value).and_then(|__inner| {
                #krate::__private::try_convert::<#via, Self>(__inner, #rust_type)
            })
        }
    } else {
        quote_spanned! {span=>
            #form_value::from_value(__value).map(<Self as ::core::convert::From<#via>>::from)
        }
    };
    let message = format!(
        "`{rust_type}` is read through a signed `NonZero` integer, which refuses 0 while its \
         property admits it: read it through a `transparent` newtype of it with a `range` that \
         leaves 0 out"
    );
    quote! {
        const _: () = if #form_value::REFUSES_ZERO {
            ::core::panic!(#message);
        };

        #[automatically_derived]
        impl #krate::FormValue for #ident {
            const RUST_TYPE: &'static str = #rust_type;
            fn property() -> #krate::PropertySchema {
                #form_value::property()
            }
            fn from_value(
                __value: &#krate::__private::Value,
            ) -> ::core::result::Result<Self, #krate::FieldErrorKind> {
                #read
            }
            fn to_value(&self) -> #krate::__private::Value {
                #form_value::to_value(&<#via as ::core::convert::From<Self>>::from(
                    ::core::clone::Clone::clone(self),
                ))
            }
        }

        #[automatically_derived]
        impl #krate::__private::Wrapper for #ident {
            type Inner = #via;
        }
    }
}
