//! elicit-core's modules import each other without cycles: a module that
//! another imports from imports nothing back, directly or through others.
//!
//! The graph is read from `elicit-core/src`: its `use` items (item-level
//! ones, at the start of a line: a test module's imports are its own) and
//! every `crate::..` path written in code (not in comments or docs). A path
//! is followed to the module that defines the item: through `pub use`
//! re-exports (so `crate::Content` is an edge to the module that defines
//! `Content`, not to `lib.rs`), and the crate root counts only for what
//! `lib.rs` itself defines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path, `crate::protocol::agent`.
type Module = String;

/// Every module of elicit-core and its source text.
fn modules() -> BTreeMap<Module, String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("the source folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("elicit-core/src");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(&root).expect("under src");
            let mut parts: Vec<String> = relative
                .iter()
                .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
                .collect();
            if matches!(parts.last().map(String::as_str), Some("lib" | "mod")) {
                parts.pop();
            }
            let module = std::iter::once("crate".to_owned())
                .chain(parts)
                .collect::<Vec<_>>();
            let text = std::fs::read_to_string(&file).expect("a source file");
            (module.join("::"), text)
        })
        .collect()
}

/// The item-level `use` declarations of `text`, each as one string without
/// `pub`, `use` and the final `;`, and whether it is a `pub use`.
fn use_items(text: &str) -> Vec<(bool, String)> {
    let mut items = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let (public, rest) = if let Some(rest) = line.strip_prefix("pub use ") {
            (true, rest)
        } else if let Some(rest) = line.strip_prefix("pub(crate) use ") {
            (true, rest)
        } else if let Some(rest) = line.strip_prefix("use ") {
            (false, rest)
        } else {
            continue;
        };
        let mut item = rest.to_owned();
        while !item.trim_end().ends_with(';') {
            item.push_str(lines.next().expect("a `use` ends with `;`").trim());
        }
        // ` as ` (an alias) as `=>` before the spaces go, so a name that
        // holds `as` (`ask::Ask`) stays whole.
        items.push((
            public,
            item.trim_end()
                .trim_end_matches(';')
                .replace(" as ", "=>")
                .replace(' ', ""),
        ));
    }
    items
}

/// The `crate::a::b` paths written in the code of `text` (outside comments
/// and `use` items, which [`use_items`] reads), each as written.
fn inline_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") || code.starts_with("use ") || code.starts_with("pub use ") {
            continue;
        }
        let code = code.split("//").next().unwrap_or(code);
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().next_back();
            let after = &rest[at + "crate::".len()..];
            let end = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(after.len());
            let path = after[..end].trim_end_matches(':');
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
                && !path.is_empty()
            {
                paths.push(format!("crate::{path}"));
            }
            rest = &after[end..];
        }
    }
    paths
}

/// `a::{b,c::{d,e}}` as `a::b`, `a::c::d`, `a::c::e` (`self` and
/// `x as y` kept as the path they name).
fn expand(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else {
        let path = tree.split("=>").next().unwrap_or(tree);
        let path = path.strip_suffix("::self").unwrap_or(path);
        return vec![path.to_owned()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.len() - 1];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(&format!("{prefix}{p}")))
        .collect()
}

/// `path` (as written in `module`) made absolute, or `None` outside the
/// crate. A path may start with `crate`, `self`, `super`, or (2018 paths) a
/// child module of `module`, one of `children`.
fn absolute(module: &str, path: &str, children: &BTreeSet<String>) -> Option<String> {
    let mut base: Vec<&str> = module.split("::").collect();
    let mut rest = path;
    if let Some(r) = rest.strip_prefix("crate::") {
        return Some(format!("crate::{r}"));
    }
    if let Some(r) = rest.strip_prefix("self::") {
        return Some(format!("{module}::{r}"));
    }
    let first = rest.split("::").next().unwrap_or(rest);
    if children.contains(&format!("{module}::{first}")) {
        return Some(format!("{module}::{rest}"));
    }
    if !rest.starts_with("super::") {
        return None;
    }
    while let Some(r) = rest.strip_prefix("super::") {
        base.pop();
        rest = r;
    }
    Some(format!("{}::{rest}", base.join("::")))
}

