//! The symmetries of a rule's pattern, for `check` and `levelgraph canon`.
//!
//! A pattern with *k* automorphisms matches every host subgraph it fits
//! *k* times, one match per automorphism. When a renaming keeps the
//! pattern's edges but not all of its vertex constraints (`(a:room) --
//! (b:room|hall)`: swapping `a` and `b`), it is a symmetry on some hosts
//! only, and a uniform draw over matches favours those host subgraphs
//! (grammar language reference, section 9.8). [`rule_symmetry`] computes
//! both: the automorphism group of the pattern with its constraints (by
//! [`canonical`](crate::canon::canonical)), and whether such partial symmetries
//! exist, by enumerating the group of the pattern's bare shape.
//!
//! What a pattern vertex must be (its tags, forbidden tags, attributes,
//! valence and grid offset) is its colour; an edge's direction, label and
//! cosmetic flag its arc colour; `(c) in (r)` an arc of its own. `where
//! not` conditions are not part of it (a condition can break a symmetry on
//! some hosts; the check then errs on the side of silence).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::canon::{canonical, ColouredGraph, GroupOrder, SearchLimits};
use crate::grammar::{PatternVertex, Rule};

/// Shape groups larger than this are not enumerated: the partial-symmetry
/// check is skipped for them (a pattern of 9 unconnected vertices).
const MAX_SHAPE_GROUP: usize = 40_320;

/// The symmetries of one rule's pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternSymmetry {
    /// The rule's name.
    pub rule: String,
    /// The canonical hash of the pattern with its constraints
    /// ([`crate::canon::Canon::hash`] of [`pattern_graph`]).
    pub hash: u64,
    /// The number of automorphisms of the pattern with its constraints:
    /// the matches of every host subgraph it fits.
    pub automorphisms: GroupOrder,
    /// Vertices that some automorphism exchanges, by name; one list per
    /// orbit of two or more, in pattern order.
    pub orbits: Vec<Vec<String>>,
    /// When renamings keep the pattern's edges but not all its vertex
    /// constraints, and a host vertex may satisfy both sides of each: the
    /// largest number of matches one host subgraph can have (at least
    /// `automorphisms + 1`), and one such renaming, as `(from, to)` names.
    pub partial: Option<(u64, Vec<(String, String)>)>,
    /// Whether the rule draws per host subgraph (`count_once`).
    pub count_once: bool,
}

impl std::fmt::Display for PatternSymmetry {
    /// `pattern of `grow` has 8 automorphisms (exchanging {p q r s}): …`,
    /// one sentence for `check`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let one = self.automorphisms.exact() == Some(1);
        write!(
            f,
            "pattern of `{}` has {} {}",
            self.rule,
            self.automorphisms,
            if one { "automorphism" } else { "automorphisms" }
        )?;
        if !self.orbits.is_empty() {
            let orbits: Vec<String> = self
                .orbits
                .iter()
                .map(|o| format!("{{{}}}", o.join(" ")))
                .collect();
            write!(f, " (exchanging {})", orbits.join(", "))?;
        }
        if !one {
            write!(
                f,
                ": each host subgraph it fits is matched {} times",
                self.automorphisms
            )?;
        }
        if let Some((most, renaming)) = &self.partial {
            let renaming: Vec<String> = renaming.iter().map(|(a, b)| format!("{a}→{b}")).collect();
            write!(
                f,
                "; the renaming {} keeps its edges and fits some hosts, where a subgraph is matched up to {most} times and rewritten more often",
                renaming.join(", ")
            )?;
            if self.count_once {
                write!(f, " (count_once: drawn once per subgraph)")?;
            } else {
                write!(f, " (`count_once` draws each subgraph equally often)")?;
            }
        }
        Ok(())
    }
}

/// The coloured graph of `rule`'s pattern: vertices in pattern order.
/// `constrained = false` gives the bare shape (one vertex colour).
pub fn pattern_graph(rule: &Rule, constrained: bool) -> ColouredGraph {
    let vertices = &rule.lhs.vertices;
    let keys: Vec<String> = vertices
        .iter()
        .map(|v| {
            if constrained {
                vertex_key(v)
            } else {
                String::new()
            }
        })
        .collect();
    let palette: BTreeSet<&String> = keys.iter().collect();
    let palette: Vec<&String> = palette.into_iter().collect();
    let colour_of = |k: &String| palette.binary_search(&k).expect("in the palette") as u32;
    let mut g = ColouredGraph::new(keys.iter().map(colour_of).collect());
    let index: BTreeMap<&str, u32> = vertices
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.as_str(), i as u32))
        .collect();
    // Arc colours: 0 for containment, then each edge kind by value.
    let kinds: BTreeSet<(bool, bool, Option<&str>)> = rule
        .lhs
        .edges
        .iter()
        .map(|e| (e.directed, e.cosmetic, e.label.as_deref()))
        .collect();
    let kinds: Vec<_> = kinds.into_iter().collect();
    for e in &rule.lhs.edges {
        let (Some(&a), Some(&b)) = (index.get(e.source.as_str()), index.get(e.target.as_str()))
        else {
            continue;
        };
        let kind = (e.directed, e.cosmetic, e.label.as_deref());
        let colour = 1 + kinds.binary_search(&kind).expect("listed") as u32;
        let added = if e.directed {
            g.add_arc(a, b, colour)
        } else {
            g.add_edge(a, b, colour)
        };
        debug_assert!(added.is_ok(), "pattern vertices are in range");
    }
    for c in &rule.lhs.inside {
        if let (Some(&child), Some(&parent)) =
            (index.get(c.child.as_str()), index.get(c.parent.as_str()))
        {
            let _ = g.add_arc(parent, child, 0);
        }
    }
    let mut bytes = Vec::new();
    for k in &palette {
        bytes.extend_from_slice(k.as_bytes());
        bytes.push(0);
    }
    for (directed, cosmetic, label) in &kinds {
        bytes.extend_from_slice(format!("{directed}{cosmetic}{label:?}").as_bytes());
        bytes.push(0);
    }
    g.set_palette(bytes);
    g
}

