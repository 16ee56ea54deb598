//! The limits a `pattern` must meet to compile.
//!
//! These are copies of elicit-core's limits (its `MAX_PATTERN_LEN` and the
//! sizes its `compile_pattern` gives the regex engine): a proc-macro crate
//! cannot depend on elicit-core, whose runtime re-exports it. A test proves
//! the two sets agree, so a pattern the derive accepts is one the runtime
//! accepts too.

/// The largest pattern source accepted, in bytes.
pub(crate) const PATTERN_MAX_LEN: usize = 1024;

/// The compiled-program size limit for a pattern, in bytes.
pub(crate) const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// The lazy-DFA cache limit for a pattern, in bytes.
pub(crate) const PATTERN_DFA_SIZE_LIMIT: usize = 1 << 20;

/// The deepest nesting of groups and repetitions a pattern may have.
pub(crate) const PATTERN_NEST_LIMIT: u32 = 64;
