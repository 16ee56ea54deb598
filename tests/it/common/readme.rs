//! The README's code blocks and the files they come from: one reader for
//! every test that checks the two agree.

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

/// [`lines`] without comment lines: the README shows a file's code, and the
/// file carries the comments (the README's prose says what they say).
pub fn code_lines(text: &str) -> Vec<&str> {
    lines(text)
        .into_iter()
        .filter(|l| !l.starts_with("//"))
        .collect()
}

/// The first Rust block (` ```rust`, any attributes) after `heading` in the
/// README.
pub fn readme_block(heading: &str) -> &'static str {
    fenced_block(README, heading, "```rust")
}

/// The first `toml` block after `heading` in the README.
pub fn readme_toml(heading: &str) -> &'static str {
    fenced_block(README, heading, "```toml")
}

/// The first block whose fence starts with `fence` after `heading` in
/// `text` (its content, without the fence lines).
pub fn fenced_block<'a>(text: &'a str, heading: &str, fence: &str) -> &'a str {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?}"));
    let rest = &text[start..];
    let fence_at = rest
        .find(&format!("\n{fence}"))
        .unwrap_or_else(|| panic!("no {fence} block after {heading:?}"))
        + 1;
    let open = fence_at + rest[fence_at..].find('\n').expect("the fence's line") + 1;
    let close = open + rest[open..].find("```").expect("the block's end");
    &rest[open..close]
}

/// The code between `// README snippet start` and `// README snippet end`
/// in `source`.
pub fn snippet(source: &str) -> &str {
    let start = source
        .find("// README snippet start\n")
        .expect("start marker")
        + "// README snippet start\n".len();
    let end = source.rfind("// README snippet end").expect("end marker");
    &source[start..end]
}

/// The text of a module's `//!` docs (each line without its `//!` and the
/// space after it), for the blocks a test compares with its copy.
pub fn module_docs(source: &str) -> String {
    source
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first Rust block after `after` in a module's `//!` docs (`source`,
/// the module's file), without the lines rustdoc hides (`# ...`): the code a
/// reader of the docs sees.
pub fn docs_block(source: &str, after: &str) -> String {
    let docs = module_docs(source);
    let start = docs.find(after).unwrap_or_else(|| panic!("no {after:?}"));
    let rest = &docs[start..];
    let open = rest
        .match_indices("\n```")
        .map(|(at, _)| at + 1)
        .find(|&at| {
            let info = rest[at + 3..].lines().next().unwrap_or("");
            info.is_empty() || info.starts_with("rust") || info.starts_with("no_run")
        })
        .unwrap_or_else(|| panic!("no Rust block after {after:?}"));
    let body = open + rest[open..].find('\n').expect("the fence's line") + 1;
    let close = body + rest[body..].find("```").expect("the block's end");
    rest[body..close]
        .lines()
        .filter(|line| {
            let line = line.trim();
            line != "#" && !line.starts_with("# ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}
