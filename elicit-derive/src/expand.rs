//! Code generation. The output is thin glue: per field it asks the field
//! type's `FormField` impl for its property, applies the attributes, and
//! calls `__private::take`; every rule runs in elicit-core.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Data, Field, Input, Variant};
use crate::attr::{FormatAttr, KnownFormat, Number};
use crate::case::RenameRule;
use crate::valid::{field_wire_name, variant_wire_name};

fn krate(input: &Input<'_>) -> TokenStream {
    match &input.attrs.krate {
        Some(path) => quote!(#path),
        None => quote!(::elicit_core),
    }
}

pub fn expand(input: &Input<'_>, rule: Option<RenameRule>) -> TokenStream {
    match &input.data {
        Data::Form(fields) => form(input, fields, rule),
        Data::Choice(variants) => choice(input, variants, rule),
        Data::Unsupported(_) => fallback(input),
    }
}

/// What is emitted next to compile errors: an impl whose bodies never run, so
/// uses of the type elsewhere do not add errors of their own.
pub fn fallback(input: &Input<'_>) -> TokenStream {
    let krate = krate(input);
    let ident = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    match &input.data {
        Data::Choice(_) => quote! {
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
        },
    }
}

fn opt_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn opt_owned(value: Option<&str>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(::std::string::String::from(#s))),
        None => quote!(::core::option::Option::None),
    }
}

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
    let description = a
        .description
        .as_ref()
        .map(|d| d.value.as_str())
        .or(a.doc.as_deref());
    if let Some(description) = description {
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
            FormatAttr::Known(KnownFormat::Email) => quote!(#krate::__private::Format::Email),
            FormatAttr::Known(KnownFormat::Uri) => quote!(#krate::__private::Format::Uri),
            FormatAttr::Known(KnownFormat::Date) => quote!(#krate::__private::Format::Date),
            FormatAttr::Known(KnownFormat::DateTime) => {
                quote!(#krate::__private::Format::DateTime)
            }
            FormatAttr::Custom(s) => {
                quote!(#krate::__private::Format::Other(::std::string::String::from(#s)))
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
    let value_ty = quote_spanned!(ty.span()=> <#ty as #krate::FormField>::Value);
    match &field.attrs.default {
        Some(default) => {
            let expr = &default.value;
            // A string literal default fills a `String` field.
            let body = match expr {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(_),
                    ..
                }) => quote_spanned!(expr.span()=> ::core::convert::Into::into(#expr)),
                _ => quote_spanned!(expr.span()=> #expr),
            };
            quote! {
                ::core::option::Option::Some((|| -> #value_ty { #body }) as fn() -> #value_ty)
            }
        }
        None => quote!(::core::option::Option::None::<fn() -> #value_ty>),
    }
}

fn form(input: &Input<'_>, fields: &[Field<'_>], rule: Option<RenameRule>) -> TokenStream {
    let krate = krate(input);
    let ident = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let is_generic = !input.generics.params.is_empty();

    let title = opt_owned(input.attrs.title.as_ref().map(|t| t.value.as_str()));
    let description = opt_owned(
        input
            .attrs
            .description
            .as_ref()
            .map(|d| d.value.as_str())
            .or(input.attrs.doc.as_deref()),
    );

    let mut build = Vec::new();
    let mut collect = Vec::new();
    let mut write = Vec::new();
    let mut init = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let member = field.ident;
        let ty = field.ty;
        let var = format_ident!("__field{}", i);
        if field.attrs.skip.is_some() {
            init.push(quote!(#member: ::core::default::Default::default()));
            continue;
        }
        if field.attrs.flatten.is_some() {
            let elicit = quote_spanned!(ty.span()=> <#ty as #krate::Elicit>);
            build.push(quote!(#krate::__private::merge(&mut __schema, #elicit::schema());));
            collect.push(quote! {
                let #var = #elicit::__collect(__content, __errors);
                __index += #elicit::__property_count();
            });
            write.push(quote!(#krate::Elicit::__write(&self.#member, __content);));
            init.push(quote!(#member: #var?));
            continue;
        }
        let wire = field_wire_name(field, rule);
        let attrs = attrs(&krate, field);
        let default = default_fn(&krate, field);
        build.push(quote! {
            {
                let __default = #default;
                let __value = __default.map(|__f| __f());
                #krate::__private::push::<#ty>(&mut __schema, #wire, &#attrs, __value.as_ref());
            }
        });
        collect.push(quote! {
            let #var = #krate::__private::take::<#ty>(__content, __schema, &mut __index, #default, __errors);
        });
        write.push(quote!(#krate::__private::put::<#ty>(__content, #wire, &self.#member);));
        init.push(quote!(#member: #var?));
    }

    let deny = input.attrs.deny_unknown_fields.map(|_| {
        quote!(#krate::__private::deny_unknown(__content, __schema, __errors);)
    });

    // A non-generic form builds its schema once; a generic one per call (a
    // static in a generic function would be shared by every instantiation).
    let schema_ref = if is_generic {
        quote! {
            let __owned = <Self as #krate::Elicit>::schema();
            let __schema = &__owned;
        }
    } else {
        quote! {
            static __SCHEMA: #krate::__private::OnceLock<#krate::ElicitationSchema> =
                #krate::__private::OnceLock::new();
            let __schema = __SCHEMA.get_or_init(<Self as #krate::Elicit>::schema);
        }
    };

    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::Elicit for #ident #ty_generics #where_clause {
            fn schema() -> #krate::ElicitationSchema {
                let mut __schema = #krate::ElicitationSchema::new();
                __schema.title = #title;
                __schema.description = #description;
                #(#build)*
                __schema
            }

            fn from_content(
                __content: &#krate::Content,
            ) -> ::core::result::Result<Self, #krate::ContentError> {
                let mut __errors = ::std::vec::Vec::new();
                let __value = <Self as #krate::Elicit>::__collect(__content, &mut __errors);
                #krate::__private::finish(__value, __errors)
            }

            fn to_content(&self) -> #krate::Content {
                let mut __content = #krate::Content::new();
                <Self as #krate::Elicit>::__write(self, &mut __content);
                __content
            }

            fn __collect(
                __content: &#krate::Content,
                __errors: &mut ::std::vec::Vec<#krate::FieldError>,
            ) -> ::core::option::Option<Self> {
                #schema_ref
                let mut __index: usize = 0;
                #(#collect)*
                #deny
                let _ = __index;
                ::core::option::Option::Some(Self { #(#init,)* })
            }

            fn __write(&self, __content: &mut #krate::Content) {
                #(#write)*
            }
        }
    }
}

fn choice(input: &Input<'_>, variants: &[Variant<'_>], rule: Option<RenameRule>) -> TokenStream {
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
        let wire = variant_wire_name(variant, rule);
        let title = opt_str(variant.attrs.title.as_ref().map(|t| t.value.as_str()));
        let description = opt_str(
            variant
                .attrs
                .description
                .as_ref()
                .map(|d| d.value.as_str())
                .or(variant.attrs.doc.as_deref()),
        );
        options.push(quote! {
            #krate::ChoiceOption { value: #wire, title: #title, description: #description }
        });
        to_wire.push(quote!(Self::#v => #wire));
        from_wire.push(quote!(#wire => ::core::option::Option::Some(Self::#v)));
    }
    quote! {
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
