//! The modules of each crate form layers: no two modules import each other, and no longer
//! cycle runs through them. (Between crates Cargo already forbids a cycle.)
//!
//! Read from the sources as text, comments and strings left out: a path `crate::a::b`, a
//! group `crate::a::{b, c::d}` or a `super::x` names the deepest module of ours it starts
//! with, or the crate root for an item the root re-exports; the root itself names its
//! modules by their bare paths (`session::Session`), so an item a module takes from the root
//! must not come from a module that needs it. A module naming its own descendants is no
//! edge (it declares them), nor is `use super::*` in a file's test module.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The source folders of the workspace's libraries, from the repository's root.
const CRATES: [&str; 4] = [
    "src",
    "crates/engine/src",
    "crates/protocol/src",
    "crates/tools/src",
];

/// Every library module of the crate under `root`, by path (`""` for the root, `a::b`):
/// its source with comments and strings blanked out.
fn modules(root: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("a folder entry").path();
            let rel = path
                .strip_prefix(root)
                .expect("below the root")
                .to_path_buf();
            if path.is_dir() {
                // Binaries are crates of their own.
                if rel != Path::new("bin") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") && rel != Path::new("main.rs") {
                let text = fs::read_to_string(&path).expect("a readable source file");
                out.insert(module_path(&rel), code_only(&text));
            }
        }
    }
    out
}

/// `search/mod.rs` is `search`, `search/tt.rs` is `search::tt`, `lib.rs` is `""`.
fn module_path(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("lib" | "mod")) {
        parts.pop();
    }
    parts.join("::")
}

/// The source with line comments, block comments and string and char literals replaced by
/// spaces, so that a path in prose or in a message is not read as an import.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let skip = if rest.starts_with(b"//") {
            rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            rest.windows(2)
                .position(|w| w == b"*/")
                .map_or(rest.len(), |k| k + 2)
        } else if rest[0] == b'"' {
            let mut k = 1;
            while k < rest.len() && rest[k] != b'"' {
                k += if rest[k] == b'\\' { 2 } else { 1 };
            }
            (k + 1).min(rest.len())
        } else if rest[0] == b'\'' && rest.len() > 2 && (rest[2] == b'\'' || rest[1] == b'\\') {
            // A char literal ('x', '\n'); a lifetime ('a) has no closing quote there.
            rest.iter()
                .skip(1)
                .position(|&c| c == b'\'')
                .map_or(1, |k| k + 2)
        } else {
            0
        };
        if skip == 0 {
            out.push(b[i]);
            i += 1;
        } else {
            out.extend(
                rest[..skip]
                    .iter()
                    .map(|&c| if c == b'\n' { b'\n' } else { b' ' }),
            );
            i += skip;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The paths that start right after each `prefix` (`crate::` or `super::`) in `code`, a
/// group `{b, c::d}` giving one path per item: `["a::b", "a::c::d"]`.
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let mut i = at + prefix.len();
        let mut head = String::new();
        loop {
            let start = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            head.push_str(&code[start..i]);
            if code[i..].starts_with("::") {
                head.push_str("::");
                i += 2;
            } else {
                break;
            }
        }
        if head.ends_with("::") && b.get(i) == Some(&b'{') {
            let mut depth = 0;
            let mut end = i;
            for (k, &c) in b.iter().enumerate().skip(i) {
                depth += i32::from(c == b'{') - i32::from(c == b'}');
                if depth == 0 {
                    end = k;
                    break;
                }
            }
            for item in split_top_level(&code[i + 1..end]) {
                let item = item.split(" as ").next().unwrap_or("").trim();
                let item = item
                    .split("::{")
                    .next()
                    .unwrap_or("")
                    .trim_end_matches("::");
                if !item.is_empty() {
                    out.push(format!("{head}{item}"));
                }
            }
        } else if !head.is_empty() {
            out.push(head.trim_end_matches("::").to_owned());
        }
    }
    out
}

