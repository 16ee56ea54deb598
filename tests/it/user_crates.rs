//! The user crates of `tests/user-crates/` (built outside this workspace and
//! driven on the wire by `tests/user-crates/run`, which `.ci/run` calls)
//! depend on exactly the lines the README gives users, so what they prove
//! is what a user's build does.

use crate::common::readme::{docs_block, lines, module_docs, readme_toml, toml_block};

/// The dependency lines of a `[dependencies]` table: neither comments nor
/// the table header, with elicit-core as the README and the guides have it
/// (a clone beside the user's project; its crates.io version once
/// published) written as the user crates' (inside this clone).
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
        .map(|line| {
            line.replace(
                r#"path = "../elicit/elicit-core""#,
                r#"path = "../../../elicit-core""#,
            )
            .replace(
                r#"elicit-core = { version = "0.1""#,
                r#"elicit-core = { path = "../../../elicit-core""#,
            )
        })
        .collect()
}

/// The dependency lines an example's header names (its `//!` docs' `toml`
/// block after "`[dependencies]`"), as [`dependency_lines`] reads them.
fn example_dependency_lines(source: &str) -> Vec<String> {
    dependency_lines(toml_block(&module_docs(source), "`[dependencies]`"))
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
        "## An ACP agent that asks a form",
        include_str!("../user-crates/acp-agent/Cargo.toml"),
    );
}

/// examples/rmcp_server.rs names its `[dependencies]`: the user crate that
/// builds it has those lines (and serde and schemars, for its own tool's
/// `Parameters<T>`), and the README's tool needs the first three.
#[test]
fn the_rmcp_server_user_crate_has_the_examples_dependency_lines() {
    let example = example_dependency_lines(include_str!("../../examples/rmcp_server.rs"));
    let crate_ = dependency_lines(include_str!("../user-crates/rmcp-server/Cargo.toml"));
    let (own, shared): (Vec<String>, Vec<String>) = crate_
        .into_iter()
        .partition(|line| line.starts_with("serde =") || line.starts_with("schemars ="));
    assert_eq!(
        shared, example,
        "the user crate's [dependencies] vs the example's"
    );
    assert_eq!(own.len(), 2, "the user crate's own: {own:?}");
    let readme = dependency_lines(readme_toml("## An MCP tool on rmcp"));
    assert_eq!(readme.len(), 3, "{readme:?}");
    // The README's tool: the example's first lines, without Streamable HTTP.
    let without_http: Vec<String> = example[..3]
        .iter()
        .map(|line| {
            line.replace(r#", "transport-streamable-http-server""#, "")
                .replace(r#", "net""#, "")
        })
        .collect();
    assert_eq!(readme, without_http);
}

/// examples/replica.rs names its `[dependencies]`, the redis guide's: the
/// user crate that builds the example has those lines.
#[test]
fn the_replica_user_crate_has_the_examples_and_the_redis_guides_dependency_lines() {
    let example = example_dependency_lines(include_str!("../../examples/replica.rs"));
    let guide = module_docs(include_str!("../../elicit-core/src/redis/mod.rs"));
    let guide = dependency_lines(toml_block(&guide, "A replica's `[dependencies]`"));
    let crate_ = dependency_lines(include_str!("../user-crates/replica/Cargo.toml"));
    assert!(!crate_.is_empty());
    assert_eq!(
        crate_, example,
        "the user crate's [dependencies] vs the example's"
    );
    assert_eq!(
        crate_, guide,
        "the user crate's [dependencies] vs the guide's"
    );
}

/// The MCP host guide (`mcp::client`'s docs).
const HOST_GUIDE: &str = include_str!("../../elicit-core/src/mcp/client/mod.rs");

/// The MCP host's `[dependencies]` are the host guide's, serde_json and
/// tokio's `process`
/// included: what the guide's code uses.
#[test]
fn the_mcp_host_user_crate_has_the_client_docs_dependency_lines() {
    let docs = module_docs(HOST_GUIDE);
    let docs = dependency_lines(toml_block(&docs, "# A host"));
    let crate_ = dependency_lines(include_str!("../user-crates/mcp-host/Cargo.toml"));
    assert_eq!(
        docs.iter()
            .map(|l| l.split(' ').next().unwrap())
            .collect::<Vec<_>>(),
        ["elicit-core", "rmcp", "tokio", "serde_json"],
        "{docs:?}"
    );
    assert!(docs[2].contains(r#""process""#), "{docs:?}");
    assert_eq!(crate_, docs, "the user crate's [dependencies] vs the docs'");
}

/// The host guide's two blocks (`host`, then `main`) are the user crate's
/// `src/main.rs`, which tests/user-crates/run builds from the lines above
/// and runs at MCP 2025-11-25 and 2026-07-28.
#[test]
fn the_mcp_host_user_crate_is_the_client_docs_code() {
    let host = docs_block(HOST_GUIDE, "# A host");
    let main = docs_block(HOST_GUIDE, "Its `main` launches the server");
    assert!(host.contains("ClientLifecycleMode::Discover"), "{host}");
    assert!(main.contains("tokio::process::Command::new"), "{main}");
    let guide = format!("{host}\n{main}");
    let crate_ = include_str!("../user-crates/mcp-host/src/main.rs");
    let crate_: Vec<&str> = lines(crate_)
        .into_iter()
        .filter(|l| !l.starts_with("//!"))
        .collect();
    assert_eq!(
        lines(&guide),
        crate_,
        "the user crate's code vs the guide's"
    );
}

/// Every guide's and example's dependency line names elicit-core as the
/// README does (a clone beside the project): it is not on crates.io yet,
/// so a `version = ".."` line would not build as written.
#[test]
fn every_guide_names_elicit_core_as_the_readme_does() {
    let sources = [
        ("README.md", include_str!("../../README.md")),
        ("types.md", include_str!("../../elicit-core/docs/types.md")),
        ("acp", include_str!("../../elicit-core/src/acp/mod.rs")),
        (
            "acp::sdk",
            include_str!("../../elicit-core/src/acp/sdk/mod.rs"),
        ),
        ("mcp", include_str!("../../elicit-core/src/mcp/mod.rs")),
        (
            "mcp::client",
            include_str!("../../elicit-core/src/mcp/client/mod.rs"),
        ),
        ("redis", include_str!("../../elicit-core/src/redis/mod.rs")),
        (
            "mcp_server.rs",
            include_str!("../../examples/mcp_server.rs"),
        ),
        (
            "rmcp_server.rs",
            include_str!("../../examples/rmcp_server.rs"),
        ),
        ("replica.rs", include_str!("../../examples/replica.rs")),
    ];
    for (name, source) in sources {
        let named: Vec<&str> = source
            .lines()
            .map(|line| line.trim_start_matches("//!").trim())
            .filter(|line| line.starts_with("elicit-core = {"))
            .collect();
        assert!(!named.is_empty(), "{name} names no elicit-core line");
        for line in named {
            assert!(
                line.starts_with(r#"elicit-core = { path = "../elicit/elicit-core""#),
                "{name}: {line}"
            );
        }
    }
}

/// examples/mcp_server.rs names its `[dependencies]`: the user crate that
/// builds it has those lines.
#[test]
fn the_mcp_server_user_crate_has_the_examples_dependency_lines() {
    let example = example_dependency_lines(include_str!("../../examples/mcp_server.rs"));
    let crate_ = dependency_lines(include_str!("../user-crates/mcp-server/Cargo.toml"));
    assert!(!crate_.is_empty());
    assert_eq!(
        crate_, example,
        "the user crate's [dependencies] vs the example's"
    );
}
