//! The engine: a pattern read by `translate` becomes a Thompson NFA, run
//! as a set of states over the input (a PikeVM without captures: a pattern
//! is only asked whether it matches). Time is linear in the input, times the
//! number of states, which the size limit bounds; memory is two sets of
//! states. Every state of the NFA is a step of the pattern as written, so
//! it means what `translate`'s program means, and the tests hold both to
//! JavaScript's verdicts (`tests/it/ecma_patterns.rs`).
//!
//! Written here rather than taken from a regex crate: `regex` is about 5
//! CPU-s of a user's clean build and `regex-lite` about 300 ns per match of
//! a short form answer, against tens of nanoseconds here (BENCHMARKS.md,
//! "Build cost").

use crate::set::CharSet;

/// A zero-width assertion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Assertion {
    /// `^`: the start of the input.
    Start,
    /// `$`: the end of the input.
    End,
    /// `\b`: an ASCII word character on one side only.
    Word,
    /// `\B`: on both sides or neither.
    NotWord,
}

/// A pattern as `translate` read it.
#[derive(Debug)]
pub(crate) enum Node {
    /// Matches the empty string.
    Empty,
    /// One character of the set.
    Set(CharSet),
    /// A zero-width assertion.
    Assert(Assertion),
    /// One after the other.
    Concat(Vec<Node>),
    /// Either.
    Alt(Vec<Node>),
    /// `min` to `max` (no bound: `None`) times.
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
}

/// One state of the NFA.
#[derive(Debug, Clone, Copy)]
enum State {
    /// Consumes one character of class `class`, then goes to `next`.
    Char { class: u32, next: u32 },
    /// Goes to both.
    Split(u32, u32),
    /// Goes to `next` if the assertion holds here.
    Assert(Assertion, u32),
    /// The pattern matched.
    Match,
}

/// A class of the NFA: its ranges, and its ASCII members as a bitmap.
#[derive(Debug)]
struct Class {
    ascii: u128,
    set: CharSet,
}

impl Class {
    fn new(set: CharSet) -> Self {
        let ascii = (0u8..128)
            .filter(|b| set.contains(u32::from(*b)))
            .fold(0u128, |bits, b| bits | 1 << b);
        Self { ascii, set }
    }

    #[inline]
    fn contains(&self, c: char) -> bool {
        if c.is_ascii() {
            self.ascii & (1 << c as u32) != 0
        } else {
            self.set.contains(c as u32)
        }
    }
}

/// Why a pattern has no NFA: it needs more states than the size limit
/// allows.
#[derive(Debug)]
pub(crate) struct TooBig;

/// A compiled pattern.
#[derive(Debug)]
pub(crate) struct Nfa {
    states: Vec<State>,
    classes: Vec<Class>,
    start: u32,
    /// For an NFA of at most 64 states without `\b` or `\B`: each state's
    /// closure (the states it reaches without consuming), as bits, in the
    /// four places assertions can tell apart (start of the input or not,
    /// end or not: [`place`]).
    closures: Option<Vec<[u64; 4]>>,
    /// With `closures`, when its states are few: the DFA over ASCII.
    dfa: Option<Dfa>,
}

/// A DFA over ASCII characters for an NFA with [`Nfa::closures`]: each of
/// its states is a set of the NFA's (as bits), stepped through the middle
/// of the input; a character beyond ASCII goes back to the closures.
#[derive(Debug)]
struct Dfa {
    /// The sets, the first the one at the start of a non-empty input.
    sets: Vec<u64>,
    /// `next[state * 128 + byte]`: the state after that ASCII character.
    next: Vec<u8>,
    /// Whether a set matches if the input ends there.
    accepts_at_end: Vec<bool>,
}

/// The most states a DFA may have before the NFA runs without one.
const DFA_STATES: usize = 32;

/// The index of a place in [`Nfa::closures`]: bit 0 the start of the
/// input, bit 1 its end.
fn place(start: bool, end: bool) -> usize {
    usize::from(start) | usize::from(end) << 1
}

/// The most states an NFA may have: the size limit over a state's size.
fn max_states() -> usize {
    crate::PATTERN_SIZE_LIMIT / std::mem::size_of::<State>()
}

