//! Pattern matching: all injective, non-induced morphisms of a pattern
//! (a rule's left-hand side) into a host graph.
//!
//! A match maps every pattern vertex to a distinct host vertex whose tag is
//! in the pattern vertex's tag set (and whose valence is the required one,
//! when the pattern gives one), and every pattern edge to a distinct host
//! edge between the images of its ends with the same direction, label and
//! cosmetic flag (an undirected pattern edge matches an undirected host edge
//! either way round). *Non-induced*: host edges between matched vertices that
//! the pattern does not mention are allowed, unless the pattern is
//! `induced`. A complete match is then checked for containment (`(i) in (r)`:
//! the image of `i` is stored in the image of `r`), forbidden tags (seed
//! 000's "false" values: a host edge incident to a matched vertex, not
//! covered by the match, must not lead to a vertex with a forbidden tag) and
//! negative application conditions ([`Nac`]: no extension of the match by
//! the condition's own vertices and edges may exist).
//!
//! Search (the approach of VF2-style matchers, specialised to small
//! patterns): a pattern builds one search plan per possible root when it is
//! created; each search starts at the most selective vertex (fewest host
//! candidates by tag, then highest degree) and extends along pattern edges,
//! so each later vertex is found among the host neighbours of an
//! already-matched vertex rather than among all host vertices. Host
//! candidates for a root come from the graph's tag index. Matches are
//! produced in a deterministic order.

use std::ops::ControlFlow;

use crate::graph::{Cell, EdgeId, Graph, Symbol, VertexId};

/// Which host tags a pattern vertex accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagTest {
    /// Any tag (`*`).
    Any,
    /// One of these tags (`a|b`), sorted and without duplicates.
    OneOf(Vec<Symbol>),
}

impl TagTest {
    /// Whether `tag` passes.
    #[inline]
    pub fn accepts(&self, tag: Symbol) -> bool {
        match self {
            TagTest::Any => true,
            TagTest::OneOf(tags) => tags.contains(&tag),
        }
    }
}

/// A pattern vertex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternVertex {
    /// Accepted host tags.
    pub tags: TagTest,
    /// Tags that host vertices joined by an uncovered host edge must not have.
    pub forbidden: Vec<Symbol>,
    /// Attributes the host vertex must carry with exactly these values.
    pub attributes: Vec<(String, String)>,
    /// Exact valence (incident non-cosmetic host edges) required, if any.
    pub valence: Option<u32>,
}

/// A pattern edge between pattern vertices `source` and `target` (indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternEdge {
    /// Index of the first vertex (the tail when directed).
    pub source: usize,
    /// Index of the second vertex (the head when directed).
    pub target: usize,
    /// Must match a directed host edge of the same orientation.
    pub directed: bool,
    /// Must match a cosmetic host edge (and a non-cosmetic one only otherwise).
    pub cosmetic: bool,
    /// Must match a host edge with exactly this label (or no label).
    pub label: Option<Symbol>,
}

/// A match: `vertices[i]` is the image of pattern vertex `i`, `edges[j]` of
/// pattern edge `j`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Match {
    /// Host vertex of each pattern vertex.
    pub vertices: Vec<VertexId>,
    /// Host edge of each pattern edge.
    pub edges: Vec<EdgeId>,
    /// Grid rules: where and how the rule was laid on the grid.
    pub frame: Option<Frame>,
}

/// How a grid rule lies on the grid: its origin cell and orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The host cell of the rule's offset `@0,0`.
    pub origin: Cell,
    /// 0–3: turned by 0°, 90°, 180°, 270°; 4–7: the same after mirroring
    /// (`dx` negated first).
    pub transform: u8,
}

impl Frame {
    /// The host cell of rule offset `offset` (seed 003's ChangeOrientation).
    pub fn place(&self, offset: [i32; 2]) -> Cell {
        let [dx, dy] = offset;
        let (x, y) = if self.transform >= 4 {
            (-dx, dy)
        } else {
            (dx, dy)
        };
        let (x, y) = match self.transform % 4 {
            0 => (x, y),
            1 => (-y, x),
            2 => (-x, -y),
            _ => (y, -x),
        };
        [self.origin[0] + x, self.origin[1] + y]
    }
}

