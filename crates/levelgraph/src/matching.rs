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

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::sync::OnceLock;

use crate::graph::{Cell, EdgeId, EdgeKind, Graph, Symbol, VertexId};
use crate::small_copy;

mod small;

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
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Match {
    /// Host vertex of each pattern vertex.
    pub vertices: Vec<VertexId>,
    /// Host edge of each pattern edge.
    pub edges: Vec<EdgeId>,
    /// Grid rules: where and how the rule was laid on the grid.
    pub frame: Option<Frame>,
}

/// Grid cells have coordinates within ±`MAX_CELL` (10⁹): a grid rule
/// whose match or new vertex would lie beyond does not match or apply
/// (offsets are at most ±[`MAX_OFFSET`], so no sum on the way overflows),
/// and a host document's cells must lie within it too.
pub const MAX_CELL: i32 = 1_000_000_000;

/// Grid offsets `@dx,dy` of rule vertices are within ±`MAX_OFFSET` (10⁶)
/// in each coordinate; text and JSON grammars beyond it are refused with
/// a located error.
pub const MAX_OFFSET: i32 = 1_000_000;

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
    /// The host cell of rule offset `offset`, turned and mirrored by the
    /// frame's transform.
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

    /// [`Frame::place`], or `None` when the cell would be beyond
    /// ±[`MAX_CELL`] (or not a 32-bit number at all).
    pub fn checked_place(&self, offset: [i32; 2]) -> Option<Cell> {
        let turned = Frame {
            origin: [0, 0],
            transform: self.transform,
        }
        .place(offset);
        let x = self.origin[0].checked_add(turned[0])?;
        let y = self.origin[1].checked_add(turned[1])?;
        (x.unsigned_abs() <= MAX_CELL.unsigned_abs() && y.unsigned_abs() <= MAX_CELL.unsigned_abs())
            .then_some([x, y])
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
    /// Per edge: the host edge kind it needs, seen from its source and
    /// from its target.
    kinds: Vec<[EdgeKind; 2]>,
    /// `plans[r]`: the search order when pattern vertex `r` is the root.
    /// Built once; each search only chooses the root from host tag counts.
    plans: Vec<SearchPlan>,
    /// `pair_plans[i * n + j]`: the search order with vertices `i` and `j`
    /// bound in advance (an anchored search from an added edge or a changed
    /// pair), built when first needed.
    pair_plans: Vec<OnceLock<SearchPlan>>,
    /// What a match store needs to know about this pattern, worked out
    /// once (see [`Pattern::store_facts`]).
    store_facts: OnceLock<StoreFacts>,
    /// Whether some vertex has forbidden tags: [`Pattern::forbidden_ok`]
    /// has nothing to check otherwise (most patterns), so it is not called.
    any_forbidden: bool,
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// How many links away from the matched vertices a changed vertex (a
    /// retag, new attributes, a move in or out of a parent) can change what
    /// the conditions see: 1 for forbidden tags or a condition vertex next
    /// to the match, one more for a condition vertex with forbidden tags;
    /// `usize::MAX` when a condition is not linked to the match at all.
    pub reach: usize,
    /// How many links away from the matched vertices an added or removed
    /// edge or containment can change what the conditions see: 0 when the
    /// conditions only look at links at the matched vertices themselves;
    /// for each condition link the nearer end's distance, and for a
    /// condition vertex with an exact valence or forbidden tags its own.
    pub edge_reach: usize,
    /// Whether adding host edges can only take matches away, never create
    /// one that does not use an added edge: true when every sensitivity is
    /// negative (forbidden tags, `induced`, `where not` conditions without
    /// exact valences or forbidden tags of their own), false when a pattern
    /// vertex has an exact valence (an added edge can bring a vertex to it).
    pub add_monotone: bool,
}

