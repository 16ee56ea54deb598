//! The ECMA-262 `u`-mode grammar (22.2.1, without Annex B, which does not
//! apply in `u` mode), read by recursive descent into the [`Node`] the
//! engine runs, and written out as a program of Rust's `regex` syntax with
//! the same meaning (what [`crate::translate()`] returns).
//!
//! What the program spells out, because the engine's defaults differ:
//! - `\d \w \s` and their negations, and `\b \B`, are ECMA's ASCII and
//!   white-space sets;
//! - `.` is any character but ECMA's line terminators (the engine's stops
//!   at `\n` only);
//! - every literal character is written as `\x{..}` unless it is an ASCII
//!   letter or digit, so nothing JavaScript reads as a character is read
//!   by the engine as syntax (`--`, `&&` and `~~` in classes, `[` in classes,
//!   `#` and spaces);
//! - classes are written from their members, so `[^]` and `[]` mean
//!   "any" and "none";
//! - a lone surrogate (`\uD800`) matches nothing: a Rust string has none.
//!
//! Reading the pattern also finds out whether it can match the empty string
//! at a position inside a character outside the Basic Multilingual Plane,
//! as JavaScript engines try (see [`crate::Regex::is_match`]).
//!
//! `^` and `$` keep the engine's meaning without the `m` flag, which is
//! ECMA's (start and end of input only: `$` does not match before a final
//! newline). Capturing and named groups become non-capturing: a pattern is
//! only ever asked whether it matches.

use std::fmt::Write as _;

use crate::PatternError;
use crate::engine::{Assertion, Node};
use crate::error::PatternErrorKind;
use crate::property::{self, Property};
use crate::set::{CharSet, NONE, push_char};

/// A pattern read and written out.
pub(crate) struct Translated {
    /// The `regex-lite` program.
    pub(crate) program: String,
    /// Whether the pattern can match the empty string at a position inside
    /// a surrogate pair: between two non-word characters, neither end of
    /// the input near, where nothing can be consumed (so `\B` holds, and
    /// `\b`, `^` and `$` do not).
    pub(crate) empty_inside_pair: bool,
    /// The pattern read, for the engine.
    pub(crate) node: Node,
}

pub(crate) fn translate(source: &str) -> Result<Translated, PatternError> {
    let chars: Vec<char> = source.chars().collect();
    let (groups, names) = count_groups(&chars);
    let mut p = Parser {
        chars,
        pos: 0,
        out: String::with_capacity(source.len() * 2),
        groups,
        names,
        seen_names: Vec::new(),
        depth: 0,
    };
    let (empty_inside_pair, node) = p.disjunction()?;
    if p.pos < p.chars.len() {
        // Only a `)` stops a top-level disjunction early.
        return Err(PatternError::syntax(
            p.pos,
            "a `)` closes no group: write `\\)` to match a parenthesis",
        ));
    }
    Ok(Translated {
        program: p.out,
        empty_inside_pair,
        node,
    })
}

/// The capturing groups of a pattern, and the names of the named ones, in
/// order: a backreference may point forward (`\1(a)`), so they are
/// counted before the pattern is read.
fn count_groups(chars: &[char]) -> (usize, Vec<String>) {
    let mut groups = 0;
    let mut names = Vec::new();
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => {
                if chars.get(i + 1) != Some(&'?') {
                    groups += 1;
                } else if chars.get(i + 2) == Some(&'<')
                    && !matches!(chars.get(i + 3), Some('=' | '!'))
                {
                    groups += 1;
                    let name: String = chars[i + 3..].iter().take_while(|c| **c != '>').collect();
                    names.push(name);
                }
            }
            _ => {}
        }
        i += 1;
    }
    (groups, names)
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    out: String,
    /// The capturing groups in the whole pattern.
    groups: usize,
    /// Their names, as written (escapes not decoded).
    names: Vec<String>,
    /// The group names read so far, decoded: a name is given once.
    seen_names: Vec<String>,
    /// How many groups are open.
    depth: u32,
}

/// One character a pattern stands for: a Unicode scalar value, or a lone
/// surrogate (written `\uD800`), which no Rust string holds.
#[derive(Clone, Copy)]
enum CodePoint {
    Char(char),
    Surrogate(u32),
}

impl CodePoint {
    fn value(self) -> u32 {
        match self {
            CodePoint::Char(c) => c as u32,
            CodePoint::Surrogate(s) => s,
        }
    }
}