/// A compiled pattern, ready to search.
#[derive(Clone, Debug)]
pub struct Pattern {
    vertices: Vec<PatternVertex>,
    edges: Vec<PatternEdge>,
    degree: Vec<usize>,
    /// Per vertex: indices of incident pattern edges.
    incident: Vec<Vec<usize>>,
    /// `plans[r]`: the search order when pattern vertex `r` is the root.
    /// Built once; each search only chooses the root from host tag counts.
    plans: Vec<SearchPlan>,
    /// Induced matching: no host edge between matched vertices may be left
    /// out of the match.
    induced: bool,
    /// Negative application conditions: a match that any of them extends
    /// is rejected.
    nacs: Vec<Nac>,
    /// `(child, parent)`: the child's image must be stored in the parent's.
    inside: Vec<(usize, usize)>,
    /// Grid rules: each vertex's offset, and the orientations to try.
    grid: Option<(Vec<[i32; 2]>, Vec<u8>)>,
}

/// Which host changes can affect a pattern's matches beyond the matches
/// that contain a changed vertex or use a removed edge (used by the
/// derivation's incremental match stores).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sensitivity {
    /// Per pattern vertex: whether its matches depend on the vertex's
    /// neighbourhood (exact valence, forbidden tags, or a `where not` edge
    /// or containment to one of the condition's own vertices), so an edge
    /// added or removed there can create or destroy a match.
    pub single: Vec<bool>,
    /// Whether matches depend on links between two matched vertices that
    /// the pattern does not use (`induced`, or a `where not` edge between
    /// two pattern vertices).
    pub pair: bool,
    /// How many links away from the matched vertices the conditions look
    /// (1 for forbidden tags or a condition vertex next to the match;
    /// `usize::MAX` when a condition is not linked to the match at all).
    pub reach: usize,
}

/// A negative application condition: a pattern whose first `bound`
/// vertices are the vertices of the pattern it guards (bound to a match),
/// followed by its own vertices. It *extends* a match when its own
/// vertices and its edges can be mapped injectively into the host, its own
/// vertices onto host vertices outside the match and its edges onto host
/// edges the match does not use.
#[derive(Clone, Debug)]
pub struct Nac {
    pattern: Pattern,
    bound: usize,
    plan: SearchPlan,
}

impl Nac {
    /// A condition over `vertices` (the first `bound` stand for the guarded
    /// pattern's vertices, in its order; give them `TagTest::Any`), `edges`
    /// and containments `inside` (`(child, parent)` vertex indices).
    /// **Panics** if `bound > vertices.len()` or an index is out of range.
    pub fn new(
        vertices: Vec<PatternVertex>,
        edges: Vec<PatternEdge>,
        bound: usize,
        inside: Vec<(usize, usize)>,
    ) -> Self {
        assert!(bound <= vertices.len());
        let pattern = Pattern::new(vertices, edges).with_inside(inside);
        let prefix: Vec<usize> = (0..bound).collect();
        let plan = pattern.plan_with_prefix(&prefix);
        Nac {
            pattern,
            bound,
            plan,
        }
    }

    /// Whether the condition extends match `m` (of the guarded pattern) in `host`.
    pub fn extends(&self, host: &Graph, m: &Match) -> bool {
        debug_assert_eq!(m.vertices.len(), self.bound);
        let fixed: Vec<Option<VertexId>> = m.vertices.iter().copied().map(Some).collect();
        SearchState::new(&self.pattern, host, &self.plan, &fixed, m.edges.clone())
            .extend(0, &mut |_| ControlFlow::Break(()))
            .is_break()
    }
}

/// How to extend a partial match by one pattern vertex.
#[derive(Clone, Debug)]
struct Step {
    vertex: usize,
    /// `Some(edge)`: find candidates among host neighbours along `edge`,
    /// which joins `vertex` to an earlier step's vertex. `None`: a new
    /// component; candidates come from the tag index.
    via: Option<usize>,
    /// Other pattern edges from `vertex` to earlier vertices, checked after.
    checks: Vec<usize>,
}

/// The order in which a [`Pattern`]'s vertices are matched from one root.
#[derive(Clone, Debug)]
struct SearchPlan {
    steps: Vec<Step>,
}

