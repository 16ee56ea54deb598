//! Sets of characters, as sorted ranges of Unicode scalar values, written
//! out as `regex-lite` classes: it has no nested classes, so a class with
//! `\D` or `\P{..}` inside is written from its members.

use std::fmt::Write as _;

/// The last scalar value before the surrogates, and the first after.
const BEFORE_SURROGATES: u32 = 0xD7FF;
const AFTER_SURROGATES: u32 = 0xE000;
const LAST: u32 = 0x10FFFF;

/// Every character: what `[^]` matches.
pub(crate) const ANY: &str = r"[\x{0}-\x{10FFFF}]";
/// No character: what `[]` matches.
pub(crate) const NONE: &str = r"[^\x{0}-\x{10FFFF}]";

/// A set of characters: sorted, disjoint, non-adjacent ranges of scalar
/// values (a surrogate, which no Rust string holds, is never in one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CharSet(Vec<(u32, u32)>);

impl CharSet {
    /// The set of these ranges of code points (their surrogates left out).
    pub(crate) fn of(ranges: &[(u32, u32)]) -> Self {
        let mut set = Self::default();
        for &(lo, hi) in ranges {
            set.add(lo, hi);
        }
        set
    }

    /// Adds the range `lo..=hi` of code points, but its surrogates.
    pub(crate) fn add(&mut self, lo: u32, hi: u32) {
        let hi = hi.min(LAST);
        if lo > hi {
            return;
        }
        if lo <= BEFORE_SURROGATES {
            self.insert(lo, hi.min(BEFORE_SURROGATES));
        }
        if hi >= AFTER_SURROGATES {
            self.insert(lo.max(AFTER_SURROGATES), hi);
        }
    }

    /// Adds every member of `other`.
    pub(crate) fn union(&mut self, other: &CharSet) {
        for &(lo, hi) in &other.0 {
            self.insert(lo, hi);
        }
    }

    /// Whether `c` is in the set.
    pub(crate) fn contains(&self, c: u32) -> bool {
        let i = self.0.partition_point(|&(_, hi)| hi < c);
        self.0.get(i).is_some_and(|&(lo, _)| lo <= c)
    }

    /// The characters not in this set.
    pub(crate) fn negated(&self) -> CharSet {
        let mut out = CharSet::default();
        let mut next = 0;
        for &(lo, hi) in &self.0 {
            if lo > next {
                out.add(next, lo - 1);
            }
            next = hi + 1;
        }
        if next <= LAST {
            out.add(next, LAST);
        }
        out
    }

    /// A scalar range, merged with the ranges it touches.
    fn insert(&mut self, lo: u32, hi: u32) {
        let at = self.0.partition_point(|&(_, h)| h.saturating_add(1) < lo);
        let mut lo = lo;
        let mut hi = hi;
        let mut end = at;
        while end < self.0.len() && self.0[end].0 <= hi.saturating_add(1) {
            lo = lo.min(self.0[end].0);
            hi = hi.max(self.0[end].1);
            end += 1;
        }
        self.0.splice(at..end, [(lo, hi)]);
    }

    /// The set as a class, in its shorter form (its members, or `[^..]`
    /// and the others).
    pub(crate) fn write(&self, out: &mut String) {
        let negated = self.negated();
        if self.0.is_empty() {
            out.push_str(NONE);
        } else if negated.0.is_empty() {
            out.push_str(ANY);
        } else if negated.0.len() < self.0.len() {
            out.push_str("[^");
            negated.write_ranges(out);
            out.push(']');
        } else {
            out.push('[');
            self.write_ranges(out);
            out.push(']');
        }
    }

    fn write_ranges(&self, out: &mut String) {
        for &(lo, hi) in &self.0 {
            push_scalar(out, lo);
            if hi != lo {
                out.push('-');
                push_scalar(out, hi);
            }
        }
    }
}

/// A character of a program: an ASCII letter or digit as itself, anything
/// else as `\x{..}`, so that nothing is read as syntax.
pub(crate) fn push_char(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() {
        out.push(c);
    } else {
        write!(out, r"\x{{{:X}}}", c as u32).unwrap_or(());
    }
}

fn push_scalar(out: &mut String, v: u32) {
    // Every bound of a range in a set is a scalar value.
    if let Some(c) = char::from_u32(v) {
        push_char(out, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(set: &CharSet) -> String {
        let mut out = String::new();
        set.write(&mut out);
        out
    }

    #[test]
    fn ranges_merge_and_leave_out_surrogates() {
        let set = CharSet::of(&[(0x61, 0x63), (0x62, 0x66), (0x67, 0x67), (0x30, 0x30)]);
        assert_eq!(set.0, [(0x30, 0x30), (0x61, 0x67)]);
        let set = CharSet::of(&[(0xD700, 0xE100)]);
        assert_eq!(set.0, [(0xD700, 0xD7FF), (0xE000, 0xE100)]);
        assert_eq!(CharSet::of(&[(0xD800, 0xDFFF)]), CharSet::default());
    }

    #[test]
    fn negation_is_over_scalar_values() {
        let digits = CharSet::of(&[(0x30, 0x39)]);
        assert_eq!(
            digits.negated().0,
            [(0, 0x2F), (0x3A, 0xD7FF), (0xE000, 0x10FFFF)]
        );
        assert_eq!(digits.negated().negated(), digits);
        assert_eq!(written(&digits), "[0-9]");
        assert_eq!(written(&digits.negated()), "[^0-9]");
        assert_eq!(written(&CharSet::default()), NONE);
        assert_eq!(written(&CharSet::default().negated()), ANY);
    }
}
