//! A level (a host [`Graph`]) as a coloured graph with everything that
//! tells two levels apart: each vertex's tag name and attributes, each
//! edge's direction, label name and cosmetic flag, parallel edges, and
//! containment. Positions, radii, grid cells and length factors are
//! drawing, not identity, and are left out.
//!
//! Colours are ranks of *values*: a vertex's colour is the rank of its key
//! (tag name, attributes) among the graph's distinct keys, an arc's the
//! rank of its key among the arc keys, so graphs whose symbol tables
//! number names differently still get the same coloured graph. The sorted
//! keys themselves are the palette, at the front of the form: two graphs
//! whose colour *numbers* agree but mean different names get different
//! forms.

use std::collections::BTreeMap;

use crate::graph::{Graph, Symbol, VertexId};

use super::coloured::ColouredGraph;

/// The coloured graph of `g` and, per vertex of it, the `VertexId` it
/// stands for (live vertices in increasing id order).
///
/// - vertex colour: the rank of (tag name, attributes) among the distinct
///   such keys of `g`;
/// - an undirected edge: two arcs, a directed edge: one arc source →
///   target, each of the colour of (directed, cosmetic, label name);
/// - a stored vertex: an arc parent → child of the containment colour
///   (ranked after every edge colour).
///
/// The palette lists the keys in colour order (see the module docs).
/// Two levels are isomorphic — the same level with other ids — exactly
/// when [`super::canonical`] gives their coloured graphs equal forms.
pub fn of_graph(g: &Graph) -> (ColouredGraph, Vec<VertexId>) {
    let vertices: Vec<VertexId> = g.vertex_ids().collect();
    let mut dense = vec![u32::MAX; g.vertex_bound()];
    for (i, v) in vertices.iter().enumerate() {
        dense[v.index()] = i as u32;
    }

    // A vertex's key depends on its tag and attributes only. Most vertices
    // have no attributes, so their key is made once per tag, not once per
    // vertex (this runs once per level in `analyze`).
    let mut vertex_keys = Keys::default();
    let mut key_of_tag: BTreeMap<Symbol, u32> = BTreeMap::new();
    let vertex_key_ids: Vec<u32> = g
        .vertices()
        .map(|(_, vertex)| {
            let key = || vertex_key(g.tags().name(vertex.tag), &vertex.attributes);
            if vertex.attributes.is_empty() {
                *key_of_tag
                    .entry(vertex.tag)
                    .or_insert_with(|| vertex_keys.intern(key()))
            } else {
                vertex_keys.intern(key())
            }
        })
        .collect();

    // An arc's key depends on (directed, cosmetic, label) only: made once
    // per such triple.
    let mut arc_keys = Keys::default();
    let mut key_of_kind: BTreeMap<(bool, bool, Option<Symbol>), u32> = BTreeMap::new();
    let edges: Vec<(u32, u32, u32, bool)> = g
        .edges()
        .map(|(_, e)| {
            let id = *key_of_kind
                .entry((e.directed, e.cosmetic, e.label))
                .or_insert_with(|| {
                    let label = e.label.map(|l| g.labels().name(l));
                    arc_keys.intern(edge_key(e.directed, e.cosmetic, label))
                });
            let (a, b) = (dense[e.source.index()], dense[e.target.index()]);
            (id, a, b, e.directed)
        })
        .collect();
    let parents: Vec<(u32, u32)> = g
        .vertices()
        .filter_map(|(v, vertex)| {
            let p = vertex.parent?;
            Some((dense[p.index()], dense[v.index()]))
        })
        .collect();
    let contains = (!parents.is_empty()).then(|| arc_keys.intern(CONTAINS_KEY.to_vec()));

    let (vertex_palette, vertex_rank) = vertex_keys.ranked();
    let (arc_palette, arc_rank) = arc_keys.ranked();
    let colours = vertex_key_ids
        .iter()
        .map(|&id| vertex_rank[id as usize])
        .collect();
    let mut graph = ColouredGraph::new(colours);
    for &(id, a, b, directed) in &edges {
        let c = arc_rank[id as usize];
        let added = if directed {
            graph.add_arc(a, b, c)
        } else {
            graph.add_edge(a, b, c)
        };
        added.expect("a live edge joins live vertices");
    }
    if let Some(id) = contains {
        for &(parent, child) in &parents {
            graph
                .add_arc(parent, child, arc_rank[id as usize])
                .expect("a live vertex's parent is live");
        }
    }

    let mut palette = b"levelgraph host graph 1".to_vec();
    for keys in [vertex_palette, arc_palette] {
        put_len(&mut palette, keys.len());
        for key in keys {
            put_len(&mut palette, key.len());
            palette.extend_from_slice(key);
        }
    }
    graph.set_palette(palette);
    (graph, vertices)
}

