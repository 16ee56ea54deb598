//! The limits a `pattern` must meet to compile.
//!
//! These are copies of elicit-core's `limits::{MAX_PATTERN_LEN,
//! PATTERN_SIZE_LIMIT, PATTERN_DFA_SIZE_LIMIT, PATTERN_NEST_LIMIT}`, with
//! the same names: a
//! proc-macro crate cannot depend on elicit-core, whose runtime re-exports
//! it. The test below proves the two sets agree, so a pattern the derive
//! accepts is one the runtime accepts too.

/// The largest pattern source accepted, in bytes.
pub(crate) const MAX_PATTERN_LEN: usize = 1024;

/// The compiled-program size limit for a pattern, in bytes.
pub(crate) const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// The lazy-DFA cache limit for a pattern, in bytes.
pub(crate) const PATTERN_DFA_SIZE_LIMIT: usize = 1 << 20;

/// The deepest nesting of groups and repetitions a pattern may have.
pub(crate) const PATTERN_NEST_LIMIT: u32 = 64;

#[cfg(test)]
mod tests {
    use elicit_core::limits;

    #[test]
    fn the_copies_agree_with_elicit_core() {
        assert_eq!(super::MAX_PATTERN_LEN, limits::MAX_PATTERN_LEN);
        assert_eq!(super::PATTERN_SIZE_LIMIT, limits::PATTERN_SIZE_LIMIT);
        assert_eq!(
            super::PATTERN_DFA_SIZE_LIMIT,
            limits::PATTERN_DFA_SIZE_LIMIT
        );
        assert_eq!(super::PATTERN_NEST_LIMIT, limits::PATTERN_NEST_LIMIT);
    }
}
