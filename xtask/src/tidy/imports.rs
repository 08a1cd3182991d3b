//! The import graph of a crate: which file's module refers to which other file's module through
//! `use` paths and `crate::`/`super::`/`self::` paths, and the cycles in it.

use std::collections::{BTreeMap, BTreeSet};

/// A module path inside a crate (`[]` is the crate root, `["firmware", "qemu"]` is
/// `crate::firmware::qemu`).
pub(super) type Module = Vec<String>;

/// The module of a file given its path under `src/` (`lib.rs`, `main.rs` are the root;
/// `a/mod.rs` and `a.rs` are `a`; `a/b.rs` is `a::b`). `None` for `bin/` files, which are crates
/// of their own.
pub(super) fn module_of(rel: &str) -> Option<Module> {
    let rel = rel.strip_suffix(".rs")?;
    let mut parts: Vec<String> = rel.split('/').map(str::to_owned).collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        return Some(Vec::new());
    }
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    Some(parts)
}

/// Source text with comments, string and char literals blanked out (so that paths in docs
/// and in test inputs are not references).
pub(super) fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            i += end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(rest.len(), |e| e + 2);
            i += end;
            out.push(' ');
        } else if let Some(hashes) = raw_string_start(rest) {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = 2 + hashes;
            let end = rest[body..]
                .find(&close)
                .map_or(rest.len(), |e| body + e + close.len());
            i += end;
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && (rest.starts_with("'\\") || rest.get(2..3) == Some("'")) {
            // A char literal ('x', '\n', '\''); a lifetime ('a) has no closing quote there.
            let mut j = i + 1;
            if b.get(j) == Some(&b'\\') {
                j += 2;
            }
            while j < b.len() && b[j] != b'\'' {
                j += 1;
            }
            i = j + 1;
            out.push_str("' '");
        } else {
            let ch = rest.chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// `Some(number of #)` when `s` starts a raw string literal (`r"`, `r#"`, ...).
fn raw_string_start(s: &str) -> Option<usize> {
    let rest = s.strip_prefix('r')?;
    let hashes = rest.bytes().take_while(|&c| c == b'#').count();
    rest[hashes..].starts_with('"').then_some(hashes)
}

/// How many inline modules (`mod tests { ... }`) enclose byte `at` of `code`.
fn inline_depth(code: &str, at: usize) -> usize {
    let mut stack: Vec<bool> = Vec::new();
    let mut mod_pending = false;
    let mut word = String::new();
    for c in code[..at].chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            // `mod name {`: `mod` starts it, the name keeps it; punctuation cancels it.
            mod_pending = mod_pending || word == "mod";
            word.clear();
        }
        match c {
            '{' => {
                stack.push(mod_pending);
                mod_pending = false;
            }
            '}' => {
                stack.pop();
            }
            c if c.is_whitespace() => {}
            _ => mod_pending = false,
        }
    }
    stack.iter().filter(|m| **m).count()
}

/// Every path named in `code` (already stripped by [`code_only`]) with the number of inline
/// modules around it: each leaf of every `use` tree, and every inline path that starts with
/// `crate`, `super` or `self`.
pub(super) fn paths(code: &str) -> Vec<(Vec<String>, usize)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        let depth = inline_depth(code, code.len() - rest.len() + at);
        let after = &rest[at + 3..];
        let Some(end) = after.find(';') else { break };
        // Paths have no inner whitespace except around `as`: `a::b as c` becomes `a::b@c`.
        let tree: String = after[..end]
            .split_whitespace()
            .map(|t| if t == "as" { "@" } else { t })
            .collect();
        let mut leaves = Vec::new();
        expand(&tree, &[], &mut leaves);
        out.extend(leaves.into_iter().map(|p| (p, depth)));
        rest = &after[end..];
    }
    let idents = |s: &str| -> Vec<String> {
        s.split("::")
            .map_while(|seg| {
                let seg: String = seg
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                (!seg.is_empty()).then_some(seg)
            })
            .collect()
    };
    for head in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(head) {
            let start = from + at;
            let before = code[..start].chars().next_back();
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                out.push((idents(&code[start..]), inline_depth(code, start)));
            }
            from = start + head.len();
        }
    }
    out
}

