//! A `\p{..}` pattern in a build without elicit-core's `unicode` feature
//! (this crate's [dependencies] are the README's): `run` checks that it is
//! one compile error, at the attribute, naming the feature to turn on.

use elicit_core::Elicit;

/// A name.
#[derive(Elicit)]
pub struct Name {
    /// Letters only, in any script.
    #[elicit(pattern = r"^\p{L}+$")]
    pub name: String,
}

fn main() {}
