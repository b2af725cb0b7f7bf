//! The shape of `src/`: no file imports a file that imports it back (directly or around a longer
//! loop), and `idem/` and `webhook/` never import each other. A cycle makes two files one unit
//! that cannot be read, tested or changed apart; the cure is to move what both need into a leaf.
//!
//! Edges are read from the source text: every `crate::…`, `super::…` and `self::…` path outside
//! `#[cfg(test)]` code and comments (in `use` items, braced groups included, and inline), each
//! resolved to the deepest module file it names.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path (`["idem", "check", "suite"]`) and the file that holds it.
type Modules = BTreeMap<Vec<String>, PathBuf>;
/// Which modules each module imports.
type Edges = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

fn source_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn modules() -> Modules {
    let root = source_root();
    let mut modules = Modules::new();
    let mut folders = vec![root.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_none_or(|extension| extension != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&root).unwrap().with_extension("");
            let mut segments: Vec<String> =
                relative.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect();
            if segments.first().is_some_and(|first| first == "bin") {
                continue; // The binaries are crates of their own, over the library.
            }
            if segments.last().is_some_and(|last| last == "mod" || last == "lib") {
                segments.pop();
            }
            modules.insert(segments, path);
        }
    }
    modules
}

/// The code of a file without its `#[cfg(test)]` module (tests may reach anywhere) and comments.
fn code_of(text: &str) -> String {
    let code = match text.find("#[cfg(test)]") {
        Some(start) => &text[..start],
        None => text,
    };
    let comments = regex::Regex::new(r"//[^\n]*").unwrap();
    comments.replace_all(code, "").into_owned()
}

/// Every path the code names that starts at `crate`, `super` or `self`, with braced groups
/// (`use super::{a::B, c::{d, e}}`) expanded into one path per item, nested groups included.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let start = regex::Regex::new(r"\b(crate|super|self)\b").unwrap();
    let mut paths = Vec::new();
    for found in start.find_iter(code) {
        let mut rest = &code[found.start()..];
        expand_use_tree(&mut rest, Vec::new(), &mut paths);
    }
    paths
}

/// Reads one use tree at the start of `rest` (a path, then optionally `::{tree, tree…}`), adding
/// every complete path under `prefix` to `paths`, and leaves `rest` after it.
fn expand_use_tree(rest: &mut &str, mut prefix: Vec<String>, paths: &mut Vec<Vec<String>>) {
    loop {
        *rest = rest.trim_start();
        let length = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        if length > 0 {
            prefix.push(rest[..length].to_string());
            *rest = &rest[length..];
        }
        let after = rest.trim_start();
        let Some(next) = after.strip_prefix("::") else { break };
        let next = next.trim_start();
        if let Some(group) = next.strip_prefix('{') {
            *rest = group;
            loop {
                expand_use_tree(rest, prefix.clone(), paths);
                // An alias (`x as y`) or anything else up to the item's end is skipped.
                let end = rest.find([',', '}']).unwrap_or(rest.len());
                let separator = rest[end..].chars().next();
                *rest = &rest[(end + 1).min(rest.len())..];
                if separator != Some(',') {
                    break;
                }
            }
            break;
        }
        *rest = next;
        if length == 0 && !next.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            break;
        }
    }
    if prefix.last().is_some_and(|last| last != "self") || prefix.len() > 1 {
        if prefix.last().is_some_and(|last| last == "self") {
            prefix.pop();
        }
        paths.push(prefix);
    }
}

/// The module file a path lands in, seen from `from`: the deepest prefix that is a module.
fn resolve(modules: &Modules, from: &[String], path: &[String]) -> Option<Vec<String>> {
    let (mut full, rest): (Vec<String>, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("super" | "self") => {
            let mut base = from.to_vec();
            let mut rest = path;
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
            (base, rest)
        }
        _ => return None,
    };
    full.extend(rest.iter().cloned());
    (0..=full.len()).rev().map(|length| full[..length].to_vec()).find(|prefix| modules.contains_key(prefix))
}

