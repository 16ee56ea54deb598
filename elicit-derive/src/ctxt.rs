//! Collects every error of one derive before failing, so one build shows
//! them all (serde_derive's `Ctxt`). [`Ctxt::check`] must be called once
//! the input has been read and checked: a `Ctxt` dropped unchecked panics,
//! so no error can be lost on the way.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::TokenStream;
use quote::ToTokens;

/// The errors of one derive, in the order they were found.
pub struct Ctxt {
    /// `None` once [`check`](Self::check) has taken them.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    /// A context with no errors yet.
    pub fn new() -> Self {
        Self {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// An error spanning `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// An error at `span`.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, message: M) {
        self.push(syn::Error::new(span, message));
    }

    /// An error syn already built (a syntax error in an attribute).
    pub fn syn_error(&self, err: syn::Error) {
        self.push(err);
    }

    fn push(&self, err: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("an error recorded after `Ctxt::check`")
            .push(err);
    }

    /// Ends the collection: `Err` with every error as one `compile_error!`
    /// stream when there is any.
    pub fn check(self) -> Result<(), TokenStream> {
        let errors = self
            .errors
            .borrow_mut()
            .take()
            .expect("`Ctxt::check` called once");
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.iter().map(syn::Error::to_compile_error).collect())
        }
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("a `Ctxt` was dropped without `check`: its errors would be lost");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ctxt;

    #[test]
    fn check_returns_every_error_in_order() {
        let cx = Ctxt::new();
        cx.error_at(proc_macro2::Span::call_site(), "first");
        cx.error_at(proc_macro2::Span::call_site(), "second");
        let errors = cx.check().expect_err("two errors").to_string();
        let first = errors.find("first").expect("the first error");
        let second = errors.find("second").expect("the second error");
        assert!(first < second, "{errors}");
    }

    #[test]
    fn check_without_errors_is_ok() {
        assert!(Ctxt::new().check().is_ok());
    }

    #[test]
    #[should_panic(expected = "dropped without `check`")]
    fn an_unchecked_ctxt_panics_when_dropped() {
        let cx = Ctxt::new();
        cx.error_at(proc_macro2::Span::call_site(), "lost");
        drop(cx);
    }
}
