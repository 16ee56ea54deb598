//! Nothing: this package holds the trybuild cases of the derive (`ui.rs`,
//! `fail/`, `pass/`), run with `cargo test -p elicit-ui-tests`.
