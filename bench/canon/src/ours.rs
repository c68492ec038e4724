//! levelgraph's side: `levelgraph::canon`, called in process. The only
//! module that names the canon API.

pub use levelgraph::canon::GroupOrder;
use levelgraph::canon::{self, ColouredGraph, SearchLimits};
use levelgraph::graph::Graph;

use crate::graph::Input;

/// The search's answer for one graph.
pub struct Answer {
    pub form: Vec<u8>,
    pub order: GroupOrder,
    /// Search-tree nodes visited.
    pub nodes: u64,
}

/// A benchmark graph as `canon` takes it.
pub fn build(g: &Input) -> ColouredGraph {
    let mut c = ColouredGraph::new(g.colours.clone());
    for &(u, v, colour) in &g.edges {
        c.add_edge(u, v, colour).expect("vertices in range");
    }
    for &(u, v, colour) in &g.arcs {
        c.add_arc(u, v, colour).expect("vertices in range");
    }
    c
}

/// The limits every search runs with: the library's defaults.
pub fn limits() -> SearchLimits {
    SearchLimits::default()
}

/// Canonical form and group order, or `None` when the search hit its limit.
pub fn canonical(g: &ColouredGraph, limits: &SearchLimits) -> Option<Answer> {
    canon::canonical(g, limits).ok().map(|c| Answer {
        form: c.form,
        order: c.automorphisms.order,
        nodes: c.nodes,
    })
}

/// A level as `canon` reads it (`canon::of_graph`).
pub fn of_graph(g: &Graph) -> ColouredGraph {
    canon::of_graph(g).0
}

/// log10 of a group order, and the exact value when there is one.
pub fn order_parts(o: GroupOrder) -> (f64, Option<u128>) {
    match o {
        GroupOrder::Exact(n) => ((n as f64).log10(), Some(n)),
        GroupOrder::Overflow { log10 } => (log10, None),
    }
}