impl Pattern {
    /// A pattern from vertices and edges (edges index into `vertices`).
    /// **Panics** if an edge names a vertex index out of range.
    pub fn new(vertices: Vec<PatternVertex>, edges: Vec<PatternEdge>) -> Self {
        let mut degree = vec![0; vertices.len()];
        let mut incident = vec![Vec::new(); vertices.len()];
        for (j, e) in edges.iter().enumerate() {
            assert!(e.source < vertices.len() && e.target < vertices.len());
            degree[e.source] += 1;
            incident[e.source].push(j);
            if e.target != e.source {
                degree[e.target] += 1;
                incident[e.target].push(j);
            }
        }
        let mut pattern = Pattern {
            vertices,
            edges,
            degree,
            incident,
            plans: Vec::new(),
            induced: false,
            nacs: Vec::new(),
            inside: Vec::new(),
            grid: None,
        };
        pattern.plans = (0..pattern.vertices.len())
            .map(|root| pattern.plan_with_prefix(&[root]))
            .collect();
        pattern
    }

    /// The same pattern as a grid rule (seed 003): vertex `i` must be the
    /// host vertex in cell `frame.place(offsets[i])`, for every frame whose
    /// origin puts vertex 0 on a host vertex and whose transform is in
    /// `transforms`. Edges and all other conditions still apply.
    /// **Panics** unless there is one offset per vertex.
    pub fn with_grid(mut self, offsets: Vec<[i32; 2]>, transforms: Vec<u8>) -> Self {
        assert_eq!(offsets.len(), self.vertices.len());
        self.grid = Some((offsets, transforms));
        self
    }

    /// The same pattern, requiring each `(child, parent)` pair of vertex
    /// indices to match a host vertex stored in the other's image.
    /// **Panics** if an index is out of range.
    pub fn with_inside(mut self, inside: Vec<(usize, usize)>) -> Self {
        let n = self.vertices.len();
        assert!(inside.iter().all(|&(c, p)| c < n && p < n));
        self.inside = inside;
        self
    }

    /// The same pattern with induced matching switched on or off and the
    /// given negative application conditions (each built over this
    /// pattern's vertices, see [`Nac::new`]).
    pub fn with_conditions(mut self, induced: bool, nacs: Vec<Nac>) -> Self {
        self.induced = induced;
        self.nacs = nacs;
        self
    }

    /// The pattern's vertices.
    pub fn vertices(&self) -> &[PatternVertex] {
        &self.vertices
    }

    /// The pattern's edges.
    pub fn edges(&self) -> &[PatternEdge] {
        &self.edges
    }

    /// Number of host vertices a pattern vertex could be mapped to by tag alone.
    fn candidate_count(&self, host: &Graph, i: usize) -> usize {
        match &self.vertices[i].tags {
            TagTest::Any => host.vertex_count(),
            TagTest::OneOf(tags) => tags.iter().map(|&t| host.vertices_tagged(t).len()).sum(),
        }
    }

    /// How selective a vertex is without looking at a host: fewer
    /// alternative tags first, the wildcard last.
    fn static_selectivity(&self, v: usize) -> usize {
        match &self.vertices[v].tags {
            TagTest::Any => usize::MAX,
            TagTest::OneOf(tags) => tags.len(),
        }
    }

    /// The root for a search of `host`: the vertex with the fewest host
    /// candidates by tag, then the highest degree, then the lowest index.
    fn choose_root(&self, host: &Graph) -> usize {
        (0..self.vertices.len())
            .min_by_key(|&v| {
                (
                    self.candidate_count(host, v),
                    std::cmp::Reverse(self.degree[v]),
                    v,
                )
            })
            .expect("pattern has a vertex")
    }

