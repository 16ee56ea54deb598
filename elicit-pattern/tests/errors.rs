//! Every refusal says where, what, and what to write instead; the
//! differential tables (tests/patterns/ at the workspace root) check the
//! verdicts, these check the words.

use elicit_pattern::{PatternErrorKind, compile, translate};

fn refusal(pattern: &str) -> (String, Option<usize>, bool) {
    let e = compile(pattern).expect_err(pattern);
    (e.to_string(), e.position(), e.is_valid_javascript())
}

#[track_caller]
fn says(pattern: &str, at: usize, words: &[&str]) {
    let (message, position, valid) = refusal(pattern);
    assert_eq!(position, Some(at), "{pattern}: {message}");
    assert!(!valid, "{pattern}: JavaScript refuses it");
    for w in words {
        assert!(message.contains(w), "{pattern}: {message:?} lacks {w:?}");
    }
}

#[test]
fn what_javascript_refuses_says_what_to_write() {
    says(r"^[a-z]+\-[0-9]+$", 7, &["`\\-`", "write `-`"]);
    says(r"\:", 0, &["`\\:`", "write `:`"]);
    says("a**", 2, &["nothing to repeat", "`\\*`"]);
    says("a{2}{3}", 4, &["nothing to repeat"]);
    says("}", 0, &["lone `}`", "`\\}`"]);
    says("a{", 1, &["lone `{`", "{n,m}"]);
    says("]", 0, &["lone `]`", "`\\]`"]);
    says("[[:alpha:]]", 10, &["POSIX", "\\p{Alphabetic}"]);
    says("[a-z&&[^aeiou]]", 14, &["intersection"]);
    says("(?i)yes", 0, &["inline flags", "[Aa]"]);
    says("(?P<n>a)", 0, &["(?<name>…)"]);
    says(r"\pL", 0, &["write `\\p{L}`"]);
    says(r"\p{Greek}", 0, &["\\p{Script=Greek}"]);
    says(r"\p{letter}", 0, &["case-sensitive"]);
    says(r"\p{Script=greek}", 0, &["not a value of `Script`"]);
    says(r"\u{110000}", 0, &["10FFFF"]);
    says(r"\x4", 0, &["two hex digits"]);
    says(r"\c1", 0, &["`\\c`", "letter"]);
    says(r"\1", 0, &["refers to no group"]);
    says(r"\k<a>", 0, &["no group named `a`"]);
    says("(?<a>x)(?<a>y)", 7, &["`a`", "twice"]);
    says("[z-a]", 1, &["out of order"]);
    says(r"[\d-z]", 1, &["class escape", "first or last"]);
    says("^*", 1, &["`^`", "cannot be repeated"]);
    says(r"\b+", 2, &["`\\b`", "cannot be repeated"]);
    says("a{3,2}", 1, &["out of order", "{2,3}"]);
    says("(a", 0, &["never closed", "`\\(`"]);
    says("a)", 1, &["closes no group", "`\\)`"]);
    says("[a", 0, &["never closed", "`\\[`"]);
    says("a\\", 1, &["lone `\\`", "`\\\\`"]);
    says(r"\A", 0, &["`^`"]);
}

#[test]
fn lookaround_and_backreferences_name_the_reason_and_an_alternative() {
    for (pattern, kind) in [
        ("(?=a)", "lookahead"),
        ("(?!a)", "negative lookahead"),
        ("(?<=a)b", "lookbehind"),
        ("(?<!a)b", "negative lookbehind"),
    ] {
        let e = compile(pattern).unwrap_err();
        assert!(matches!(e.kind(), PatternErrorKind::Lookaround(_)));
        assert!(e.is_valid_javascript());
        let m = e.to_string();
        assert!(
            m.contains(kind) && m.contains("linear") && m.contains("two fields"),
            "{m}"
        );
    }
    for (pattern, reference) in [(r"(a)\1", r"\1"), (r"(?<n>a)\k<n>", r"\k<n>")] {
        let e = compile(pattern).unwrap_err();
        assert_eq!(
            e.kind(),
            &PatternErrorKind::Backreference(reference.to_owned())
        );
        assert!(e.to_string().contains("TryFrom<String>"));
    }
}

#[test]
fn too_long_and_too_big_are_refused_with_the_limit() {
    let long = "a".repeat(elicit_pattern::MAX_PATTERN_LEN + 1);
    assert_eq!(
        compile(&long).unwrap_err().kind(),
        &PatternErrorKind::TooLong {
            len: 1025,
            max: 1024
        }
    );
    // As deep as the length limit allows: refused by the nesting limit,
    // read without overflowing the stack.
    let deep = format!("{}a{}", "(".repeat(511), ")".repeat(511));
    assert!(deep.len() <= elicit_pattern::MAX_PATTERN_LEN);
    let e = compile(&deep).unwrap_err();
    assert!(matches!(e.kind(), PatternErrorKind::TooBig(_)), "{e}");
    assert!(e.to_string().contains("nest"), "{e}");
    let e = compile(r"(?:\p{L}{1000}){100}").unwrap_err();
    assert!(matches!(e.kind(), PatternErrorKind::TooBig(_)), "{e}");
    assert!(e.to_string().contains("size limit"), "{e}");
}

#[test]
fn the_program_spells_out_ecmas_meaning() {
    for (ecma, program) in [
        (r"^\d+$", "^[0-9]+$"),
        (r"\w", r"[0-9A-Z\x{5F}a-z]"),
        (r"\W", r"[^0-9A-Z\x{5F}a-z]"),
        // Written from its members: `regex-lite` has no nested classes.
        (r"[\D\s]", "[^0-9]"),
        (".", r"[^\x{A}\x{D}\x{2028}\x{2029}]"),
        (r"\bx\B", r"\bx\B"),
        ("[^]", r"[\x{0}-\x{10FFFF}]"),
        ("[]", r"[^\x{0}-\x{10FFFF}]"),
        // `a-z`, and the range from `-` to `b`.
        ("[a-z--b]", r"[\x{2D}-z]"),
        ("(?<year>x)(y)", "(?:x)(?:y)"),
        (r"\uD83D\uDE00", r"\x{1F600}"),
        (r"\uD800", r"[^\x{0}-\x{10FFFF}]"),
        (r"[\uD7FF-\uE000]", r"[\x{D7FF}\x{E000}]"),
        (r"\p{Zl}", r"[\x{2028}]"),
        (r"[\P{Zp}]", r"[^\x{2029}]"),
        (r"\P{Cs}", r"[\x{0}-\x{10FFFF}]"),
        ("a{2,}?", "a{2,}?"),
    ] {
        assert_eq!(translate(ecma).unwrap(), program, "{ecma}");
    }
    // A property's members are written out as ranges.
    let greek = translate(r"^\p{sc=Grek}+$").unwrap();
    assert!(
        greek.starts_with(r"^[\x{370}-\x{373}\x{375}-\x{377}"),
        "{greek}"
    );
    assert!(greek.ends_with(r"\x{1D245}]+$"), "{greek}");
}
