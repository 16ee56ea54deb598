//! elicit-core's modules import each other without cycles: a module that
//! another imports from imports nothing back, directly or through others.
//! Until issue 21 is done, the cycles left are listed (`KNOWN_TANGLES`) and
//! no new one may appear.
//!
//! The graph is read from the `use` items of `elicit-core/src` (item-level
//! ones, at the start of a line: a test module's imports are its own). A
//! path is followed to the module that defines the item: through `pub use`
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
        items.push((
            public,
            item.trim_end().trim_end_matches(';').replace(' ', ""),
        ));
    }
    items
}

/// `a::{b,c::{d,e}}` as `a::b`, `a::c::d`, `a::c::e` (`self` and
/// `x as y` kept as the path they name).
fn expand(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else {
        let path = tree.split("as").next().unwrap_or(tree);
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

/// The tangle left, until issue 21 moves `Elicit` and `Content` out of
/// `lib.rs` (the derive's glue into `__private`). The test below fails on any change to this
/// list: a new cycle, or one removed without crossing it off here.
const KNOWN_TANGLES: &[&[&str]] = &[&[
    "crate",
    "crate::field",
    "crate::protocol::agent",
    "crate::protocol::client",
    "crate::protocol::messages::response",
    "crate::rules",
]];

#[test]
fn elicit_core_modules_import_each_other_without_new_cycles() {
    let found = tangles(&graph());
    let known: BTreeSet<Vec<Module>> = KNOWN_TANGLES
        .iter()
        .map(|t| t.iter().map(|m| (*m).to_owned()).collect())
        .collect();
    assert_eq!(
        found, known,
        "the groups of elicit-core modules that import each other in a cycle changed: \
         break a new cycle (move what both sides need into a module of its own), or \
         cross a removed one off KNOWN_TANGLES"
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