    /// The search order starting with the vertices of `prefix` (each
    /// placed without a search edge: a root, or a vertex bound in advance),
    /// then repeatedly the unplaced vertex with the most edges to placed
    /// ones (then the most selective, then the highest degree), found
    /// through one of those edges; a vertex with no edge to the placed ones
    /// starts a new component.
    fn plan_with_prefix(&self, prefix: &[usize]) -> SearchPlan {
        let n = self.vertices.len();
        let mut placed = vec![false; n];
        let mut steps = Vec::with_capacity(n);
        let joins_of = |v: usize, placed: &[bool]| -> Vec<usize> {
            self.incident[v]
                .iter()
                .copied()
                .filter(|&j| {
                    let e = &self.edges[j];
                    e.source != e.target && placed[self.other_end(j, v)]
                })
                .collect()
        };
        let loops_of = |v: usize| -> Vec<usize> {
            self.incident[v]
                .iter()
                .copied()
                .filter(|&j| self.edges[j].source == self.edges[j].target)
                .collect()
        };
        for &v in prefix {
            let mut checks = joins_of(v, &placed);
            checks.extend(loops_of(v));
            placed[v] = true;
            steps.push(Step {
                vertex: v,
                via: None,
                checks,
            });
        }
        while steps.len() < n {
            let next = {
                (0..n)
                    .filter(|&v| !placed[v])
                    .map(|v| (v, joins_of(v, &placed)))
                    .filter(|(_, joins)| !joins.is_empty())
                    .min_by_key(|(v, joins)| {
                        (
                            std::cmp::Reverse(joins.len()),
                            self.static_selectivity(*v),
                            std::cmp::Reverse(self.degree[*v]),
                            *v,
                        )
                    })
            };
            let step = match next {
                Some((v, joins)) => {
                    let mut checks: Vec<usize> = joins[1..].to_vec();
                    checks.extend(loops_of(v));
                    Step {
                        vertex: v,
                        via: Some(joins[0]),
                        checks,
                    }
                }
                None => {
                    let v = (0..n)
                        .filter(|&v| !placed[v])
                        .min_by_key(|&v| {
                            (
                                self.static_selectivity(v),
                                std::cmp::Reverse(self.degree[v]),
                                v,
                            )
                        })
                        .expect("an unplaced vertex remains");
                    // Self-loops on a root are checked like any other edge.
                    Step {
                        vertex: v,
                        via: None,
                        checks: loops_of(v),
                    }
                }
            };
            placed[step.vertex] = true;
            steps.push(step);
        }
        SearchPlan { steps }
    }

    fn other_end(&self, edge: usize, v: usize) -> usize {
        let e = &self.edges[edge];
        if e.source == v {
            e.target
        } else {
            e.source
        }
    }

    /// Calls `visit` on every match, in a deterministic order, until it
    /// returns `Break`. Returns `Break` if `visit` did.
    pub fn for_each_match(
        &self,
        host: &Graph,
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.vertices.is_empty() {
            return ControlFlow::Continue(());
        }
        if let Some((offsets, transforms)) = &self.grid {
            return self.grid_search_from(host, offsets, transforms, None, visit);
        }
        let plan = &self.plans[self.choose_root(host)];
        SearchState::new(self, host, plan, &[], Vec::new()).extend(0, visit)
    }

