//! Canonical forms and automorphism groups of coloured graphs, levels and
//! patterns.
//!
//! [`canonical`] gives a graph's *canonical labelling*: a numbering of its
//! vertices such that two graphs are isomorphic (respecting vertex colours,
//! arc colours and direction) exactly when they look the same numbered so.
//! The graph in that numbering, as bytes, is its *form*; equal forms mean
//! isomorphic graphs, and a stable hash of the form keys a hash table. The
//! same search gives the automorphism group: generators, orbits and the
//! exact order.
//!
//! The method is individualisation–refinement, as in nauty (McKay,
//! "Practical graph isomorphism", Congressus Numerantium 30, 1981; McKay &
//! Piperno, "Practical graph isomorphism, II", J. Symbolic Computation 60,
//! 2014) and bliss (Junttila & Kaski, "Engineering an efficient canonical
//! labeling tool for large and sparse graphs", ALENEX 2007):
//!
//! - [`coloured`](ColouredGraph): the input, vertices and arcs with colours
//!   (`families` builds named graphs, `graph6` reads and writes nauty's
//!   formats);
//! - `prepared`: repeated arcs merged, per vertex the links a refinement
//!   follows;
//! - `partition` and `refine`: ordered partitions in nauty's arrays, and
//!   colour refinement to the coarsest equitable partition;
//! - `search`: the search tree, its pruning and its node budget;
//! - `group`: orbits and the order along the first path;
//! - `form`: the bytes and their hash;
//! - `host`: a level as a coloured graph ([`of_graph`]).
//!
//! ```
//! use levelgraph::canon::{canonical, ColouredGraph, SearchLimits};
//!
//! let limits = SearchLimits::default();
//! let petersen = canonical(&ColouredGraph::petersen(), &limits)?;
//! assert_eq!(petersen.automorphisms.order.exact(), Some(120));
//! // The same graph numbered otherwise has the same form.
//! let perm = [3, 1, 4, 0, 5, 9, 2, 6, 8, 7];
//! let shuffled = ColouredGraph::petersen().relabelled(&perm).expect("a permutation");
//! assert_eq!(canonical(&shuffled, &limits)?.form, petersen.form);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod coloured;
mod families;
mod form;
mod graph6;
mod group;
mod host;
mod partition;
mod prepared;
mod refine;
mod search;

pub use coloured::{Arc, BuildError, ColouredGraph};
pub use form::{encode, stable_hash};
pub use graph6::Graph6Error;
pub use group::{Automorphisms, GroupOrder};
pub use host::of_graph;
pub use search::{LimitReached, SearchLimits};

/// A graph's canonical labelling, form, hash and automorphism group.
#[derive(Clone, Debug, PartialEq)]
pub struct Canon {
    /// Canonical place → the original vertex at it (a permutation of
    /// `0..n`).
    pub labelling: Vec<u32>,
    /// The graph renumbered so that vertex `labelling[i]` becomes `i`, as
    /// bytes ([`encode`]'s layout): equal for two graphs exactly when they
    /// are isomorphic with their colours and palettes.
    pub form: Vec<u8>,
    /// [`stable_hash`] of `form`: equal forms, equal hashes, on every
    /// platform.
    pub hash: u64,
    /// The automorphism group.
    pub automorphisms: Automorphisms,
    /// The search-tree nodes visited (a measure of the work done).
    pub nodes: u64,
}

impl Canon {
    /// Original vertex → canonical place (the inverse of `labelling`).
    pub fn places(&self) -> Vec<u32> {
        let mut places = vec![0; self.labelling.len()];
        for (i, &v) in self.labelling.iter().enumerate() {
            places[v as usize] = i as u32;
        }
        places
    }
}

/// The canonical labelling, form, hash and automorphism group of `g`.
///
/// # Errors
///
/// [`LimitReached`] when the search visits more than
/// `limits.max_nodes` nodes; nothing is returned then (a partial search
/// gives no canonical form).
///
/// # Complexity
///
/// The refinement at each node is O(m log n) for n vertices and m arcs;
/// the number of nodes is small for most graphs (about the depth of the
/// tree plus a few per automorphism generator) and can grow exponentially
/// on hard families (strongly regular graphs, Miyazaki's), which the node
/// budget bounds.
pub fn canonical(g: &ColouredGraph, limits: &SearchLimits) -> Result<Canon, LimitReached> {
    let prepared = prepared::Prepared::new(g);
    let outcome = search::search(&prepared, limits)?;
    let form = form::from_rows(g, &prepared, &outcome.labelling, &outcome.rows);
    Ok(Canon {
        labelling: outcome.labelling,
        hash: stable_hash(&form),
        form,
        automorphisms: outcome.automorphisms,
        nodes: outcome.nodes,
    })
}
