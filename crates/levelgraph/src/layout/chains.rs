//! Chain decomposition (Ma et al. 2014, section 5): the order in
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
    let mut faces_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (g, face) in faces.iter().enumerate() {
        for &v in face {
            faces_of[v].push(g);
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
            // Faces sharing a room with this one, through the index of
            // faces by room (a scan of all faces per face would be
            // quadratic in the faces of a large level).
            let mut found: Vec<usize> = faces[f]
                .iter()
                .flat_map(|&v| faces_of[v].iter().copied())
                .filter(|&g| !used[g])
                .collect();
            found.sort_by_key(|&g| (faces[g].len(), g));
            found.dedup();
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
/// cycle (bridges removed: the rotations lose them, so every face walk
/// steps along real edges), each split at repeated vertices into simple
/// cycles of at least 3 rooms; deterministic order.
fn cycle_faces(n: usize, edges: &[[usize; 2]], embedding: &Embedding) -> Vec<Vec<usize>> {
    let bridges = bridges(n, edges);
    let is_bridge = |a: usize, b: usize| bridges.binary_search(&(a.min(b), a.max(b))).is_ok();
    let bridgeless = embedding.restricted(|a, b| !is_bridge(a, b));
    let mut faces = Vec::new();
    for walk in bridgeless.faces() {
        if walk.len() < 3 {
            continue;
        }
        for cycle in split_simple(&walk) {
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
    fn faces_are_real_cycles_when_a_block_hangs_off_a_bridge() {
        // A review's case: a hexagon with a chord, a bridge 4-6-7 to a
        // triangle 7-8-9. Dropping bridge steps from a face walk used to
        // join 5 to 7 and 9 to 4, which are not edges.
        let edges = [
            [0, 1],
            [1, 2],
            [2, 3],
            [3, 4],
            [4, 5],
            [5, 0],
            [3, 5],
            [4, 6],
            [6, 7],
            [7, 8],
            [8, 9],
            [9, 7],
        ];
        let e = planar_embedding(10, &edges).unwrap();
        for face in cycle_faces(10, &edges, &e) {
            for i in 0..face.len() {
                let (a, b) = (face[i], face[(i + 1) % face.len()]);
                assert!(
                    edges.contains(&[a, b]) || edges.contains(&[b, a]),
                    "face {face:?} steps {a}-{b}"
                );
            }
        }
        let chains = decompose(10, &edges, &e);
        assert_partition_touching(10, &edges, &chains);
        // Relabelled, the same graph gives chains that touch as well.
        let flip: Vec<[usize; 2]> = edges.iter().map(|&[a, b]| [9 - a, 9 - b]).collect();
        let e = planar_embedding(10, &flip).unwrap();
        assert_partition_touching(10, &flip, &decompose(10, &flip, &e));
    }

    proptest::proptest! {
        /// Random connected graphs (a random tree plus a few chords), the
        /// planar ones: chains partition the rooms and each touches the
        /// rooms before it.
        #[test]
        fn chains_always_touch_what_is_placed(
            n in 2usize..24,
            parents in proptest::collection::vec(0usize..1000, 23),
            chords in proptest::collection::vec((0usize..1000, 0usize..1000), 0..8),
        ) {
            let mut edges: Vec<[usize; 2]> = (1..n).map(|v| [parents[v - 1] % v, v]).collect();
            for (a, b) in chords {
                let (a, b) = (a % n, b % n);
                if a != b && !edges.contains(&[a, b]) && !edges.contains(&[b, a]) {
                    edges.push([a, b]);
                }
            }
            if let Ok(e) = planar_embedding(n, &edges) {
                assert_partition_touching(n, &edges, &decompose(n, &edges, &e));
            }
        }
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
