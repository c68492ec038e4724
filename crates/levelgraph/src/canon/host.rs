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

use std::collections::{BTreeMap, BTreeSet};

use crate::graph::{Graph, VertexId};

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
