//! The official ACP JSON schema of a type, as `agent-client-protocol-schema`
//! generates it (its `schemars` feature), compiled by an independent JSON
//! Schema validator (`boon`, draft 2020-12): what we emit must validate
//! against it.

use serde_json::Value;

/// One official schema, compiled.
pub struct Official {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

impl Official {
    /// `schema` (a schemars root schema, as JSON) compiled; panics if the
    /// validator cannot read it.
    pub fn new(schema: Value) -> Self {
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        let url = "urn:acp:official";
        compiler
            .add_resource(url, schema)
            .unwrap_or_else(|e| panic!("the official schema loads: {e}"));
        let index = compiler
            .compile(url, &mut schemas)
            .unwrap_or_else(|e| panic!("the official schema compiles: {e}"));
        Self { schemas, index }
    }

    /// Where and why `value` does not validate, one line per failed
    /// keyword (none when it validates).
    pub fn errors(&self, value: &Value) -> Vec<String> {
        match self.schemas.validate(value, self.index) {
            Ok(()) => Vec::new(),
            Err(error) => {
                let mut lines = Vec::new();
                leaves(&error, &mut lines);
                lines
            }
        }
    }
}

/// The innermost causes of `error`: what a reader fixes.
fn leaves(error: &boon::ValidationError<'_, '_>, lines: &mut Vec<String>) {
    if error.causes.is_empty() {
        lines.push(format!("{} at {}", error.kind, error.instance_location));
    }
    for cause in &error.causes {
        leaves(cause, lines);
    }
}