/// What the incremental match stores need to know about a pattern: how
/// changes reach its matches ([`Pattern::sensitivity`]), the edge kinds
/// whose changes can affect them at all (`None`: every kind) and the edge
/// kinds its own edges have.
#[derive(Clone, Debug)]
pub(crate) struct StoreFacts {
    pub(crate) sensitivity: Sensitivity,
    /// Whether some position of `sensitivity.single` is set.
    pub(crate) any_single: bool,
    pub(crate) watched: Option<Vec<EdgeKind>>,
    pub(crate) edge_kinds: Vec<EdgeKind>,
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
    /// How [`Nac::extends`] checks the condition.
    shape: NacShape,
}

/// The shapes of condition that [`Nac::extends`] checks by one incidence
/// scan instead of a search. Each gives exactly the answer the search
/// would (the search's only other tests, on the guarded vertices, pass
/// for the live vertices of a match).
#[derive(Clone, Copy, Debug)]
enum NacShape {
    /// Anything else: searched from the guarded vertices.
    General,
    /// One edge between two guarded vertices and nothing else (a condition
    /// that the two are not joined): a host edge between their images.
    BoundEdge,
    /// One edge from guarded vertex `from` to the condition's one own
    /// vertex, which has no forbidden tags (`where not (p) -[request]->
    /// (m:resource)`): a link at `from`'s image of kind `want` (seen from
    /// there), on an edge the match does not use, to a vertex outside the
    /// match that the own vertex accepts.
    OwnNeighbour { from: usize, want: EdgeKind },
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
        let shape = Self::shape_of(&pattern, bound);
        Nac {
            pattern,
            bound,
            plan,
            shape,
        }
    }

    /// Which [`NacShape`] `pattern`, with `bound` guarded vertices, has.
    fn shape_of(pattern: &Pattern, bound: usize) -> NacShape {
        let plain = |v: &PatternVertex| {
            matches!(v.tags, TagTest::Any)
                && v.forbidden.is_empty()
                && v.attributes.is_empty()
                && v.valence.is_none()
        };
        // One edge, no containment, no conditions of its own, and guarded
        // vertices that the search would accept as they are.
        if pattern.edges.len() != 1
            || !pattern.inside.is_empty()
            || pattern.induced
            || !pattern.nacs.is_empty()
            || pattern.grid.is_some()
            || !pattern.vertices[..bound].iter().all(plain)
        {
            return NacShape::General;
        }
        let e = pattern.edges[0];
        let n = pattern.vertices.len();
        if n == bound {
            return NacShape::BoundEdge;
        }
        if n == bound + 1
            && pattern.vertices[bound].forbidden.is_empty()
            && e.source != e.target
            && (e.source == bound || e.target == bound)
        {
            let from = if e.source == bound {
                e.target
            } else {
                e.source
            };
            let want = pattern.kind_from(0, from);
            return NacShape::OwnNeighbour { from, want };
        }
        NacShape::General
    }

    /// Whether the condition extends match `m` (of the guarded pattern) in `host`.
    ///
    /// Precondition: `m` is a match of live vertices, that is
    /// `m.vertices` holds exactly one host vertex per guarded vertex (the
    /// `bound` given to [`Nac::new`], in the guarded pattern's order),
    /// pairwise distinct, each live in `host`. `m.edges` lists the host
    /// edges the condition's edges must not use. The shapes checked
    /// without a search (one incidence scan) rely on this instead of
    /// testing the guarded vertices as the search would; debug builds
    /// assert the count and that the vertices are live.
    #[inline(always)]
    pub fn extends(&self, host: &Graph, m: &Match) -> bool {
        debug_assert_eq!(m.vertices.len(), self.bound);
        debug_assert!(m.vertices.iter().all(|&v| host.contains_vertex(v)));
        match self.shape {
            NacShape::General => {}
            NacShape::BoundEdge => {
                let pe = &self.pattern.edges[0];
                let (a, b) = (m.vertices[pe.source], m.vertices[pe.target]);
                return self
                    .pattern
                    .find_edge(host, 0, a, b, |e| !m.edges.contains(&e))
                    .is_some();
            }
            NacShape::OwnNeighbour { from, want } => {
                // The search's step for the own vertex, as one scan: the
                // same links, the same tests.
                return host.incidences(m.vertices[from]).iter().any(|link| {
                    link.kind.fits(want)
                        && !m.edges.contains(&link.edge)
                        && !m.vertices.contains(&link.other)
                        && self.pattern.vertex_fits(host, self.bound, link.other)
                });
            }
        }
        with_buffers(|b| {
            SearchState::new(&self.pattern, host, &self.plan, &m.vertices, &m.edges, b)
                .extend(0, &mut |_| ControlFlow::Break(()))
                .is_break()
        })
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
    /// Without `via`: `Some((w, true))` when `vertex` must be stored in the
    /// image of the earlier vertex `w`, `Some((w, false))` when it must
    /// hold `w`'s image. Candidates then come from the host's containment
    /// (the children of `w`'s image, or its parent) instead of every
    /// vertex with the tag: a condition such as `where not (j:key) in (k)`
    /// looks at what `k` stores, not at every key of the level. The
    /// containment itself is still checked on the complete match.
    inside: Option<(usize, bool)>,
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
        let kinds = edges
            .iter()
            .map(|e| [true, false].map(|out| EdgeKind::new(e.directed, e.cosmetic, e.label, out)))
            .collect();
        let any_forbidden = vertices.iter().any(|v| !v.forbidden.is_empty());
        let mut pattern = Pattern {
            vertices,
            edges,
            degree,
            incident,
            kinds,
            plans: Vec::new(),
            pair_plans: Vec::new(),
            store_facts: OnceLock::new(),
            any_forbidden,
            induced: false,
            nacs: Vec::new(),
            inside: Vec::new(),
            grid: None,
        };
        pattern.plans = (0..pattern.vertices.len())
            .map(|root| pattern.plan_with_prefix(&[root]))
            .collect();
        let n = pattern.vertices.len();
        pattern.pair_plans = (0..n * n).map(|_| OnceLock::new()).collect();
        pattern
    }

    /// The same pattern as a grid rule (grid mode): vertex `i` must be the
    /// host vertex in cell `frame.place(offsets[i])`, for every frame whose
    /// origin puts vertex 0 on a host vertex and whose transform is in
    /// `transforms`. Edges and all other conditions still apply.
    /// **Panics** unless there is one offset per vertex.
    pub fn with_grid(mut self, offsets: Vec<[i32; 2]>, transforms: Vec<u8>) -> Self {
        // The store facts depend on all of it: worked out again when needed.
        self.store_facts = OnceLock::new();
        assert_eq!(offsets.len(), self.vertices.len());
        self.grid = Some((offsets, transforms));
        self
    }

    /// The same pattern, requiring each `(child, parent)` pair of vertex
    /// indices to match a host vertex stored in the other's image.
    /// **Panics** if an index is out of range.
    pub fn with_inside(mut self, inside: Vec<(usize, usize)>) -> Self {
        // The store facts depend on all of it: worked out again when needed.
        self.store_facts = OnceLock::new();
        let n = self.vertices.len();
        assert!(inside.iter().all(|&(c, p)| c < n && p < n));
        self.inside = inside;
        // The plans take their candidates from containments where they can.
        self.plans = (0..n).map(|root| self.plan_with_prefix(&[root])).collect();
        self.pair_plans = (0..n * n).map(|_| OnceLock::new()).collect();
        self
    }

    /// The same pattern with induced matching switched on or off and the
    /// given negative application conditions (each built over this
    /// pattern's vertices, see [`Nac::new`]).
    pub fn with_conditions(mut self, induced: bool, nacs: Vec<Nac>) -> Self {
        // The store facts depend on all of it: worked out again when needed.
        self.store_facts = OnceLock::new();
        self.induced = induced;
        self.nacs = nacs;
        self
    }

    /// Whether this is a grid rule's pattern ([`Pattern::with_grid`]),
    /// whose matches carry a [`Frame`].
    pub(crate) fn is_grid(&self) -> bool {
        self.grid.is_some()
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
                inside: None,
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
                        inside: None,
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
                        inside: self.inside_placed(v, &placed),
                        checks: loops_of(v),
                    }
                }
            };
            placed[step.vertex] = true;
            steps.push(step);
        }
        SearchPlan { steps }
    }

    /// A containment that ties `v` to a placed vertex (see [`Step::inside`]),
    /// the first listed.
    fn inside_placed(&self, v: usize, placed: &[bool]) -> Option<(usize, bool)> {
        self.inside.iter().find_map(|&(c, p)| {
            if c == v && p != v && placed[p] {
                Some((p, true))
            } else if p == v && c != v && placed[c] {
                Some((c, false))
            } else {
                None
            }
        })
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
        with_buffers(|b| SearchState::new(self, host, plan, &[], &[], b).extend(0, visit))
    }

    /// [`Pattern::for_each_match`], for the incremental stores: the same
    /// matches in the same order, written into `image` (a buffer the
    /// caller keeps); small patterns take [`small::search`].
    pub(crate) fn for_each_match_into<F>(
        &self,
        host: &Graph,
        image: &mut Match,
        mut visit: F,
    ) -> ControlFlow<()>
    where
        F: FnMut(&Match) -> ControlFlow<()>,
    {
        if self.vertices.is_empty() || !small::fits(self) {
            return self.for_each_match(host, &mut visit);
        }
        let plan = &self.plans[self.choose_root(host)];
        let fixed = [UNBOUND; small::MAX_VERTICES];
        small::search(self, host, plan, &fixed, image, visit)
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
                let (Some(ox), Some(oy)) = (
                    cell0[0].checked_sub(turned[0]),
                    cell0[1].checked_sub(turned[1]),
                ) else {
                    continue;
                };
                let frame = Frame {
                    origin: [ox, oy],
                    transform,
                };
                for (i, &offset) in offsets.iter().enumerate() {
                    let Some(cell) = frame.checked_place(offset) else {
                        continue 'origin;
                    };
                    match host.vertex_at(cell) {
                        Some(v) if self.vertex_fits(host, i, v) => image.vertices[i] = v,
                        _ => continue 'origin,
                    }
                }
                let mut used: Vec<EdgeId> = Vec::with_capacity(self.edges.len());
                for (j, pe) in self.edges.iter().enumerate() {
                    let (a, b) = (image.vertices[pe.source], image.vertices[pe.target]);
                    let found = self.find_edge(host, j, a, b, |e| !used.contains(&e));
                    match found {
                        Some(e) => {
                            image.edges[j] = e;
                            used.push(e);
                        }
                        None => continue 'origin,
                    }
                }
                image.frame = Some(frame);
                if self.conditions_hold(host, &image) {
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
        let mut fixed = [UNBOUND; ANCHORS_INLINE];
        let mut fixed_vec = Vec::new();
        let fixed: &mut [VertexId] = if self.vertices.len() <= ANCHORS_INLINE {
            &mut fixed[..self.vertices.len()]
        } else {
            fixed_vec.resize(self.vertices.len(), UNBOUND);
            &mut fixed_vec
        };
        for &(i, v) in anchors {
            if fixed[i] != UNBOUND && fixed[i] != v {
                return ControlFlow::Continue(());
            }
            fixed[i] = v;
        }
        let owned;
        let plan = match anchors {
            [(i, _)] => &self.plans[*i],
            [(i, _), (j, _)] if i != j => self.pair_plans[i * self.vertices.len() + j]
                .get_or_init(|| self.plan_with_prefix(&[*i, *j])),
            _ => {
                let mut prefix: Vec<usize> = Vec::new();
                for &(i, _) in anchors {
                    if !prefix.contains(&i) {
                        prefix.push(i);
                    }
                }
                owned = self.plan_with_prefix(&prefix);
                &owned
            }
        };
        with_buffers(|b| SearchState::new(self, host, plan, fixed, &[], b).extend(0, visit))
    }

    /// [`Pattern::for_each_anchored`], for the incremental stores: the
    /// same matches in the same order, written into `image` (a buffer the
    /// caller keeps). Small patterns with one anchor or two take
    /// [`small::search`], which saves the general search's set-up; the
    /// rest go to the general search.
    pub(crate) fn for_each_anchored_into<F>(
        &self,
        host: &Graph,
        anchors: &[(usize, VertexId)],
        image: &mut Match,
        mut visit: F,
    ) -> ControlFlow<()>
    where
        F: FnMut(&Match) -> ControlFlow<()>,
    {
        if small::fits(self) {
            let plan = match anchors {
                [(i, _)] => Some(&self.plans[*i]),
                [(i, _), (j, _)] if i != j => Some(
                    self.pair_plans[i * self.vertices.len() + j]
                        .get_or_init(|| self.plan_with_prefix(&[*i, *j])),
                ),
                _ => None,
            };
            if let Some(plan) = plan {
                let mut fixed = [UNBOUND; small::MAX_VERTICES];
                for &(i, v) in anchors {
                    fixed[i] = v;
                }
                return small::search(self, host, plan, &fixed, image, visit);
            }
        }
        self.for_each_anchored(host, anchors, &mut visit)
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
        let mut edge_reach = 0;
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
            for (i, &d) in dist.iter().enumerate().skip(nac.bound) {
                let v = &nac.pattern.vertices[i];
                let sees_neighbours = !v.forbidden.is_empty();
                reach = reach.max(if sees_neighbours {
                    d.saturating_add(1)
                } else {
                    d
                });
                if sees_neighbours || v.valence.is_some() {
                    edge_reach = edge_reach.max(d);
                }
            }
            for &(a, b) in &links {
                edge_reach = edge_reach.max(dist[a].min(dist[b]));
            }
        }
        let add_monotone = self.vertices.iter().all(|v| v.valence.is_none())
            && self.nacs.iter().all(|nac| {
                nac.pattern
                    .vertices
                    .iter()
                    .all(|v| v.valence.is_none() && v.forbidden.is_empty())
            });
        Sensitivity {
            single,
            pair,
            reach,
            edge_reach,
            add_monotone,
        }
    }

    /// [`StoreFacts`] of this pattern, worked out on first use (a pattern
    /// is complete once compiled; every derivation's stores share them).
    pub(crate) fn store_facts(&self) -> &StoreFacts {
        self.store_facts.get_or_init(|| {
            let sensitivity = self.sensitivity();
            StoreFacts {
                any_single: sensitivity.single.iter().any(|&s| s),
                sensitivity,
                watched: self.watched_kinds(),
                edge_kinds: self.edge_kinds(),
            }
        })
    }

    /// The kinds (either end) of this pattern's own edges, sorted: a match
    /// can only use host edges of these kinds.
    fn edge_kinds(&self) -> Vec<EdgeKind> {
        let mut kinds: Vec<EdgeKind> = self.kinds.iter().map(|k| k[0].either_end()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds
    }

    /// The kinds of host edge (either end) whose addition or removal can
    /// change this pattern's matches: those of its edges and of its
    /// conditions' edges. `None` when every edge counts (exact valences,
    /// forbidden tags or `induced` look at all edges).
    fn watched_kinds(&self) -> Option<Vec<EdgeKind>> {
        let looks_at_all = |p: &Pattern| {
            p.induced
                || p.vertices
                    .iter()
                    .any(|v| v.valence.is_some() || !v.forbidden.is_empty())
        };
        if looks_at_all(self) || self.nacs.iter().any(|nac| looks_at_all(&nac.pattern)) {
            return None;
        }
        let mut kinds: Vec<EdgeKind> = std::iter::once(self)
            .chain(self.nacs.iter().map(|nac| &nac.pattern))
            .flat_map(|p| p.kinds.iter().map(|k| k[0].either_end()))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        Some(kinds)
    }

    /// The host edge kinds (either end) of the pattern edges at pattern
    /// vertex `i`: a match puts a host edge of each of them at `i`'s image.
    pub(crate) fn kinds_at(&self, i: usize) -> impl Iterator<Item = EdgeKind> + '_ {
        self.incident[i]
            .iter()
            .map(|&j| self.kinds[j][0].either_end())
    }

    /// For a pattern of one vertex with one or more tags and nothing else
    /// (no edge, containment, forbidden tag, `induced`, condition or grid):
    /// its tags. Its matches are then the vertices of those tags that pass
    /// [`Pattern::vertex_fits`], in the order of the search (tag by tag,
    /// each in the tag index's order), every complete-match check being
    /// vacuous.
    pub(crate) fn lone_vertex_tags(&self) -> Option<&[Symbol]> {
        match (&self.vertices[..], &self.edges[..]) {
            ([v], [])
                if self.inside.is_empty()
                    && !self.any_forbidden
                    && !self.induced
                    && self.nacs.is_empty()
                    && self.grid.is_none() =>
            {
                match &v.tags {
                    TagTest::OneOf(tags) => Some(tags),
                    TagTest::Any => None,
                }
            }
            _ => None,
        }
    }

    /// The host edge kind pattern edge `j` needs, seen from its source.
    pub(crate) fn kind(&self, j: usize) -> EdgeKind {
        self.kinds[j][0]
    }

    /// The host edge kind pattern edge `j` needs, seen from its end
    /// `end` (a pattern vertex index): a directed edge is outgoing from
    /// its source and incoming at its target.
    #[inline]
    pub(crate) fn kind_from(&self, j: usize, end: usize) -> EdgeKind {
        self.kinds[j][usize::from(self.edges[j].source != end)]
    }

    /// Number of pattern edges at pattern vertex `i` (a loop counts once).
    pub(crate) fn degree(&self, i: usize) -> usize {
        self.degree[i]
    }

    /// Whether pattern vertex `i` accepts host vertex `v` by tag alone.
    pub(crate) fn accepts(&self, host: &Graph, i: usize, v: VertexId) -> bool {
        host.live_tag(v)
            .is_some_and(|tag| self.vertices[i].tags.accepts(tag))
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

    /// A host edge from `a` to `b` (the images of pattern edge `j`'s source
    /// and target) that can be the image of edge `j` and that `free`
    /// accepts ([`Graph::find_edge`]).
    #[inline]
    fn find_edge(
        &self,
        host: &Graph,
        j: usize,
        a: VertexId,
        b: VertexId,
        free: impl Fn(EdgeId) -> bool,
    ) -> Option<EdgeId> {
        host.find_edge(a, b, self.kinds[j][0], free)
    }

    /// Whether host vertex `v` passes pattern vertex `i`'s own tests: live,
    /// an accepted tag, at least `i`'s pattern degree, the exact valence
    /// and the attributes it asks for.
    #[inline(always)]
    pub(crate) fn vertex_fits(&self, host: &Graph, i: usize, v: VertexId) -> bool {
        let p = &self.vertices[i];
        let Some((tag, degree)) = host.live_tag_and_degree(v) else {
            return false;
        };
        p.tags.accepts(tag)
            && degree >= self.degree[i]
            && p.valence.is_none_or(|n| host.valence(v) == n as usize)
            && (p.attributes.is_empty()
                || host.vertex(v).is_some_and(|h| {
                    p.attributes
                        .iter()
                        .all(|(k, val)| h.attributes.get(k) == Some(val))
                }))
    }

    /// Whether the checks that need a complete match accept `m`:
    /// containment, forbidden tags, `induced`, negative application
    /// conditions. Also used on a match found earlier, after the host
    /// changed (incremental stores).
    #[inline]
    pub(crate) fn conditions_hold(&self, host: &Graph, m: &Match) -> bool {
        // Most patterns have none of these: no call for them.
        if self.inside.is_empty() && !self.any_forbidden && !self.induced && self.nacs.is_empty() {
            return true;
        }
        self.conditions_hold_checked(host, m)
    }

    /// [`Pattern::conditions_hold`] of a pattern with conditions.
    fn conditions_hold_checked(&self, host: &Graph, m: &Match) -> bool {
        self.inside
            .iter()
            .all(|&(c, p)| host.parent(m.vertices[c]) == Some(m.vertices[p]))
            && (!self.any_forbidden || self.forbidden_ok(host, m))
            && (!self.induced || self.induced_ok(host, m))
            && !self.nacs.iter().any(|nac| nac.extends(host, m))
    }

    /// No host edge joins two matched vertices unless the match uses it.
    fn induced_ok(&self, host: &Graph, m: &Match) -> bool {
        m.vertices.iter().all(|&v| {
            host.incidences(v)
                .iter()
                .all(|link| m.edges.contains(&link.edge) || !m.vertices.contains(&link.other))
        })
    }

    /// Forbidden tags (blocked neighbours), checked on a complete match.
    fn forbidden_ok(&self, host: &Graph, m: &Match) -> bool {
        for (i, p) in self.vertices.iter().enumerate() {
            if p.forbidden.is_empty() {
                continue;
            }
            let v = m.vertices[i];
            for link in host.incidences(v) {
                if m.edges.contains(&link.edge) {
                    continue;
                }
                if p.forbidden.contains(&host.tag(link.other)) {
                    return false;
                }
            }
        }
        true
    }
}

