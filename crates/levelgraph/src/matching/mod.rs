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
//!
//! The module's parts: `pattern.rs` builds a pattern and its search
//! plans; `search.rs` is the search along a plan (and its per-thread
//! buffers); `conditions.rs` holds the negative application conditions and
//! the checks of a complete match; `grid.rs` matches grid rules by frames;
//! `anchored.rs` has the anchored searches and what the incremental stores
//! need to know (`Pattern::sensitivity`); `small.rs` is the anchored
//! search of small patterns without the general search's set-up.

use std::sync::OnceLock;

use crate::graph::{EdgeId, EdgeKind, Symbol, VertexId};

mod anchored;
pub(crate) mod budget;
mod conditions;
mod grid;
mod pattern;
mod random;
mod search;
mod small;
#[cfg(test)]
mod tests;

pub use conditions::Nac;
pub use grid::{Frame, MAX_CELL, MAX_OFFSET};
use pattern::SearchPlan;

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
pub(crate) struct Sensitivity {
    /// Per pattern vertex: whether its matches depend on the vertex's
    /// neighbourhood (exact valence, forbidden tags, or a `where not` edge
    /// or containment to one of the condition's own vertices), so an edge
    /// added or removed there can create or destroy a match.
    pub(crate) single: Vec<bool>,
    /// Whether matches depend on links between two matched vertices that
    /// the pattern does not use (`induced`, or a `where not` edge between
    /// two pattern vertices).
    pub(crate) pair: bool,
    /// How many links away from the matched vertices a changed vertex (a
    /// retag, new attributes, a move in or out of a parent) can change what
    /// the conditions see: 1 for forbidden tags or a condition vertex next
    /// to the match, one more for a condition vertex with forbidden tags;
    /// `usize::MAX` when a condition is not linked to the match at all.
    pub(crate) reach: usize,
    /// How many links away from the matched vertices an added or removed
    /// edge or containment can change what the conditions see: 0 when the
    /// conditions only look at links at the matched vertices themselves;
    /// for each condition link the nearer end's distance, and for a
    /// condition vertex with an exact valence or forbidden tags its own.
    pub(crate) edge_reach: usize,
    /// Whether adding host edges can only take matches away, never create
    /// one that does not use an added edge: true when every sensitivity is
    /// negative (forbidden tags, `induced`, `where not` conditions without
    /// exact valences or forbidden tags of their own), false when a pattern
    /// vertex has an exact valence (an added edge can bring a vertex to it).
    pub(crate) add_monotone: bool,
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

/// A vertex not bound in advance, in [`search::SearchState`]'s `fixed`.
const UNBOUND: VertexId = VertexId(u32::MAX);
/// Patterns up to this many vertices anchor a search without allocating.
const ANCHORS_INLINE: usize = 16;
