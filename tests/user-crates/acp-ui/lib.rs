//! Nothing: this package holds the trybuild cases of the ACP SDK's calls
//! (`ui.rs`, `fail/`).
