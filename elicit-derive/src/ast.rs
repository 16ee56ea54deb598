//! The derive input, read into typed containers, fields and variants with
//! their parsed attributes and their resolved wire names and descriptions.
//!
//! Resolving happens here, once: `valid.rs` checks the results and
//! `expand/` writes them out, and neither applies a naming rule itself.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::attr::{self, ContainerAttrs, FieldAttrs, VariantAttrs};
use crate::case::{self, RenameRule};
use crate::ctxt::Ctxt;

/// The struct or enum the derive is on.
pub struct Input<'a> {
    /// The type's name.
    pub ident: &'a syn::Ident,
    /// The type's generics (a single-select has none).
    pub generics: &'a syn::Generics,
    /// The container attributes, as written.
    pub attrs: ContainerAttrs,
    /// The form's description: `description = ".."`, else the doc comment.
    pub description: Option<String>,
    pub data: Data<'a>,
}

/// What the derive is on.
pub enum Data<'a> {
    /// A struct with named fields: a form.
    Form(Vec<Field<'a>>),
    /// An enum: a single-select (only unit variants are valid).
    Choice(Vec<Variant<'a>>),
    /// `#[elicit(transparent)]` on a struct with exactly one field: one form
    /// value, the field's, with the field's attributes as its rules.
    Transparent(Box<Transparent<'a>>),
    /// `#[elicit(try_from = "U", into = "U")]` (or `from`): one form value,
    /// converted from and to the form value type `U`. The type's own shape
    /// does not matter.
    Converted,
    /// Anything else; `valid.rs` says why it cannot be a form.
    Unsupported(Unsupported),
}

/// A shape that is neither a form nor a single-select, spanned where the
/// error is reported.
pub enum Unsupported {
    /// `struct Form(T)`, spanned on the fields.
    TupleStruct(Span),
    /// `struct Form;`, spanned on the name.
    UnitStruct(Span),
    /// A `union`, spanned on the keyword.
    Union(Span),
    /// `transparent` on anything but a struct with exactly one field,
    /// spanned on `transparent`.
    NotANewtype(Span),
}

/// The one field of a `transparent` newtype.
pub struct Transparent<'a> {
    /// The field, with its attributes. A tuple struct's field has no name:
    /// it is named after the newtype (for messages only; it has no wire
    /// name).
    pub field: Field<'a>,
    /// How the value is reached: `self.0` or `self.name`.
    pub member: syn::Member,
}

/// A named field of a form.
pub struct Field<'a> {
    /// The field's name, as written.
    pub ident: &'a syn::Ident,
    /// The field's type, as written.
    pub ty: &'a syn::Type,
    /// The field attributes, as written.
    pub attrs: FieldAttrs,
    /// The Rust name without `r#`.
    pub name: String,
    /// The property name on the wire: `elicit(rename)`, else
    /// `serde(rename)`, else the container's `rename_all` rule applied to
    /// the Rust name.
    pub wire: String,
    /// `description = ".."`, else the doc comment.
    pub description: Option<String>,
}

/// A variant of a single-select enum.
pub struct Variant<'a> {
    /// The variant's name.
    pub ident: &'a syn::Ident,
    /// The variant's fields (an option has none).
    pub fields: &'a syn::Fields,
    /// The variant attributes, as written.
    pub attrs: VariantAttrs,
    /// The option's value on the wire, with the same precedence as
    /// [`Field::wire`].
    pub wire: String,
    /// `description = ".."`, else the doc comment.
    pub description: Option<String>,
}