fn edges(modules: &Modules) -> Edges {
    let mut edges = Edges::new();
    for (module, file) in modules {
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let targets = named_paths(&code)
            .iter()
            .filter_map(|path| resolve(modules, module, path))
            .filter(|target| target != module)
            .collect();
        edges.insert(module.clone(), targets);
    }
    edges
}

/// The strongly connected groups of more than one module (Tarjan's algorithm): each is a cycle.
fn cycles(edges: &Edges) -> Vec<Vec<Vec<String>>> {
    struct Walk<'e> {
        edges: &'e Edges,
        index: BTreeMap<&'e Vec<String>, usize>,
        low: BTreeMap<&'e Vec<String>, usize>,
        stack: Vec<&'e Vec<String>>,
        on_stack: BTreeSet<&'e Vec<String>>,
        groups: Vec<Vec<Vec<String>>>,
    }
    impl<'e> Walk<'e> {
        fn visit(&mut self, module: &'e Vec<String>) {
            let order = self.index.len();
            self.index.insert(module, order);
            self.low.insert(module, order);
            self.stack.push(module);
            self.on_stack.insert(module);
            for target in self.edges.get(module).into_iter().flatten() {
                if !self.index.contains_key(target) {
                    self.visit(target);
                    let lowest = self.low[module].min(self.low[target]);
                    self.low.insert(module, lowest);
                } else if self.on_stack.contains(target) {
                    let lowest = self.low[module].min(self.index[target]);
                    self.low.insert(module, lowest);
                }
            }
            if self.low[module] == self.index[module] {
                let mut group = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(member);
                    group.push(member.clone());
                    if member == module {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.groups.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for module in edges.keys() {
        if !walk.index.contains_key(module) {
            walk.visit(module);
        }
    }
    walk.groups
}

fn shown(modules: &Modules, module: &[String]) -> String {
    modules[module].strip_prefix(source_root()).unwrap().display().to_string()
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let modules = modules();
    let found: Vec<String> = cycles(&edges(&modules))
        .iter()
        .map(|group| group.iter().map(|module| shown(&modules, module)).collect::<Vec<_>>().join(" ↔ "))
        .collect();
    assert!(
        found.is_empty(),
        "import cycles between files in src/ (move what both need into a leaf):\n{}",
        found.join("\n")
    );
}

#[test]
fn idem_and_webhook_never_import_each_other() {
    let modules = modules();
    let mut crossings = Vec::new();
    for (module, targets) in edges(&modules) {
        for target in targets {
            let pair = (module.first().map(String::as_str), target.first().map(String::as_str));
            if matches!(pair, (Some("idem"), Some("webhook")) | (Some("webhook"), Some("idem"))) {
                crossings.push(format!("{} → {}", shown(&modules, &module), shown(&modules, &target)));
            }
        }
    }
    assert!(
        crossings.is_empty(),
        "idem/ and webhook/ share only http/, output and conformance:\n{}",
        crossings.join("\n")
    );
}

/// The reader itself: a braced `use`, `super` chains and inline paths all become edges, and a
/// two-file loop is found, so a passing run above means something.
#[test]
fn the_edge_reader_sees_braced_super_and_inline_paths_and_finds_a_loop() {
    let mut modules = Modules::new();
    for module in [&["a"][..], &["a", "b"], &["a", "c"], &["d"]] {
        modules.insert(module.iter().map(|s| s.to_string()).collect(), PathBuf::new());
    }
    let from = vec!["a".to_string(), "b".to_string()];
    let code = code_of("use super::{c::{Thing, Other}, self as _};\nfn f() { crate::d::run(); } // crate::a::b\n");
    let targets: BTreeSet<Vec<String>> =
        named_paths(&code).iter().filter_map(|path| resolve(&modules, &from, path)).collect();
    let names: Vec<String> = targets.iter().map(|target| target.join("::")).collect();
    assert_eq!(names, ["a", "a::c", "d"]);
    let mut edges = Edges::new();
    edges.insert(vec!["a".into()], [vec!["d".into()]].into());
    edges.insert(vec!["d".into()], [vec!["a".into()]].into());
    assert_eq!(cycles(&edges).len(), 1);
}
