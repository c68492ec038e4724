//! Patterns whose matching can explode on a large level: a pattern of
//! several unconnected parts has about `n^k` matches on a level of `n`
//! vertices (`k` parts), and a search for a large clique can try that many
//! host vertices before it finds none. The derivation survives both — its
//! budgets draw such a rule's match by randomized search or stop with a
//! stop reason (`derive::Budget`) — but the designer should know that the
//! rule may be slow, or no longer drawn uniformly.

use std::collections::BTreeMap;

use super::location;
use crate::diagnostic::{Diagnostic, Severity};
use crate::grammar::{Grammar, Rule};
use crate::union_find::UnionFind;

/// Parts from which a pattern counts as explosive: three unconnected rooms
/// on a level of 1,000 have a billion matches.
pub(super) const EXPLOSIVE_PARTS: usize = 3;

/// Clique size from which a pattern counts as explosive.
pub(super) const EXPLOSIVE_CLIQUE: usize = 5;

/// Patterns of more vertices are not searched for cliques (the search is
/// exponential in them; no real pattern is that large).
const CLIQUE_SEARCH_VERTICES: usize = 64;

/// A warning per rule whose pattern has [`EXPLOSIVE_PARTS`] or more
/// unconnected parts, or a clique of [`EXPLOSIVE_CLIQUE`] or more vertices.
/// Grid rules are matched by frames (every vertex's cell fixed by the
/// first's), not by search, so neither applies to them.
pub(super) fn check(model: &Grammar, out: &mut Vec<Diagnostic>) {
    let is_grid = |rule: &Rule| rule.lhs.vertices.iter().any(|v| v.offset.is_some());
    for (i, rule) in model.rules.iter().enumerate().filter(|(_, r)| !is_grid(r)) {
        let at = || location(rule.span, format!("rules[{i}]"));
        let parts = parts(rule);
        if parts >= EXPLOSIVE_PARTS {
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "rule `{}`: the pattern has {parts} parts with no edge between them, so on a level of n vertices it has up to n^{parts} matches",
                        rule.name
                    ),
                    at(),
                )
                .with_hint("join the parts with edges if they belong together; past the match store budget the rule's match is drawn by a randomized search, no longer uniformly (docs/grammar-language.md, section 9.7)"),
            );
        }
        let clique = largest_clique(rule);
        if clique >= EXPLOSIVE_CLIQUE {
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "rule `{}`: the pattern has a clique of {clique} vertices, so a search of a dense level can try up to n^{clique} host vertices",
                        rule.name
                    ),
                    at(),
                )
                .with_hint("a search that tries too many stops the derivation with the stop reason `search_budget` (docs/grammar-language.md, section 9.7)"),
            );
        }
    }
}

/// The pattern's vertex names, indexed.
fn indices(rule: &Rule) -> BTreeMap<&str, usize> {
    rule.lhs
        .vertices
        .iter()
        .enumerate()
        .map(|(k, v)| (v.name.as_str(), k))
        .collect()
}

/// Connected parts of the pattern: its edges (of every kind) and its
/// containment (`in`) join vertices, as they do in the search, which finds
/// a stored vertex among its container's children.
fn parts(rule: &Rule) -> usize {
    let index = indices(rule);
    let mut sets = UnionFind::new(rule.lhs.vertices.len());
    let links = rule
        .lhs
        .edges
        .iter()
        .map(|e| (e.source.as_str(), e.target.as_str()))
        .chain(
            rule.lhs
                .inside
                .iter()
                .map(|c| (c.child.as_str(), c.parent.as_str())),
        );
    for (a, b) in links {
        if let (Some(&a), Some(&b)) = (index.get(a), index.get(b)) {
            sets.union(a, b);
        }
    }
    sets.sets()
}

/// The number of vertices of the largest clique of the pattern's edges
/// (any kind, either direction); 0 for a pattern too large to search.
fn largest_clique(rule: &Rule) -> usize {
    let n = rule.lhs.vertices.len();
    if n > CLIQUE_SEARCH_VERTICES {
        return 0;
    }
    let index = indices(rule);
    let mut adjacent = vec![0u64; n];
    for e in &rule.lhs.edges {
        if let (Some(&a), Some(&b)) = (index.get(e.source.as_str()), index.get(e.target.as_str())) {
            if a != b {
                adjacent[a] |= 1 << b;
                adjacent[b] |= 1 << a;
            }
        }
    }
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut best = 0;
    grow_clique(&adjacent, 0, all, &mut best);
    best
}

/// Bron–Kerbosch without pivoting over bit sets (Bron & Kerbosch,
/// "Algorithm 457", 1973): `size` vertices chosen, `candidates` adjacent
/// to all of them. Patterns are small, so this is instant; the bound
/// `size + candidates < best` prunes the rest.
fn grow_clique(adjacent: &[u64], size: usize, mut candidates: u64, best: &mut usize) {
    *best = (*best).max(size);
    while candidates != 0 {
        if size + candidates.count_ones() as usize <= *best {
            return;
        }
        let v = candidates.trailing_zeros() as usize;
        candidates &= !(1 << v);
        grow_clique(adjacent, size + 1, candidates & adjacent[v], best);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar;

    fn findings(src: &str) -> Vec<String> {
        let g = grammar::load(src, "t").unwrap();
        let mut out = Vec::new();
        check(g.model(), &mut out);
        out.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn unconnected_parts_and_large_cliques_are_reported() {
        let head = "tags { s room }\nrule start { (a:s) => (a:room) }\n";
        let three = format!("{head}rule three {{ (a:room) (b:room) (c:room) => (a) (b) (c) }}");
        assert_eq!(
            findings(&three),
            ["rule `three`: the pattern has 3 parts with no edge between them, so on a level of n vertices it has up to n^3 matches"]
        );
        // Two parts, or parts joined by containment: nothing.
        let two = format!("{head}rule two {{ (a:room) -- (b:room) (c:room) => (a) -- (b) (c) }}");
        assert!(findings(&two).is_empty());
        let inside = format!(
            "{head}rule nest {{ (a:room) (b:room) (c:room) (b) in (a) (c) in (a) => (a) (b) (c) (b) in (a) (c) in (a) }}"
        );
        assert!(findings(&inside).is_empty(), "{:?}", findings(&inside));
        // K5 is reported, K4 is not.
        let clique = |n: usize| {
            let vs: Vec<String> = (0..n).map(|i| format!("(v{i}:room)")).collect();
            let mut es = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    es.push(format!("(v{i}) -- (v{j})"));
                }
            }
            format!(
                "{head}rule k {{ {} {} => {} }}",
                vs.join(" "),
                es.join(" "),
                vs.join(" ")
            )
        };
        assert!(findings(&clique(4)).is_empty());
        assert_eq!(
            findings(&clique(5)),
            ["rule `k`: the pattern has a clique of 5 vertices, so a search of a dense level can try up to n^5 host vertices"]
        );
    }
}
