//! The library's modules form layers without cycles (ARCHITECTURE.md,
//! "Layers"): each module uses only modules of the layers below it. This
//! reads every source file's paths into the crate (`crate::module`, and
//! `super::module` in a file directly under `src/`), outside comments and
//! test modules, and fails on a path that points up or sideways.

use std::path::{Path, PathBuf};

/// The modules in layer order: a module may use the ones before it. Within
/// a layer the order is a possible order (some of them use others).
const LAYERS: &[(&str, &[&str])] = &[
    (
        "base",
        &[
            "exact",
            "diagnostic",
            "rng",
            "union_find",
            "graph",
            "canon",
            "alphabet",
            "plane",
            "drawing",
        ],
    ),
    ("settings and engines", &["settings", "forces", "layout"]),
    ("rules and matching", &["matching", "trace", "grammar"]),
    (
        "rewriting and derivation",
        &["rewrite", "incremental", "derive"],
    ),
    ("space", &["geometric", "rooms", "tiles"]),
    ("analysis", &["play", "place", "explore", "lint"]),
    ("files and the pipeline", &["formats", "pipeline"]),
    ("runs over many seeds", &["expressive"]),
];

fn rank(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .flat_map(|(_, modules)| modules.iter())
        .position(|m| *m == module)
}

/// The top-level module a source file belongs to, and whether the file
/// lies directly under `src/` (where `super::x` names module `x`).
fn module_of(src: &Path, file: &Path) -> Option<(String, bool)> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts = rel.iter().map(|p| p.to_string_lossy().into_owned());
    let first = parts.next()?;
    let top = rel.components().count() == 1;
    let name = first.trim_end_matches(".rs").to_owned();
    (name != "lib").then_some((name, top))
}

/// The code of `text` without comments, string literals and the inline
/// test module (from a `#[cfg(test)]` line followed by `mod NAME {` on;
/// other test-only items are read like any code, which is stricter).
fn code(text: &str) -> String {
    let mut cut = text.len();
    let mut from = 0;
    while let Some(i) = text[from..].find("\n#[cfg(test)]\nmod ") {
        let at = from + i;
        let line_end = text[at + 1..]
            .find('\n')
            .and_then(|j| {
                text[at + 1 + j + 1..]
                    .find('\n')
                    .map(|k| at + 1 + j + 1 + k)
            })
            .unwrap_or(text.len());
        if text[at..line_end].trim_end().ends_with('{') {
            cut = at;
            break;
        }
        from = at + 1;
    }
    let text = &text[..cut];
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut in_string = false;
        let mut prev = ' ';
        let mut kept = String::new();
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if !in_string && c == '/' && chars.get(i + 1) == Some(&'/') {
                break;
            }
            if c == '"' && prev != '\\' {
                in_string = !in_string;
            } else if !in_string {
                kept.push(c);
            }
            prev = if prev == '\\' && c == '\\' { ' ' } else { c };
            i += 1;
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// The modules `code` names after `prefix` (`crate::`, `super::`).
fn named_after(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

/// A file of a test module moved out of its parent (`tests.rs`, or a file
/// in a `tests/` folder under `src/`): compiled only for the tests.
fn is_test_file(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "tests.rs")
        || path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "tests")
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !is_test_file(&path) {
            out.push(path);
        }
    }
}

#[test]
fn modules_use_only_the_layers_below_them() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut back_edges = Vec::new();
    let mut unlisted = Vec::new();
    for file in &files {
        let Some((module, top)) = module_of(&src, file) else {
            continue;
        };
        let Some(from) = rank(&module) else {
            unlisted.push(module);
            continue;
        };
        let text = std::fs::read_to_string(file).expect("source");
        let code = code(&text);
        let mut used = named_after(&code, "crate::");
        if top {
            used.extend(named_after(&code, "super::"));
        }
        used.sort();
        used.dedup();
        for to in used {
            if to == module {
                continue;
            }
            match rank(&to) {
                Some(r) if r < from => {}
                Some(_) => back_edges.push(format!(
                    "{} uses {to}",
                    file.strip_prefix(&src).unwrap().display()
                )),
                // A name after `crate::` that is no module (a re-exported
                // item such as `crate::derive()`): not an edge.
                None => {}
            }
        }
    }
    unlisted.sort();
    unlisted.dedup();
    assert!(
        unlisted.is_empty(),
        "modules missing from LAYERS: {unlisted:?}"
    );
    assert!(
        back_edges.is_empty(),
        "modules that use a layer above or beside them:\n{}",
        back_edges.join("\n")
    );
}

/// The test reads paths as the compiler does for the cases it meets: a
/// path in a comment or a string is not a use, `crate::` inside another
/// word is not a path, and a test module is left out.
#[test]
fn the_reader_of_paths_skips_comments_strings_and_tests() {
    let text = "use crate::graph::Graph; // crate::derive\n\
                /// [`crate::play`]\n\
                let s = \"crate::lint\"; let t = mycrate::formats;\n\
                fn f() { crate::rng::Rng::seeded(1); }\n\
                #[cfg(test)]\nfn helper() { crate::union_find::UnionFind::new(1); }\n\
                #[cfg(test)]\nmod tests;\n\
                fn g() { crate::diagnostic::line_col(\"\", 0); }\n\
                #[cfg(test)]\nmod tests {\n use crate::pipeline; }\n";
    let code = code(text);
    assert_eq!(
        named_after(&code, "crate::"),
        ["graph", "rng", "union_find", "diagnostic"]
    );
}