impl Nfa {
    /// The NFA of `node`, or [`TooBig`].
    pub(crate) fn new(node: Node) -> Result<Self, TooBig> {
        let mut builder = Builder {
            states: vec![State::Match],
            classes: Vec::new(),
            limit: max_states(),
        };
        let start = builder.compile(&node, 0, &mut Vec::new())?;
        let mut nfa = Self {
            states: builder.states,
            classes: builder.classes,
            start,
            closures: None,
            dfa: None,
        };
        let word = nfa
            .states
            .iter()
            .any(|s| matches!(s, State::Assert(Assertion::Word | Assertion::NotWord, _)));
        if nfa.states.len() <= 64 && !word {
            let closures = (0..nfa.states.len() as u32)
                .map(|s| {
                    // Indexed by `place`: bit 0 the start, bit 1 the end.
                    std::array::from_fn(|place| {
                        // Only `^` and `$` are asked: the characters around
                        // do not matter, only whether there are.
                        let at = Position {
                            start: place & 1 != 0,
                            prev: None,
                            next: if place & 2 != 0 { None } else { Some('a') },
                        };
                        let mut set = 0u64;
                        nfa.add(&mut set, s, &at, &mut Vec::new());
                        set
                    })
                })
                .collect();
            nfa.closures = Some(closures);
            nfa.dfa = nfa.build_dfa();
        }
        Ok(nfa)
    }

    /// The DFA, unless it needs more than [`DFA_STATES`] states.
    fn build_dfa(&self) -> Option<Dfa> {
        const MATCH: u64 = 1;
        let closures = self.closures.as_ref()?;
        let anchored = self.anchored();
        let start = closures[self.start as usize];
        let middle = place(false, false);
        let step = |set: u64, c: char| {
            let mut next = self.step(closures, set, c, middle);
            if !anchored {
                next |= start[middle];
            }
            next
        };
        let mut dfa = Dfa {
            sets: vec![start[place(true, false)]],
            next: Vec::new(),
            accepts_at_end: Vec::new(),
        };
        let mut i = 0;
        while i < dfa.sets.len() {
            let set = dfa.sets[i];
            for byte in 0u8..128 {
                let next = if set & MATCH != 0 {
                    // A match was found: whatever follows.
                    set
                } else {
                    step(set, char::from(byte))
                };
                let index = match dfa.sets.iter().position(|s| *s == next) {
                    Some(index) => index,
                    None if dfa.sets.len() < DFA_STATES => {
                        dfa.sets.push(next);
                        dfa.sets.len() - 1
                    }
                    None => return None,
                };
                dfa.next.push(index as u8);
            }
            i += 1;
        }
        let end = place(false, true);
        dfa.accepts_at_end = dfa
            .sets
            .iter()
            .map(|&set| {
                let mut reach = if anchored { 0 } else { start[end] };
                let mut states = set;
                while states != 0 {
                    let s = states.trailing_zeros();
                    states &= states - 1;
                    reach |= closures[s as usize][end];
                }
                reach & MATCH != 0
            })
            .collect();
        Some(dfa)
    }

    /// Whether the pattern starts with `^`: then a match starts only at
    /// the start of the input.
    fn anchored(&self) -> bool {
        matches!(
            self.states[self.start as usize],
            State::Assert(Assertion::Start, _)
        )
    }

    /// The states the character `c` leads to from `set`, with their
    /// closures at `here`.
    fn step(&self, closures: &[[u64; 4]], set: u64, c: char, here: usize) -> u64 {
        let mut next = 0u64;
        let mut states = set;
        while states != 0 {
            let s = states.trailing_zeros();
            states &= states - 1;
            if let State::Char { class, next: to } = self.states[s as usize]
                && self.classes[class as usize].contains(c)
            {
                next |= closures[to as usize][here];
            }
        }
        next
    }

    /// Whether `input` contains a match (anywhere: the pattern is not
    /// anchored unless it says `^` or `$`).
    pub(crate) fn is_match(&self, input: &str) -> bool {
        if let Some(closures) = &self.closures {
            return self.is_match_closed(closures, input);
        }
        if self.states.len() <= 64 {
            return self.is_match_small(input);
        }
        self.is_match_sparse(input)
    }