/// The byte offset of the keyword `word` in `s` (not part of a longer identifier).
fn find_word(s: &str, word: &str) -> Option<usize> {
    let is_ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut from = 0;
    while let Some(at) = s[from..].find(word) {
        let start = from + at;
        let end = start + word.len();
        if !is_ident(s[..start].chars().next_back()) && !is_ident(s[end..].chars().next()) {
            return Some(start);
        }
        from = end;
    }
    None
}

/// Expands a `use` tree without whitespace (`a::{b,c::{d,e}}`) into its leaf paths, each
/// prefixed by `prefix` (`self` in a group names the group's own path).
fn expand(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let tree = tree.trim_start_matches("::");
    if let Some(open) = tree.find('{') {
        let mut base = prefix.to_vec();
        base.extend(
            tree[..open]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
        );
        let inner = tree[open + 1..]
            .strip_suffix('}')
            .unwrap_or(&tree[open + 1..]);
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..i], &base, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&inner[start..], &base, out);
    } else if !tree.is_empty() {
        let leaf = tree.split('@').next().unwrap_or(tree);
        let mut path = prefix.to_vec();
        for seg in leaf.split("::").filter(|s| !s.is_empty() && *s != "*") {
            if seg != "self" || path.is_empty() {
                path.push(seg.to_owned());
            }
        }
        out.push(path);
    }
}

/// The module a path in `from` refers to: resolved against `crate`, `super`, `self` or a child
/// module of `from`, then cut to the longest prefix that is a module of `modules`. `None` for
/// paths into other crates.
pub(super) fn target(
    path: &[String],
    depth: usize,
    from: &Module,
    modules: &BTreeSet<Module>,
) -> Option<Module> {
    let first = path.first()?;
    if depth > 0 && first != "crate" {
        // Inside an inline module: `super` climbs the inline modules first (their file is
        // `from` itself); relative paths to children of inline modules stay in this file.
        let ups = path.iter().take_while(|s| *s == "super").count();
        if ups <= depth {
            return Some(from.clone());
        }
        let mut rest = vec!["super".to_owned(); ups - depth];
        rest.extend(path[ups..].iter().cloned());
        return target(&rest, 0, from, modules);
    }
    let mut abs: Module = match first.as_str() {
        "crate" => path[1..].to_vec(),
        "self" => from.iter().chain(&path[1..]).cloned().collect(),
        "super" => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            let keep = from.len().checked_sub(ups)?;
            from[..keep].iter().chain(&path[ups..]).cloned().collect()
        }
        _ => {
            let mut child = from.clone();
            child.push(first.clone());
            if !modules.contains(&child) {
                return None;
            }
            from.iter().chain(path).cloned().collect()
        }
    };
    while !modules.contains(&abs) {
        abs.pop()?;
    }
    Some(abs)
}

/// The edges module → modules it refers to, from each module's source text. The crate root
/// (`lib.rs`, `main.rs`) is never a target: it declares every module, and `use crate::X` of a
/// re-export names the crate's public path, not the file that defines `X`.
pub(super) fn graph(sources: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let modules: BTreeSet<Module> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(m, src)| {
            let to = paths(&code_only(src))
                .iter()
                .filter_map(|(p, depth)| target(p, *depth, m, &modules))
                .filter(|t| t != m && !t.is_empty())
                .collect();
            (m.clone(), to)
        })
        .collect()
}

/// Every cycle found by a depth-first search (each as the modules in order, first repeated at
/// the end), one per back edge.
pub(super) fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    fn visit(
        m: &Module,
        graph: &BTreeMap<Module, BTreeSet<Module>>,
        stack: &mut Vec<Module>,
        done: &mut BTreeSet<Module>,
        found: &mut Vec<Vec<Module>>,
    ) {
        if let Some(at) = stack.iter().position(|s| s == m) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(m.clone());
            found.push(cycle);
            return;
        }
        if done.contains(m) {
            return;
        }
        stack.push(m.clone());
        for next in graph.get(m).into_iter().flatten() {
            visit(next, graph, stack, done, found);
        }
        stack.pop();
        done.insert(m.clone());
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        visit(m, graph, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

/// `crate::a -> crate::b -> crate::a`, for messages.
pub(super) fn show(cycle: &[Module]) -> String {
    cycle
        .iter()
        .map(|m| {
            if m.is_empty() {
                "crate".to_owned()
            } else {
                format!("crate::{}", m.join("::"))
            }
        })
        .collect::<Vec<_>>()
        .join(" -> ")
}