/// What a class holds: characters, ranges, and sets (`\d`, `\p{..}`).
enum ClassAtom {
    Char(CodePoint),
    Set(Set),
}

/// A set of characters (`\d`, `\p{..}`): usable alone, or inside a class.
type Set = CharSet;

const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
/// ECMA-262's WhiteSpace and LineTerminator: tab, line tab, form feed,
/// no-break space, the byte-order mark, the `Zs` category, line feed,
/// carriage return, and the line and paragraph separators.
const SPACE: &[(u32, u32)] = &[
    (0x9, 0xD),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];
/// Any character but ECMA-262's LineTerminators (`.` without the `s` flag).
const DOT: &str = r"[^\x{A}\x{D}\x{2028}\x{2029}]";
/// ECMA-262's LineTerminators, which `DOT` leaves out.
const LINE_TERMINATORS: &[(u32, u32)] = &[(0xA, 0xA), (0xD, 0xD), (0x2028, 0x2029)];

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Alternatives up to the end or a `)`, which is left unread. Each of
    /// these readers returns whether what it read can match the empty
    /// string inside a surrogate pair ([`Translated::empty_inside_pair`]).
    fn disjunction(&mut self) -> Result<(bool, Node), PatternError> {
        let mut empty = false;
        let mut alternatives = Vec::new();
        loop {
            let (e, node) = self.alternative()?;
            empty |= e;
            alternatives.push(node);
            if self.eat('|') {
                self.out.push('|');
            } else {
                let node = if alternatives.len() == 1 {
                    alternatives.pop().unwrap_or(Node::Empty)
                } else {
                    Node::Alt(alternatives)
                };
                return Ok((empty, node));
            }
        }
    }

    fn alternative(&mut self) -> Result<(bool, Node), PatternError> {
        let mut empty = true;
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let (e, node) = self.term()?;
            empty &= e;
            terms.push(node);
        }
        Ok((empty, Node::Concat(terms)))
    }

    fn term(&mut self) -> Result<(bool, Node), PatternError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Ok((true, Node::Empty));
        };
        // A character or class consumes one: never empty.
        let mut empty = false;
        let node = match c {
            '^' => {
                self.pos += 1;
                self.out.push('^');
                return self
                    .no_quantifier("`^`")
                    .map(|()| (false, Node::Assert(Assertion::Start)));
            }
            '$' => {
                self.pos += 1;
                self.out.push('$');
                return self
                    .no_quantifier("`$`")
                    .map(|()| (false, Node::Assert(Assertion::End)));
            }
            '\\' if matches!(self.peek_at(1), Some('b' | 'B')) => {
                let b = self.chars[self.pos + 1];
                self.pos += 2;
                // ASCII word boundaries, as ECMA's: its word characters
                // are [0-9A-Za-z_], and so are `regex-lite`'s.
                write!(self.out, r"\{b}").unwrap_or(());
                let assertion = if b == 'b' {
                    Assertion::Word
                } else {
                    Assertion::NotWord
                };
                return self
                    .no_quantifier(if b == 'b' { "`\\b`" } else { "`\\B`" })
                    .map(|()| (b == 'B', Node::Assert(assertion)));
            }
            '(' => {
                let (e, node) = self.group()?;
                empty = e;
                node
            }
            '[' => {
                self.pos += 1;
                Node::Set(self.class()?)
            }
            '.' => {
                self.pos += 1;
                self.out.push_str(DOT);
                Node::Set(CharSet::of(LINE_TERMINATORS).negated())
            }
            '\\' => {
                self.pos += 1;
                self.atom_escape(start)?
            }
            '*' | '+' | '?' => return Err(nothing_to_repeat(start, c)),
            '{' => {
                return Err(if self.quantifier_braces().is_some() {
                    nothing_to_repeat(start, '{')
                } else {
                    PatternError::syntax(
                        start,
                        "a lone `{` is not JavaScript `u`-mode syntax: write `\\{` to match a brace",
                    )
                });
            }
            '}' => {
                return Err(PatternError::syntax(
                    start,
                    "a lone `}` is not JavaScript `u`-mode syntax: write `\\}` to match a brace",
                ));
            }
            ']' => {
                return Err(PatternError::syntax(start, self.lone_bracket_message()));
            }
            _ => {
                self.pos += 1;
                push_char(&mut self.out, c);
                Node::Set(CharSet::of(&[(c as u32, c as u32)]))
            }
        };
        self.quantifier(empty, node)
    }

    /// An assertion takes no quantifier in `u` mode.
    fn no_quantifier(&self, what: &str) -> Result<(), PatternError> {
        match self.peek() {
            Some(q @ ('*' | '+' | '?')) => Err(assertion_repeated(self.pos, what, q)),
            Some('{') if self.quantifier_braces().is_some() => {
                Err(assertion_repeated(self.pos, what, '{'))
            }
            _ => Ok(()),
        }
    }

    fn lone_bracket_message(&self) -> String {
        let source: String = self.chars.iter().collect();
        let mut message =
            "a lone `]` is not JavaScript `u`-mode syntax: write `\\]` to match a bracket"
                .to_owned();
        if source.contains("[:") {
            message.push_str(
                "; POSIX classes (`[[:alpha:]]`) are not JavaScript: write `[A-Za-z]` or \
                 `\\p{Alphabetic}`",
            );
        } else if source.contains("&&") || source.contains("[[") {
            message.push_str(
                "; a class does not nest in JavaScript (`[a-z&&[^aeiou]]` is not an \
                 intersection): list the members (`[b-df-hj-np-tv-z]`)",
            );
        }
        message
    }

    /// `{n}`, `{n,}` or `{n,m}` at the current position: the bounds and
    /// the length in characters, without reading it.
    fn quantifier_braces(&self) -> Option<(u64, Option<u64>, usize)> {
        let mut i = self.pos;
        if self.chars.get(i) != Some(&'{') {
            return None;
        }
        i += 1;
        let number = |i: &mut usize| -> Option<u64> {
            let start = *i;
            let mut n: u64 = 0;
            while let Some(d) = self.chars.get(*i).and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(u64::from(d));
                *i += 1;
            }
            (*i > start).then_some(n)
        };
        let min = number(&mut i)?;
        let max = if self.chars.get(i) == Some(&',') {
            i += 1;
            if self.chars.get(i) == Some(&'}') {
                None
            } else {
                Some(number(&mut i)?)
            }
        } else {
            Some(min)
        };
        if self.chars.get(i) != Some(&'}') {
            return None;
        }
        Some((min, max, i + 1 - self.pos))
    }

    /// An optional quantifier after an atom, with its lazy `?`; `empty`
    /// is the atom's [`Translated::empty_inside_pair`].
    fn quantifier(&mut self, empty: bool, node: Node) -> Result<(bool, Node), PatternError> {
        let start = self.pos;
        let repeat = |node: Node, min: u32, max: Option<u32>| Node::Repeat {
            node: Box::new(node),
            min,
            max,
        };
        let (empty, node) = match self.peek() {
            Some(q @ ('*' | '+' | '?')) => {
                self.pos += 1;
                self.out.push(q);
                let node = match q {
                    '*' => repeat(node, 0, None),
                    '+' => repeat(node, 1, None),
                    _ => repeat(node, 0, Some(1)),
                };
                (empty || q != '+', node)
            }
            Some('{') => {
                let Some((min, max, len)) = self.quantifier_braces() else {
                    return Err(PatternError::syntax(
                        start,
                        "a lone `{` is not JavaScript `u`-mode syntax: write `\\{` to match a \
                         brace, or a count as `{n}`, `{n,}` or `{n,m}`",
                    ));
                };
                if let Some(max) = max
                    && max < min
                {
                    return Err(PatternError::syntax(
                        start,
                        format!(
                            "the count `{{{min},{max}}}` is out of order: write `{{{max},{min}}}`"
                        ),
                    ));
                }
                if min > u64::from(u32::MAX) || max.is_some_and(|m| m > u64::from(u32::MAX)) {
                    return Err(PatternError::new(
                        PatternErrorKind::TooBig(format!(
                            "the count at character {} is over {}",
                            start + 1,
                            u32::MAX
                        )),
                        Some(start),
                    ));
                }
                self.pos += len;
                match max {
                    Some(max) if max == min => write!(self.out, "{{{min}}}"),
                    Some(max) => write!(self.out, "{{{min},{max}}}"),
                    None => write!(self.out, "{{{min},}}"),
                }
                .unwrap_or(());
                // Both fit in a u32 (checked above).
                let min32 = u32::try_from(min).unwrap_or(u32::MAX);
                let max32 = max.map(|m| u32::try_from(m).unwrap_or(u32::MAX));
                (empty || min == 0, repeat(node, min32, max32))
            }
            _ => return Ok((empty, node)),
        };
        // Lazy or greedy: the same for whether there is a match.
        if self.eat('?') {
            self.out.push('?');
        }
        Ok((empty, node))
    }

    fn group(&mut self) -> Result<(bool, Node), PatternError> {
        let start = self.pos;
        self.pos += 1;
        self.depth += 1;
        if self.depth > crate::PATTERN_NEST_LIMIT {
            return Err(PatternError::new(
                PatternErrorKind::TooBig(format!(
                    "the groups nest deeper than the limit of {}",
                    crate::PATTERN_NEST_LIMIT
                )),
                Some(start),
            ));
        }
        if self.eat('?') {
            match self.peek() {
                Some(':') => self.pos += 1,
                Some('=') => return Err(lookaround(start, "lookahead `(?=…)`")),
                Some('!') => return Err(lookaround(start, "negative lookahead `(?!…)`")),
                Some('<') if self.peek_at(1) == Some('=') => {
                    return Err(lookaround(start, "lookbehind `(?<=…)`"));
                }
                Some('<') if self.peek_at(1) == Some('!') => {
                    return Err(lookaround(start, "negative lookbehind `(?<!…)`"));
                }
                Some('<') => {
                    self.pos += 1;
                    self.group_name(start)?;
                }
                Some('P') if self.peek_at(1) == Some('<') => {
                    return Err(PatternError::syntax(
                        start,
                        "`(?P<name>…)` is not JavaScript syntax: write `(?<name>…)`",
                    ));
                }
                Some(c) if c.is_ascii_alphabetic() || c == '-' => {
                    return Err(PatternError::syntax(
                        start,
                        "inline flags (`(?i)`, `(?i:…)`, `(?x)`) are not JavaScript `u`-mode \
                         syntax: spell the cases out (`[Aa]`)",
                    ));
                }
                _ => {
                    return Err(PatternError::syntax(
                        start,
                        "`(?` starts no group JavaScript knows: write `(?:…)` for a group, or \
                         `\\(?` to match a parenthesis",
                    ));
                }
            }
        }
        self.out.push_str("(?:");
        let (empty, node) = self.disjunction()?;
        if !self.eat(')') {
            return Err(PatternError::syntax(
                start,
                "this group is never closed: add `)`, or write `\\(` to match a parenthesis",
            ));
        }
        self.out.push(')');
        self.depth -= 1;
        Ok((empty, node))
    }

    /// A group name after `(?<`, through its `>`: an identifier, which may
    /// be written with `\u` escapes, given once in the pattern.
    fn group_name(&mut self, start: usize) -> Result<(), PatternError> {
        let name = self.identifier(start)?;
        if self.seen_names.contains(&name) {
            return Err(PatternError::syntax(
                start,
                format!("the group name `{name}` is given twice: name each group once"),
            ));
        }
        self.seen_names.push(name);
        Ok(())
    }

    /// An identifier and its closing `>` (the `<` is read).
    fn identifier(&mut self, start: usize) -> Result<String, PatternError> {
        let mut name = String::new();
        loop {
            match self.peek() {
                Some('>') => {
                    self.pos += 1;
                    break;
                }
                Some('\\') if self.peek_at(1) == Some('u') => {
                    let at = self.pos;
                    self.pos += 2;
                    match self.unicode_escape(at)? {
                        CodePoint::Char(c) => name.push(c),
                        CodePoint::Surrogate(_) => return Err(bad_group_name(start)),
                    }
                }
                Some(c) if c != '\\' && c != ')' => {
                    self.pos += 1;
                    name.push(c);
                }
                _ => return Err(bad_group_name(start)),
            }
        }
        match property::is_identifier(&name) {
            Some(true) => Ok(name),
            Some(false) => Err(bad_group_name(start)),
            None => Err(PatternError::new(
                PatternErrorKind::NeedsUnicode("a group name beyond ASCII"),
                Some(start),
            )),
        }
    }

    /// After a `\` outside a class.
    fn atom_escape(&mut self, start: usize) -> Result<Node, PatternError> {
        let Some(c) = self.peek() else {
            return Err(trailing_backslash(start));
        };
        match c {
            '1'..='9' => {
                let digits: String = self.chars[self.pos..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .collect();
                let refers = digits.parse::<usize>().is_ok_and(|n| n <= self.groups);
                return Err(if refers {
                    PatternError::new(
                        PatternErrorKind::Backreference(format!("\\{digits}")),
                        Some(start),
                    )
                } else if self.groups == 0 {
                    PatternError::syntax(
                        start,
                        format!(
                            "`\\{digits}` refers to no group (the pattern has none), and octal \
                             escapes are not JavaScript `u`-mode syntax: write `\\x..` or \
                             `\\u{{..}}` for a character"
                        ),
                    )
                } else {
                    PatternError::syntax(
                        start,
                        format!(
                            "`\\{digits}` refers to no group (the pattern has {}), and octal \
                             escapes are not JavaScript `u`-mode syntax",
                            self.groups
                        ),
                    )
                });
            }
            'k' => {
                self.pos += 1;
                if !self.eat('<') {
                    return Err(PatternError::syntax(
                        start,
                        "`\\k` must name a group (`\\k<name>`) in JavaScript's `u` mode: write \
                         `k` to match the letter",
                    ));
                }
                let name = self.identifier(start)?;
                let known = self.names.iter().any(|n| {
                    // Names were counted as written: compare decoded.
                    *n == name || decode_name(n).as_deref() == Some(name.as_str())
                });
                return Err(if known {
                    PatternError::new(
                        PatternErrorKind::Backreference(format!("\\k<{name}>")),
                        Some(start),
                    )
                } else {
                    PatternError::syntax(
                        start,
                        format!("`\\k<{name}>` refers to no group named `{name}`"),
                    )
                });
            }
            _ => {}
        }
        Ok(Node::Set(match self.class_escape(start, false)? {
            ClassAtom::Char(cp) => {
                push_code_point(&mut self.out, cp);
                match cp {
                    CodePoint::Char(c) => CharSet::of(&[(c as u32, c as u32)]),
                    // No Rust string holds a lone surrogate.
                    CodePoint::Surrogate(_) => CharSet::default(),
                }
            }
            ClassAtom::Set(set) => {
                set.write(&mut self.out);
                set
            }
        }))
    }

    /// After a `\` (read): a character or a set. `in_class` adds `\b`
    /// (backspace) and `\-`.
    fn class_escape(&mut self, start: usize, in_class: bool) -> Result<ClassAtom, PatternError> {
        let Some(c) = self.peek() else {
            return Err(trailing_backslash(start));
        };
        self.pos += 1;
        let set = |ranges: &[(u32, u32)], negated: bool| {
            let set = CharSet::of(ranges);
            ClassAtom::Set(if negated { set.negated() } else { set })
        };
        let char = |c: char| Ok(ClassAtom::Char(CodePoint::Char(c)));
        match c {
            'd' => Ok(set(DIGIT, false)),
            'D' => Ok(set(DIGIT, true)),
            'w' => Ok(set(WORD, false)),
            'W' => Ok(set(WORD, true)),
            's' => Ok(set(SPACE, false)),
            'S' => Ok(set(SPACE, true)),
            'p' | 'P' => self.property(start, c == 'P').map(ClassAtom::Set),
            'f' => char('\u{C}'),
            'n' => char('\n'),
            'r' => char('\r'),
            't' => char('\t'),
            'v' => char('\u{B}'),
            'b' if in_class => char('\u{8}'),
            '-' if in_class => char('-'),
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.pos += 1;
                    char(char::from(l as u8 % 32))
                }
                _ => Err(PatternError::syntax(
                    start,
                    "`\\c` must be followed by a letter (`\\cJ` is a line feed) in \
                     JavaScript's `u` mode: write `\\\\c` to match a backslash and `c`",
                )),
            },
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => char('\0'),
            '0'..='9' => Err(PatternError::syntax(
                start,
                "octal escapes are not JavaScript `u`-mode syntax (nor backreferences in a \
                 class): write `\\x..` or `\\u{..}` for a character",
            )),
            'x' => {
                let hex: String = self.chars[self.pos..].iter().take(2).collect();
                match (hex.len() == 2)
                    .then(|| u32::from_str_radix(&hex, 16).ok())
                    .flatten()
                {
                    Some(v) if hex.chars().all(|h| h.is_ascii_hexdigit()) => {
                        self.pos += 2;
                        Ok(ClassAtom::Char(code_point(v)))
                    }
                    _ => Err(PatternError::syntax(
                        start,
                        "`\\x` takes exactly two hex digits (`\\x41`) in JavaScript's `u` \
                         mode: write `\\u{..}` for other characters",
                    )),
                }
            }
            'u' => self.unicode_escape(start).map(ClassAtom::Char),
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' => char(c),
            '-' => Err(PatternError::syntax(
                start,
                "`\\-` is an escape only inside a class in JavaScript's `u` mode: write `-`",
            )),
            'B' if in_class => Err(PatternError::syntax(
                start,
                "`\\B` is not an escape inside a class",
            )),
            'A' | 'z' | 'Z' => Err(PatternError::syntax(
                start,
                format!(
                    "`\\{c}` is not an escape in JavaScript: write `{}` for the {} of the input",
                    if c == 'A' { '^' } else { '$' },
                    if c == 'A' { "start" } else { "end" }
                ),
            )),
            c if c.is_ascii_alphanumeric() => Err(PatternError::syntax(
                start,
                format!("`\\{c}` is not an escape JavaScript knows in `u` mode"),
            )),
            c => Err(PatternError::syntax(
                start,
                format!(
                    "`\\{c}` is not an escape in JavaScript's `u` mode (only syntax characters \
                     and `/` are escaped): write `{c}`"
                ),
            )),
        }
    }

    /// After `\u` (read): `\u{h..}`, or four hex digits, joined with a
    /// following `\uDC00`-`\uDFFF` when they are a high surrogate.
    fn unicode_escape(&mut self, start: usize) -> Result<CodePoint, PatternError> {
        let bad = || {
            PatternError::syntax(
                start,
                "`\\u` takes four hex digits (`\\u00e9`) or a code point in braces \
                 (`\\u{1F600}`, at most `\\u{10FFFF}`)",
            )
        };
        if self.eat('{') {
            let hex: String = self.chars[self.pos..]
                .iter()
                .take_while(|c| c.is_ascii_hexdigit())
                .collect();
            self.pos += hex.len();
            if hex.is_empty() || !self.eat('}') {
                return Err(bad());
            }
            let trimmed = hex.trim_start_matches('0');
            return match u32::from_str_radix(if trimmed.is_empty() { "0" } else { trimmed }, 16) {
                Ok(v) if trimmed.len() <= 6 && v <= 0x10FFFF => Ok(code_point(v)),
                _ => Err(bad()),
            };
        }
        let high = self.hex4().ok_or_else(bad)?;
        if (0xD800..0xDC00).contains(&high)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let save = self.pos;
            self.pos += 2;
            match self.hex4() {
                Some(low) if (0xDC00..0xE000).contains(&low) => {
                    let v = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    return Ok(code_point(v));
                }
                _ => self.pos = save,
            }
        }
        Ok(code_point(high))
    }

    fn hex4(&mut self) -> Option<u32> {
        let hex: String = self.chars[self.pos..].iter().take(4).collect();
        if hex.len() == 4 && hex.chars().all(|h| h.is_ascii_hexdigit()) {
            self.pos += 4;
            u32::from_str_radix(&hex, 16).ok()
        } else {
            None
        }
    }

    /// After `\p` or `\P` (read): `{Name}` or `{Name=Value}`.
    fn property(&mut self, start: usize, negated: bool) -> Result<Set, PatternError> {
        let p = if negated { 'P' } else { 'p' };
        if !self.eat('{') {
            let hint = match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => format!(": write `\\{p}{{{c}}}`"),
                _ => format!(": write `\\{p}{{Letter}}`, or `{p}` to match the letter"),
            };
            return Err(PatternError::syntax(
                start,
                format!("`\\{p}` takes its property in braces in JavaScript{hint}"),
            ));
        }
        let word = |parser: &mut Parser| -> String {
            let w: String = parser.chars[parser.pos..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                .collect();
            parser.pos += w.len();
            w
        };
        let name = word(self);
        let value = if self.eat('=') {
            Some(word(self))
        } else {
            None
        };
        if name.is_empty() || value.as_ref().is_some_and(String::is_empty) || !self.eat('}') {
            return Err(PatternError::syntax(
                start,
                format!(
                    "`\\{p}{{` must hold a property name (`\\{p}{{L}}`, `\\{p}{{Script=Greek}}`) \
                     and end with `}}`"
                ),
            ));
        }
        match property::lookup(&name, value.as_deref(), negated) {
            Ok(Property(ranges)) => Ok(CharSet::of(&ranges)),
            Err(property::Unknown::Name(why)) => Err(PatternError::syntax(start, why)),
            Err(property::Unknown::NotInEngine(why)) => Err(PatternError::new(
                PatternErrorKind::UnknownToEngine(why),
                Some(start),
            )),
            #[cfg(not(feature = "unicode"))]
            Err(property::Unknown::NeedsTables) => Err(PatternError::new(
                PatternErrorKind::NeedsUnicode("`\\p{..}`"),
                Some(start),
            )),
        }
    }

    /// After `[` (read), through its `]`.
    fn class(&mut self) -> Result<CharSet, PatternError> {
        let start = self.pos - 1;
        let negated = self.eat('^');
        let mut members = CharSet::default();
        loop {
            match self.peek() {
                None => {
                    return Err(PatternError::syntax(
                        start,
                        "this class is never closed: add `]`, or write `\\[` to match a bracket",
                    ));
                }
                Some(']') => {
                    self.pos += 1;
                    break;
                }
                Some(_) => {}
            }
            let at = self.pos;
            let first = self.class_atom()?;
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.pos += 1;
                let second = self.class_atom()?;
                let (ClassAtom::Char(lo), ClassAtom::Char(hi)) = (first, second) else {
                    return Err(PatternError::syntax(
                        at,
                        "a range cannot start or end at a class escape (`\\d`, `\\w`, `\\s`, \
                         `\\p{..}`) in JavaScript's `u` mode: put `-` first or last to match \
                         a hyphen",
                    ));
                };
                if lo.value() > hi.value() {
                    return Err(PatternError::syntax(
                        at,
                        "this range is out of order: write the lower character first",
                    ));
                }
                members.add(lo.value(), hi.value());
            } else {
                match first {
                    ClassAtom::Char(cp) => members.add(cp.value(), cp.value()),
                    ClassAtom::Set(set) => members.union(&set),
                }
            }
        }
        // Written from its members: `regex-lite` has no nested classes.
        let members = if negated { members.negated() } else { members };
        members.write(&mut self.out);
        Ok(members)
    }

    fn class_atom(&mut self) -> Result<ClassAtom, PatternError> {
        let start = self.pos;
        match self.peek() {
            Some('\\') => {
                self.pos += 1;
                self.class_escape(start, true)
            }
            Some(c) => {
                self.pos += 1;
                Ok(ClassAtom::Char(CodePoint::Char(c)))
            }
            None => Err(PatternError::syntax(start, "this class is never closed")),
        }
    }
}