    /// [`is_match`](Self::is_match) for any NFA: the sets are sparse sets.
    fn is_match_sparse(&self, input: &str) -> bool {
        let n = self.states.len();
        self.run(Sparse::new(n), Sparse::new(n), input)
    }

    /// [`is_match`](Self::is_match) for an NFA of at most 64 states: the
    /// sets are bits of a `u64`.
    fn is_match_small(&self, input: &str) -> bool {
        self.run(0u64, 0u64, input)
    }

    /// Runs the NFA over `input`, its states in sets of kind `S`: at each
    /// position a match may start (only at the first for a pattern that
    /// starts with `^`), then each character leads on.
    fn run<S: States>(&self, mut current: S, mut next: S, input: &str) -> bool {
        let anchored = self.anchored();
        let mut stack = Vec::new();
        let mut prev: Option<char> = None;
        let mut chars = input.chars().peekable();
        loop {
            let here = chars.peek().copied();
            let at = Position {
                start: prev.is_none(),
                prev,
                next: here,
            };
            if (prev.is_none() || !anchored) && self.add(&mut current, self.start, &at, &mut stack)
            {
                return true;
            }
            let Some(c) = here else {
                return false;
            };
            if anchored && current.is_empty() {
                return false;
            }
            chars.next();
            let after = Position {
                start: false,
                prev: Some(c),
                next: chars.peek().copied(),
            };
            let matched = current.any(|s| {
                matches!(
                    self.states[s as usize],
                    State::Char { class, next: to }
                        if self.classes[class as usize].contains(c)
                            && self.add(&mut next, to, &after, &mut stack)
                )
            });
            if matched {
                return true;
            }
            std::mem::swap(&mut current, &mut next);
            next.clear();
            prev = Some(c);
        }
    }

    /// [`is_match`](Self::is_match) with the closures computed once: a step
    /// is the union of the closures of the states its character leads to.
    fn is_match_closed(&self, closures: &[[u64; 4]], input: &str) -> bool {
        const MATCH: u64 = 1; // The match is state 0.
        let start = closures[self.start as usize];
        let mut current = start[place(true, input.is_empty())];
        if current & MATCH != 0 {
            return true;
        }
        let mut from = 0;
        if let Some(dfa) = &self.dfa
            && !input.is_empty()
        {
            // Through the DFA while the input is ASCII.
            let mut d = 0usize;
            for &byte in input.as_bytes() {
                if !byte.is_ascii() {
                    break;
                }
                d = usize::from(dfa.next[d * 128 + usize::from(byte)]);
                from += 1;
            }
            if from == input.len() {
                return dfa.accepts_at_end[d] || dfa.sets[d] & MATCH != 0;
            }
            current = dfa.sets[d];
            if current & MATCH != 0 {
                return true;
            }
        }
        self.run_closed(closures, current, input, from)
    }

    /// The rest of [`is_match_closed`](Self::is_match_closed), from byte
    /// `from` with the states `current`.
    fn run_closed(
        &self,
        closures: &[[u64; 4]],
        mut current: u64,
        input: &str,
        from: usize,
    ) -> bool {
        const MATCH: u64 = 1;
        let anchored = self.anchored();
        let start = closures[self.start as usize];
        for (i, c) in input[from..].char_indices() {
            let i = from + i;
            if current == 0 && anchored {
                return false;
            }
            let here = place(false, i + c.len_utf8() == input.len());
            let mut next = self.step(closures, current, c, here);
            if !anchored {
                next |= start[here];
            }
            if next & MATCH != 0 {
                return true;
            }
            current = next;
        }
        false
    }

