//! The README is the front door: what elicit is, three snippets and where
//! the rest is maintained (elicit-core's docs). Its snippets are compiled
//! (readme-doctests) and are the code of files the tests run
//! (`acp_demo`, `rmcp`, `acp_sdk`); this checks what holds it to that.

const README: &str = include_str!("../../README.md");

/// At most 200 lines: a section that grows past it belongs in a module's
/// guide, linked from here.
#[test]
fn the_readme_stays_a_front_door() {
    let lines = README.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines; move the detail to the module docs"
    );
}

/// Every relative link of the README names a file of this repository.
#[test]
fn the_readmes_relative_links_name_files() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for (at, _) in README.match_indices("](") {
        let target = &README[at + 2..];
        let target = &target[..target.find(')').expect("a link's end")];
        if target.contains("://") || target.starts_with('#') {
            continue;
        }
        if !root.join(target).exists() {
            missing.push(target.to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "README links to missing files: {missing:?}"
    );
}