fn code_point(v: u32) -> CodePoint {
    match char::from_u32(v) {
        Some(c) => CodePoint::Char(c),
        None => CodePoint::Surrogate(v),
    }
}

fn push_code_point(out: &mut String, cp: CodePoint) {
    match cp {
        CodePoint::Char(c) => push_char(out, c),
        CodePoint::Surrogate(_) => out.push_str(NONE),
    }
}

/// A group name as written, with its `\u` escapes decoded.
fn decode_name(written: &str) -> Option<String> {
    let mut p = Parser {
        chars: written.chars().chain(['>']).collect(),
        pos: 0,
        out: String::new(),
        groups: 0,
        names: Vec::new(),
        seen_names: Vec::new(),
        depth: 0,
    };
    p.identifier(0).ok()
}

fn nothing_to_repeat(at: usize, q: char) -> PatternError {
    PatternError::syntax(
        at,
        format!("`{q}` has nothing to repeat: write `\\{q}` to match it"),
    )
}

fn assertion_repeated(at: usize, what: &str, q: char) -> PatternError {
    PatternError::syntax(
        at,
        format!(
            "{what} cannot be repeated in JavaScript's `u` mode: drop the `{q}`, or write \
             `\\{q}` to match it"
        ),
    )
}

fn lookaround(at: usize, what: &'static str) -> PatternError {
    PatternError::new(PatternErrorKind::Lookaround(what), Some(at))
}

fn trailing_backslash(at: usize) -> PatternError {
    PatternError::syntax(
        at,
        "the pattern ends with a lone `\\`: write `\\\\` to match a backslash",
    )
}

fn bad_group_name(at: usize) -> PatternError {
    PatternError::syntax(
        at,
        "a group name is an identifier closed by `>` (`(?<year>…)`)",
    )
}
