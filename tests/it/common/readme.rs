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
    block_after(README, heading, |info| info.starts_with("rust"))
}

/// The first `toml` block after `heading` in the README.
pub fn readme_toml(heading: &str) -> &'static str {
    toml_block(README, heading)
}

/// The first `toml` block after `heading` in `text`.
pub fn toml_block<'a>(text: &'a str, heading: &str) -> &'a str {
    block_after(text, heading, |info| info == "toml")
}

/// The content (without the fence lines) of the first fenced block after
/// `after` in `text` whose info string (what follows the opening ` ``` `)
/// `is_kind` accepts.
fn block_after<'a>(text: &'a str, after: &str, is_kind: impl Fn(&str) -> bool) -> &'a str {
    let start = text.find(after).unwrap_or_else(|| panic!("no {after:?}"));
    let mut rest = &text[start..];
    // Block by block: a closing fence (an empty info string too) is never
    // taken for an opening one.
    loop {
        let open = rest
            .find("\n```")
            .unwrap_or_else(|| panic!("no block of that kind after {after:?}"))
            + 1;
        let info_end = open + rest[open..].find('\n').expect("the fence's line");
        let body = info_end + 1;
        let close = body + rest[body..].find("```").expect("the block's end");
        if is_kind(&rest[open + 3..info_end]) {
            return &rest[body..close];
        }
        rest = &rest[close + 3..];
    }
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
    let rust = |info: &str| info.is_empty() || info.starts_with("rust") || info == "no_run";
    block_after(&docs, after, rust)
        .lines()
        .filter(|line| {
            let line = line.trim();
            line != "#" && !line.starts_with("# ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}
