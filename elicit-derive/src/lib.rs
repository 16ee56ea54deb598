//! `#[derive(Elicit)]`: the derive macro of
//! [elicit-core](https://docs.rs/elicit-core). Depend on elicit-core, which
//! re-exports it; the generated code calls elicit-core's runtime.
//!
//! The pipeline (private modules) is parse (`ast`, `attr`: the typed input,
//! with every wire name and description resolved once) -> validate (`valid`,
//! every error collected with its span in a `ctxt::Ctxt`) -> expand
//! (`expand`). When parsing or validation finds errors, the derive emits
//! them together with a fallback impl, so a user sees our errors and not a
//! cascade of missing-trait errors. Patterns are checked with
//! `elicit-pattern`, the dialect the runtime uses; `case` holds the
//! `rename_all` rules.

mod ast;
mod attr;
mod case;
mod ctxt;
mod expand;
mod valid;

use proc_macro::TokenStream;

/// Makes a type something elicit asks for. What it derives depends on the
/// type:
///
/// | derives | on | what the type is |
/// |---|---|---|
/// | [`Elicit`] | a struct with named fields | a form, sent in form mode |
/// | [`SensitiveForm`] (elicit-core's feature `sensitive`) | a struct with named fields and `#[elicit(sensitive)]`, instead of `Elicit` | a sensitive form: its `#[secret]` fields are `SecretString`s, and it is asked on a page the agent serves, through URL mode, never in form mode |
/// | [`Choice`] | a unit-only enum | a single-select; a `Vec` or set of it is a multi-select |
/// | [`FormValue`] | that enum, and a newtype with `#[elicit(transparent)]` or `#[elicit(try_from = "U", into = "U")]` | one form field's value |
///
/// A form (or sensitive form) may add a rule of its own across its fields,
/// `#[elicit(check = path)]`, run after the field rules wherever content is
/// read. Every attribute, on a form, a sensitive form, a field or a variant:
/// [`reference::attributes`]. What each field type becomes:
/// [`reference::types`]. What does not compile, each error at the field or
/// attribute at fault: [`reference::guarantees`].
///
/// [`Elicit`]: https://docs.rs/elicit-core/latest/elicit_core/trait.Elicit.html
/// [`SensitiveForm`]: https://docs.rs/elicit-core/latest/elicit_core/sensitive/trait.SensitiveForm.html
/// [`Choice`]: https://docs.rs/elicit-core/latest/elicit_core/trait.Choice.html
/// [`FormValue`]: https://docs.rs/elicit-core/latest/elicit_core/trait.FormValue.html
/// [`reference::attributes`]: https://docs.rs/elicit-core/latest/elicit_core/reference/attributes/index.html
/// [`reference::types`]: https://docs.rs/elicit-core/latest/elicit_core/reference/types/index.html
/// [`reference::guarantees`]: https://docs.rs/elicit-core/latest/elicit_core/reference/guarantees/index.html
#[proc_macro_derive(Elicit, attributes(elicit, secret))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derive(&input).into()
}

/// The derive on a parsed input: the impls, or the errors with a fallback.
fn derive(input: &syn::DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let input = ast::Input::from_syn(&cx, input);
    valid::check(&cx, &input);
    match cx.check() {
        Ok(()) => expand::expand(&input),
        Err(errors) => {
            let fallback = expand::fallback(&input);
            quote::quote!(#errors #fallback)
        }
    }
}

// This package's README (the crates.io page) is compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(test)]
mod tests {
    use proc_macro2::{TokenStream, TokenTree};

    /// The benchmark form's ten fields (every kind of field and attribute
    /// the issue's 10-field form has), `groups` times with suffixed names.
    fn form(groups: usize) -> syn::DeriveInput {
        let mut fields = String::new();
        for g in 0..groups {
            fields.push_str(&format!(
                r#"
                /// The name shown to others.
                #[elicit(length(min = 2, max = 40))]
                pub name{g}: String,
                /// A lowercase handle.
                #[elicit(pattern = "^[a-z][a-z0-9_]*$", length(max = 16))]
                pub handle{g}: String,
                /// Where to write to.
                #[elicit(email)]
                pub email{g}: String,
                /// A home page, if any.
                #[elicit(uri)]
                pub homepage{g}: Option<String>,
                /// Age in years.
                #[elicit(range(min = 13, max = 120))]
                pub age{g}: u8,
                /// How many replicas to run.
                #[elicit(range(min = 1, max = 64))]
                pub replicas{g}: i32,
                /// The share of traffic, from 0 to 1.
                #[elicit(range(min = 0.0, max = 1.0))]
                pub ratio{g}: f64,
                /// Whether to notify the team.
                pub notify{g}: bool,
                /// How aggressive to be.
                pub strategy{g}: Strategy,
                /// Where to deploy.
                #[elicit(length(min = 1, max = 3))]
                pub envs{g}: Vec<Environment>,
                "#
            ));
        }
        syn::parse_str(&format!("pub struct Form {{ {fields} }}")).expect("the test form parses")
    }

    /// Token trees in `tokens`, counting every token inside groups.
    fn count_tokens(tokens: TokenStream) -> usize {
        tokens
            .into_iter()
            .map(|tt| match tt {
                TokenTree::Group(g) => 1 + count_tokens(g.stream()),
                _ => 1,
            })
            .sum()
    }

    /// (tokens, bytes of source text) of the derive's output for `input`.
    fn output_size(input: &syn::DeriveInput) -> (usize, usize) {
        let output = super::derive(input);
        let text = output.to_string();
        assert!(
            !text.contains("compile_error"),
            "the test form must derive without errors: {text}"
        );
        (count_tokens(output), text.len())
    }

    /// The generated code per struct, as BENCHMARKS.md reports it (`cargo test -p elicit-derive -- --nocapture`
    /// prints the figures): it grows linearly with the field count, with no
    /// quadratic part (like one check per pair of fields).
    #[test]
    fn generated_code_grows_linearly_with_the_field_count() {
        let (tokens10, bytes10) = output_size(&form(1));
        let (tokens20, bytes20) = output_size(&form(2));
        let (tokens50, bytes50) = output_size(&form(5));
        println!(
            "derive(Elicit) output: 10 fields: {tokens10} tokens, {bytes10} bytes; \
             20 fields: {tokens20} tokens, {bytes20} bytes; \
             50 fields: {tokens50} tokens, {bytes50} bytes; \
             per extra field: {} tokens",
            (tokens50 - tokens10) / 40
        );
        assert!(tokens20 > tokens10 && bytes20 > bytes10);
        // Linear with a fixed part: doubling the fields less than doubles
        // the output, give or take the longer suffixed names.
        assert!(
            tokens20 * 10 < tokens10 * 22,
            "20 fields: {tokens20} tokens vs 10 fields: {tokens10}"
        );
        assert!(
            bytes20 * 10 < bytes10 * 22,
            "20 fields: {bytes20} bytes vs 10 fields: {bytes10}"
        );
        // Each further group of ten fields costs the same.
        let per_group_10_to_20 = tokens20 - tokens10;
        let per_group_20_to_50 = (tokens50 - tokens20) / 3;
        assert!(
            per_group_20_to_50 * 10 < per_group_10_to_20 * 11,
            "{per_group_10_to_20} tokens per 10 fields at first, then {per_group_20_to_50}"
        );
    }
}
