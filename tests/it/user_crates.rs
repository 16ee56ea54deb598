//! The user crates of `tests/user-crates/` (built outside this workspace and
//! driven on the wire by `tests/user-crates/run`, which `.ci/run` calls)
//! depend on exactly the lines the README gives users, so what they prove
//! is what a user's build does.

use crate::common::readme::readme_toml;

/// The dependency lines of a `[dependencies]` table: neither comments nor
/// the table header, with the README's path to elicit-core (a clone beside
/// the user's project) written as the user crates' (inside this clone).
fn dependency_lines(toml: &str) -> Vec<String> {
    // The table's header starts a line (a comment may name it too).
    let toml = format!("\n{toml}");
    let table = toml
        .split_once("\n[dependencies]\n")
        .expect("a [dependencies] table")
        .1;
    let table = table.split("\n[").next().unwrap_or(table);
    table
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.replace("\"../elicit/elicit-core\"", "\"../../../elicit-core\""))
        .collect()
}

fn assert_same(readme_heading: &str, manifest: &str) {
    let readme = dependency_lines(readme_toml(readme_heading));
    let crate_ = dependency_lines(manifest);
    assert!(!readme.is_empty());
    assert_eq!(
        crate_, readme,
        "the user crate's [dependencies] vs the README's"
    );
}

#[test]
fn the_acp_agent_user_crate_has_the_readmes_dependency_lines() {
    assert_same(
        "### Using it with the ACP SDK (feature `acp-sdk`)",
        include_str!("../user-crates/acp-agent/Cargo.toml"),
    );
}

#[test]
fn the_rmcp_server_user_crate_has_the_readmes_dependency_lines() {
    assert_same(
        "### MCP servers on rmcp (feature `rmcp`)",
        include_str!("../user-crates/rmcp-server/Cargo.toml"),
    );
}

#[test]
fn the_mcp_host_user_crate_has_the_readmes_dependency_lines() {
    assert_same(
        "### MCP hosts on rmcp's client (feature `rmcp`)",
        include_str!("../user-crates/mcp-host/Cargo.toml"),
    );
}