/// A vertex not bound in advance, in [`SearchState`]'s `fixed`.
const UNBOUND: VertexId = VertexId(u32::MAX);
/// Patterns up to this many vertices anchor a search without allocating.
const ANCHORS_INLINE: usize = 16;

/// The buffers of one search, recycled through [`BUFFERS`] so that the
/// many small searches of incremental updates and conditions allocate
/// nothing.
struct Buffers {
    /// Host vertices bound in advance, by pattern vertex (`UNBOUND`, or
    /// past the end: not bound).
    fixed: Vec<VertexId>,
    image: Match,
    /// Host vertices in the partial match, for injectivity (patterns are
    /// small, so a linear scan beats a set).
    used: Vec<VertexId>,
    used_edges: Vec<EdgeId>,
}

impl Buffers {
    /// Buffers with nothing allocated yet.
    const EMPTY: Buffers = Buffers {
        fixed: Vec::new(),
        image: Match {
            vertices: Vec::new(),
            edges: Vec::new(),
            frame: None,
        },
        used: Vec::new(),
        used_edges: Vec::new(),
    };
}

thread_local! {
    /// Idle search buffers of this thread (searches nest: a condition is
    /// searched inside the search it guards).
    // Boxed, so that taking buffers from the pool and giving them back
    // moves a pointer, not the whole struct (a `memcpy` call each way).
    #[allow(clippy::vec_box)]
    static BUFFERS: RefCell<Vec<Box<Buffers>>> = const { RefCell::new(Vec::new()) };
}

