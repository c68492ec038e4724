//! Rewriting plans: what each right-hand alternative retags, deletes,
//! creates, removes and adds, with new vertices' offsets and valences.

use std::collections::{BTreeMap, BTreeSet};

use super::cx::{cx_loc, Cx, Path};
use super::resolve_tag;
use super::sides::{edge_key, name_index, resolve_edges, resolve_inside};
use crate::grammar::model::{self, WILDCARD};
use crate::graph::{Symbol, Symbols};

/// One end of an edge the rewriting adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The host vertex matched by pattern vertex `i`.
    Kept(usize),
    /// The `j`-th vertex the application creates.
    Fresh(usize),
}

/// An edge the rewriting adds.
#[derive(Clone, Debug)]
pub(crate) struct NewEdge {
    pub(crate) source: End,
    pub(crate) target: End,
    pub(crate) directed: bool,
    pub(crate) cosmetic: bool,
    pub(crate) label: Option<Symbol>,
    /// `{length: F}`: the new edge's length factor is F times the mean of
    /// the matched pattern edges' (subdivided edges, whose length shrinks as
    /// they are split again); else 1.
    pub(crate) length: Option<f64>,
}

/// The rewriting plan of one right-hand alternative.
#[derive(Clone, Debug)]
pub(crate) struct CompiledAlternative {
    pub(crate) weight: f64,
    /// Per pattern vertex: its new tag, `None` to keep the host tag.
    pub(crate) retag: Vec<Option<Symbol>>,
    /// Per pattern vertex: attributes to set.
    pub(crate) set_attributes: Vec<Vec<(String, String)>>,
    /// Pattern vertices not named on the right: deleted with their edges.
    pub(crate) deleted: Vec<usize>,
    /// Vertices to create: tag and attributes.
    pub(crate) fresh: Vec<(Symbol, Vec<(String, String)>)>,
    /// Grid rules: the offset of each vertex to create, placed through the
    /// match's frame; empty for other rules.
    pub(crate) fresh_offsets: Vec<[i32; 2]>,
    /// Pattern edges with no counterpart on the right: removed.
    pub(crate) removed_edges: Vec<usize>,
    /// Right-hand edges with no counterpart in the pattern: added.
    pub(crate) added_edges: Vec<NewEdge>,
    /// Per pattern vertex: its valence (non-cosmetic edges) in the
    /// replacement graph; the `max_valence` exception (a rule may give a kept
    /// vertex as many edges as its right-hand side draws).
    pub(crate) rhs_valence: Vec<usize>,
    /// Kept pattern vertices that gain at least one non-cosmetic edge.
    pub(crate) valence_watch: Vec<usize>,
    /// Pattern containments (child index) that the alternative drops: the
    /// child is taken out to the top level.
    pub(crate) removed_inside: Vec<usize>,
    /// Containments the alternative adds: (child, parent).
    pub(crate) added_inside: Vec<(End, End)>,
    /// Vertices created minus vertices deleted.
    pub(crate) vertex_delta: i64,
}

/// Offsets of the vertices an alternative creates (grid rules), checking
/// that kept vertices stay in their cells and no two vertices share a cell.
pub(super) fn alternative_offsets(
    cx: &mut Cx<'_>,
    rule: &model::Rule,
    alt: &model::Alternative,
    lhs_index: &BTreeMap<&str, usize>,
    path: Path<'_>,
) -> Vec<[i32; 2]> {
    let grid =
        rule.lhs.vertices.iter().all(|v| v.offset.is_some()) && !rule.lhs.vertices.is_empty();
    let mut used: Vec<[i32; 2]> = rule.lhs.vertices.iter().filter_map(|v| v.offset).collect();
    let mut out = Vec::new();
    for (k, v) in alt.vertices.iter().enumerate() {
        let at = cx_loc(v.span, path.item("vertices", k));
        match lhs_index.get(v.name.as_str()) {
            Some(&i) => {
                if v.offset.is_some() && v.offset != rule.lhs.vertices[i].offset {
                    cx.error(
                        format!(
                            "vertex `{}` keeps its cell; its offset cannot change",
                            v.name
                        ),
                        at,
                        Some(format!("write `({})` or repeat its pattern offset", v.name)),
                    );
                }
            }
            None if !grid => {
                if v.offset.is_some() {
                    cx.error(
                        format!(
                            "vertex `{}` has an offset, but rule `{}` is not a grid rule",
                            v.name, rule.name
                        ),
                        at,
                        Some(
                            "give every pattern vertex an offset `@dx,dy` to make a grid rule"
                                .into(),
                        ),
                    );
                }
            }
            None => match v.offset {
                None => cx.error(
                    format!(
                        "new vertex `{}` of grid rule `{}` needs an offset",
                        v.name, rule.name
                    ),
                    at,
                    Some(format!("write `({}:tag @dx,dy)`", v.name)),
                ),
                Some(o) if used.contains(&o) => cx.error(
                    format!(
                        "new vertex `{}` takes offset @{},{}, which another vertex has",
                        v.name, o[0], o[1]
                    ),
                    at,
                    Some("each grid cell holds one vertex".into()),
                ),
                Some(o) => {
                    used.push(o);
                    out.push(o);
                }
            },
        }
    }
    out
}

