//! What reading a URL finds, step by step: the state the parser
//! ([`super::parse`]) and the host reader ([`super::host`]) both write, kept
//! apart from both so neither imports the other's internals.

use std::ops::Range;

use super::policy::{UrlRejection, UrlWarning};

/// Everything the reading found, for [`UrlReview`](super::UrlReview) and
/// [`check_url`](super::check_url).
#[derive(Default)]
pub(super) struct Analysis {
    pub(super) scheme: Option<String>,
    pub(super) host: Option<String>,
    pub(super) host_range: Option<Range<usize>>,
    pub(super) unicode_host: Option<String>,
    pub(super) warnings: Vec<UrlWarning>,
    pub(super) rejection: Option<UrlRejection>,
    /// The host is `localhost`, in `127.0.0.0/8` or `[::1]`.
    pub(super) loopback: bool,
    /// `http` on a loopback host.
    pub(super) development: bool,
}

impl Analysis {
    /// Records `rejection`, unless an earlier one is recorded: the first
    /// refusal is the one reported.
    pub(super) fn refuse(&mut self, rejection: UrlRejection) {
        if self.rejection.is_none() {
            self.rejection = Some(rejection);
        }
    }

    /// Records `rejection` and stops the reading.
    pub(super) fn stop<T>(&mut self, rejection: UrlRejection) -> Result<T, Stopped> {
        self.refuse(rejection);
        Err(Stopped)
    }

    /// Records `warning`, once.
    pub(super) fn warn(&mut self, warning: UrlWarning) {
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
    }
}

/// The reading stopped at a refusal already recorded in the [`Analysis`].
pub(super) struct Stopped;