/// The key of the containment arcs (parent → stored child).
const CONTAINS_KEY: &[u8] = b"P";

/// A vertex's key: its tag name, then its attributes in name order.
fn vertex_key(tag: &str, attributes: &BTreeMap<String, String>) -> Vec<u8> {
    let mut key = Vec::new();
    put_str(&mut key, tag);
    put_len(&mut key, attributes.len());
    for (k, v) in attributes {
        put_str(&mut key, k);
        put_str(&mut key, v);
    }
    key
}

/// An edge's key: direction, cosmetic flag and label name.
fn edge_key(directed: bool, cosmetic: bool, label: Option<&str>) -> Vec<u8> {
    let mut key = vec![b'E', u8::from(directed), u8::from(cosmetic)];
    match label {
        None => key.push(0),
        Some(name) => {
            key.push(1);
            put_str(&mut key, name);
        }
    }
    key
}

/// Distinct keys, each numbered in the order first seen.
#[derive(Default)]
struct Keys {
    ids: BTreeMap<Vec<u8>, u32>,
}

impl Keys {
    /// The number of `key`, a new one when it was not seen before.
    fn intern(&mut self, key: Vec<u8>) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(key).or_insert(next)
    }

    /// The keys in increasing order (the palette), and per key number its
    /// rank in that order (its colour).
    fn ranked(&self) -> (Vec<&[u8]>, Vec<u32>) {
        let mut rank = vec![0; self.ids.len()];
        let mut sorted = Vec::with_capacity(self.ids.len());
        for (r, (key, &id)) in self.ids.iter().enumerate() {
            rank[id as usize] = r as u32;
            sorted.push(key.as_slice());
        }
        (sorted, rank)
    }
}

/// A length or count as 8 little-endian bytes.
fn put_len(out: &mut Vec<u8>, len: usize) {
    out.extend_from_slice(&(len as u64).to_le_bytes());
}

