//! Patterns: a rule's left-hand vertices and edges, its `where not`
//! conditions as `Nac`s, and for grid rules its offsets and orientations.

use std::collections::BTreeMap;

use super::cx::{cx_loc, Cx, Path};
use super::resolve_tag;
use super::sides::{reject_lengths, resolve_edges, resolve_inside};
use crate::diagnostic::Location;
use crate::grammar::model::{self, RuleEdge, WILDCARD};
use crate::graph::{Symbol, Symbols};
use crate::matching::{Nac, PatternEdge, PatternVertex, TagTest, MAX_OFFSET};

/// The most vertices a pattern, or a `where not` condition, may have: a
/// pattern builds a search plan from each of its vertices (quadratic
/// each), and a 1,000-vertex chain took 5.5 s to load, 5,000 over 20 s.
pub const MAX_PATTERN_VERTICES: usize = 256;

/// A rule is a grid rule when its pattern vertices have offsets `@dx,dy`:
/// then all must, and no two may share one. Returns the offsets in pattern
/// order. `orient any` and `mirror` need offsets.
pub(super) fn grid_offsets(
    cx: &mut Cx<'_>,
    rule: &model::Rule,
    rule_at: &Location,
) -> Option<Vec<[i32; 2]>> {
    let with: Vec<[i32; 2]> = rule.lhs.vertices.iter().filter_map(|v| v.offset).collect();
    if with.is_empty() {
        if rule.orient_any || rule.mirror {
            cx.error(
                format!(
                    "rule `{}`: `orient any` and `mirror` need grid offsets",
                    rule.name
                ),
                rule_at.clone(),
                Some(
                    "give every pattern vertex an offset, e.g. `(a:room @0,0) -- (b:room @1,0)`"
                        .into(),
                ),
            );
        }
        return None;
    }
    if with.len() < rule.lhs.vertices.len() {
        let missing = rule
            .lhs
            .vertices
            .iter()
            .find(|v| v.offset.is_none())
            .expect("one lacks");
        cx.error(
            format!(
                "grid rule `{}`: pattern vertex `{}` has no offset",
                rule.name, missing.name
            ),
            cx_loc(missing.span, Path::field("lhs")),
            Some("in a grid rule every pattern vertex has an offset `@dx,dy`".into()),
        );
        return None;
    }
    for (k, o) in with.iter().enumerate() {
        if with[..k].contains(o) {
            cx.error(
                format!(
                    "grid rule `{}`: two pattern vertices share offset @{},{}",
                    rule.name, o[0], o[1]
                ),
                rule_at.clone(),
                Some("each grid cell holds one vertex".into()),
            );
            return None;
        }
    }
    Some(with)
}

/// Refuses grid offsets beyond ±[`MAX_OFFSET`] on either side of `rule`
/// (the text parser already does; a JSON grammar could give any `i32`,
/// and an offset of `i32::MIN` cannot even be turned).
pub(super) fn offsets_in_range(cx: &mut Cx<'_>, rule: &model::Rule, rule_path: &Path<'_>) {
    let far = |o: Option<[i32; 2]>| {
        o.is_some_and(|o| {
            o.iter()
                .any(|c| c.unsigned_abs() > MAX_OFFSET.unsigned_abs())
        })
    };
    let lhs = rule_path.child("lhs");
    let pattern = rule
        .lhs
        .vertices
        .iter()
        .map(|v| (v.offset, v.span, &v.name));
    for (j, (offset, span, name)) in pattern.enumerate() {
        if far(offset) {
            let o = offset.expect("far");
            cx.error(
                format!(
                    "rule `{}`: vertex `{name}` has offset @{},{}, beyond ±{MAX_OFFSET}",
                    rule.name, o[0], o[1]
                ),
                cx_loc(span, lhs.item("vertices", j)),
                None,
            );
        }
    }
    for (ai, alt) in rule.rhs.iter().enumerate() {
        let rhs = rule_path.item("rhs", ai);
        for (j, v) in alt.vertices.iter().enumerate() {
            if far(v.offset) {
                let o = v.offset.expect("far");
                cx.error(
                    format!(
                        "rule `{}`: vertex `{}` has offset @{},{}, beyond ±{MAX_OFFSET}",
                        rule.name, v.name, o[0], o[1]
                    ),
                    cx_loc(v.span, rhs.item("vertices", j)),
                    None,
                );
            }
        }
    }
}

/// The orientations a grid rule is tried in: 0 (as written), with
/// `orient any` also 1..3 (turned 90°, 180°, 270°), with `mirror` the
/// mirror image of each (4..7).
pub(super) fn transforms(rule: &model::Rule) -> Vec<u8> {
    let turns: &[u8] = if rule.orient_any { &[0, 1, 2, 3] } else { &[0] };
    let mut out: Vec<u8> = turns.to_vec();
    if rule.mirror {
        out.extend(turns.iter().map(|t| t + 4));
    }
    out
}

