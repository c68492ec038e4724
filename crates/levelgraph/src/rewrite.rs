//! Applying a rule at a match: the rewriting step of a derivation.
//!
//! Semantics (documented in `docs/grammar-language.md`, "Rewriting"):
//! pattern vertices named on the right are kept (retagged when the right
//! gives a tag, attributes merged); pattern vertices not named on the right
//! are deleted with every incident host edge, including edges the pattern
//! does not mention; right-hand vertices with new names are created; pattern
//! edges with an identical right-hand edge are kept as they are (label,
//! length factor), the others removed; right-hand edges with no identical
//! pattern edge are added, unless the host already has an identical edge,
//! with length factor 1, or with `{length: F}` F times the mean length
//! factor of the matched pattern edges (subdivided edges).
//!
//! Containment (`(i) in (r)`) works like edges: a pattern containment not
//! on the right takes the child out to the top level, a right-hand
//! containment not in the pattern stores the child in the parent (moving it
//! if it was stored elsewhere). Deleting a vertex deletes everything stored
//! in it, except kept vertices whose containment the pattern names.

use crate::grammar::{CompiledAlternative, End, NewEdge};
use crate::graph::{Edge, EdgeId, EdgeKind, Graph, VertexId};
use crate::matching::Match;

/// Whether applying `rule` at `m` keeps every vertex within `max_valence`
/// (the build parameters' valence limit): a kept vertex whose valence would
/// rise above `max(max_valence, its valence in the replacement)` blocks the
/// application.
pub(crate) fn valence_allows(
    host: &Graph,
    plan: &CompiledAlternative,
    m: &Match,
    max_valence: usize,
) -> bool {
    plan.valence_watch.iter().all(|&i| {
        let v = m.vertices[i];
        let before = host.valence(v);
        let after = valence_after(host, plan, m, i);
        after <= before || after <= max_valence.max(plan.rhs_valence[i])
    })
}

/// Valence of the host vertex matched by pattern vertex `i` after applying
/// `rule` at `m`.
fn valence_after(host: &Graph, plan: &CompiledAlternative, m: &Match, i: usize) -> usize {
    let v = m.vertices[i];
    let deleted = |w: VertexId| plan.deleted.iter().any(|&d| m.vertices[d] == w);
    let mut lost = 0;
    for link in host.incidences(v) {
        if link.kind.is_cosmetic() {
            continue;
        }
        let removed = plan.removed_edges.iter().any(|&j| m.edges[j] == link.edge);
        if removed || deleted(link.other) {
            lost += 1;
        }
    }
    let mut gained = 0;
    for e in &plan.added_edges {
        if e.cosmetic || (e.source != End::Kept(i) && e.target != End::Kept(i)) {
            continue;
        }
        let exists = match (e.source, e.target) {
            (End::Kept(a), End::Kept(b)) => host
                .find_identical_edge(&host_edge(m.vertices[a], m.vertices[b], e))
                .is_some(),
            _ => false,
        };
        if !exists {
            gained += 1;
        }
    }
    host.valence(v) - lost + gained
}

fn host_edge(source: VertexId, target: VertexId, e: &NewEdge) -> Edge {
    Edge {
        source,
        target,
        directed: e.directed,
        cosmetic: e.cosmetic,
        label: e.label,
        length_factor: 1.0,
    }
}

/// An edge an application removed or added, as it was when it changed:
/// the stores read what they need from here instead of from the host's
/// edge table (which a removed edge has left, and where an added edge's
/// record is a random access into a large table).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChangedEdge {
    pub(crate) id: EdgeId,
    pub(crate) source: VertexId,
    pub(crate) target: VertexId,
    /// Its kind seen from its source (direction, cosmetic flag, label).
    pub(crate) kind: EdgeKind,
}

impl ChangedEdge {
    fn new(id: EdgeId, edge: &Edge) -> Self {
        ChangedEdge {
            id,
            source: edge.source,
            target: edge.target,
            kind: edge.kind(),
        }
    }
}

/// What one application changed, for the incremental match stores
/// ([`crate::incremental`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Changes {
    /// Live vertices whose tag, attributes or parent changed, and new vertices.
    pub(crate) touched: Vec<VertexId>,
    /// The new vertices (also in `touched`): every edge at one of them is
    /// in `added_edges`.
    pub(crate) created: Vec<VertexId>,
    /// Vertices removed (with everything stored in them).
    pub(crate) deleted: Vec<VertexId>,
    /// Edges removed, with their endpoints and kinds.
    pub(crate) removed_edges: Vec<ChangedEdge>,
    /// Edges added (all live after the application), with their endpoints
    /// and kinds.
    pub(crate) added_edges: Vec<ChangedEdge>,
    /// `(child, parent)` containments made or broken.
    pub(crate) relinked: Vec<(VertexId, VertexId)>,
}

