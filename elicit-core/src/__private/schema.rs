//! Building a derived schema.

use crate::schema::{ElicitationSchema, Properties};

/// The empty schema a derived `schema()` starts from, with room for its
/// `fields` own properties, `required` of which are required.
pub fn schema_with_capacity(fields: usize, required: usize) -> ElicitationSchema {
    ElicitationSchema {
        properties: Properties::with_capacity(fields),
        required: Vec::with_capacity(required),
        ..ElicitationSchema::default()
    }
}

/// Merges a flattened form's schema into the parent's, keeping order. A name
/// defined twice stays twice, so [`ElicitationSchema::check`] reports it.
pub fn merge(schema: &mut ElicitationSchema, inner: ElicitationSchema) {
    for (name, property) in inner.properties.into_entries() {
        schema.properties.push(name, property);
    }
    for name in inner.required {
        if !schema.required.contains(&name) {
            schema.required.push(name);
        }
    }
}
