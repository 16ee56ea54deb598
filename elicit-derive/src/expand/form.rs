//! A form's `Elicit` and `__private::DerivedForm` impls: per field, its
//! property pushed through its type's `__private::FieldGlue`, its slot in
//! the one pass over the content, and how it is written back.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Field, Input};
use crate::attr::FormatAttr;

use super::{
    check_fn, checks::checks, krate, last_span, num, option, qualified, qualified_on_type, respan,
    string,
};

/// `__private::Attrs { .. }` for a field.
pub(super) fn attrs(krate: &TokenStream, field: &Field<'_>) -> TokenStream {
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

/// `Option<fn() -> <T as FieldGlue>::Default>` (the field's value type) for
/// its default.
pub(super) fn default_fn(krate: &TokenStream, field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    let glue_trait = qualified_on_type(krate, ty, "__private::FieldGlue");
    let value_ty = quote_spanned!(last_span(ty)=> #glue_trait::Default);
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

/// `schema()`'s line for a field: `FieldGlue::push`, or `push_default`
/// with a default (so the default's conversion to a value is compiled only
/// for fields that have one).
pub(super) fn push_field(
    glue_trait: &TokenStream,
    wire: &str,
    attrs: &TokenStream,
    default: &TokenStream,
    field: &Field<'_>,
    span: proc_macro2::Span,
) -> TokenStream {
    if field.attrs.default.is_some() {
        quote_spanned!(span=> #glue_trait::push_default(&mut __schema, #wire, &#attrs, #default);)
    } else {
        quote_spanned!(span=> #glue_trait::push(&mut __schema, #wire, &#attrs);)
    }
}

/// The `Elicit` impl of a form, with its compile-time checks.
pub(super) fn form(input: &Input<'_>, fields: &[Field<'_>]) -> TokenStream {
    let krate = krate(input);
    let ident = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let title = option(input.attrs.title.as_ref().map(|t| string(&t.value)));
    let description = option(input.description.as_deref().map(string));

    let glue = glue(&krate, fields);
    let Glue {
        build,
        write,
        flattened,
        may_be_required,
        ..
    } = &glue;
    let own_fields = glue.slots.len();
    let checks = checks(&krate, input, fields);
    let statics = (input.generics.params.is_empty()).then(|| statics(&krate));
    let deny = deny_unknown(&krate, input);
    let collect_fns = collect_fns(&krate, &glue);
    let check = check_method(&krate, input, &glue);
    let user_only = user_only_fields(fields, flattened);

    // Reading and writing content are `#[inline]`: compiled where a
    // program calls them (as serde's generic impls are), not for every form
    // of the crate that defines it, and the owned and borrowed paths only
    // when each is used.
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

            #[inline]
            fn from_content(
                __content: &#krate::Content,
            ) -> ::core::result::Result<Self, #krate::ContentError> {
                #krate::__private::from_content(__content)
            }

            #[inline]
            fn from_content_owned(
                __content: #krate::Content,
            ) -> ::core::result::Result<Self, #krate::ContentError> {
                #krate::__private::from_content_owned(__content)
            }

            #[inline]
            fn to_content(&self) -> #krate::Content {
                #krate::__private::to_content(self)
            }

            #user_only

            #statics
        }

        #[automatically_derived]
        impl #impl_generics #krate::__private::DerivedForm for #ident #ty_generics #where_clause {
            #collect_fns

            #deny

            #check

            #[inline]
            fn write(&self, __content: &mut #krate::Content) {
                #(#write)*
            }

            fn property_count() -> usize {
                #own_fields #(+ #flattened::property_count())*
            }
        }
    }
}

/// What the form's fields contribute to its impl, field by field.
struct Glue<'a> {
    /// `schema()`: each property pushed, or a flattened form merged.
    build: Vec<TokenStream>,
    /// `collect`: each field taken from its slot (or its flattened form).
    collect: Vec<TokenStream>,
    /// `write`: each field written back.
    write: Vec<TokenStream>,
    /// The struct literal's fields.
    init: Vec<TokenStream>,
    /// The wire names of the form's own fields, by slot: the content's
    /// entries are sorted into these in one pass.
    slots: Vec<&'a str>,
    /// The flattened forms, whose properties follow in the schema.
    flattened: Vec<TokenStream>,
    /// `check`: each flattened form's checks run on its field.
    flattened_checks: Vec<TokenStream>,
    /// Own fields without a default: at most this many are required.
    may_be_required: usize,
}

