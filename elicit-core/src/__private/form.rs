//! A derived form's glue: [`DerivedForm`], the bodies of its `Elicit`
//! methods, and content sorted into one slot per field in one pass.

use serde_json::Value;

use super::slot::Slot;
use crate::error::FieldErrorKind;
use crate::schema::{ElicitationSchema, PropertySchema};
use crate::{Content, ContentError, Elicit, FieldError};

/// What `#[derive(Elicit)]` implements for a form besides [`Elicit`]: the
/// pieces `flatten` composes (a flattened form is collected, counted and
/// written by its parent) and the owned-content path.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a form that derives `Elicit`, so it cannot be flattened",
    label = "`#[elicit(flatten)]` on this field",
    note = "`#[elicit(flatten)]` merges a struct with `#[derive(Elicit)]` into this form; for one value, drop `flatten` and give the field a form field type"
)]
pub trait DerivedForm: Elicit {
    /// Parses into `errors` instead of failing.
    fn collect(content: &Content, errors: &mut Vec<FieldError>) -> Option<Self>;

    /// [`collect`](Self::collect) from borrowed content, or from content
    /// whose strings it takes. A form without flattened fields implements
    /// it once for both: being generic, it is compiled for the second only
    /// in programs that call `from_content_owned`.
    fn collect_from<S: Source>(content: S, errors: &mut Vec<FieldError>) -> Option<Self> {
        content.with_content(|content| Self::collect(content, errors))
    }

    /// With `deny_unknown_fields`: every content key the schema lacks.
    fn deny_unknown(_content: &Content, _errors: &mut Vec<FieldError>) {}

    /// How many properties the schema has: the form's own fields and its
    /// flattened forms' counts.
    fn property_count() -> usize;

    /// Writes this value's content into `content`.
    fn write(&self, content: &mut Content);

    /// The schema a parent merges in: [`Elicit::schema`], named through this
    /// trait so a field that is no derived form is reported once.
    fn flattened_schema() -> ElicitationSchema {
        Self::schema()
    }

    /// Once every field parsed: the flattened forms' `check`s, then the
    /// form's own `#[elicit(check = path)]`, each error appended to
    /// `errors`; `false` if any refused. Derived only for a form with a
    /// `check` or a flattened field.
    fn check(&self, _errors: &mut Vec<FieldError>) -> bool {
        true
    }

    /// The form's `user_only` fields, where it is flattened into another
    /// (through this trait, which a flattened field's type must have: one
    /// error for a type that is no derived form, not two).
    fn flattened_user_only() -> Vec<&'static str> {
        <Self as Elicit>::user_only_fields()
    }
}

/// Derived `from_content`: collects every field, then (with
/// `deny_unknown_fields`) every unknown key, then, if every field parsed,
/// runs the form's checks ([`DerivedForm::check`]).
pub fn from_content<T: DerivedForm>(content: &Content) -> Result<T, ContentError> {
    let mut errors = Vec::new();
    let value = T::collect(content, &mut errors);
    T::deny_unknown(content, &mut errors);
    finish_form(value, errors)
}

/// Derived `from_content_owned`: strings are moved out of the content
/// (left empty in it), which is then dropped whole, as `from_value` drops
/// what it does not keep.
pub fn from_content_owned<T: DerivedForm>(mut content: Content) -> Result<T, ContentError> {
    let mut errors = Vec::new();
    let value = T::collect_from(&mut content, &mut errors);
    // Taking a string leaves its key: unknown keys are found as in
    // `from_content`, and reported after the fields.
    T::deny_unknown(&content, &mut errors);
    finish_form(value, errors)
}

/// A derived form's end: its checks run if every field parsed (they need
/// the value), their errors after the fields'.
fn finish_form<T: DerivedForm>(
    value: Option<T>,
    mut errors: Vec<FieldError>,
) -> Result<T, ContentError> {
    let passed = value.as_ref().is_none_or(|value| value.check(&mut errors));
    finish_passed(value, errors, passed)
}

/// Derived `to_content`: every field written in order.
pub fn to_content<T: DerivedForm>(value: &T) -> Content {
    let mut content = Content::new();
    value.write(&mut content);
    content
}

/// The value if no field failed.
pub fn finish<T>(value: Option<T>, errors: Vec<FieldError>) -> Result<T, ContentError> {
    finish_passed(value, errors, true)
}

/// A sensitive form's end with its `#[elicit(check = path)]`: the check runs
/// if every field parsed, its errors after the fields'.
pub fn finish_checked<T>(
    value: Option<T>,
    mut errors: Vec<FieldError>,
    check: fn(&T) -> Result<(), ContentError>,
) -> Result<T, ContentError> {
    let passed = value
        .as_ref()
        .is_none_or(|value| run_check(check(value), &mut errors));
    finish_passed(value, errors, passed)
}

