//! What the conversion to MCP drops from a schema, listed part by part.

use std::fmt;

use crate::schema::{ElicitationSchema, EnumOption, Items, Options, PropertySchema, StringSchema};

/// One part of a schema that the conversion to MCP drops (see the
/// [rules](crate::mcp#conversion-rules)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// The property, or `None` for the form itself.
    pub property: Option<String>,
    /// What is dropped.
    pub part: DroppedPart,
}

impl fmt::Display for Dropped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.property {
            Some(p) => write!(f, "`{p}`: {}", self.part),
            None => write!(f, "form: {}", self.part),
        }
    }
}

/// Which part is dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DroppedPart {
    /// The form's `title`.
    Title,
    /// The form's `description`.
    Description,
    /// A `_meta` object (of the form, a property, or an option).
    Meta,
    /// A string's `pattern`: re-checked when the answer is read as an [`Outcome`](crate::protocol::agent::Outcome), not by the client.
    Pattern,
    /// An option's `description`.
    OptionDescription {
        /// The option's value.
        value: String,
    },
    /// `minLength`, `maxLength` or `format` of a single-select.
    SelectConstraint {
        /// The keyword.
        keyword: &'static str,
    },
}

impl fmt::Display for DroppedPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Title => f.write_str("`title`"),
            Self::Description => f.write_str("`description`"),
            Self::Meta => f.write_str("`_meta`"),
            Self::Pattern => f.write_str("`pattern` (checked again on the server only)"),
            Self::OptionDescription { value } => {
                write!(f, "the `description` of option `{value}`")
            }
            Self::SelectConstraint { keyword } => write!(f, "`{keyword}` of a single-select"),
        }
    }
}

/// What the conversion to rmcp's `ElicitationSchema` drops from `schema`, in
/// form order.
///
/// ```
/// use elicit_core::Elicit;
/// use elicit_core::mcp::{DroppedPart, dropped};
///
/// /// Pick a handle.
/// #[derive(Elicit)]
/// struct Handle {
///     #[elicit(pattern = "^[a-z]+$")]
///     handle: String,
/// }
///
/// let parts: Vec<DroppedPart> = dropped(&Handle::schema()).into_iter().map(|d| d.part).collect();
/// assert_eq!(parts, [DroppedPart::Description, DroppedPart::Pattern]);
/// ```
pub fn dropped(schema: &ElicitationSchema) -> Vec<Dropped> {
    let mut out = Vec::new();
    let mut form = DroppedAt {
        property: None,
        out: &mut out,
    };
    form.push_if(schema.title.is_some(), DroppedPart::Title);
    form.push_if(schema.description.is_some(), DroppedPart::Description);
    form.push_if(schema.meta.is_some(), DroppedPart::Meta);
    for (name, property) in &schema.properties {
        let mut at = DroppedAt {
            property: Some(name),
            out: &mut out,
        };
        property_dropped(property, &mut at);
    }
    out
}

/// Where [`dropped`] records the parts of the form or of one property.
struct DroppedAt<'a> {
    property: Option<&'a str>,
    out: &'a mut Vec<Dropped>,
}

impl DroppedAt<'_> {
    fn push(&mut self, part: DroppedPart) {
        self.out.push(Dropped {
            property: self.property.map(str::to_owned),
            part,
        });
    }

    fn push_if(&mut self, present: bool, part: DroppedPart) {
        if present {
            self.push(part);
        }
    }
}

/// What one property loses: its kind's own parts, then its options'.
fn property_dropped(property: &PropertySchema, at: &mut DroppedAt<'_>) {
    let options = match property {
        PropertySchema::String(s) => {
            string_dropped(s, at);
            s.options.as_ref()
        }
        PropertySchema::MultiSelect(s) => {
            at.push_if(s.meta.is_some(), DroppedPart::Meta);
            match &s.items {
                Items::Options(options) => Some(options),
                Items::Other(_) => None,
            }
        }
        PropertySchema::Number(s) => {
            at.push_if(s.meta.is_some(), DroppedPart::Meta);
            None
        }
        PropertySchema::Integer(s) => {
            at.push_if(s.meta.is_some(), DroppedPart::Meta);
            None
        }
        PropertySchema::Boolean(s) => {
            at.push_if(s.meta.is_some(), DroppedPart::Meta);
            None
        }
        PropertySchema::Other(_) => None,
    };
    if let Some(Options::Titled(options)) = options {
        options_dropped(options, at);
    }
}

/// A string's parts: a single-select's length and format constraints, the
/// `pattern`, `_meta`.
fn string_dropped(s: &StringSchema, at: &mut DroppedAt<'_>) {
    if s.options.is_some() {
        let constraint = |keyword| DroppedPart::SelectConstraint { keyword };
        at.push_if(s.min_length.is_some(), constraint("minLength"));
        at.push_if(s.max_length.is_some(), constraint("maxLength"));
        at.push_if(s.format.is_some(), constraint("format"));
    }
    at.push_if(s.pattern.is_some(), DroppedPart::Pattern);
    at.push_if(s.meta.is_some(), DroppedPart::Meta);
}

/// Each titled option's `description` and `_meta`.
fn options_dropped(options: &[EnumOption], at: &mut DroppedAt<'_>) {
    for option in options {
        if option.description.is_some() {
            at.push(DroppedPart::OptionDescription {
                value: option.value.clone(),
            });
        }
        at.push_if(option.meta.is_some(), DroppedPart::Meta);
    }
}