/// What a host vertex must be to match `v`, as text: equal exactly when
/// two pattern vertices accept the same host vertices.
fn vertex_key(v: &PatternVertex) -> String {
    let mut tags = v.tags.clone();
    tags.sort();
    let mut forbidden = v.forbidden.clone();
    forbidden.sort();
    format!(
        "{}!{}{:?}{:?}{:?}",
        tags.join("|"),
        forbidden.join("|"),
        v.attributes,
        v.valence,
        v.offset
    )
}

/// Whether one host vertex may match both `a` and `b`.
fn compatible(a: &PatternVertex, b: &PatternVertex) -> bool {
    let any = |v: &PatternVertex| v.tags.iter().any(|t| t == "*");
    let tags = any(a) || any(b) || a.tags.iter().any(|t| b.tags.contains(t));
    let attributes = a
        .attributes
        .iter()
        .all(|(k, value)| b.attributes.get(k).is_none_or(|w| w == value));
    let valence = a.valence.is_none() || b.valence.is_none() || a.valence == b.valence;
    tags && attributes && valence && a.offset == b.offset
}

/// The symmetries of `rule`'s pattern. `None` when the labelling passed
/// `limits` (it does not for patterns of a few dozen vertices).
pub fn rule_symmetry(rule: &Rule, limits: &SearchLimits) -> Option<PatternSymmetry> {
    let vertices = &rule.lhs.vertices;
    let full = canonical(&pattern_graph(rule, true), limits).ok()?;
    let mut orbits: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for (i, &o) in full.automorphisms.orbits.iter().enumerate() {
        orbits.entry(o).or_default().push(vertices[i].name.clone());
    }
    let mut orbits: Vec<Vec<String>> = orbits.into_values().filter(|o| o.len() > 1).collect();
    orbits.sort();
    let shape = canonical(&pattern_graph(rule, false), limits).ok()?;
    let partial = match shape.automorphisms.order.exact() {
        Some(order) if order as usize <= MAX_SHAPE_GROUP && order > 1 => {
            let keys: Vec<String> = vertices.iter().map(vertex_key).collect();
            let mut most = 0u64;
            let mut example = None;
            for perm in closure(&shape.automorphisms.generators, vertices.len()) {
                let fits = perm
                    .iter()
                    .enumerate()
                    .all(|(i, &j)| compatible(&vertices[i], &vertices[j as usize]));
                if !fits {
                    continue;
                }
                most += 1;
                let keeps = perm
                    .iter()
                    .enumerate()
                    .all(|(i, &j)| keys[i] == keys[j as usize]);
                if !keeps && example.is_none() {
                    example = Some(
                        perm.iter()
                            .enumerate()
                            .filter(|&(i, &j)| i != j as usize)
                            .map(|(i, &j)| {
                                (vertices[i].name.clone(), vertices[j as usize].name.clone())
                            })
                            .collect(),
                    );
                }
            }
            example.map(|e| (most, e))
        }
        _ => None,
    };
    Some(PatternSymmetry {
        rule: rule.name.clone(),
        hash: full.hash,
        automorphisms: full.automorphisms.order,
        orbits,
        partial,
        count_once: rule.count_once,
    })
}

/// Every element of the permutation group on `n` points generated by
/// `generators` (breadth first from the identity, in a fixed order). The
/// caller bounds the group's order.
fn closure(generators: &[Vec<u32>], n: usize) -> Vec<Vec<u32>> {
    let identity: Vec<u32> = (0..n as u32).collect();
    let mut seen: BTreeSet<Vec<u32>> = BTreeSet::new();
    seen.insert(identity.clone());
    let mut queue = VecDeque::from([identity]);
    let mut all = Vec::new();
    while let Some(p) = queue.pop_front() {
        for g in generators {
            let q: Vec<u32> = p.iter().map(|&x| g[x as usize]).collect();
            if seen.insert(q.clone()) {
                queue.push_back(q);
            }
        }
        all.push(p);
    }
    all
}

/// Every rule's pattern symmetry with more than one automorphism or a
/// partial symmetry, in rule order. `check` reports them beside its
/// findings; they are not warnings, since matching a subgraph once per
/// symmetry is often what the designer means.
pub(super) fn check(model: &crate::grammar::Grammar) -> Vec<PatternSymmetry> {
    model
        .rules
        .iter()
        .filter_map(|rule| rule_symmetry(rule, &SearchLimits::default()))
        .filter(|s| s.partial.is_some() || s.automorphisms.exact() != Some(1))
        .collect()
}