/// What a form's `check` returned: its errors appended to `errors`;
/// whether it passed. Generated code calls it with the check's result, so
/// it is compiled once, not per form.
pub fn run_check(result: Result<(), ContentError>, errors: &mut Vec<FieldError>) -> bool {
    match result {
        Ok(()) => true,
        Err(refused) => {
            errors.append(&mut refused.into_errors());
            false
        }
    }
}

/// The value if no field failed and every check `passed` (a check that
/// refused without naming a field still refuses).
fn finish_passed<T>(
    value: Option<T>,
    errors: Vec<FieldError>,
    passed: bool,
) -> Result<T, ContentError> {
    match value {
        Some(value) if passed && errors.is_empty() => Ok(value),
        _ => Err(ContentError::new(errors)),
    }
}

/// Derived `deny_unknown` (the rule is `rules::deny_unknown`).
pub fn deny_unknown(content: &Content, schema: &ElicitationSchema, errors: &mut Vec<FieldError>) {
    crate::rules::deny_unknown(content, schema, errors);
}

/// The schema of a derived form that is not generic, built on first use:
/// one function for every form (`schema` is a pointer, not each form's own
/// function type).
pub fn cached_schema(
    cell: &'static std::sync::OnceLock<ElicitationSchema>,
    schema: fn() -> ElicitationSchema,
) -> std::borrow::Cow<'static, ElicitationSchema> {
    std::borrow::Cow::Borrowed(cell.get_or_init(schema))
}

/// The schema JSON of a derived form that is not generic, serialized on
/// first use from its cached schema.
pub fn cached_json(
    cell: &'static std::sync::OnceLock<String>,
    schema: fn() -> std::borrow::Cow<'static, ElicitationSchema>,
) -> &'static str {
    cell.get_or_init(|| crate::schema::to_json(&schema()))
}

/// A content entry, borrowed (`from_content`) or borrowed to take its
/// string (`from_content_owned`): the engine reads it, the field type
/// converts it.
pub trait Entry {
    /// The value.
    fn get(&self) -> &Value;
    /// The value checked against `property` by the engine and converted to
    /// the field's type.
    fn convert<T: Slot>(self, property: &PropertySchema) -> Result<T, FieldErrorKind>;
}

/// Content, borrowed (`&Content`) or borrowed to take strings from (`&mut
/// Content`), as derived code reads it: sorted into one slot per field in
/// one pass.
pub trait Source: Sized {
    /// What a slot holds.
    type Entry: Entry;
    /// One pass over the content; `field` maps a key to its field's slot.
    fn slots<const N: usize>(
        self,
        field: impl Fn(&str) -> Option<usize>,
    ) -> [Option<Self::Entry>; N];
    /// Runs `f` on the content as a borrowed map.
    fn with_content<R>(self, f: impl FnOnce(&Content) -> R) -> R;
}

impl<'c> Source for &'c Content {
    type Entry = &'c Value;
    /// One pass over `content`: each entry whose key `field` maps to the
    /// position of one of the form's own fields goes into that slot, instead
    /// of one map lookup per field (hashing every name again); `field` is
    /// the derive's `match` on the wire names, inlined in the loop (through
    /// a `&dyn Fn`, a call per key cost a ten-field form 4 % of its reading,
    /// issue 47).
    #[inline]
    fn slots<const N: usize>(
        self,
        field: impl Fn(&str) -> Option<usize>,
    ) -> [Option<&'c Value>; N] {
        fill(self, field)
    }
    fn with_content<R>(self, f: impl FnOnce(&Content) -> R) -> R {
        f(self)
    }
}

impl<'c> Source for &'c mut Content {
    type Entry = &'c mut Value;
    /// The borrowed pass, each slot a mutable reference into `content`, so
    /// that a string is taken out of it instead of copied.
    #[inline]
    fn slots<const N: usize>(
        self,
        field: impl Fn(&str) -> Option<usize>,
    ) -> [Option<&'c mut Value>; N] {
        fill(self, field)
    }
    fn with_content<R>(self, f: impl FnOnce(&Content) -> R) -> R {
        f(self)
    }
}

/// [`Source::slots`]: each entry whose key `field` maps to a slot goes
/// into it, in one pass.
#[inline]
fn fill<'c, V, const N: usize>(
    entries: impl IntoIterator<Item = (&'c String, V)>,
    field: impl Fn(&str) -> Option<usize>,
) -> [Option<V>; N] {
    let mut slots = [const { None }; N];
    for (key, value) in entries {
        if let Some(slot) = field(key).and_then(|i| slots.get_mut(i)) {
            *slot = Some(value);
        }
    }
    slots
}

impl Entry for &Value {
    #[inline]
    fn get(&self) -> &Value {
        self
    }
    #[inline]
    fn convert<T: Slot>(self, property: &PropertySchema) -> Result<T, FieldErrorKind> {
        T::check_present(property, self)
    }
}

impl Entry for &mut Value {
    #[inline]
    fn get(&self) -> &Value {
        self
    }
    #[inline]
    fn convert<T: Slot>(self, property: &PropertySchema) -> Result<T, FieldErrorKind> {
        T::check_present_owned(property, std::mem::take(self))
    }
}