/// The rewriting plan of one right-hand alternative.
pub(super) fn compile_alternative(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    labels: &mut Symbols,
    rule: &model::Rule,
    alt: &model::Alternative,
    (lhs_index, lhs_inside): (&BTreeMap<&str, usize>, &[(usize, usize)]),
    path: Path<'_>,
) -> Option<CompiledAlternative> {
    let errors_before = cx.errors.len();
    let at_alt = cx_loc(alt.span.or(rule.span), path);
    if !(alt.weight > 0.0 && alt.weight.is_finite()) {
        cx.error(
            format!(
                "an alternative of rule `{}` has weight {}; it must be greater than 0",
                rule.name, alt.weight
            ),
            at_alt.clone(),
            None,
        );
    }
    if alt.vertices.is_empty() {
        cx.error(
            format!("rule `{}` has an empty right-hand side", rule.name),
            at_alt,
            Some("a rule keeps, retags or creates at least one vertex".into()),
        );
    }
    let rhs_index = name_index(
        cx,
        alt.vertices.iter().map(|v| (v.name.as_str(), v.span)),
        path,
    );
    let n = rule.lhs.vertices.len();
    let VertexPlan {
        retag,
        set_attributes,
        fresh,
        rhs_end,
    } = plan_vertices(cx, tags, rule, alt, lhs_index, path);
    let deleted: Vec<usize> = rule
        .lhs
        .vertices
        .iter()
        .enumerate()
        .filter(|(_, v)| !rhs_index.contains_key(v.name.as_str()))
        .map(|(i, _)| i)
        .collect();
    let fresh_offsets = alternative_offsets(cx, rule, alt, lhs_index, path);
    let rhs_edges = resolve_edges(cx, &alt.edges, &rhs_index, labels, path);
    let rhs_inside = resolve_inside(cx, &alt.inside, &rhs_index, path);
    if cx.errors.len() > errors_before {
        return None;
    }
    let (removed_inside, added_inside) =
        containment_changes(lhs_inside, &rhs_inside, &rhs_end, &deleted);
    let (removed_edges, added_edges) = pair_edges(cx, rule, alt, &rhs_edges, &rhs_end, path);
    let (rhs_valence, valence_watch) = valences(alt, &rhs_edges, &rhs_end, &added_edges, n);

    Some(CompiledAlternative {
        weight: alt.weight,
        retag,
        set_attributes,
        vertex_delta: fresh.len() as i64 - deleted.len() as i64,
        deleted,
        fresh,
        fresh_offsets,
        removed_edges,
        added_edges,
        rhs_valence,
        valence_watch,
        removed_inside,
        added_inside,
    })
}

/// What an alternative's vertices do to the pattern's: the fields of
/// [`CompiledAlternative`] of the same names, and each right-hand vertex's
/// end.
struct VertexPlan {
    retag: Vec<Option<Symbol>>,
    set_attributes: Vec<Vec<(String, String)>>,
    fresh: Vec<(Symbol, Vec<(String, String)>)>,
    rhs_end: Vec<End>,
}

/// Per right-hand vertex: the pattern vertex it keeps (its new tag and
/// attributes) or the vertex it creates.
fn plan_vertices(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    rule: &model::Rule,
    alt: &model::Alternative,
    lhs_index: &BTreeMap<&str, usize>,
    path: Path<'_>,
) -> VertexPlan {
    let n = rule.lhs.vertices.len();
    let mut retag = vec![None; n];
    let mut set_attributes = vec![Vec::new(); n];
    let mut fresh = Vec::new();
    let mut rhs_end = Vec::new();
    for (k, v) in alt.vertices.iter().enumerate() {
        let at = cx_loc(v.span, path.item("vertices", k));
        let tag = v.tag.as_deref().and_then(|t| {
            if t == WILDCARD {
                cx.error(
                    format!("replacement vertex `{}` cannot have tag `*`", v.name),
                    at.clone(),
                    Some(format!("write `({})` to keep the host tag", v.name)),
                );
                None
            } else {
                resolve_tag(cx, tags, t, &at)
            }
        });
        let attrs: Vec<(String, String)> = v
            .attributes
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        match lhs_index.get(v.name.as_str()) {
            Some(&i) => {
                retag[i] = tag;
                set_attributes[i] = attrs;
                rhs_end.push(End::Kept(i));
            }
            None => {
                if v.tag.is_none() {
                    cx.error(
                        format!(
                            "replacement vertex `{}` is not in the pattern and has no tag",
                            v.name
                        ),
                        at,
                        Some(format!(
                            "give the new vertex a tag, `({}:room)`, or name a pattern vertex",
                            v.name
                        )),
                    );
                }
                rhs_end.push(End::Fresh(fresh.len()));
                fresh.push((tag.unwrap_or(Symbol(0)), attrs));
            }
        }
    }
    VertexPlan {
        retag,
        set_attributes,
        fresh,
        rhs_end,
    }
}