/// The module that defines the item at the absolute `path`, following
/// re-exports.
fn defining_module(
    path: &str,
    modules: &BTreeMap<Module, String>,
    reexports: &BTreeMap<Module, BTreeMap<String, String>>,
    depth: usize,
) -> Module {
    if modules.contains_key(path) {
        return path.to_owned();
    }
    let (parent, name) = path.rsplit_once("::").expect("a path with a module");
    if depth < 16
        && let Some(target) = reexports.get(parent).and_then(|r| r.get(name))
    {
        return defining_module(target, modules, reexports, depth + 1);
    }
    if modules.contains_key(parent) {
        parent.to_owned()
    } else {
        defining_module(parent, modules, reexports, depth + 1)
    }
}

/// The import graph: module -> the modules it imports from.
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let modules = modules();
    let mut reexports: BTreeMap<Module, BTreeMap<String, String>> = BTreeMap::new();
    let mut imports: BTreeMap<Module, Vec<String>> = BTreeMap::new();
    for (module, text) in &modules {
        for (public, item) in use_items(text) {
            for path in expand(&item) {
                let children: BTreeSet<String> = modules.keys().cloned().collect();
                let Some(target) = absolute(module, &path, &children) else {
                    continue;
                };
                if public {
                    let name = path.rsplit("::").next().expect("a name").to_owned();
                    reexports
                        .entry(module.clone())
                        .or_default()
                        .insert(name, target.clone());
                }
                imports.entry(module.clone()).or_default().push(target);
            }
        }
        imports
            .entry(module.clone())
            .or_default()
            .extend(inline_paths(text));
    }
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, targets) in imports {
        for target in targets {
            let to = defining_module(&target, &modules, &reexports, 0);
            if to != module {
                graph.entry(module.clone()).or_default().insert(to);
            }
        }
    }
    graph
}