/// A string, its length first, so no two sequences of strings give the
/// same bytes.
fn put_str(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use proptest::prelude::*;

    use super::{of_graph, put_len, put_str};
    use crate::canon::coloured::ColouredGraph;
    use crate::graph::{Edge, Graph, VertexId};

    /// The plain construction [`of_graph`] is tuned from: a key made for
    /// every vertex and every edge, ranked through sets.
    fn of_graph_plain(g: &Graph) -> (ColouredGraph, Vec<VertexId>) {
        let vertices: Vec<VertexId> = g.vertex_ids().collect();
        let mut dense = vec![u32::MAX; g.vertex_bound()];
        for (i, v) in vertices.iter().enumerate() {
            dense[v.index()] = i as u32;
        }

        let vertex_keys: Vec<Vec<u8>> = g
            .vertices()
            .map(|(_, vertex)| {
                let mut key = Vec::new();
                put_str(&mut key, g.tags().name(vertex.tag));
                put_len(&mut key, vertex.attributes.len());
                for (k, v) in &vertex.attributes {
                    put_str(&mut key, k);
                    put_str(&mut key, v);
                }
                key
            })
            .collect();
        let vertex_rank = ranks(vertex_keys.iter().cloned());
        let colours = vertex_keys.iter().map(|k| vertex_rank[k]).collect();

        let edge_key = |directed: bool, cosmetic: bool, label: Option<&str>| {
            let mut key = vec![b'E', u8::from(directed), u8::from(cosmetic)];
            match label {
                None => key.push(0),
                Some(name) => {
                    key.push(1);
                    put_str(&mut key, name);
                }
            }
            key
        };
        let contains_key = vec![b'P'];
        let edge_keys: Vec<(Vec<u8>, u32, u32, bool)> = g
            .edges()
            .map(|(_, e)| {
                let label = e.label.map(|l| g.labels().name(l));
                let key = edge_key(e.directed, e.cosmetic, label);
                let (a, b) = (dense[e.source.index()], dense[e.target.index()]);
                (key, a, b, e.directed)
            })
            .collect();
        let parents: Vec<(u32, u32)> = g
            .vertices()
            .filter_map(|(v, vertex)| {
                let p = vertex.parent?;
                Some((dense[p.index()], dense[v.index()]))
            })
            .collect();
        let mut all_arc_keys: BTreeSet<Vec<u8>> = edge_keys.iter().map(|k| k.0.clone()).collect();
        if !parents.is_empty() {
            all_arc_keys.insert(contains_key.clone());
        }
        let arc_rank = ranks(all_arc_keys.iter().cloned());

        let mut graph = ColouredGraph::new(colours);
        for (key, a, b, directed) in &edge_keys {
            let c = arc_rank[key];
            let added = if *directed {
                graph.add_arc(*a, *b, c)
            } else {
                graph.add_edge(*a, *b, c)
            };
            added.expect("a live edge joins live vertices");
        }
        for &(parent, child) in &parents {
            graph
                .add_arc(parent, child, arc_rank[&contains_key])
                .expect("a live vertex's parent is live");
        }

        let mut palette = b"levelgraph host graph 1".to_vec();
        for keys in [vertex_rank.keys(), arc_rank.keys()] {
            put_len(&mut palette, keys.len());
            for key in keys {
                put_len(&mut palette, key.len());
                palette.extend_from_slice(key);
            }
        }
        graph.set_palette(palette);
        (graph, vertices)
    }

    /// Each distinct key's rank among the distinct keys in increasing order.
    fn ranks(keys: impl Iterator<Item = Vec<u8>>) -> BTreeMap<Vec<u8>, u32> {
        let distinct: BTreeSet<Vec<u8>> = keys.collect();
        distinct.into_iter().zip(0..).collect()
    }

    /// A host graph from drawn choices: tags, attributes, labelled,
    /// directed and cosmetic edges (parallel ones too), stored vertices,
    /// and a removed vertex leaving a hole in the ids.
    fn host(
        tags: &[u8],
        attributes: &[(usize, u8, u8)],
        edges: &[(usize, usize, bool, bool, u8)],
        parents: &[(usize, usize)],
        removed: Option<usize>,
    ) -> Graph {
        const TAGS: [&str; 3] = ["room", "key", "lock"];
        let mut g = Graph::new();
        let ids: Vec<VertexId> = tags
            .iter()
            .map(|&t| g.add_vertex_named(TAGS[t as usize % 3]))
            .collect();
        let n = ids.len();
        for &(v, name, value) in attributes {
            let vertex = g.vertex_mut(ids[v % n]).unwrap();
            vertex
                .attributes
                .insert(format!("a{}", name % 2), format!("v{}", value % 3));
        }
        let labels = [
            g.labels_mut().intern("locked"),
            g.labels_mut().intern("secret"),
        ];
        for &(a, b, directed, cosmetic, label) in edges {
            g.add_edge(Edge {
                source: ids[a % n],
                target: ids[b % n],
                directed,
                cosmetic,
                label: labels.get(label as usize).copied(),
                length_factor: 1.0,
            });
        }
        for &(child, parent) in parents {
            g.set_parent(ids[child % n], Some(ids[parent % n]));
        }
        if let Some(v) = removed {
            g.remove_vertex(ids[v % n]);
        }
        g
    }

    proptest! {
        #[test]
        fn tuned_and_plain_constructions_agree(
            tags in prop::collection::vec(0u8..3, 1..12),
            attributes in prop::collection::vec((0usize..12, 0u8..2, 0u8..3), 0..4),
            edges in prop::collection::vec(
                (0usize..12, 0usize..12, any::<bool>(), any::<bool>(), 0u8..3), 0..20),
            parents in prop::collection::vec((0usize..12, 0usize..12), 0..3),
            removed in prop::option::of(0usize..12),
        ) {
            let g = host(&tags, &attributes, &edges, &parents, removed);
            let (tuned, tuned_ids): (ColouredGraph, _) = of_graph(&g);
            prop_assert_eq!((tuned, tuned_ids), of_graph_plain(&g));
        }
    }
}
