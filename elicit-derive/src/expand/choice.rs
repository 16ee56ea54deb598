//! A single-select enum's `FormValue` and `Choice` impls.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Input, Variant};

use super::{krate, option};

/// The `FormValue` and `Choice` impls of a single-select enum.
pub(super) fn choice(input: &Input<'_>, variants: &[Variant<'_>]) -> TokenStream {
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
    // Reading and writing a value are `#[inline]`: compiled where a program
    // calls them, not for every enum of the crate that defines it.
    quote! {
        #[automatically_derived]
        impl #krate::FormValue for #ident {
            const RUST_TYPE: &'static str = #rust_type;
            fn property() -> #krate::PropertySchema {
                #krate::__private::choice_property::<Self>()
            }
            #[inline]
            fn from_value(
                __value: &#krate::__private::Value,
            ) -> ::core::result::Result<Self, #krate::FieldErrorKind> {
                #krate::__private::choice_from_value::<Self>(__value)
            }
            #[inline]
            fn to_value(&self) -> #krate::__private::Value {
                #krate::__private::choice_to_value(self)
            }
            #[inline]
            fn check(
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
