//! Chain decomposition (seed 001; Ma et al. 2014, section 5): the order in
//! which the incremental layout adds rooms. Cycles are the hard part, so
//! they go first: the faces of a planar embedding, smallest first, then the
//! other faces in breadth-first order over faces that share a vertex
//! (smallest first among those found together), then the acyclic rest in
//! small breadth-first groups. Every chain after the first touches a room
//! of an earlier chain.

use super::planarity::Embedding;
use std::collections::VecDeque;

/// Most rooms in one chain of the acyclic rest (Edgar's tree chains are
/// short for the same reason: small chains anneal quickly).
const TREE_CHAIN: usize = 8;

/// The chains: each a list of room indices, together a partition of
/// `0..n`. `edges` must make a connected graph; `embedding` is a planar
/// embedding of it.
pub(crate) fn decompose(n: usize, edges: &[[usize; 2]], embedding: &Embedding) -> Vec<Vec<usize>> {
    let mut adjacent = vec![Vec::new(); n];
    for &[a, b] in edges {
        adjacent[a].push(b);
        adjacent[b].push(a);
    }
    for list in &mut adjacent {
        list.sort_unstable();
        list.dedup();
    }
    let mut faces = cycle_faces(n, edges, embedding);
    // The largest face is taken for the outer one: it wraps the others and
    // adds nothing they do not.
    if let Some(outer) = (0..faces.len()).max_by_key(|&i| (faces[i].len(), usize::MAX - i)) {
        if faces.len() > 1 {
            faces.remove(outer);
        }
    }
    let mut covered = vec![false; n];
    let mut chains: Vec<Vec<usize>> = Vec::new();
    if !faces.is_empty() {
        let mut used = vec![false; faces.len()];
        let first = (0..faces.len())
            .min_by_key(|&i| (faces[i].len(), i))
            .expect("faces");
        let mut queue = VecDeque::from([first]);
        used[first] = true;
        while let Some(f) = queue.pop_front() {
            let chain: Vec<usize> = faces[f].iter().copied().filter(|&v| !covered[v]).collect();
            for &v in &chain {
                covered[v] = true;
            }
            if !chain.is_empty() {
                chains.push(chain);
            }
            let mut found: Vec<usize> = (0..faces.len())
                .filter(|&g| !used[g] && faces[g].iter().any(|v| faces[f].contains(v)))
                .collect();
            found.sort_by_key(|&g| (faces[g].len(), g));
            for g in found {
                used[g] = true;
                queue.push_back(g);
            }
            if queue.is_empty() {
                // Faces reachable only through tree parts: continue from
                // the smallest face touching what is covered, or any.
                let next = (0..faces.len())
                    .filter(|&g| !used[g])
                    .min_by_key(|&g| (!faces[g].iter().any(|&v| covered[v]), faces[g].len(), g));
                if let Some(g) = next {
                    if faces[g].iter().any(|&v| covered[v]) {
                        used[g] = true;
                        queue.push_back(g);
                    }
                }
            }
        }
    }
    // The acyclic rest: small breadth-first groups grown from every room
    // next to a covered one at once (so a room's leaves go together rather
    // than one chain each), or from room 0 when nothing is covered.
    loop {
        let starts: Vec<usize> = if chains.is_empty() {
            (0..n).take(1).collect()
        } else {
            (0..n)
                .filter(|&v| !covered[v] && adjacent[v].iter().any(|&w| covered[w]))
                .take(TREE_CHAIN)
                .collect()
        };
        if starts.is_empty() {
            break;
        }
        let mut chain = starts;
        for &v in &chain {
            covered[v] = true;
        }
        let mut k = 0;
        while k < chain.len() && chain.len() < TREE_CHAIN {
            let v = chain[k];
            for &w in &adjacent[v] {
                if !covered[w] && chain.len() < TREE_CHAIN {
                    covered[w] = true;
                    chain.push(w);
                }
            }
            k += 1;
        }
        chains.push(chain);
    }
    chains
}

