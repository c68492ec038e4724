//! Writing a placement into the mission graph: each piece of content
//! becomes a vertex stored in its place (`(k:key) in (r)`), a placed key
//! carries its lock's `via same` attribute or a cosmetic edge to each lock
//! it opens.

use super::problem::{ContentKind, Problem};
use super::Placement;
use crate::graph::{Edge, Graph, VertexId};
use crate::play::LockRef;

/// The problem's graph with `placement`'s content stored in its places.
/// New vertices get ids after every existing one, in content order, then
/// place order.
pub fn apply(problem: &Problem, placement: &Placement) -> Graph {
    let mut graph = problem.graph.clone();
    for (c, content) in problem.contents.iter().enumerate() {
        for &p in &placement.at[c] {
            let room = problem.place_vertex(p);
            let tag = graph.tags_mut().intern(&content.tag);
            let v = graph.add_vertex(tag);
            if let Some(x) = graph.vertex_mut(v) {
                x.attributes = content.attributes.clone();
            }
            graph.set_parent(v, Some(room));
            if let (Some(link), ContentKind::Key { opens }) = (&content.link, &content.kind) {
                let label = link.label.as_ref().map(|l| graph.labels_mut().intern(l));
                for &l in opens {
                    if let LockRef::Room(lock) = problem.locks[l as usize] {
                        graph.add_edge(link_edge(v, lock, link.directed, link.cosmetic, label));
                    }
                }
            }
        }
    }
    graph
}

fn link_edge(
    key: VertexId,
    lock: VertexId,
    directed: bool,
    cosmetic: bool,
    label: Option<crate::graph::Symbol>,
) -> Edge {
    Edge {
        source: key,
        target: lock,
        directed,
        cosmetic,
        label,
        length_factor: 1.0,
    }
}