/// At most this many idle buffers are kept per thread.
const BUFFERS_KEPT: usize = 8;

struct SearchState<'a> {
    pattern: &'a Pattern,
    host: &'a Graph,
    plan: &'a SearchPlan,
    /// The search's buffers, from [`with_buffers`].
    b: &'a mut Buffers,
}

/// Runs `f` with a set of search buffers from this thread's pool, then
/// gives them back.
fn with_buffers<R>(f: impl FnOnce(&mut Buffers) -> R) -> R {
    let mut b = BUFFERS
        .with(|pool| pool.borrow_mut().pop())
        .unwrap_or_else(|| Box::new(Buffers::EMPTY));
    let out = f(&mut b);
    BUFFERS.with(|pool| {
        let mut pool = pool.borrow_mut();
        if pool.len() < BUFFERS_KEPT {
            pool.push(b);
        }
    });
    out
}

impl<'a> SearchState<'a> {
    /// A search for `pattern` in `host` along `plan`, with the vertices in
    /// `fixed` bound in advance (`UNBOUND` or past its end: free) and the
    /// host edges in `used_edges` already taken (a NAC must not reuse the
    /// guarded match's edges).
    fn new(
        pattern: &'a Pattern,
        host: &'a Graph,
        plan: &'a SearchPlan,
        fixed: &[VertexId],
        used_edges: &[EdgeId],
        b: &'a mut Buffers,
    ) -> Self {
        b.fixed.clear();
        small_copy::append(&mut b.fixed, fixed);
        b.image.vertices.clear();
        b.image.vertices.resize(pattern.vertices.len(), UNBOUND);
        b.image.edges.clear();
        b.image.edges.resize(pattern.edges.len(), EdgeId(u32::MAX));
        b.image.frame = None;
        b.used.clear();
        b.used_edges.clear();
        small_copy::append(&mut b.used_edges, used_edges);
        SearchState {
            pattern,
            host,
            plan,
            b,
        }
    }