impl Changes {
    pub(crate) fn clear(&mut self) {
        self.touched.clear();
        self.created.clear();
        self.deleted.clear();
        self.removed_edges.clear();
        self.added_edges.clear();
        self.relinked.clear();
    }
}

/// Applies `plan` at `m` and records what changed in `changes` (which it
/// clears first; `changes.created` lists the new vertices in right-hand
/// order).
pub(crate) fn apply(
    host: &mut Graph,
    plan: &CompiledAlternative,
    m: &Match,
    changes: &mut Changes,
) {
    changes.clear();
    // Subdivided edges: a factor relative to the host part the
    // rule replaces, read before its edges go.
    let mean_factor = if plan.added_edges.iter().any(|e| e.length.is_some()) {
        mean_length_factor(host, m)
    } else {
        1.0
    };
    for &j in &plan.removed_edges {
        let e = m.edges[j];
        if let Some(edge) = host.remove_edge(e) {
            changes.removed_edges.push(ChangedEdge::new(e, &edge));
        }
    }
    // Taken out before deletions, so a kept vertex stored in a deleted
    // one survives at the top level.
    for &i in &plan.removed_inside {
        let child = m.vertices[i];
        if let Some(old) = host.parent(child) {
            host.set_parent(child, None);
            changes.relinked.push((child, old));
            changes.touched.push(child);
        }
    }
    // A kept vertex stored (at any depth) in a vertex being deleted is
    // named on the right, so it survives: out to the top level.
    if !plan.deleted.is_empty() {
        for (i, &v) in m.vertices.iter().enumerate() {
            if plan.deleted.contains(&i) {
                continue;
            }
            let mut at = host.parent(v);
            while let Some(p) = at {
                if plan.deleted.iter().any(|&d| m.vertices[d] == p) {
                    let old = host.parent(v).expect("stored");
                    host.set_parent(v, None);
                    changes.relinked.push((v, old));
                    changes.touched.push(v);
                    break;
                }
                at = host.parent(p);
            }
        }
    }
    for &i in &plan.deleted {
        record_deletion(host, m.vertices[i], changes);
        host.remove_vertex(m.vertices[i]);
    }
    for (i, &v) in m.vertices.iter().enumerate() {
        let mut touched = false;
        if let Some(tag) = plan.retag[i] {
            touched |= host.vertex(v).is_some_and(|x| x.tag != tag);
            host.set_tag(v, tag);
        }
        if !plan.set_attributes[i].is_empty() {
            touched = true;
            let vertex = host.vertex_mut(v).expect("kept vertex is live");
            for (k, val) in &plan.set_attributes[i] {
                vertex.attributes.insert(k.clone(), val.clone());
            }
        }
        if touched {
            changes.touched.push(v);
        }
    }
    for (tag, attrs) in &plan.fresh {
        let v = host.add_vertex(*tag);
        if !attrs.is_empty() {
            let vertex = host.vertex_mut(v).expect("new vertex");
            vertex.attributes.extend(attrs.iter().cloned());
        }
        changes.created.push(v);
    }
    changes.touched.extend_from_slice(&changes.created);
    let created = &changes.created;
    if let Some(frame) = m.frame {
        for (&v, &offset) in created.iter().zip(&plan.fresh_offsets) {
            let cell = frame
                .checked_place(offset)
                .expect("grid_allows checked this application");
            let placed = host.set_cell(v, Some(cell));
            debug_assert!(placed, "grid_allows checked this application");
            host.vertex_mut(v).expect("new vertex").position =
                Some([f64::from(cell[0]), f64::from(cell[1])]);
        }
    }
    let resolve = |end: End| match end {
        End::Kept(i) => m.vertices[i],
        End::Fresh(j) => created[j],
    };
    for e in &plan.added_edges {
        let before = host.edge_count();
        let mut edge = host_edge(resolve(e.source), resolve(e.target), e);
        if let Some(f) = e.length {
            edge.length_factor = f * mean_factor;
        }
        // Read before the edge moves into the graph.
        let (source, target, kind) = (edge.source, edge.target, edge.kind());
        let id = host.add_edge(edge);
        if host.edge_count() > before {
            changes.added_edges.push(ChangedEdge {
                id,
                source,
                target,
                kind,
            });
        }
    }
    if plan.added_inside.is_empty() {
        // Nothing to store (most rules): no list of moves to make.
        return;
    }
    // Detach every child first, then attach: each intermediate state is
    // part of the final one, which inside_allows found free of cycles.
    let moves: Vec<(VertexId, VertexId)> = plan
        .added_inside
        .iter()
        .map(|&(c, p)| (resolve(c), resolve(p)))
        .filter(|&(c, p)| host.parent(c) != Some(p))
        .collect();
    for &(child, _) in &moves {
        if let Some(old) = host.parent(child) {
            host.set_parent(child, None);
            changes.relinked.push((child, old));
        }
    }
    for &(child, parent) in &moves {
        let stored = host.set_parent(child, Some(parent));
        debug_assert!(stored, "inside_allows checked this application");
        changes.relinked.push((child, parent));
        changes.touched.push(child);
    }
}

