//! Collects every error of one derive before failing, so one build shows
//! them all (serde_derive's `Ctxt`).

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// The errors of one derive, in the order they were found.
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// An error spanning `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// An error at `span`.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, message: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new(span, message));
    }

    /// An error syn already built (a syntax error in an attribute).
    pub fn syn_error(&self, err: syn::Error) {
        self.errors.borrow_mut().push(err);
    }

    /// Whether any error was recorded.
    pub fn has_errors(&self) -> bool {
        !self.errors.borrow().is_empty()
    }

    /// All errors as one `compile_error!` stream (empty when there are none).
    pub fn into_compile_errors(self) -> proc_macro2::TokenStream {
        self.errors
            .into_inner()
            .into_iter()
            .map(|e| e.to_compile_error())
            .collect()
    }
}