    /// Adds `state` and every state it reaches without consuming a
    /// character at `at` (all of them: the precomputed closures need the
    /// whole closure); `true` when that reaches the match.
    fn add<S: States>(&self, set: &mut S, state: u32, at: &Position, stack: &mut Vec<u32>) -> bool {
        let mut matched = false;
        stack.push(state);
        while let Some(s) = stack.pop() {
            if !set.insert(s) {
                continue;
            }
            match self.states[s as usize] {
                State::Match => matched = true,
                State::Char { .. } => {}
                State::Split(a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                State::Assert(assertion, to) => {
                    if at.holds(assertion) {
                        stack.push(to);
                    }
                }
            }
        }
        matched
    }
}

/// Where in the input a state is added: what assertions see.
struct Position {
    start: bool,
    prev: Option<char>,
    next: Option<char>,
}

impl Position {
    fn holds(&self, assertion: Assertion) -> bool {
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        match assertion {
            Assertion::Start => self.start,
            Assertion::End => self.next.is_none(),
            Assertion::Word => word(self.prev) != word(self.next),
            Assertion::NotWord => word(self.prev) == word(self.next),
        }
    }
}

/// A set of the NFA's states.
trait States {
    /// Adds `s`; `false` if it was there.
    fn insert(&mut self, s: u32) -> bool;
    fn is_empty(&self) -> bool;
    fn clear(&mut self);
    /// Whether `f` holds for a member (each is given in turn until it does).
    fn any(&self, f: impl FnMut(u32) -> bool) -> bool;
}

/// Up to 64 states: one bit each.
impl States for u64 {
    fn insert(&mut self, s: u32) -> bool {
        let bit = 1u64 << s;
        let new = *self & bit == 0;
        *self |= bit;
        new
    }

    fn is_empty(&self) -> bool {
        *self == 0
    }

    fn clear(&mut self) {
        *self = 0;
    }

    fn any(&self, mut f: impl FnMut(u32) -> bool) -> bool {
        let mut bits = *self;
        while bits != 0 {
            let s = bits.trailing_zeros();
            bits &= bits - 1;
            if f(s) {
                return true;
            }
        }
        false
    }
}

/// Any number of states: a sparse set (clearing is constant time).
struct Sparse {
    dense: Vec<u32>,
    sparse: Vec<u32>,
    len: usize,
}

impl Sparse {
    fn new(n: usize) -> Self {
        Self {
            dense: vec![0; n],
            sparse: vec![0; n],
            len: 0,
        }
    }
}

impl States for Sparse {
    fn insert(&mut self, s: u32) -> bool {
        let i = self.sparse[s as usize] as usize;
        if i < self.len && self.dense[i] == s {
            return false;
        }
        self.dense[self.len] = s;
        // `len` is below the number of states, a `u32`.
        self.sparse[s as usize] = self.len as u32;
        self.len += 1;
        true
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn any(&self, f: impl FnMut(u32) -> bool) -> bool {
        self.dense[..self.len].iter().copied().any(f)
    }
}

struct Builder {
    states: Vec<State>,
    classes: Vec<Class>,
    limit: usize,
}

impl Builder {
    fn push(&mut self, state: State) -> Result<u32, TooBig> {
        if self.states.len() >= self.limit {
            return Err(TooBig);
        }
        self.states.push(state);
        // Below the limit, which is far below u32::MAX.
        Ok((self.states.len() - 1) as u32)
    }