/// The per-field glue of a form.
fn glue<'a>(krate: &TokenStream, fields: &'a [Field<'_>]) -> Glue<'a> {
    let mut glue = Glue {
        build: Vec::new(),
        collect: Vec::new(),
        write: Vec::new(),
        init: Vec::new(),
        slots: Vec::new(),
        flattened: Vec::new(),
        flattened_checks: Vec::new(),
        may_be_required: 0,
    };
    for (i, field) in fields.iter().enumerate() {
        let member = field.ident;
        let ty = field.ty;
        let var = format_ident!("__field{}", i);
        if field.attrs.skip.is_some() {
            glue.init
                .push(quote!(#member: ::core::default::Default::default()));
            continue;
        }
        if field.attrs.flatten.is_some() {
            let form = qualified(krate, ty, "__private::DerivedForm", ty.span());
            glue.build
                .push(quote!(#krate::__private::merge(&mut __schema, #form::flattened_schema());));
            glue.collect.push(quote! {
                let #var = #form::collect(__content, __errors);
                __index += #form::property_count();
            });
            glue.write
                .push(quote!(#form::write(&self.#member, __content);));
            glue.init.push(quote!(#member: #var?));
            glue.flattened_checks
                .push(quote!(__passed &= #form::check(&self.#member, __errors);));
            glue.flattened.push(form);
            continue;
        }
        let wire = &field.wire;
        let attrs = attrs(krate, field);
        let default = default_fn(krate, field);
        let glue_trait = qualified_on_type(krate, ty, "__private::FieldGlue");
        // Spanned on the type, so an unsupported type is reported there once.
        let span = last_span(ty);
        glue.build
            .push(push_field(&glue_trait, wire, &attrs, &default, field, span));
        if field.attrs.default.is_none() {
            glue.may_be_required += 1;
        }
        let slot = glue.slots.len();
        glue.slots.push(wire);
        glue.collect.push(quote_spanned! {span=>
            let #var = #glue_trait::take(__slots[#slot].take(), __schema, &mut __index, #default, __errors);
        });
        glue.write
            .push(quote_spanned!(span=> #glue_trait::put(&self.#member, __content, #wire);));
        glue.init.push(quote!(#member: #var?));
    }
    glue
}

/// `DerivedForm::check`, for a form with `check = path` or a flattened
/// field: the flattened forms' checks, then the path's, each error added
/// through elicit-core's `run_check`. Other forms keep the trait's
/// default, which passes.
fn check_method(krate: &TokenStream, input: &Input<'_>, glue: &Glue<'_>) -> Option<TokenStream> {
    let own = check_fn(krate, input).map(|check_fn| {
        quote! {
            #check_fn
            __passed &= #krate::__private::run_check(__check(self), __errors);
        }
    });
    if own.is_none() && glue.flattened_checks.is_empty() {
        return None;
    }
    let flattened = &glue.flattened_checks;
    Some(quote! {
        fn check(&self, __errors: &mut ::std::vec::Vec<#krate::FieldError>) -> bool {
            let mut __passed = true;
            #(#flattened)*
            #own
            __passed
        }
    })
}

/// A non-generic form builds its schema once, and its JSON once (through
/// non-generic helpers, so each form adds only a static and a call). A
/// generic one builds them per call (a static in a generic function would be
/// shared by every instantiation), through the trait's default methods.
fn statics(krate: &TokenStream) -> TokenStream {
    quote! {
        fn cached_schema() -> #krate::__private::Cow<'static, #krate::ElicitationSchema> {
            static __SCHEMA: #krate::__private::OnceLock<#krate::ElicitationSchema> =
                #krate::__private::OnceLock::new();
            #krate::__private::cached_schema(&__SCHEMA, <Self as #krate::Elicit>::schema)
        }

        fn schema_json() -> #krate::__private::Cow<'static, str> {
            static __JSON: #krate::__private::OnceLock<::std::string::String> =
                #krate::__private::OnceLock::new();
            #krate::__private::Cow::Borrowed(#krate::__private::cached_json(
                &__JSON,
                <Self as #krate::Elicit>::cached_schema,
            ))
        }
    }
}

/// `let __schema: &ElicitationSchema`, the form's schema (static or built).
fn schema_ref(krate: &TokenStream) -> TokenStream {
    quote! {
        let __schema = <Self as #krate::Elicit>::cached_schema();
        let __schema: &#krate::ElicitationSchema = __schema.as_ref();
    }
}

/// `deny_unknown` with `deny_unknown_fields`. Unknown keys are judged by
/// the outermost form only: a flattened form does not see its parent's
/// fields.
fn deny_unknown(krate: &TokenStream, input: &Input<'_>) -> Option<TokenStream> {
    let schema_ref = schema_ref(krate);
    input.attrs.deny_unknown_fields.map(|_| {
        quote! {
            fn deny_unknown(
                __content: &#krate::Content,
                __errors: &mut ::std::vec::Vec<#krate::FieldError>,
            ) {
                #schema_ref
                #krate::__private::deny_unknown(__content, __schema, __errors);
            }
        }
    })
}

/// `collect` (and `collect_from`): one pass over the content, a `match`
/// on the wire names (what serde generates too) instead of one map lookup
/// per field, then each field taken from its slot.
fn collect_fns(krate: &TokenStream, glue: &Glue<'_>) -> TokenStream {
    let count = glue.slots.len();
    let arms: Vec<TokenStream> = glue
        .slots
        .iter()
        .enumerate()
        .map(|(i, wire)| quote!(#wire => ::core::option::Option::Some(#i)))
        .collect();
    let schema_ref = schema_ref(krate);
    let (collect, init) = (&glue.collect, &glue.init);
    let body = quote! {
        #schema_ref
        let mut __index: usize = 0;
        #(#collect)*
        let _ = __index;
        ::core::option::Option::Some(Self { #(#init,)* })
    };
    // Without flattened fields, one generic body reads `&Content` and `&mut
    // Content` alike (taking strings out of the second); it is compiled for
    // `&mut Content` only where `from_content_owned` is called. A flattened
    // form shares its content with the inner form, so it reads `&Content`
    // only.
    if glue.flattened.is_empty() {
        quote! {
            #[inline]
            fn collect(
                __content: &#krate::Content,
                __errors: &mut ::std::vec::Vec<#krate::FieldError>,
            ) -> ::core::option::Option<Self> {
                <Self as #krate::__private::DerivedForm>::collect_from(__content, __errors)
            }

            fn collect_from<__S: #krate::__private::Source>(
                __content: __S,
                __errors: &mut ::std::vec::Vec<#krate::FieldError>,
            ) -> ::core::option::Option<Self> {
                #[allow(unused_mut)]
                let mut __slots: [::core::option::Option<__S::Entry>; #count] =
                    #krate::__private::Source::slots(__content, |__key: &str| match __key {
                        #(#arms,)*
                        _ => ::core::option::Option::None,
                    });
                #body
            }
        }
    } else {
        quote! {
            #[inline]
            fn collect(
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
    }
}

/// `Elicit::user_only_fields`, where a field (or a flattened form's) is
/// `user_only`; nothing (the trait's default) otherwise.
fn user_only_fields(fields: &[Field<'_>], flattened: &[TokenStream]) -> TokenStream {
    let own: Vec<&str> = fields
        .iter()
        .filter(|f| f.attrs.user_only.is_some() && f.attrs.skip.is_none())
        .filter(|f| f.attrs.flatten.is_none())
        .map(|f| f.wire.as_str())
        .collect();
    if own.is_empty() && flattened.is_empty() {
        return TokenStream::new();
    }
    quote! {
        fn user_only_fields() -> ::std::vec::Vec<&'static str> {
            let mut __fields: ::std::vec::Vec<&'static str> = ::std::vec![#(#own),*];
            #(__fields.extend(#flattened::flattened_user_only());)*
            __fields
        }
    }
}
