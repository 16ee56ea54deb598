//! Newtypes used as one field: `transparent`, and `try_from`/`from` with
//! `into`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::ast::{Input, Transparent};
use crate::attr::FormatAttr;

use super::{checks::checks, fallback, form::attrs, krate, qualified, qualified_on_type};

/// The `FormValue` impl of a `transparent` newtype: the inner field's type
/// with the inner field's attributes as its property; reading and writing go
/// through the inner type. Also `Wrapper`, so a string default fills it when
/// one fills the inner type (checked against the newtype's own format).
pub(super) fn transparent(input: &Input<'_>, t: &Transparent<'_>) -> TokenStream {
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
pub(super) fn converted(input: &Input<'_>) -> TokenStream {
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