/// The mean length factor of the host edges matched by the pattern's
/// edges; 1 for a pattern without edges.
fn mean_length_factor(host: &Graph, m: &Match) -> f64 {
    let factors: Vec<f64> = m
        .edges
        .iter()
        .filter_map(|&e| host.edge(e).map(|x| x.length_factor))
        .collect();
    if factors.is_empty() {
        1.0
    } else {
        factors.iter().sum::<f64>() / factors.len() as f64
    }
}

/// Records `v`, everything stored in it and all their edges as removed,
/// before [`Graph::remove_vertex`] takes them.
fn record_deletion(host: &Graph, v: VertexId, changes: &mut Changes) {
    if !host.contains_vertex(v) {
        return;
    }
    let mut stack = vec![v];
    while let Some(x) = stack.pop() {
        changes.deleted.push(x);
        if let Some(p) = host.parent(x) {
            if x == v {
                changes.relinked.push((x, p));
            }
        }
        for e in host.incident_edges(x) {
            let edge = host.edge(e).expect("incident edge is live");
            if !changes.removed_edges.iter().any(|r| r.id == e) {
                changes.removed_edges.push(ChangedEdge::new(e, edge));
            }
        }
        stack.extend(host.children(x).iter().copied());
    }
}

/// Whether every cell a grid rule's new vertices go to is free and within
/// ±[`crate::matching::MAX_CELL`] (atomic application on a grid: a rule that
/// cannot place all of its right-hand side changes nothing). Cells of vertices
/// this application deletes count as taken: deletion and placement are not
/// reordered.
pub(crate) fn grid_allows(host: &Graph, plan: &CompiledAlternative, m: &Match) -> bool {
    let Some(frame) = m.frame else { return true };
    plan.fresh_offsets.iter().all(|&o| {
        frame
            .checked_place(o)
            .is_some_and(|c| host.vertex_at(c).is_none())
    })
}

/// Whether the containments `plan` adds at `m` keep every vertex out of
/// itself: storing a kept vertex in a kept one that is (at any depth)
/// stored in it would make a cycle, so such a match is not applicable.
///
/// The whole application is simulated: the containments the pattern drops
/// are dropped first, then every containment the alternative adds (new
/// vertices included) is made, and only the resulting parent links are
/// checked, so a swap `(c) in (a) => (a) in (c)` is allowed and two links
/// that close a cycle together are not.
pub(crate) fn inside_allows(host: &Graph, plan: &CompiledAlternative, m: &Match) -> bool {
    // Vertices by a common numbering: host ids, new vertices after them.
    let bound = host.vertex_bound() as u32;
    let id = |end: End| match end {
        End::Kept(i) => m.vertices[i],
        End::Fresh(j) => VertexId(bound + j as u32),
    };
    let mut overrides: Vec<(VertexId, Option<VertexId>)> = plan
        .removed_inside
        .iter()
        .map(|&i| (m.vertices[i], None))
        .collect();
    for &(c, p) in &plan.added_inside {
        let child = id(c);
        overrides.retain(|&(x, _)| x != child);
        overrides.push((child, Some(id(p))));
    }
    let parent_of = |v: VertexId| -> Option<VertexId> {
        match overrides.iter().find(|&&(x, _)| x == v) {
            Some(&(_, p)) => p,
            None if v.0 < bound => host.parent(v),
            None => None,
        }
    };
    // Whether anything may be stored in `v` after the change: a cycle
    // through `v` needs something below it.
    let may_hold = |v: VertexId| -> bool {
        (v.0 < bound && !host.children(v).is_empty())
            || overrides.iter().any(|&(_, p)| p == Some(v))
    };
    // A cycle would have to pass through a changed link: walk up from each
    // (a new vertex, or one that stores nothing, heads no cycle: without
    // this a level that nests one room deeper each step walked the whole
    // chain each time).
    // When only new vertices change parent (a rule that creates stored
    // vertices), a walk that reaches a host vertex only meets host vertices
    // above it, whose parents are unchanged and acyclic.
    let only_fresh_move = overrides.iter().all(|&(x, _)| x.0 >= bound);
    let limit = host.vertex_count() + overrides.len() + 1;
    overrides.iter().all(|&(start, _)| {
        if !may_hold(start) {
            return true;
        }
        let mut at = parent_of(start);
        for _ in 0..limit {
            match at {
                None => return true,
                Some(p) if p == start => return false,
                Some(p) if only_fresh_move && p.0 < bound => return true,
                Some(p) => at = parent_of(p),
            }
        }
        false
    })
}