/// Pattern vertices of a pattern or `where not` side. With `bare_ok`, a
/// vertex without tags is accepted (a `where not` reference to a pattern
/// vertex; the caller handles it) and compiled as `*`.
pub(super) fn compile_pattern_vertices<'v>(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    vertices: impl ExactSizeIterator<Item = &'v model::PatternVertex>,
    path: Path<'_>,
    bare_ok: bool,
) -> Vec<PatternVertex> {
    let mut out = Vec::with_capacity(vertices.len());
    for (k, v) in vertices.enumerate() {
        let at = cx_loc(v.span, path.item("vertices", k));
        let test = if v.tags.is_empty() {
            if !bare_ok {
                cx.error(
                    format!("pattern vertex `{}` has no tag", v.name),
                    at.clone(),
                    Some(format!("write `({}:*)` to match any tag", v.name)),
                );
            }
            TagTest::Any
        } else if v.tags.iter().any(|t| t == WILDCARD) {
            if v.tags.len() > 1 {
                cx.error(
                    "`*` cannot be combined with other tags".into(),
                    at.clone(),
                    None,
                );
            }
            TagTest::Any
        } else {
            let mut set: Vec<Symbol> = v
                .tags
                .iter()
                .filter_map(|t| resolve_tag(cx, tags, t, &at))
                .collect();
            set.sort_unstable();
            set.dedup();
            TagTest::OneOf(set)
        };
        let mut forbidden: Vec<Symbol> = v
            .forbidden
            .iter()
            .filter_map(|t| resolve_tag(cx, tags, t, &at))
            .collect();
        forbidden.sort_unstable();
        forbidden.dedup();
        out.push(PatternVertex {
            tags: test,
            forbidden,
            attributes: v
                .attributes
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            valence: v.valence,
        });
    }
    out
}

pub(super) fn pattern_edges(
    edges: &[RuleEdge],
    resolved: &[Option<(usize, usize, Option<Symbol>)>],
) -> Vec<PatternEdge> {
    edges
        .iter()
        .zip(resolved)
        .map(|(e, r)| {
            let (a, b, label) = r.expect("resolved");
            PatternEdge {
                source: a,
                target: b,
                directed: e.directed,
                cosmetic: e.cosmetic,
                label,
            }
        })
        .collect()
}

/// A `where not` condition: the pattern's vertices (bound to the match)
/// followed by the condition's own vertices.
pub(super) fn compile_nac(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    labels: &mut Symbols,
    rule: &model::Rule,
    lhs_index: &BTreeMap<&str, usize>,
    nac: &model::Side<model::PatternVertex>,
    path: Path<'_>,
) -> Option<Nac> {
    let errors_before = cx.errors.len();
    let mut own: Vec<&model::PatternVertex> = Vec::new();
    for (k, v) in nac.vertices.iter().enumerate() {
        let at = cx_loc(v.span, path.item("vertices", k));
        let refers = lhs_index.contains_key(v.name.as_str());
        if v.offset.is_some() {
            cx.error(
                format!("`where not` vertex `{}` cannot have a grid offset", v.name),
                at.clone(),
                Some("conditions are matched by edges, not by grid cells".into()),
            );
        }
        if refers {
            if !v.tags.is_empty()
                || !v.forbidden.is_empty()
                || v.valence.is_some()
                || !v.attributes.is_empty()
            {
                cx.error(
                    format!(
                        "in `where not`, `{}` is the pattern's vertex; it takes no tags here",
                        v.name
                    ),
                    at,
                    Some(format!(
                        "write just `({})`; its tags come from the pattern",
                        v.name
                    )),
                );
            }
        } else if v.tags.is_empty() {
            cx.error(
                format!(
                    "`where not` vertex `{}` is not in the pattern and has no tag",
                    v.name
                ),
                at,
                Some(format!(
                    "give it a tag set, `({}:lock)`, or name a pattern vertex",
                    v.name
                )),
            );
        } else if !v.forbidden.is_empty() {
            cx.error(
                format!("`where not` vertex `{}` cannot have forbidden tags", v.name),
                at,
                Some("state what must be absent as a vertex of the condition instead".into()),
            );
        } else {
            own.push(v);
        }
    }
    // Index: pattern vertices first (in pattern order), then the condition's own.
    let mut index: BTreeMap<&str, usize> = lhs_index.clone();
    let bound = rule.lhs.vertices.len();
    for (k, v) in own.iter().enumerate() {
        index.insert(v.name.as_str(), bound + k);
    }
    let own_vertices = compile_pattern_vertices(cx, tags, own.iter().copied(), path, false);
    let resolved = resolve_edges(cx, &nac.edges, &index, labels, path);
    reject_lengths(cx, &nac.edges, path, "`where not` condition");
    let inside = resolve_inside(cx, &nac.inside, &index, path);
    if cx.errors.len() > errors_before {
        return None;
    }
    let mut vertices: Vec<PatternVertex> = (0..bound)
        .map(|_| PatternVertex {
            tags: TagTest::Any,
            forbidden: Vec::new(),
            attributes: Vec::new(),
            valence: None,
        })
        .collect();
    vertices.extend(own_vertices);
    Some(Nac::new(
        vertices,
        pattern_edges(&nac.edges, &resolved),
        bound,
        inside,
    ))
}
