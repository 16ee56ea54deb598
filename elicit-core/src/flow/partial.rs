//! A form asked for some of its fields only: what the model left out or
//! gave wrong, and what only the user may fill (`#[elicit(user_only)]`),
//! the rest kept from the model's arguments. The request is the form's own
//! schema narrowed to those fields (flat, in declaration order, their
//! rules as they are); an answer is read merged with the kept values, the
//! user's answer over the model's, and checked whole.

use crate::json::Content;
use crate::protocol::{CreateElicitationResponse, ElicitationAction};
use crate::{ContentError, Elicit, ElicitationSchema, Properties};

/// The fields of the form `T` the user is asked, and the values kept.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Partial {
    /// The wire names asked, in declaration order.
    fields: Vec<String>,
    /// The model's values kept (every field of the form not asked).
    kept: Content,
    /// The narrowed schema.
    schema: ElicitationSchema,
}

/// The model's arguments read as the form `T`.
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
pub(crate) enum Given<T> {
    /// Every field present and valid, none for the user alone.
    Complete(T),
    /// Some fields to ask the user: why each, and the partial form.
    Gaps {
        /// The errors of the model's values (missing, refused).
        errors: Option<ContentError>,
        partial: Box<Partial>,
    },
}

impl<T: Elicit> Given<T> {
    /// `arguments` (the model's) read as `T`: complete, or what to ask.
    pub(crate) fn read(arguments: Option<&Content>) -> Self {
        let user_only = T::user_only_fields();
        let empty = Content::new();
        let given = arguments.unwrap_or(&empty);
        // Read in place; copied only to drop what the model may not fill.
        let content = match user_only.is_empty() {
            true => std::borrow::Cow::Borrowed(given),
            false => {
                let mut content = given.clone();
                for field in &user_only {
                    content.remove(*field);
                }
                std::borrow::Cow::Owned(content)
            }
        };
        match T::from_content(&content) {
            Ok(value) if user_only.is_empty() => Self::Complete(value),
            Ok(_) => Self::Gaps {
                errors: None,
                partial: Box::new(Partial::new::<T>(&content, user_only.iter().copied())),
            },
            Err(errors) => {
                let blamed: Vec<&str> = errors.errors().iter().map(|e| e.field()).collect();
                let partial = Partial::new::<T>(
                    &content,
                    user_only.iter().copied().chain(blamed.iter().copied()),
                );
                Self::Gaps {
                    errors: Some(errors),
                    partial: Box::new(partial),
                }
            }
        }
    }
}

impl Partial {
    /// The form `T` narrowed to `asked` (and to every field, when an error
    /// names none of the form's own), keeping `content`'s other values.
    pub(crate) fn new<'a, T: Elicit>(
        content: &Content,
        asked: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let schema = T::cached_schema();
        let asked: Vec<&str> = asked.into_iter().collect();
        let names: Vec<&str> = schema.properties.names().collect();
        // An error that names no field of the form (a rule of the whole
        // form): every field is asked.
        let whole = asked.iter().any(|a| !names.contains(a)) || asked.is_empty();
        let fields: Vec<String> = names
            .iter()
            .filter(|name| whole || asked.contains(name))
            .map(|name| (*name).to_owned())
            .collect();
        let kept = content
            .iter()
            .filter(|(key, _)| names.contains(&key.as_str()) && !fields.contains(key))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        Self {
            schema: narrowed(&schema, &fields),
            fields,
            kept,
        }
    }

    /// The fields asked, in declaration order.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn fields(&self) -> &[String] {
        &self.fields
    }

    /// The narrowed schema: what the request sends.
    pub(crate) fn schema(&self) -> &ElicitationSchema {
        &self.schema
    }

    /// `response` with its content (an `accept`'s) read for the fields
    /// asked only, and the kept values added: what the form reads. The
    /// user's answer is never overridden, and what the user was not asked
    /// is not read from the answer.
    pub(crate) fn merged(&self, response: &CreateElicitationResponse) -> CreateElicitationResponse {
        let ElicitationAction::Accept { content } = &response.action else {
            return response.clone();
        };
        let mut merged = self.kept.clone();
        for (key, value) in content.iter().flatten() {
            if self.fields.contains(key) {
                merged.insert(key.clone(), value.clone());
            }
        }
        CreateElicitationResponse {
            action: ElicitationAction::Accept {
                content: Some(merged),
            },
            meta: response.meta.clone(),
        }
    }

    /// Asks the fields `errors` names too, once a merged answer was
    /// refused for a value kept from the model (a rule across fields, the
    /// call's check): their kept values are dropped. Whether it widened.
    pub(crate) fn widen<T: Elicit>(&mut self, errors: &ContentError) -> bool {
        let blamed: Vec<&str> = errors
            .errors()
            .iter()
            .map(|e| e.field())
            .filter(|field| self.kept.contains_key(*field))
            .collect();
        if blamed.is_empty() {
            return false;
        }
        let blamed: Vec<String> = blamed.into_iter().map(str::to_owned).collect();
        self.ask_too::<T>(&blamed);
        true
    }

    /// Asks `fields` too (their kept values dropped).
    pub(crate) fn ask_too<T: Elicit>(&mut self, fields: &[String]) {
        let asked = self.fields.iter().chain(fields).map(String::as_str);
        let asked: Vec<&str> = asked.collect();
        *self = Self::new::<T>(&self.kept, asked);
    }
}

/// `schema` with only the properties named in `fields`, in its order, and
/// `required` narrowed the same way; its title, description and `_meta`
/// kept: a partial form, and a tool's input schema without its `user_only`
/// fields.
pub(crate) fn narrowed(schema: &ElicitationSchema, fields: &[String]) -> ElicitationSchema {
    let named = |name: &str| fields.iter().any(|f| f == name);
    let mut properties = Properties::new();
    for (name, property) in schema.properties.iter() {
        if named(name) {
            properties.insert(name.to_owned(), property.clone());
        }
    }
    let mut narrowed = ElicitationSchema::new();
    narrowed.title.clone_from(&schema.title);
    narrowed.description.clone_from(&schema.description);
    narrowed.meta.clone_from(&schema.meta);
    narrowed.properties = properties;
    narrowed.required = schema
        .required
        .iter()
        .filter(|r| named(r))
        .cloned()
        .collect();
    narrowed
}