/// The items of a `{...}` group's inside, split at the commas outside nested groups.
fn split_top_level(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// The import edges between the modules of one crate: `(from, to)`.
fn edges(mods: &BTreeMap<String, String>) -> BTreeSet<(String, String)> {
    let mut edges = BTreeSet::new();
    for (m, code) in mods {
        let parent = m.rsplit_once("::").map_or("", |(p, _)| p);
        let mut refs: Vec<String> = paths_after(code, "crate::");
        for p in paths_after(code, "super::") {
            if p != "*" {
                refs.push(if parent.is_empty() {
                    p
                } else {
                    format!("{parent}::{p}")
                });
            }
        }
        if m.is_empty() {
            for name in mods.keys().filter(|k| !k.is_empty() && !k.contains("::")) {
                if !paths_after(code, &format!("{name}::")).is_empty() {
                    refs.push(name.clone());
                }
            }
        }
        for r in refs {
            let segs: Vec<&str> = r.split("::").collect();
            let target = (1..=segs.len())
                .rev()
                .map(|k| segs[..k].join("::"))
                .find(|t| mods.contains_key(t))
                .unwrap_or_default();
            let own_child = !m.is_empty() && target.starts_with(&format!("{m}::"));
            if target != *m && !own_child {
                edges.insert((m.clone(), target));
            }
        }
    }
    edges
}

/// A cycle among `edges`, if there is one, as the modules along it.
fn cycle(edges: &BTreeSet<(String, String)>) -> Option<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges {
        next.entry(a).or_default().push(b);
    }
    // Depth-first, colouring: 1 on the current path, 2 done.
    fn visit<'a>(
        u: &'a str,
        next: &BTreeMap<&'a str, Vec<&'a str>>,
        colour: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        colour.insert(u, 1);
        path.push(u);
        for &v in next.get(u).into_iter().flatten() {
            match colour.get(v) {
                Some(1) => {
                    let from = path.iter().position(|&p| p == v).unwrap_or(0);
                    let mut c: Vec<String> = path[from..].iter().map(|s| s.to_string()).collect();
                    c.push(v.to_owned());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(v, next, colour, path) {
                        return Some(c);
                    }
                }
            }
        }
        path.pop();
        colour.insert(u, 2);
        None
    }
    let mut colour = BTreeMap::new();
    let starts: Vec<&str> = next.keys().copied().collect();
    for u in starts {
        if !colour.contains_key(u)
            && let Some(c) = visit(u, &next, &mut colour, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_two_modules_of_a_crate_import_each_other_and_no_cycle_runs_through_them() {
    for krate in CRATES {
        let mods = modules(&repo().join(krate));
        assert!(mods.len() > 3, "{krate}: modules not found");
        let edges = edges(&mods);
        assert!(
            !edges.is_empty(),
            "{krate}: no import found: the reader is broken"
        );
        if let Some(c) = cycle(&edges) {
            panic!("{krate}: an import cycle: {}", c.join(" -> "));
        }
    }
}

#[test]
fn the_reader_sees_groups_nested_paths_and_super_and_skips_comments_and_strings() {
    let code = code_only(
        "use crate::a::{b, c::d as e, f::{g}};\n// crate::x\nlet s = \"crate::y\";\nsuper::h::i();",
    );
    assert_eq!(paths_after(&code, "crate::"), ["a::b", "a::c::d", "a::f"]);
    assert_eq!(paths_after(&code, "super::"), ["h::i"]);
    let mods: BTreeMap<String, String> = [
        ("".to_owned(), "mod p; mod q; use p::X;".to_owned()),
        ("p".to_owned(), code_only("use crate::q::Y;")),
        ("q".to_owned(), code_only("use crate::p::Z;")),
    ]
    .into();
    let e = edges(&mods);
    assert!(e.contains(&("p".into(), "q".into())) && e.contains(&("q".into(), "p".into())));
    assert!(cycle(&e).is_some(), "{e:?}");
}