/// The fields or variants with their attributes parsed, before the wire
/// names are resolved.
enum Members<'a> {
    /// A form's named fields.
    Fields(Vec<(&'a syn::Ident, &'a syn::Type, FieldAttrs)>),
    /// An enum's variants.
    Variants(Vec<(&'a syn::Variant, VariantAttrs)>),
    /// No members to read.
    Unsupported(Unsupported),
}

impl<'a> Input<'a> {
    /// Reads `input`. Every attribute is parsed (and its errors reported)
    /// before the container's `rename_all` rule is resolved, so the errors
    /// come in that order; then the rule gives every wire name.
    pub fn from_syn(cx: &Ctxt, input: &'a syn::DeriveInput) -> Self {
        let attrs = attr::parse_container(cx, &input.attrs);
        if attrs.conversion().is_some() || attrs.into.is_some() {
            return Input::new(input, attrs, Data::Converted);
        }
        if let Some(span) = attrs.transparent {
            let data = match &input.data {
                syn::Data::Struct(s) if s.fields.len() == 1 => {
                    let f = s.fields.iter().next().expect("one field");
                    let member = match &f.ident {
                        Some(ident) => syn::Member::Named(ident.clone()),
                        None => syn::Member::Unnamed(syn::Index::from(0)),
                    };
                    let ident = f.ident.as_ref().unwrap_or(&input.ident);
                    let field_attrs = attr::parse_field(cx, &f.attrs);
                    Data::Transparent(Box::new(Transparent {
                        field: Field::new(ident, &f.ty, field_attrs, None),
                        member,
                    }))
                }
                _ => Data::Unsupported(Unsupported::NotANewtype(span)),
            };
            return Input::new(input, attrs, data);
        }
        let members = match &input.data {
            syn::Data::Struct(s) => match &s.fields {
                syn::Fields::Named(named) => Members::Fields(
                    named
                        .named
                        .iter()
                        .filter_map(|f| {
                            let ident = f.ident.as_ref()?;
                            Some((ident, &f.ty, attr::parse_field(cx, &f.attrs)))
                        })
                        .collect(),
                ),
                syn::Fields::Unnamed(u) => Members::Unsupported(Unsupported::TupleStruct(u.span())),
                syn::Fields::Unit => {
                    Members::Unsupported(Unsupported::UnitStruct(input.ident.span()))
                }
            },
            syn::Data::Enum(e) => Members::Variants(
                e.variants
                    .iter()
                    .map(|v| (v, attr::parse_variant(cx, &v.attrs)))
                    .collect(),
            ),
            syn::Data::Union(u) => Members::Unsupported(Unsupported::Union(u.union_token.span)),
        };
        let rule = rename_rule(cx, &attrs);
        let data = match members {
            Members::Fields(fields) => Data::Form(
                fields
                    .into_iter()
                    .map(|(ident, ty, attrs)| Field::new(ident, ty, attrs, rule))
                    .collect(),
            ),
            Members::Variants(variants) => Data::Choice(
                variants
                    .into_iter()
                    .map(|(variant, attrs)| Variant::new(variant, attrs, rule))
                    .collect(),
            ),
            Members::Unsupported(shape) => Data::Unsupported(shape),
        };
        Input::new(input, attrs, data)
    }

    /// The input with its container attributes and data read.
    fn new(input: &'a syn::DeriveInput, attrs: ContainerAttrs, data: Data<'a>) -> Self {
        Input {
            ident: &input.ident,
            generics: &input.generics,
            description: description(attrs.description.as_ref(), attrs.doc.as_ref()),
            attrs,
            data,
        }
    }
}

impl<'a> Field<'a> {
    /// The field with its wire name under `rule` and its description.
    fn new(
        ident: &'a syn::Ident,
        ty: &'a syn::Type,
        attrs: FieldAttrs,
        rule: Option<RenameRule>,
    ) -> Self {
        let name = ident.to_string().trim_start_matches("r#").to_owned();
        let wire = wire_name(
            attrs.rename.as_ref(),
            attrs.serde_rename.as_ref(),
            || match rule {
                Some(rule) => rule.apply_to_field(&name),
                None => name.clone(),
            },
        );
        Field {
            ident,
            ty,
            description: description(attrs.description.as_ref(), attrs.doc.as_ref()),
            wire,
            name,
            attrs,
        }
    }

    /// Where an error about the wire name points: the `rename` if written,
    /// else the field's name.
    pub fn wire_span(&self) -> Span {
        wire_span(self.attrs.rename.as_ref(), self.ident)
    }

    /// Whether the type is written `Option<Option<T>>`.
    pub fn is_nested_option(&self) -> bool {
        option_inner(self.ty).and_then(option_inner).is_some()
    }
}

impl<'a> Variant<'a> {
    /// The variant with its wire value under `rule` and its description.
    fn new(variant: &'a syn::Variant, attrs: VariantAttrs, rule: Option<RenameRule>) -> Self {
        let wire = wire_name(attrs.rename.as_ref(), attrs.serde_rename.as_ref(), || {
            let name = variant.ident.to_string();
            match rule {
                Some(rule) => rule.apply_to_variant(&name),
                None => name,
            }
        });
        Variant {
            ident: &variant.ident,
            fields: &variant.fields,
            description: description(attrs.description.as_ref(), attrs.doc.as_ref()),
            wire,
            attrs,
        }
    }

    /// Where an error about the wire value points: the `rename` if written,
    /// else the variant's name.
    pub fn wire_span(&self) -> Span {
        wire_span(self.attrs.rename.as_ref(), self.ident)
    }
}

/// The container's `rename_all` rule, if any: `elicit(rename_all)`, else
/// `serde(rename_all)`. An unknown rule is reported, and no rule applies.
fn rename_rule(cx: &Ctxt, attrs: &ContainerAttrs) -> Option<RenameRule> {
    let written = attrs
        .rename_all
        .as_ref()
        .or(attrs.serde_rename_all.as_ref())?;
    let rule = RenameRule::from_str(&written.value);
    if rule.is_none() {
        let names = case::rule_names();
        let hint = match attr::did_you_mean(&written.value, &names) {
            Some(best) => format!("did you mean \"{best}\"?"),
            None => format!("expected one of: {}", names.join(", ")),
        };
        cx.error_at(
            written.span,
            format!("unknown `rename_all` rule \"{}\": {hint}", written.value),
        );
    }
    rule
}

/// Where an error about a wire name points: the `rename` if written, else
/// the Rust name.
fn wire_span(rename: Option<&attr::Sp<String>>, ident: &syn::Ident) -> Span {
    rename.map_or_else(|| ident.span(), |r| r.span)
}

/// A wire name: `elicit(rename)`, else `serde(rename)`, else `derived()`.
fn wire_name(
    rename: Option<&attr::Sp<String>>,
    serde_rename: Option<&String>,
    derived: impl FnOnce() -> String,
) -> String {
    match (rename, serde_rename) {
        (Some(rename), _) => rename.value.clone(),
        (None, Some(rename)) => rename.clone(),
        (None, None) => derived(),
    }
}

/// A description: `description = ".."`, else the doc comment.
fn description(written: Option<&attr::Sp<String>>, doc: Option<&String>) -> Option<String> {
    written.map(|d| &d.value).or(doc).cloned()
}

/// `T` if the type is written `Option<T>` (or a path ending in `Option<T>`).
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}