/// The faces of the embedding restricted to the edges that lie on a
/// cycle (bridges removed), each split at repeated vertices into simple
/// cycles of at least 3 rooms; deterministic order.
fn cycle_faces(n: usize, edges: &[[usize; 2]], embedding: &Embedding) -> Vec<Vec<usize>> {
    let bridges = bridges(n, edges);
    let is_bridge = |a: usize, b: usize| bridges.binary_search(&(a.min(b), a.max(b))).is_ok();
    let mut faces = Vec::new();
    for walk in embedding.faces() {
        // Drop bridge steps: a face walk crosses a bridge twice, once each
        // way, and the parts between are walks of their own.
        let m = walk.len();
        if m < 3 {
            continue;
        }
        let mut kept: Vec<usize> = Vec::new();
        for i in 0..m {
            let (a, b) = (walk[i], walk[(i + 1) % m]);
            if !is_bridge(a, b) {
                kept.push(a);
            }
        }
        for cycle in split_simple(&kept) {
            if cycle.len() >= 3 {
                faces.push(cycle);
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    faces.retain(|f| {
        let mut key = f.clone();
        key.sort_unstable();
        seen.insert(key)
    });
    faces
}

/// Splits a closed walk at repeated vertices into simple closed walks.
fn split_simple(walk: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    for &v in walk {
        if let Some(i) = stack.iter().position(|&w| w == v) {
            out.push(stack.split_off(i));
        }
        stack.push(v);
    }
    if !stack.is_empty() {
        out.push(stack);
    }
    out
}

/// The bridges, as sorted `(min, max)` pairs (Tarjan's low-link, iterative).
fn bridges(n: usize, edges: &[[usize; 2]]) -> Vec<(usize, usize)> {
    let mut adjacent: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (k, &[a, b]) in edges.iter().enumerate() {
        adjacent[a].push((b, k));
        adjacent[b].push((a, k));
    }
    let mut order = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if order[root] != usize::MAX {
            continue;
        }
        // (vertex, edge it was entered by, next incidence to look at)
        let mut stack = vec![(root, usize::MAX, 0usize)];
        order[root] = next;
        low[root] = next;
        next += 1;
        while let Some(&mut (v, via, ref mut i)) = stack.last_mut() {
            if *i < adjacent[v].len() {
                let (w, k) = adjacent[v][*i];
                *i += 1;
                if k == via {
                    continue;
                }
                if order[w] == usize::MAX {
                    order[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push((w, k, 0));
                } else {
                    low[v] = low[v].min(order[w]);
                }
            } else {
                stack.pop();
                if let Some(&(parent, _, _)) = stack.last() {
                    low[parent] = low[parent].min(low[v]);
                    if low[v] > order[parent] {
                        out.push((parent.min(v), parent.max(v)));
                    }
                }
            }
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::planarity::planar_embedding;

    fn chains_of(n: usize, edges: &[[usize; 2]]) -> Vec<Vec<usize>> {
        let e = planar_embedding(n, edges).unwrap();
        decompose(n, edges, &e)
    }

    fn assert_partition_touching(n: usize, edges: &[[usize; 2]], chains: &[Vec<usize>]) {
        let mut seen = vec![false; n];
        for (k, c) in chains.iter().enumerate() {
            for &v in c {
                assert!(!seen[v], "room {v} in two chains");
            }
            if k > 0 {
                let touches = c.iter().any(|&v| {
                    edges
                        .iter()
                        .any(|&[a, b]| (a == v && seen[b]) || (b == v && seen[a]))
                });
                assert!(touches, "chain {k} {c:?} touches nothing placed");
            }
            for &v in c {
                seen[v] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn edgar_example1_starts_with_its_smallest_cycle() {
        // example1: cycles 0-1-2-3 (4), 1-4-5 (3), 6-7-8 (3).
        let edges = [
            [0, 1],
            [0, 3],
            [1, 2],
            [1, 4],
            [1, 5],
            [2, 3],
            [3, 6],
            [4, 5],
            [6, 7],
            [6, 8],
            [7, 8],
        ];
        let chains = chains_of(9, &edges);
        assert_partition_touching(9, &edges, &chains);
        assert_eq!(chains[0].len(), 3, "{chains:?}");
        // Every cycle face comes before the tree part; here there is none.
        assert_eq!(chains.iter().map(Vec::len).sum::<usize>(), 9);
    }

    #[test]
    fn trees_are_cut_into_small_connected_chains() {
        let edges: Vec<[usize; 2]> = (1..30).map(|v| [(v - 1) / 2, v]).collect();
        let chains = chains_of(30, &edges);
        assert_partition_touching(30, &edges, &chains);
        assert!(chains.iter().all(|c| c.len() <= TREE_CHAIN));
    }

    #[test]
    fn cycles_joined_by_a_path_are_all_found() {
        // Two triangles 0-1-2 and 5-6-7 joined by the path 2-3-4-5.
        let edges = [
            [0, 1],
            [1, 2],
            [2, 0],
            [2, 3],
            [3, 4],
            [4, 5],
            [5, 6],
            [6, 7],
            [7, 5],
        ];
        let chains = chains_of(8, &edges);
        assert_partition_touching(8, &edges, &chains);
        assert_eq!(bridges(8, &edges), vec![(2, 3), (3, 4), (4, 5)]);
        assert!(chains.iter().filter(|c| c.len() == 3).count() >= 1);
    }
}
