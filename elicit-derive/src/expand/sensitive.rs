//! A sensitive form's `sensitive::SensitiveForm` impl: its fields pushed
//! and taken as a form's, each `#[secret]` one through
//! `__private::SecretGlue` (a `SecretString`, checked without a copy).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::ast::{Field, Input};

use super::form::{attrs, default_fn, push_field};
use super::{check_fn, checks::checks, krate, last_span, option, qualified_on_type, string};

/// The `SensitiveForm` impl, with the form's compile-time checks.
pub(super) fn sensitive(input: &Input<'_>, fields: &[Field<'_>]) -> TokenStream {
    let krate = krate(input);
    let ident = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let title = option(input.attrs.title.as_ref().map(|t| string(&t.value)));
    let description = option(input.description.as_deref().map(string));
    let checks = checks(&krate, input, fields);

    let (mut build, mut take, mut init, mut secrets) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, field) in fields.iter().enumerate() {
        let member = field.ident;
        let var = format_ident!("__field{}", i);
        if field.attrs.skip.is_some() {
            init.push(quote!(#member: ::core::default::Default::default()));
            continue;
        }
        let (ty, wire) = (field.ty, &field.wire);
        let attrs = attrs(&krate, field);
        let span = last_span(ty);
        if field.attrs.secret.is_some() {
            let glue = qualified_on_type(&krate, ty, "__private::SecretGlue");
            build.push(quote_spanned!(span=> #glue::push(&mut __schema, #wire, &#attrs);));
            take.push(quote_spanned! {span=>
                let #var = #glue::take(__secrets.remove(#wire), &__schema, &mut __index, &mut __errors);
            });
            secrets.push(wire);
        } else {
            let glue = qualified_on_type(&krate, ty, "__private::FieldGlue");
            let default = default_fn(&krate, field);
            build.push(push_field(&glue, wire, &attrs, &default, field, span));
            take.push(quote_spanned! {span=>
                let #var = #glue::take(__values.get(#wire), &__schema, &mut __index, #default, &mut __errors);
            });
        }
        init.push(quote!(#member: #var?));
    }
    let count = build.len();
    let finish = match check_fn(&krate, input) {
        Some(check_fn) => quote! {
            #check_fn
            #krate::__private::finish_checked(__value, __errors, __check)
        },
        None => quote!(#krate::__private::finish(__value, __errors)),
    };
    let deny = input
        .attrs
        .deny_unknown_fields
        .map(|_| quote!(#krate::__private::deny_unknown(&__values, &__schema, &mut __errors);));

    quote! {
        #checks

        #[automatically_derived]
        impl #impl_generics #krate::sensitive::SensitiveForm for #ident #ty_generics #where_clause {
            const SECRET_FIELDS: &'static [&'static str] = &[#(#secrets),*];

            fn schema() -> #krate::ElicitationSchema {
                let mut __schema = #krate::__private::schema_with_capacity(#count, #count);
                __schema.title = #title;
                __schema.description = #description;
                #(#build)*
                __schema
            }

            fn from_submission(
                __submission: #krate::sensitive::Submission,
            ) -> ::core::result::Result<Self, #krate::ContentError> {
                let __schema = <Self as #krate::sensitive::SensitiveForm>::schema();
                #[allow(unused_mut)]
                let (__values, mut __secrets) = #krate::__private::submission_parts(__submission);
                let mut __errors = ::std::vec::Vec::new();
                let mut __index: usize = 0;
                #(#take)*
                #deny
                let __value = (move || ::core::option::Option::Some(Self { #(#init,)* }))();
                #finish
            }
        }
    }
}