/// Containment pairs by pattern index: kept ones stay, pattern-only ones
/// are dropped (when the child survives), right-only ones are added.
/// Returns the dropped children and the added pairs.
fn containment_changes(
    lhs_inside: &[(usize, usize)],
    rhs_inside: &[(usize, usize)],
    rhs_end: &[End],
    deleted: &[usize],
) -> (Vec<usize>, Vec<(End, End)>) {
    let rhs_pairs: Vec<(End, End)> = rhs_inside
        .iter()
        .map(|&(c, p)| (rhs_end[c], rhs_end[p]))
        .collect();
    let removed_inside: Vec<usize> = lhs_inside
        .iter()
        .filter(|&&(c, p)| {
            !rhs_pairs.contains(&(End::Kept(c), End::Kept(p))) && !deleted.contains(&c)
        })
        .map(|&(c, _)| c)
        .collect();
    let added_inside: Vec<(End, End)> = rhs_pairs
        .iter()
        .copied()
        .filter(|&(c, p)| match (c, p) {
            (End::Kept(c), End::Kept(p)) => !lhs_inside.contains(&(c, p)),
            _ => true,
        })
        .collect();
    (removed_inside, added_inside)
}

/// Pairs each pattern edge with an identical right-hand edge (by vertex
/// names); returns the unpaired pattern edges (removed) and the unpaired
/// right edges (added).
fn pair_edges(
    cx: &mut Cx<'_>,
    rule: &model::Rule,
    alt: &model::Alternative,
    rhs_edges: &[Option<(usize, usize, Option<Symbol>)>],
    rhs_end: &[End],
    path: Path<'_>,
) -> (Vec<usize>, Vec<NewEdge>) {
    // Right-hand edges by what makes two edges the same (model::same_edge),
    // each list in order: a pattern edge takes the first unpaired one.
    let mut unpaired: BTreeMap<_, std::collections::VecDeque<usize>> = BTreeMap::new();
    for (k, re) in alt.edges.iter().enumerate() {
        unpaired.entry(edge_key(re)).or_default().push_back(k);
    }
    let mut paired_rhs = BTreeSet::new();
    let mut removed_edges = Vec::new();
    for (j, le) in rule.lhs.edges.iter().enumerate() {
        let pair = unpaired
            .get_mut(&edge_key(le))
            .and_then(|list| list.pop_front())
            .map(|k| (k, &alt.edges[k]));
        match pair {
            Some((k, re)) => {
                debug_assert!(model::same_edge(le, re));
                paired_rhs.insert(k);
                if re.length.is_some() {
                    cx.error(
                        format!(
                            "edge between `{}` and `{}` is kept from the pattern, so it keeps its length factor",
                            re.source, re.target
                        ),
                        cx_loc(re.span, path.item("edges", k)),
                        Some("only an edge the rule adds can take `{length: F}`".into()),
                    );
                }
            }
            None => removed_edges.push(j),
        }
    }
    let mut added_edges: Vec<NewEdge> = Vec::new();
    for (k, re) in alt.edges.iter().enumerate() {
        if paired_rhs.contains(&k) {
            continue;
        }
        let (a, b, label) = rhs_edges[k].expect("resolved");
        added_edges.push(NewEdge {
            source: rhs_end[a],
            target: rhs_end[b],
            directed: re.directed,
            cosmetic: re.cosmetic,
            label,
            length: re.length,
        });
    }
    (removed_edges, added_edges)
}

/// Per pattern vertex its valence in the replacement graph, and the kept
/// vertices that gain a non-cosmetic edge.
fn valences(
    alt: &model::Alternative,
    rhs_edges: &[Option<(usize, usize, Option<Symbol>)>],
    rhs_end: &[End],
    added_edges: &[NewEdge],
    n: usize,
) -> (Vec<usize>, Vec<usize>) {
    let mut rhs_valence = vec![0; n];
    for (re, r) in alt.edges.iter().zip(rhs_edges) {
        let (a, b, _) = r.expect("resolved");
        if re.cosmetic {
            continue;
        }
        for end in [a, b] {
            if let End::Kept(i) = rhs_end[end] {
                rhs_valence[i] += 1;
            }
        }
    }
    let mut valence_watch: Vec<usize> = added_edges
        .iter()
        .filter(|e| !e.cosmetic)
        .flat_map(|e| [e.source, e.target])
        .filter_map(|end| match end {
            End::Kept(i) => Some(i),
            End::Fresh(_) => None,
        })
        .collect();
    valence_watch.sort_unstable();
    valence_watch.dedup();
    (rhs_valence, valence_watch)
}
