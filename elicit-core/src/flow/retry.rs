//! [`Retry`], the flows' re-ask policy.

/// The "ask again with the errors" policy of the flows (`.retry(n)` on
/// every call): how many more times a form is sent when the accepted
/// content breaks the form's rules. The message of each new attempt is
/// [`ContentError::retry_message`](crate::ContentError::retry_message).
///
/// Only an **invalid** accept is asked again. A decline or a cancel is the
/// user's answer and is returned at once; asking again would be nagging.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Retry {
    again: u32,
}

impl Retry {
    /// Never ask again: an invalid answer is returned as an error.
    pub(crate) const NEVER: Self = Self { again: 0 };

    /// Ask again up to `again` more times (so at most `again + 1` requests).
    pub(crate) const fn times(again: u32) -> Self {
        Self { again }
    }

    /// How many more times the form may be sent.
    pub(crate) const fn again(self) -> u32 {
        self.again
    }
}