    /// Places the plan's step `depth` and the ones after it, calling
    /// `visit` on each complete match.
    ///
    /// Keep in step with `matching/small.rs`, which mirrors these tests
    /// (the same candidates in the same order) for small patterns.
    fn extend(
        &mut self,
        depth: usize,
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if depth == self.plan.steps.len() {
            if self.pattern.conditions_hold(self.host, &self.b.image) {
                return visit(&self.b.image);
            }
            return ControlFlow::Continue(());
        }
        let step = &self.plan.steps[depth];
        let v = step.vertex;
        match step.via {
            None if self.b.fixed.get(v).is_some_and(|&h| h != UNBOUND) => {
                let h = self.b.fixed[v];
                self.try_candidate(depth, v, h, None, visit)?;
            }
            None if step.inside.is_some() => {
                let (w, stored) = step.inside.expect("checked");
                let host = self.host;
                let anchor = self.b.image.vertices[w];
                // The same candidates in the same order as the tag index
                // gives (tag by tag, each in id order), restricted to the
                // containment: children are kept sorted by id.
                let parent = host.parent(anchor);
                let inner: &[VertexId] = if stored {
                    host.children(anchor)
                } else {
                    parent.as_slice()
                };
                match &self.pattern.vertices[v].tags {
                    TagTest::Any => {
                        for &h in inner {
                            self.try_candidate(depth, v, h, None, visit)?;
                        }
                    }
                    TagTest::OneOf(tags) => {
                        for &t in tags {
                            for &h in inner.iter().filter(|&&h| host.tag(h) == t) {
                                self.try_candidate(depth, v, h, None, visit)?;
                            }
                        }
                    }
                }
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
                let anchor = self.b.image.vertices[anchor_p];
                // The kind the host edge has at the anchor's end.
                let want = self.pattern.kind_from(via, anchor_p);
                let host = self.host;
                for link in host.incidences(anchor) {
                    if !link.kind.fits(want) || self.b.used_edges.contains(&link.edge) {
                        continue;
                    }
                    self.try_candidate(depth, v, link.other, Some((via, link.edge)), visit)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Tries host vertex `h` (reached along host edge `via`, if any) for
    /// pattern vertex `v` at step `depth`, then the steps after it.
    ///
    /// Keep in step with `matching/small.rs`, which mirrors these tests
    /// (the same checks in the same order) for small patterns.
    fn try_candidate(
        &mut self,
        depth: usize,
        v: usize,
        h: VertexId,
        via: Option<(usize, EdgeId)>,
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.b.used.contains(&h) || !self.pattern.vertex_fits(self.host, v, h) {
            return ControlFlow::Continue(());
        }
        self.b.image.vertices[v] = h;
        let mark = self.b.used_edges.len();
        if let Some((j, e)) = via {
            self.b.image.edges[j] = e;
            self.b.used_edges.push(e);
        }
        let step = &self.plan.steps[depth];
        let mut ok = true;
        for &j in &step.checks {
            let pe = self.pattern.edges[j];
            let (a, b) = (
                self.b.image.vertices[pe.source],
                self.b.image.vertices[pe.target],
            );
            let used = &self.b.used_edges;
            let found = self
                .pattern
                .find_edge(self.host, j, a, b, |e| !used.contains(&e));
            match found {
                Some(e) => {
                    self.b.image.edges[j] = e;
                    self.b.used_edges.push(e);
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        let mut flow = ControlFlow::Continue(());
        if ok {
            self.b.used.push(h);
            flow = self.extend(depth + 1, visit);
            self.b.used.pop();
        }
        self.b.used_edges.truncate(mark);
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
