//! The checks of a complete match: containment, forbidden tags,
//! `induced` and the negative application conditions ([`Nac`]), some of
//! whose shapes are one incidence scan instead of a search.

use std::ops::ControlFlow;

use super::pattern::SearchPlan;
use super::search::{with_buffers, SearchState};
use super::{Match, Pattern, PatternEdge, PatternVertex, TagTest};
use crate::graph::{EdgeKind, Graph};

/// A negative application condition: a pattern whose first `bound`
/// vertices are the vertices of the pattern it guards (bound to a match),
/// followed by its own vertices. It *extends* a match when its own
/// vertices and its edges can be mapped injectively into the host, its own
/// vertices onto host vertices outside the match and its edges onto host
/// edges the match does not use.
#[derive(Clone, Debug)]
pub struct Nac {
    pub(super) pattern: Pattern,
    pub(super) bound: usize,
    pub(super) plan: SearchPlan,
    /// How [`Nac::extends`] checks the condition.
    pub(super) shape: NacShape,
}

/// The shapes of condition that [`Nac::extends`] checks by one incidence
/// scan instead of a search. Each gives exactly the answer the search
/// would (the search's only other tests, on the guarded vertices, pass
/// for the live vertices of a match).
#[derive(Clone, Copy, Debug)]
pub(super) enum NacShape {
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

impl Pattern {
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