/// The modules reachable from `from` through imports (itself included).
fn reachable(graph: &BTreeMap<Module, BTreeSet<Module>>, from: &Module) -> BTreeSet<Module> {
    let mut seen = BTreeSet::from([from.clone()]);
    let mut todo = vec![from.clone()];
    while let Some(node) = todo.pop() {
        for next in graph.get(&node).into_iter().flatten() {
            if seen.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    seen
}

/// The groups of modules that import each other in a cycle (the strongly
/// connected components of more than one module), each sorted.
fn tangles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeSet<Vec<Module>> {
    let reach: BTreeMap<&Module, BTreeSet<Module>> =
        graph.keys().map(|m| (m, reachable(graph, m))).collect();
    reach
        .iter()
        .map(|(m, from_m)| {
            from_m
                .iter()
                .filter(|n| reach.get(n).is_some_and(|from_n| from_n.contains(*m)))
                .cloned()
                .collect::<Vec<_>>()
        })
        .filter(|group| group.len() > 1)
        .collect()
}

#[test]
fn elicit_core_modules_import_each_other_without_cycles() {
    assert_eq!(
        tangles(&graph()),
        BTreeSet::new(),
        "these groups of elicit-core modules import each other in a cycle: break it by \
         moving what both sides need into a module of its own"
    );
}

/// Inline paths are read from code, not from comments, and not from a path
/// that only ends in `crate::` (`elicit_core::`, `$crate::`).
#[test]
fn inline_paths_are_read_from_code_only() {
    let text = "fn f() -> crate::schema::Items {\n    // crate::rules::x\n    \
                $crate::a::b; my_crate::c; crate::field::read_choice::<C>(v)\n}\n/// [`x`](crate::limits)\n";
    assert_eq!(
        inline_paths(text),
        ["crate::schema::Items", "crate::field::read_choice"]
    );
}

/// A cycle is found, and only a cycle.
#[test]
fn tangles_are_the_cycles() {
    let graph: BTreeMap<Module, BTreeSet<Module>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a", "d"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(m, to)| (m.to_owned(), to.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(
        tangles(&graph),
        BTreeSet::from([vec!["a".to_owned(), "b".to_owned(), "c".to_owned()]])
    );
}

/// The reader itself: the graph has the edges it must have, so a broken
/// reader cannot pass the test above by reading nothing.
#[test]
fn the_import_graph_sees_known_edges() {
    let graph = graph();
    let edges = |from: &str| graph.get(from).cloned().unwrap_or_default();
    assert!(
        edges("crate::rules").contains("crate::schema"),
        "{graph:#?}"
    );
    assert!(edges("crate::protocol::url::parse").contains("crate::protocol::url::policy"));
    assert!(edges("crate::field").contains("crate::error"));
    assert!(graph.len() > 20, "{graph:#?}");
}

#[test]
fn use_trees_expand_to_paths() {
    assert_eq!(
        expand("crate::a::{B,c::{D,e::F},self}"),
        [
            "crate::a::B",
            "crate::a::c::D",
            "crate::a::c::e::F",
            "crate::a"
        ]
    );
    let modules: BTreeSet<String> = ["crate::a::b", "crate::a::c"].map(String::from).into();
    assert_eq!(
        absolute("crate::a::b", "super::c::D", &modules).as_deref(),
        Some("crate::a::c::D")
    );
    assert_eq!(
        absolute("crate::a", "c::D", &modules).as_deref(),
        Some("crate::a::c::D")
    );
    assert_eq!(absolute("crate::a", "serde::Serialize", &modules), None);
}

/// The edges of `graph` from modules `from` selects to modules `to`
/// selects, as `from -> to` lines.
fn edges_between(
    graph: &BTreeMap<Module, BTreeSet<Module>>,
    from: impl Fn(&str) -> bool,
    to: impl Fn(&str) -> bool,
) -> Vec<String> {
    graph
        .iter()
        .filter(|(module, _)| from(module))
        .flat_map(|(module, targets)| {
            targets
                .iter()
                .filter(|target| to(target))
                .map(move |target| format!("{module} -> {target}"))
        })
        .collect()
}

/// `module` is `prefix` or inside it.
fn within(module: &str, prefix: &str) -> bool {
    module == prefix || module.starts_with(&format!("{prefix}::"))
}

/// The transports: adapters from the flows to a carrier (the ACP SDK,
/// rmcp) and the renderer of client requests.
fn is_transport(module: &str) -> bool {
    ["crate::acp", "crate::mcp", "crate::terminal"]
        .iter()
        .any(|prefix| within(module, prefix))
}

/// The store adapters: an outside store behind the seams of the page
/// server and of the rounds (`crate::redis`).
fn is_store_adapter(module: &str) -> bool {
    within(module, "crate::redis")
}

/// The layers of `shared/design.md`: the forms, the protocol, the flows and
/// the page server are transport-neutral; they import no transport (a
/// transport imports them). The crate root, the derive's glue
/// (`__private`) and the store adapters stand outside the layers.
#[test]
fn the_transport_neutral_layers_import_no_transport() {
    let graph = graph();
    let neutral = |module: &str| {
        !is_transport(module)
            && !is_store_adapter(module)
            && module != "crate"
            && !within(module, "crate::__private")
    };
    let offenders = edges_between(&graph, neutral, is_transport);
    assert!(
        offenders.is_empty(),
        "transport-neutral modules import a transport: {offenders:#?}"
    );
    // The rule sees the transports' own edges into the neutral layers.
    assert!(!edges_between(&graph, is_transport, neutral).is_empty());
}

/// A store adapter implements seams, nothing more: of a transport it
/// imports only the rounds' used-state seam (`mcp::rounds::used`), and nothing
/// imports it but the crate root.
#[test]
fn the_store_adapters_touch_only_the_seams() {
    let graph = graph();
    let into_transports = edges_between(&graph, is_store_adapter, is_transport);
    assert!(
        into_transports
            .iter()
            .all(|edge| edge.ends_with("-> crate::mcp::rounds::used")),
        "a store adapter imports a transport beyond its seam: {into_transports:#?}"
    );
    assert!(!into_transports.is_empty(), "the rule sees the seam's edge");
    let into_adapters = edges_between(&graph, |m| !is_store_adapter(m), is_store_adapter);
    assert!(
        into_adapters
            .iter()
            .all(|edge| edge.starts_with("crate -> ")),
        "only the crate root imports a store adapter: {into_adapters:#?}"
    );
}

/// The flow engine is written once: it imports no transport, and every
/// transport goes through it (the ACP SDK's and rmcp's requests, and the
/// MCP 2026-07-28 rounds, which share its re-ask policy, its error and its
/// page request).
#[test]
fn every_request_transport_goes_through_the_flow_engine() {
    let graph = graph();
    let into_flow = edges_between(&graph, is_transport, |m| within(m, "crate::flow"));
    for transport in [
        "crate::acp::sdk::agent",
        "crate::mcp::carrier",
        // The rounds' handle, where each question goes to its regime.
        "crate::mcp::rounds::handle",
    ] {
        assert!(
            into_flow
                .iter()
                .any(|e| e.starts_with(&format!("{transport} -> "))),
            "{transport} does not use crate::flow: {into_flow:#?}"
        );
    }
}

/// The page server routes first, and OAuth is built on its pieces: the
/// core (`sensitive`, but `sensitive::oauth`) reaches OAuth at two places
/// only, both known at compile time: the router (`sensitive::service`,
/// to OAuth's start page and callback) and the store's record
/// (`sensitive::store::record`, whose kinds are a page and an OAuth flow,
/// its outcome the flow's end). No registry, and OAuth imports the core's
/// store and checks, never its own copies of them.
#[test]
fn the_page_servers_core_reaches_oauth_only_at_its_router_and_its_record() {
    let graph = graph();
    let core = |module: &str| {
        within(module, "crate::sensitive") && !within(module, "crate::sensitive::oauth")
    };
    let allowed = [
        "crate::sensitive::service -> crate::sensitive::oauth::routes",
        "crate::sensitive::service -> crate::sensitive::oauth::flow",
        "crate::sensitive::store::record -> crate::sensitive::oauth::flow",
        "crate::sensitive::store::record -> crate::sensitive::oauth::end",
    ];
    let offenders: Vec<_> = edges_between(&graph, core, |m| within(m, "crate::sensitive::oauth"))
        .into_iter()
        .filter(|edge| !allowed.contains(&edge.as_str()))
        .collect();
    assert!(
        offenders.is_empty(),
        "the page server's core reaches into OAuth: {offenders:#?}"
    );
    // OAuth uses the core's one store and its shared checks.
    let from_oauth = edges_between(&graph, |m| within(m, "crate::sensitive::oauth"), core);
    for piece in [
        "crate::sensitive::store",
        "crate::sensitive::service::checks",
    ] {
        assert!(
            from_oauth
                .iter()
                .any(|e| e.contains(&format!("-> {piece}"))),
            "OAuth does not use {piece}: {from_oauth:#?}"
        );
    }
    // Nor the flows that use it: the engine imports the page server.
    let into_engine = edges_between(&graph, core, |m| within(m, "crate::flow"));
    assert!(
        into_engine.is_empty(),
        "the page server's core imports the flow engine: {into_engine:#?}"
    );
    assert!(!edges_between(&graph, |m| within(m, "crate::flow"), core).is_empty());
    // The rule sees OAuth's edges into the core.
    assert!(!edges_between(&graph, |m| within(m, "crate::sensitive::oauth"), core).is_empty());
    // And the files of the core that name OAuth's feature are these: the
    // router, the record's kinds, the store's `take` (only a callback
    // takes a record) and the pieces only the callback uses (its cookie's
    // `SameSite=Lax`, its binding and user checks). Any other is a file
    // that should be OAuth's own.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("elicit-core/src/sensitive");
    let expected = [
        "mod.rs",
        "cookie.rs",
        "service/mod.rs",
        "service/checks.rs",
        "store/boxed.rs",
        "store/record.rs",
    ];
    let mut gated = Vec::new();
    let mut folders = vec![root.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("the page server's folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                if !path.ends_with("oauth") {
                    folders.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                if text.contains("feature = \"oauth\"") {
                    let name = path.strip_prefix(&root).expect("under the folder");
                    gated.push(name.to_string_lossy().into_owned());
                }
            }
        }
    }
    gated.sort();
    let mut expected: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    expected.sort();
    assert_eq!(gated, expected, "the core's files gated on OAuth's feature");
}

/// A name that holds `as` is a name; ` as ` is an alias.
#[test]
fn an_alias_is_cut_and_a_name_with_as_is_kept() {
    let items = use_items("pub use ask::Ask;\nuse task::{TaskAsk as Asking, basis};\n");
    assert_eq!(
        items,
        [
            (true, "ask::Ask".to_owned()),
            (false, "task::{TaskAsk=>Asking,basis}".to_owned())
        ]
    );
    assert_eq!(expand(&items[0].1), ["ask::Ask"]);
    assert_eq!(expand(&items[1].1), ["task::TaskAsk", "task::basis"]);
}
