//! The derive input, read into typed containers, fields and variants with
//! their parsed attributes.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::attr::{self, ContainerAttrs, FieldAttrs, VariantAttrs};
use crate::ctxt::Ctxt;

pub struct Input<'a> {
    pub ident: &'a syn::Ident,
    pub generics: &'a syn::Generics,
    pub attrs: ContainerAttrs,
    pub data: Data<'a>,
}

pub enum Data<'a> {
    /// A struct with named fields: a form.
    Form(Vec<Field<'a>>),
    /// An enum: a single-select (only unit variants are valid).
    Choice(Vec<Variant<'a>>),
    /// Anything else; `valid.rs` says why it cannot be a form.
    Unsupported(Unsupported),
}

pub enum Unsupported {
    TupleStruct(Span),
    UnitStruct(Span),
    Union(Span),
}

pub struct Field<'a> {
    pub ident: &'a syn::Ident,
    pub ty: &'a syn::Type,
    pub attrs: FieldAttrs,
    /// The Rust name without `r#`.
    pub name: String,
}

pub struct Variant<'a> {
    pub ident: &'a syn::Ident,
    pub fields: &'a syn::Fields,
    pub attrs: VariantAttrs,
}

impl<'a> Input<'a> {
    pub fn from_syn(cx: &Ctxt, input: &'a syn::DeriveInput) -> Self {
        let attrs = attr::parse_container(cx, &input.attrs);
        let data = match &input.data {
            syn::Data::Struct(s) => match &s.fields {
                syn::Fields::Named(named) => Data::Form(
                    named
                        .named
                        .iter()
                        .filter_map(|f| {
                            let ident = f.ident.as_ref()?;
                            Some(Field {
                                ident,
                                ty: &f.ty,
                                attrs: attr::parse_field(cx, &f.attrs),
                                name: ident.to_string().trim_start_matches("r#").to_owned(),
                            })
                        })
                        .collect(),
                ),
                syn::Fields::Unnamed(u) => Data::Unsupported(Unsupported::TupleStruct(u.span())),
                syn::Fields::Unit => Data::Unsupported(Unsupported::UnitStruct(input.ident.span())),
            },
            syn::Data::Enum(e) => Data::Choice(
                e.variants
                    .iter()
                    .map(|v| Variant {
                        ident: &v.ident,
                        fields: &v.fields,
                        attrs: attr::parse_variant(cx, &v.attrs),
                    })
                    .collect(),
            ),
            syn::Data::Union(u) => Data::Unsupported(Unsupported::Union(u.union_token.span)),
        };
        Input {
            ident: &input.ident,
            generics: &input.generics,
            attrs,
            data,
        }
    }
}