    /// Grid matching: for each orientation and each host vertex that can
    /// be pattern vertex 0, the other vertices are the ones in the cells
    /// the offsets point to; then edges and the complete-match checks.
    /// With `anchor` `(i, v)`, only frames that put pattern vertex `i` on
    /// host vertex `v` are tried.
    fn grid_search_from(
        &self,
        host: &Graph,
        offsets: &[[i32; 2]],
        transforms: &[u8],
        anchor: Option<(usize, VertexId)>,
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (root, candidates): (usize, Vec<VertexId>) = match anchor {
            Some((i, v)) => (i, vec![v]),
            None => (
                0,
                match &self.vertices[0].tags {
                    TagTest::Any => host.vertex_ids().collect(),
                    TagTest::OneOf(tags) => tags
                        .iter()
                        .flat_map(|&t| host.vertices_tagged(t).iter().copied())
                        .collect(),
                },
            ),
        };
        let mut image = Match {
            vertices: vec![VertexId(u32::MAX); self.vertices.len()],
            edges: vec![EdgeId(u32::MAX); self.edges.len()],
            frame: None,
        };
        for &transform in transforms {
            'origin: for &h0 in &candidates {
                let Some(cell0) = host.vertex(h0).and_then(|v| v.cell) else {
                    continue;
                };
                let turned = Frame {
                    origin: [0, 0],
                    transform,
                }
                .place(offsets[root]);
                let frame = Frame {
                    origin: [cell0[0] - turned[0], cell0[1] - turned[1]],
                    transform,
                };
                for (i, &offset) in offsets.iter().enumerate() {
                    match host.vertex_at(frame.place(offset)) {
                        Some(v) if self.vertex_fits(host, i, v) => image.vertices[i] = v,
                        _ => continue 'origin,
                    }
                }
                let mut used: Vec<EdgeId> = Vec::with_capacity(self.edges.len());
                for (j, pe) in self.edges.iter().enumerate() {
                    let (a, b) = (image.vertices[pe.source], image.vertices[pe.target]);
                    let found = shorter_incidence(host, a, b)
                        .iter()
                        .copied()
                        .find(|&e| !used.contains(&e) && self.edge_fits(host, j, e, a, b));
                    match found {
                        Some(e) => {
                            image.edges[j] = e;
                            used.push(e);
                        }
                        None => continue 'origin,
                    }
                }
                image.frame = Some(frame);
                if self.complete_ok(host, &image) {
                    visit(&image)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Calls `visit` on every match in which each pattern vertex
    /// `anchors[k].0` is the host vertex `anchors[k].1`, in a deterministic
    /// order. Used to find the matches a local change can create without
    /// searching the whole host.
    pub fn for_each_anchored(
        &self,
        host: &Graph,
        anchors: &[(usize, VertexId)],
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if anchors.is_empty() {
            return self.for_each_match(host, visit);
        }
        if let Some((offsets, transforms)) = &self.grid {
            // One anchor fixes the grid frame per orientation; the rest must agree.
            let (i, v) = anchors[0];
            return self.grid_search_from(host, offsets, transforms, Some((i, v)), &mut |m| {
                if anchors.iter().all(|&(k, w)| m.vertices[k] == w) {
                    visit(m)
                } else {
                    ControlFlow::Continue(())
                }
            });
        }
        let mut fixed = vec![None; self.vertices.len()];
        for &(i, v) in anchors {
            match fixed[i] {
                Some(w) if w != v => return ControlFlow::Continue(()),
                _ => fixed[i] = Some(v),
            }
        }
        let owned;
        let plan = if anchors.len() == 1 {
            &self.plans[anchors[0].0]
        } else {
            let mut prefix: Vec<usize> = Vec::new();
            for &(i, _) in anchors {
                if !prefix.contains(&i) {
                    prefix.push(i);
                }
            }
            owned = self.plan_with_prefix(&prefix);
            &owned
        };
        SearchState::new(self, host, plan, &fixed, Vec::new()).extend(0, visit)
    }

    /// How far a change in the host can reach into this pattern's matches:
    /// which pattern vertices' matches depend on their neighbourhood, and
    /// how far the conditions look. See [`Sensitivity`].
    pub fn sensitivity(&self) -> Sensitivity {
        let n = self.vertices.len();
        let mut single: Vec<bool> = self
            .vertices
            .iter()
            .map(|v| v.valence.is_some() || !v.forbidden.is_empty())
            .collect();
        let mut pair = self.induced;
        let mut reach = usize::from(self.vertices.iter().any(|v| !v.forbidden.is_empty()));
        for nac in &self.nacs {
            let total = nac.pattern.vertices.len();
            // Links of the condition: its edges and containments.
            let links: Vec<(usize, usize)> = nac
                .pattern
                .edges
                .iter()
                .map(|e| (e.source, e.target))
                .chain(nac.pattern.inside.iter().copied())
                .collect();
            for &(a, b) in &links {
                match (a < nac.bound, b < nac.bound) {
                    (true, true) => pair = true,
                    (true, false) => single[a] = true,
                    (false, true) => single[b] = true,
                    (false, false) => {}
                }
            }
            // Distance of each own vertex from the bound ones; an own vertex
            // not linked to them at all makes the condition global.
            let mut dist = vec![usize::MAX; total];
            (0..nac.bound.min(n)).for_each(|i| dist[i] = 0);
            for _ in 0..total {
                for &(a, b) in &links {
                    let (da, db) = (dist[a], dist[b]);
                    if da != usize::MAX && db > da + 1 {
                        dist[b] = da + 1;
                    }
                    if db != usize::MAX && da > db + 1 {
                        dist[a] = db + 1;
                    }
                }
            }
            for &d in &dist[nac.bound..] {
                reach = reach.max(d);
            }
        }
        Sensitivity {
            single,
            pair,
            reach,
        }
    }

    /// Whether pattern vertex `i` accepts host vertex `v` by tag alone.
    pub(crate) fn accepts(&self, host: &Graph, i: usize, v: VertexId) -> bool {
        host.vertex(v)
            .is_some_and(|h| self.vertices[i].tags.accepts(h.tag))
    }

    /// Whether the pattern has at least one match (stops at the first).
    pub fn has_match(&self, host: &Graph) -> bool {
        self.for_each_match(host, &mut |_| ControlFlow::Break(()))
            .is_break()
    }

    /// Every match, in the order of [`Pattern::for_each_match`].
    pub fn find_all(&self, host: &Graph) -> Vec<Match> {
        let mut out = Vec::new();
        let _ = self.for_each_match(host, &mut |m| {
            out.push(m.clone());
            ControlFlow::Continue(())
        });
        out
    }

    /// Whether a host edge can be the image of pattern edge `j` when the
    /// pattern edge's ends map to `a` (source) and `b` (target).
    #[inline]
    fn edge_fits(&self, host: &Graph, j: usize, e: EdgeId, a: VertexId, b: VertexId) -> bool {
        let p = &self.edges[j];
        let Some(h) = host.edge(e) else { return false };
        if h.directed != p.directed || h.cosmetic != p.cosmetic || h.label != p.label {
            return false;
        }
        (h.source == a && h.target == b) || (!p.directed && h.source == b && h.target == a)
    }

    fn vertex_fits(&self, host: &Graph, i: usize, v: VertexId) -> bool {
        let p = &self.vertices[i];
        let Some(h) = host.vertex(v) else {
            return false;
        };
        p.tags.accepts(h.tag)
            && host.incident_edges(v).len() >= self.degree[i]
            && p.valence.map_or(true, |n| host.valence(v) == n as usize)
            && p.attributes
                .iter()
                .all(|(k, val)| h.attributes.get(k) == Some(val))
    }

    /// The checks that need a complete match: containment, forbidden tags,
    /// induced matching, negative application conditions.
    fn complete_ok(&self, host: &Graph, m: &Match) -> bool {
        self.inside
            .iter()
            .all(|&(c, p)| host.parent(m.vertices[c]) == Some(m.vertices[p]))
            && self.forbidden_ok(host, m)
            && (!self.induced || self.induced_ok(host, m))
            && !self.nacs.iter().any(|nac| nac.extends(host, m))
    }

    /// No host edge joins two matched vertices unless the match uses it.
    fn induced_ok(&self, host: &Graph, m: &Match) -> bool {
        m.vertices.iter().all(|&v| {
            host.incident_edges(v).iter().all(|&e| {
                m.edges.contains(&e)
                    || !m
                        .vertices
                        .contains(&host.edge(e).expect("incident edge is live").other(v))
            })
        })
    }

    /// Seed 000's forbidden tags, checked on a complete match.
    fn forbidden_ok(&self, host: &Graph, m: &Match) -> bool {
        for (i, p) in self.vertices.iter().enumerate() {
            if p.forbidden.is_empty() {
                continue;
            }
            let v = m.vertices[i];
            for &e in host.incident_edges(v) {
                if m.edges.contains(&e) {
                    continue;
                }
                let other = host.edge(e).expect("incident edge is live").other(v);
                if p.forbidden.contains(&host.tag(other)) {
                    return false;
                }
            }
        }
        true
    }
}

/// The shorter of the incidence lists of `a` and `b`.
fn shorter_incidence(host: &Graph, a: VertexId, b: VertexId) -> &[EdgeId] {
    let (la, lb) = (host.incident_edges(a), host.incident_edges(b));
    if lb.len() < la.len() {
        lb
    } else {
        la
    }
}

struct SearchState<'a> {
    pattern: &'a Pattern,
    host: &'a Graph,
    plan: &'a SearchPlan,
    /// Host vertices bound in advance, by pattern vertex (a NAC's view of
    /// the match it guards, or the anchors of an anchored search); empty
    /// for a plain search. Bound vertices come first in the plan.
    fixed: &'a [Option<VertexId>],
    image: Match,
    /// Host vertices in the partial match, for injectivity (patterns are
    /// small, so a linear scan beats a set).
    used: Vec<VertexId>,
    used_edges: Vec<EdgeId>,
}

impl<'a> SearchState<'a> {
    /// A search for `pattern` in `host` along `plan`, with the vertices in
    /// `fixed` bound in advance and the host edges in `used_edges` already
    /// taken (a NAC must not reuse the guarded match's edges).
    fn new(
        pattern: &'a Pattern,
        host: &'a Graph,
        plan: &'a SearchPlan,
        fixed: &'a [Option<VertexId>],
        used_edges: Vec<EdgeId>,
    ) -> Self {
        SearchState {
            pattern,
            host,
            plan,
            fixed,
            image: Match {
                vertices: vec![VertexId(u32::MAX); pattern.vertices.len()],
                edges: vec![EdgeId(u32::MAX); pattern.edges.len()],
                frame: None,
            },
            used: Vec::with_capacity(pattern.vertices.len()),
            used_edges,
        }
    }

    fn extend(
        &mut self,
        depth: usize,
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if depth == self.plan.steps.len() {
            if self.pattern.complete_ok(self.host, &self.image) {
                return visit(&self.image);
            }
            return ControlFlow::Continue(());
        }
        let step = &self.plan.steps[depth];
        let v = step.vertex;
        match step.via {
            None if self.fixed.get(v).is_some_and(Option::is_some) => {
                let h = self.fixed[v].expect("checked");
                self.try_candidate(depth, v, h, None, visit)?;
            }
            None => {
                let host = self.host;
                match &self.pattern.vertices[v].tags {
                    TagTest::Any => {
                        for h in host.vertex_ids() {
                            self.try_candidate(depth, v, h, None, visit)?;
                        }
                    }
                    // Tag by tag, each in id order: deterministic, no sorting.
                    TagTest::OneOf(tags) => {
                        for &t in tags {
                            for &h in host.vertices_tagged(t) {
                                self.try_candidate(depth, v, h, None, visit)?;
                            }
                        }
                    }
                }
            }
            Some(via) => {
                let anchor_p = self.pattern.other_end(via, v);
                let anchor = self.image.vertices[anchor_p];
                for &e in self.host.incident_edges(anchor) {
                    if self.used_edges.contains(&e) {
                        continue;
                    }
                    let h = self
                        .host
                        .edge(e)
                        .expect("incident edge is live")
                        .other(anchor);
                    let pe = &self.pattern.edges[via];
                    let (a, b) = if pe.source == v {
                        (h, anchor)
                    } else {
                        (anchor, h)
                    };
                    if !self.pattern.edge_fits(self.host, via, e, a, b) {
                        continue;
                    }
                    self.try_candidate(depth, v, h, Some((via, e)), visit)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn try_candidate(
        &mut self,
        depth: usize,
        v: usize,
        h: VertexId,
        via: Option<(usize, EdgeId)>,
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.used.contains(&h) || !self.pattern.vertex_fits(self.host, v, h) {
            return ControlFlow::Continue(());
        }
        self.image.vertices[v] = h;
        let mark = self.used_edges.len();
        if let Some((j, e)) = via {
            self.image.edges[j] = e;
            self.used_edges.push(e);
        }
        let step = &self.plan.steps[depth];
        let mut ok = true;
        for &j in &step.checks {
            let pe = self.pattern.edges[j];
            let (a, b) = (
                self.image.vertices[pe.source],
                self.image.vertices[pe.target],
            );
            // Both ends are placed: scan the shorter incidence list, so an
            // edge check at a hub costs the other end's degree.
            let list = shorter_incidence(self.host, a, b);
            let found = list.iter().copied().find(|&e| {
                !self.used_edges.contains(&e) && self.pattern.edge_fits(self.host, j, e, a, b)
            });
            match found {
                Some(e) => {
                    self.image.edges[j] = e;
                    self.used_edges.push(e);
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        let mut flow = ControlFlow::Continue(());
        if ok {
            self.used.push(h);
            flow = self.extend(depth + 1, visit);
            self.used.pop();
        }
        self.used_edges.truncate(mark);
        flow
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_is_the_vertex_with_fewest_candidates() {
        let mut g = Graph::new();
        let room = g.tags_mut().intern("room");
        let key = g.tags_mut().intern("key");
        for _ in 0..5 {
            g.add_vertex(room);
        }
        g.add_vertex(key);
        let v = |t| PatternVertex {
            tags: TagTest::OneOf(vec![t]),
            forbidden: vec![],
            attributes: vec![],
            valence: None,
        };
        let p = Pattern::new(
            vec![v(room), v(key)],
            vec![PatternEdge {
                source: 0,
                target: 1,
                directed: false,
                cosmetic: false,
                label: None,
            }],
        );
        assert_eq!(p.choose_root(&g), 1, "one key beats five rooms");
        assert_eq!(p.plans[1].steps[1].via, Some(0));
    }
}
