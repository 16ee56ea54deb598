//! `check = path`: an associated function of a generic form, a free
//! function through a re-exported crate path, and `<Type>::f`.

use elicit_core::{Choice, Content, ContentError, Elicit, FieldError};

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
enum Color {
    Red,
    Green,
}

/// Two picks that must differ.
#[derive(Elicit, Debug)]
#[elicit(check = Self::different)]
struct Pair<C: Choice + PartialEq> {
    first: C,
    second: C,
}

impl<C: Choice + PartialEq> Pair<C> {
    fn different(pair: &Self) -> Result<(), ContentError> {
        if pair.first == pair.second {
            return Err(FieldError::rule("second", "must differ from `first`").into());
        }
        Ok(())
    }
}

mod sdk {
    pub use elicit_core as forms;
}

#[derive(elicit_core::Elicit, Debug)]
#[elicit(crate = "crate::check::sdk::forms", check = rules::even)]
struct Even {
    n: u32,
}

mod rules {
    pub fn even(form: &super::Even) -> Result<(), crate::check::sdk::forms::ContentError> {
        if form.n % 2 == 1 {
            return Err(crate::check::sdk::forms::FieldError::rule("n", "must be even").into());
        }
        Ok(())
    }
}

#[derive(Elicit, Debug)]
#[elicit(check = <Named>::not_empty)]
struct Named {
    name: String,
}

impl Named {
    fn not_empty(form: &Self) -> Result<(), ContentError> {
        match form.name.trim() {
            "" => Err(FieldError::rule("name", "must not be blank").into()),
            _ => Ok(()),
        }
    }
}

fn content(json: &str) -> Content {
    serde_json::from_str(json).unwrap()
}

pub fn main() {
    let same = content(r#"{"first": "Red", "second": "Red"}"#);
    let error = Pair::<Color>::from_content(&same).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid form content: `second` must differ from `first`"
    );
    let pair = Pair::<Color>::from_content_owned(content(r#"{"first": "Red", "second": "Green"}"#));
    assert_eq!(pair.unwrap().second, Color::Green);

    assert_eq!(
        Even::from_content(&content(r#"{"n": 3}"#))
            .unwrap_err()
            .fields()
            .collect::<Vec<_>>(),
        ["n"]
    );
    assert_eq!(Even::from_content(&content(r#"{"n": 4}"#)).unwrap().n, 4);

    assert!(Named::from_content(&content(r#"{"name": " "}"#)).is_err());
    assert_eq!(
        Named::from_content(&content(r#"{"name": "Ada"}"#))
            .unwrap()
            .name,
        "Ada"
    );
}