    /// The states of `node` followed by `next`; returns where they start.
    /// `classes` maps the `Set` nodes met so far (by address) to their
    /// class, so that a repeated node shares one class.
    fn compile(
        &mut self,
        node: &Node,
        next: u32,
        classes: &mut Vec<(*const CharSet, u32)>,
    ) -> Result<u32, TooBig> {
        match node {
            Node::Empty => Ok(next),
            Node::Set(set) => {
                let key: *const CharSet = set;
                let class = match classes.iter().find(|(k, _)| *k == key) {
                    Some((_, class)) => *class,
                    None => {
                        let class = self.classes.len() as u32;
                        self.classes.push(Class::new(set.clone()));
                        classes.push((key, class));
                        class
                    }
                };
                self.push(State::Char { class, next })
            }
            Node::Assert(assertion) => self.push(State::Assert(*assertion, next)),
            Node::Concat(nodes) => {
                let mut at = next;
                for node in nodes.iter().rev() {
                    at = self.compile(node, at, classes)?;
                }
                Ok(at)
            }
            Node::Alt(nodes) => {
                let mut starts = Vec::with_capacity(nodes.len());
                for node in nodes {
                    starts.push(self.compile(node, next, classes)?);
                }
                let mut at = starts.pop().unwrap_or(next);
                while let Some(start) = starts.pop() {
                    at = self.push(State::Split(start, at))?;
                }
                Ok(at)
            }
            Node::Repeat { node, min, max } => {
                let mut at = match max {
                    // `node*` after the copies: a loop.
                    None => {
                        let looping = self.push(State::Split(0, next))?;
                        let body = self.compile(node, looping, classes)?;
                        self.states[looping as usize] = State::Split(body, next);
                        looping
                    }
                    // Up to `max - min` optional copies, each of which may
                    // end the repetition.
                    Some(max) => {
                        let mut at = next;
                        for _ in *min..*max {
                            let body = self.compile(node, at, classes)?;
                            at = self.push(State::Split(body, next))?;
                        }
                        at
                    }
                };
                for _ in 0..*min {
                    let before = self.states.len();
                    at = self.compile(node, at, classes)?;
                    if self.states.len() == before {
                        // A node without states matches only the empty
                        // string: once is every time.
                        break;
                    }
                }
                Ok(at)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nfa(pattern: &str) -> Nfa {
        Nfa::new(crate::translate::translate(pattern).unwrap().node).unwrap()
    }

    /// The four ways of running an NFA give the same verdicts: the DFA, the
    /// closures, the sets of bits, the sparse sets.
    #[test]
    fn every_way_of_running_agrees() {
        let patterns = [
            r"^[a-z][a-z0-9_]*$",
            r"^\d{3}-\d{4}$",
            r"ab|cd",
            r"^(?:a|b)*c$",
            r"x*",
            r"^$",
            r"$",
            r"\bfoo\b",
            r"\B",
            r"^é+$",
            r"[^a]{2}",
            r"^(?:ab){2,3}$",
            r"(?:a?){3}b",
            r"^.{0,3}$",
        ];
        let inputs = [
            "", "a", "ab", "abc", "cd", "xcdx", "abab", "ababab", "abababab", "a_1", "A", "1a",
            "123-4567", "123-456", "foo", "a foo b", "afoob", "éé", "é", "aé", "😀", "a😀b", "\n",
            "aab", "b", "ac", "bac", "abcd",
        ];
        for pattern in patterns {
            let nfa = nfa(pattern);
            for input in inputs {
                let sparse = nfa.is_match_sparse(input);
                let small = nfa.is_match_small(input);
                assert_eq!(small, sparse, "{pattern} on {input:?}: bits");
                if let Some(closures) = &nfa.closures {
                    let first = closures[nfa.start as usize][place(true, input.is_empty())];
                    let closed = first & 1 != 0 || nfa.run_closed(closures, first, input, 0);
                    assert_eq!(closed, sparse, "{pattern} on {input:?}: closures");
                    assert_eq!(
                        nfa.is_match_closed(closures, input),
                        sparse,
                        "{pattern} on {input:?}: DFA"
                    );
                }
            }
        }
    }

    #[test]
    fn the_paths_are_taken() {
        assert!(nfa(r"^[a-z]+$").dfa.is_some());
        // `\b` needs the characters around: no precomputed closures.
        assert!(nfa(r"\ba").closures.is_none());
        // Over 64 states: sparse sets.
        let big = nfa(r"^a{100}$");
        assert!(big.states.len() > 64 && big.closures.is_none());
        assert!(big.is_match(&"a".repeat(100)));
        assert!(!big.is_match(&"a".repeat(99)));
        // More DFA states than the cap: the closures alone.
        let wide = nfa(r"[ab]*a[ab]{5}$");
        assert!(wide.closures.is_some() && wide.dfa.is_none());
        assert!(wide.is_match("bbabbbbb"));
        assert!(!wide.is_match("bbbbbbbb"));
    }

    #[test]
    fn too_many_states_is_too_big() {
        let node = crate::translate::translate("(?:a{1000}){1000}")
            .unwrap()
            .node;
        assert!(Nfa::new(node).is_err());
        // A repetition of nothing adds nothing, however many times.
        assert!(nfa("(?:){4294967295}x").is_match("x"));
    }
}
