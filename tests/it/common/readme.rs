//! The README's code blocks and the copies of them that the tests compile
//! and run: one reader for every test that checks the two agree.

/// The README, read at compile time.
const README: &str = include_str!("../../../README.md");

/// Non-empty lines, trimmed: what must agree between a README block and
/// its copy (indentation and blank lines aside).
pub fn lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

/// The first `rust,ignore` block after `heading` in the README.
pub fn readme_block(heading: &str) -> &'static str {
    fenced_block(heading, "```rust,ignore\n")
}

/// The first `toml` block after `heading` in the README.
pub fn readme_toml(heading: &str) -> &'static str {
    fenced_block(heading, "```toml\n")
}

fn fenced_block(heading: &str, fence: &str) -> &'static str {
    let rest = &README[README.find(heading).expect("the README section")..];
    let open = rest.find(fence).expect("a block of that kind") + fence.len();
    let close = open + rest[open..].find("```").expect("the block's end");
    &rest[open..close]
}

/// The code between `// README snippet start` and `// README snippet end`
/// in `source`.
pub fn snippet(source: &'static str) -> &'static str {
    let start = source
        .find("// README snippet start\n")
        .expect("start marker")
        + "// README snippet start\n".len();
    let end = source.rfind("// README snippet end").expect("end marker");
    &source[start..end]
}
