//! Tests of the planarity test and its embeddings: known planar and
//! non-planar graphs (Kuratowski's among them), brute force on small
//! graphs, random graphs against Euler's formula, and drawn embeddings.

use super::*;
use crate::rng::Rng;
use proptest::prelude::*;

// ---- graph builders ----

fn path(n: usize) -> Vec<[usize; 2]> {
    (1..n).map(|i| [i - 1, i]).collect()
}

fn cycle(n: usize) -> Vec<[usize; 2]> {
    (0..n).map(|i| [i, (i + 1) % n]).collect()
}

fn complete(n: usize) -> Vec<[usize; 2]> {
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            edges.push([a, b]);
        }
    }
    edges
}

/// K_{a,b} on `0..a` and `a..a+b`.
fn complete_bipartite(a: usize, b: usize) -> Vec<[usize; 2]> {
    let mut edges = Vec::new();
    for x in 0..a {
        for y in a..a + b {
            edges.push([x, y]);
        }
    }
    edges
}

fn grid(w: usize, h: usize) -> Vec<[usize; 2]> {
    let mut edges = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x;
            if x + 1 < w {
                edges.push([v, v + 1]);
            }
            if y + 1 < h {
                edges.push([v, v + w]);
            }
        }
    }
    edges
}

/// Hub 0, rim 1..=k.
fn wheel(k: usize) -> Vec<[usize; 2]> {
    let mut edges: Vec<[usize; 2]> = (1..=k).map(|i| [0, i]).collect();
    edges.extend((0..k).map(|i| [1 + i, 1 + (i + 1) % k]));
    edges
}

fn octahedron() -> Vec<[usize; 2]> {
    complete(6)
        .into_iter()
        .filter(|&[a, b]| !(a % 2 == 0 && b == a + 1))
        .collect()
}

fn icosahedron() -> Vec<[usize; 2]> {
    let mut edges = Vec::new();
    for i in 0..5 {
        let (up, up_next) = (1 + i, 1 + (i + 1) % 5);
        let (low, low_next) = (6 + i, 6 + (i + 1) % 5);
        edges.extend([[0, up], [up, up_next], [low, low_next], [11, low]]);
        edges.extend([[up, low], [up_next, low]]);
    }
    edges
}

fn petersen() -> Vec<[usize; 2]> {
    let mut edges = Vec::new();
    for i in 0..5 {
        edges.push([i, (i + 1) % 5]);
        edges.push([5 + i, 5 + (i + 2) % 5]);
        edges.push([i, 5 + i]);
    }
    edges
}

/// Every edge split by a new vertex.
fn subdivide(n: usize, edges: &[[usize; 2]]) -> (usize, Vec<[usize; 2]>) {
    let mut out = Vec::new();
    for (i, &[a, b]) in edges.iter().enumerate() {
        out.push([a, n + i]);
        out.push([n + i, b]);
    }
    (n + edges.len(), out)
}

/// `b` next to `a`: `b`'s vertices shifted by `na`.
fn union(na: usize, a: &[[usize; 2]], nb: usize, b: &[[usize; 2]]) -> (usize, Vec<[usize; 2]>) {
    let mut edges = a.to_vec();
    edges.extend(b.iter().map(|&[x, y]| [x + na, y + na]));
    (na + nb, edges)
}

fn shuffle<T>(rng: &mut Rng, xs: &mut [T]) {
    for i in (1..xs.len()).rev() {
        xs.swap(i, rng.below(i + 1));
    }
}

/// A random maximal planar graph (n ≥ 3, 3n − 6 edges): vertices put
/// one by one into a random triangle; then vertex ids, edge order and
/// edge directions shuffled.
fn random_maximal_planar(n: usize, seed: u64) -> Vec<[usize; 2]> {
    let mut rng = Rng::seeded(seed);
    let mut edges = vec![[0, 1], [1, 2], [2, 0]];
    let mut triangles = vec![[0, 1, 2], [0, 2, 1]];
    for v in 3..n {
        let t = rng.below(triangles.len());
        let [a, b, c] = triangles[t];
        triangles[t] = [a, b, v];
        triangles.push([b, c, v]);
        triangles.push([c, a, v]);
        edges.extend([[a, v], [b, v], [c, v]]);
    }
    let mut ids: Vec<usize> = (0..n).collect();
    shuffle(&mut rng, &mut ids);
    let mut edges: Vec<[usize; 2]> = edges
        .into_iter()
        .map(|[a, b]| {
            if rng.below(2) == 0 {
                [ids[a], ids[b]]
            } else {
                [ids[b], ids[a]]
            }
        })
        .collect();
    shuffle(&mut rng, &mut edges);
    edges
}

// ---- checks ----

fn components(n: usize, edges: &[[usize; 2]]) -> usize {
    let mut sets = crate::union_find::UnionFind::new(n);
    for &[a, b] in edges {
        sets.union(a, b);
    }
    sets.sets()
}

/// Every rotation is a permutation of the vertex's distinct
/// neighbours, faces use every directed edge once, and Euler's formula
/// holds: V − E + F = 2C (faces counted per component, one face per
/// isolated vertex).
fn check_embedding(n: usize, edges: &[[usize; 2]], emb: &Embedding) {
    assert_eq!(emb.vertex_count(), n);
    let simple = simple_edges(n, edges).unwrap();
    let mut nbrs = vec![Vec::new(); n];
    for &[a, b] in &simple {
        nbrs[a].push(b);
        nbrs[b].push(a);
    }
    for (v, expected) in nbrs.iter_mut().enumerate() {
        let mut got = emb.rotation(v).to_vec();
        got.sort_unstable();
        expected.sort_unstable();
        assert_eq!(&got, expected, "rotation of {v}");
    }
    assert_eq!(emb.edge_count(), simple.len());
    let faces = emb.faces();
    let mut darts = std::collections::BTreeSet::new();
    for face in &faces {
        if face.len() == 1 && emb.rotation(face[0]).is_empty() {
            continue;
        }
        for k in 0..face.len() {
            let dart = (face[k], face[(k + 1) % face.len()]);
            assert!(darts.insert(dart), "directed edge {dart:?} in two faces");
        }
    }
    assert_eq!(darts.len(), 2 * simple.len());
    let c = components(n, &simple);
    assert_eq!(
        n + faces.len(),
        simple.len() + 2 * c,
        "Euler: V={n} E={} F={} C={c}",
        simple.len(),
        faces.len()
    );
}

fn assert_planar(n: usize, edges: &[[usize; 2]]) -> Embedding {
    let emb =
        planar_embedding(n, edges).unwrap_or_else(|e| panic!("expected planar, got {e} (n = {n})"));
    check_embedding(n, edges, &emb);
    emb
}

fn assert_nonplanar(n: usize, edges: &[[usize; 2]]) -> PlanarityError {
    match planar_embedding(n, edges) {
        Err(e @ PlanarityError::NonPlanar { .. }) => e,
        other => panic!("expected non-planar, got {other:?}"),
    }
}

/// Brute force: some rotation system of the graph satisfies Euler.
/// Leaves (degree ≤ 1) are removed first; fine for n ≤ 6.
fn brute_force_planar(n: usize, edges: &[[usize; 2]]) -> bool {
    let mut adj = vec![std::collections::BTreeSet::new(); n];
    for &[a, b] in edges {
        if a != b {
            adj[a].insert(b);
            adj[b].insert(a);
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for v in 0..n {
            if adj[v].len() == 1 {
                let u = *adj[v].iter().next().unwrap();
                adj[v].clear();
                adj[u].remove(&v);
                changed = true;
            }
        }
    }
    let nbrs: Vec<Vec<usize>> = adj.iter().map(|s| s.iter().copied().collect()).collect();
    let live: Vec<usize> = (0..n).filter(|&v| !nbrs[v].is_empty()).collect();
    let e: usize = nbrs.iter().map(Vec::len).sum::<usize>() / 2;
    let mut simple = Vec::new();
    for (a, list) in nbrs.iter().enumerate() {
        simple.extend(list.iter().filter(|&&b| a < b).map(|&b| [a, b]));
    }
    let c = components(n, &simple) - (n - live.len());
    // All cyclic orders per live vertex: first neighbour fixed.
    fn permutations(xs: &[usize]) -> Vec<Vec<usize>> {
        if xs.len() <= 1 {
            return vec![xs.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..xs.len() {
            let mut rest = xs.to_vec();
            let x = rest.remove(i);
            for mut p in permutations(&rest) {
                p.insert(0, x);
                out.push(p);
            }
        }
        out
    }
    let choices: Vec<Vec<Vec<usize>>> = live
        .iter()
        .map(|&v| {
            permutations(&nbrs[v][1..])
                .into_iter()
                .map(|mut p| {
                    p.insert(0, nbrs[v][0]);
                    p
                })
                .collect()
        })
        .collect();
    let mut digit = vec![0usize; live.len()];
    let mut rotation = vec![Vec::new(); n];
    loop {
        for (k, &v) in live.iter().enumerate() {
            rotation[v].clone_from(&choices[k][digit[k]]);
        }
        let emb = Embedding {
            rotation: rotation.clone(),
        };
        let faces = emb.faces().len() - (n - live.len());
        if live.len() + faces == e + 2 * c {
            return true;
        }
        let mut k = 0;
        loop {
            if k == live.len() {
                return false;
            }
            digit[k] += 1;
            if digit[k] < choices[k].len() {
                break;
            }
            digit[k] = 0;
            k += 1;
        }
    }
}

fn edges_of_mask(n: usize, mask: u32) -> Vec<[usize; 2]> {
    complete(n)
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| mask >> i & 1 == 1)
        .map(|(_, e)| e)
        .collect()
}

// ---- planar ----

#[test]
fn tiny_graphs() {
    assert_planar(0, &[]);
    assert_planar(1, &[]);
    assert_planar(2, &[[0, 1]]);
    assert_planar(5, &[]);
    let emb = assert_planar(3, &[[0, 1], [1, 0], [1, 1], [2, 1]]);
    assert_eq!(emb.edge_count(), 2);
    assert_eq!(emb.faces(), vec![vec![0, 1, 2, 1]]);
    assert_eq!(planar_embedding(2, &[[1, 1]]).unwrap().faces(), [[0], [1]]);
}

#[test]
fn paths_trees_cycles() {
    for n in 1..12 {
        let emb = assert_planar(n, &path(n));
        assert_eq!(emb.faces().len(), 1);
    }
    for n in 3..12 {
        let emb = assert_planar(n, &cycle(n));
        let faces = emb.faces();
        assert_eq!(faces.len(), 2);
        assert!(faces.iter().all(|f| f.len() == n));
    }
    // A star, a caterpillar and a random tree.
    assert_planar(9, &(1..9).map(|i| [0, i]).collect::<Vec<_>>());
    let mut rng = Rng::seeded(3);
    let tree: Vec<[usize; 2]> = (1..200).map(|i| [rng.below(i), i]).collect();
    let emb = assert_planar(200, &tree);
    assert_eq!(emb.faces(), vec![emb.faces()[0].clone()]);
    assert_eq!(emb.faces()[0].len(), 2 * 199);
}

#[test]
fn platonic_and_wheels() {
    let emb = assert_planar(4, &complete(4));
    assert_eq!(emb.faces().len(), 4);
    for k in 3..10 {
        let emb = assert_planar(k + 1, &wheel(k));
        assert_eq!(emb.faces().len(), k + 1);
    }
    let emb = assert_planar(6, &octahedron());
    assert_eq!(octahedron().len(), 12);
    assert!(emb.faces().iter().all(|f| f.len() == 3));
    assert_eq!(icosahedron().len(), 30);
    let emb = assert_planar(12, &icosahedron());
    assert_eq!(emb.faces().len(), 20);
    assert!(emb.faces().iter().all(|f| f.len() == 3));
    // The cube and K_{2,5}.
    let cube: Vec<[usize; 2]> = (0..8usize)
        .flat_map(|v| [1, 2, 4].map(|bit| [v, v ^ bit]))
        .collect();
    assert_eq!(assert_planar(8, &cube).faces().len(), 6);
    assert_planar(7, &complete_bipartite(2, 5));
}

#[test]
fn grids() {
    let emb = assert_planar(900, &grid(30, 30));
    let faces = emb.faces();
    assert_eq!(faces.len(), 29 * 29 + 1);
    assert_eq!(faces.iter().filter(|f| f.len() == 4).count(), 29 * 29);
    // The grid's embedding is unique: the outer face is its boundary.
    assert!(faces.iter().any(|f| f.len() == 4 * 29));
    // Plus an edge between two corners of the outer face.
    let mut edges = grid(10, 10);
    edges.push([0, 99]);
    assert_planar(100, &edges);
}

#[test]
fn random_maximal_planar_graphs() {
    for (seed, n) in [
        (1, 3),
        (2, 4),
        (3, 5),
        (4, 10),
        (5, 50),
        (6, 300),
        (7, 2000),
    ] {
        let edges = random_maximal_planar(n, seed);
        assert_eq!(edges.len(), 3 * n - 6);
        let emb = assert_planar(n, &edges);
        if n >= 4 {
            assert!(emb.faces().iter().all(|f| f.len() == 3), "triangulation");
        }
    }
}

#[test]
fn disconnected_unions() {
    let (n, edges) = union(4, &complete(4), 5, &path(5));
    let (n, edges) = union(n, &edges, 3, &[]);
    let (n, edges) = union(n, &edges, 6, &cycle(6));
    let (n, edges) = union(n, &edges, 12, &icosahedron());
    let emb = assert_planar(n, &edges);
    // 4 + 1 + 3 + 2 + 20 faces.
    assert_eq!(emb.faces().len(), 30);
}

#[test]
fn deterministic() {
    let edges = random_maximal_planar(500, 11);
    let a = planar_embedding(500, &edges).unwrap();
    let b = planar_embedding(500, &edges).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.faces(), b.faces());
}

#[test]
fn large_inputs_do_not_overflow_the_stack() {
    let n = 100_000;
    let emb = assert_planar(n, &path(n));
    assert_eq!(emb.faces().len(), 1);
    let emb = assert_planar(n, &cycle(n));
    assert_eq!(emb.faces().len(), 2);
    let emb = assert_planar(300 * 300, &grid(300, 300));
    assert_eq!(emb.faces().len(), 299 * 299 + 1);
    let edges = random_maximal_planar(20_000, 9);
    assert_planar(20_000, &edges);
}

// ---- non-planar ----

#[test]
fn kuratowski_graphs() {
    let e = assert_nonplanar(5, &complete(5));
    assert_eq!(
        e,
        PlanarityError::NonPlanar {
            vertices: 5,
            edges: 10,
            edge: None
        }
    );
    let e = assert_nonplanar(6, &complete_bipartite(3, 3));
    assert!(matches!(
        e,
        PlanarityError::NonPlanar {
            vertices: 6,
            edges: 9,
            edge: Some(_)
        }
    ));
    assert_nonplanar(10, &petersen());
    let (n, edges) = subdivide(5, &complete(5));
    assert_nonplanar(n, &edges);
    let (n, edges) = subdivide(6, &complete_bipartite(3, 3));
    assert_nonplanar(n, &edges);
    // K5 minus an edge, K_{3,3} minus an edge: planar.
    assert_planar(5, &complete(5)[1..]);
    assert_planar(6, &complete_bipartite(3, 3)[1..]);
}

#[test]
fn kuratowski_subgraphs_inside_planar_graphs() {
    // An edge between two interior vertices of a grid not on a
    // common face.
    let mut edges = grid(10, 10);
    edges.push([33, 66]);
    let e = assert_nonplanar(100, &edges);
    assert!(matches!(e, PlanarityError::NonPlanar { edge: Some(_), .. }));
    // A subdivided K_{3,3} spliced into a random triangulation with
    // some edges removed: its branch vertices are triangulation
    // vertices, its paths new vertices.
    for seed in 0..8 {
        let n = 200;
        let mut rng = Rng::seeded(seed);
        let mut edges = random_maximal_planar(n, seed + 100);
        edges.truncate(2 * n);
        assert_planar(n, &edges);
        let mut branch: Vec<usize> = (0..n).collect();
        shuffle(&mut rng, &mut branch);
        let mut next = n;
        for &[a, b] in &complete_bipartite(3, 3) {
            let (a, b) = (branch[a], branch[b]);
            edges.extend([[a, next], [next, next + 1], [next + 1, b]]);
            next += 2;
        }
        shuffle(&mut rng, &mut edges);
        assert!(edges.len() <= 3 * next - 6);
        assert_nonplanar(next, &edges);
    }
}

#[test]
fn planar_graph_with_a_nonplanar_component() {
    let (n, edges) = union(900, &grid(30, 30), 6, &complete_bipartite(3, 3));
    assert_nonplanar(n, &edges);
    let (n, edges) = union(6, &complete_bipartite(3, 3), 900, &grid(30, 30));
    assert_nonplanar(n, &edges);
}

#[test]
fn bad_edges() {
    assert_eq!(
        planar_embedding(3, &[[0, 1], [1, 3]]),
        Err(PlanarityError::BadEdge {
            index: 1,
            edge: [1, 3],
            vertices: 3
        })
    );
    let e = assert_nonplanar(6, &complete_bipartite(3, 3));
    assert!(e
        .to_string()
        .starts_with("the graph is not planar (6 vertices, 9"));
}

// ---- against brute force ----

#[test]
fn all_graphs_on_five_vertices_match_brute_force() {
    let mut planar = 0;
    for mask in 0..1u32 << 10 {
        let edges = edges_of_mask(5, mask);
        let ours = planar_embedding(5, &edges);
        if let Ok(emb) = &ours {
            check_embedding(5, &edges, emb);
            planar += 1;
        }
        assert_eq!(ours.is_ok(), brute_force_planar(5, &edges), "{edges:?}");
    }
    assert_eq!(planar, 1023);
}

#[test]
fn all_graphs_on_six_vertices() {
    // 32071 labelled planar graphs on 6 vertices (OEIS A066537).
    let mut planar = 0;
    for mask in 0..1u32 << 15 {
        let edges = edges_of_mask(6, mask);
        if let Ok(emb) = planar_embedding(6, &edges) {
            check_embedding(6, &edges, &emb);
            planar += 1;
        }
    }
    assert_eq!(planar, 32071);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn tiny_graphs_match_brute_force(n in 1usize..=6, mask in any::<u32>()) {
        let edges = edges_of_mask(n, mask);
        let ours = planar_embedding(n, &edges);
        if let Ok(emb) = &ours {
            check_embedding(n, &edges, emb);
        }
        prop_assert_eq!(ours.is_ok(), brute_force_planar(n, &edges));
    }

    #[test]
    fn random_graphs_ok_means_euler(
        n in 1usize..40,
        raw in proptest::collection::vec((0usize..40, 0usize..40), 0..90),
    ) {
        let edges: Vec<[usize; 2]> = raw.iter().map(|&(a, b)| [a % n, b % n]).collect();
        if let Ok(emb) = planar_embedding(n, &edges) {
            check_embedding(n, &edges, &emb);
        }
    }

    #[test]
    fn sparse_planar_graphs_are_planar(n in 3usize..120, keep in 0usize..400, seed in any::<u64>()) {
        let mut edges = random_maximal_planar(n, seed);
        edges.truncate(keep.max(1));
        assert_planar(n, &edges);
    }
}

// ---- from_drawing ----

#[test]
fn drawn_wheel() {
    let k = 12;
    let mut points = vec![[0.0, 0.0]];
    for i in 0..k {
        let t = i as f64 * std::f64::consts::TAU / k as f64;
        points.push([t.cos(), t.sin()]);
    }
    let emb = Embedding::from_drawing(k + 1, &wheel(k), &points);
    check_embedding(k + 1, &wheel(k), &emb);
    // Counter-clockwise from the positive x axis.
    assert_eq!(emb.rotation(0), (1..=k).collect::<Vec<_>>());
    let faces = emb.faces();
    assert_eq!(faces.len(), k + 1);
    // The outer face, clockwise, starts with the first directed edge
    // out of 1 that has it on its left: 1 → k.
    let mut outer = vec![1];
    outer.extend((2..=k).rev());
    assert!(faces.contains(&outer), "outer face clockwise: {faces:?}");
}

#[test]
fn drawn_square_with_diagonal() {
    let points = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let edges = [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [2, 0]];
    let emb = Embedding::from_drawing(4, &edges, &points);
    check_embedding(4, &edges, &emb);
    assert_eq!(emb.rotation(0), [1, 2, 3]);
    let mut faces = emb.faces();
    for f in &mut faces {
        let k = (0..f.len()).min_by_key(|&k| f[k]).unwrap();
        f.rotate_left(k);
    }
    faces.sort();
    // Two counter-clockwise triangles and the clockwise outer 4-cycle.
    assert_eq!(faces, vec![vec![0, 1, 2], vec![0, 2, 3], vec![0, 3, 2, 1]]);
}

#[test]
fn exact_direction_order() {
    // Directions that atan2 or a rounded cross product may not order:
    // nearly collinear, with tiny and huge coordinates.
    let eps = f64::EPSILON;
    let dirs = [
        [1.0, 0.0],
        [1e300, 1e-300],
        [1.0, eps * eps],
        [1.0, 1.0 - eps],
        [1.0, 1.0],
        [1.0 - eps, 1.0],
        [0.0, 1.0],
        [-1.0, 1e-320],
        [-1.0, 0.0],
        [-1.0, -1e-320],
        [0.0, -1.0],
        [1.0, -eps],
    ];
    for (i, &a) in dirs.iter().enumerate() {
        for (j, &b) in dirs.iter().enumerate() {
            assert_eq!(direction_cmp(a, b), i.cmp(&j), "{a:?} vs {b:?}");
        }
    }
    assert_eq!(direction_cmp([2.0, 2.0], [1.0, 1.0]), Ordering::Equal);
    assert_eq!(
        exact_product_cmp([1.0 + eps, 1.0 - eps], [1.0, 1.0]),
        Ordering::Less
    );
    assert_eq!(exact_product_cmp([-3.0, 0.5], [1.5, -1.0]), Ordering::Equal);
    assert_eq!(exact_product_cmp([0.0, 5.0], [-0.0, 1.0]), Ordering::Equal);
}

#[test]
fn drawn_embedding_of_a_triangulation_passes_euler() {
    // The tests above build drawings by hand; here a drawn grid with
    // both diagonals' worth of triangles (one diagonal per cell).
    let (w, h) = (7, 5);
    let mut edges = grid(w, h);
    let mut points = Vec::new();
    for y in 0..h {
        for x in 0..w {
            points.push([x as f64 * 0.1, y as f64 * 0.3]);
            if x + 1 < w && y + 1 < h {
                let v = y * w + x;
                edges.push(if (x + y) % 2 == 0 {
                    [v, v + w + 1]
                } else {
                    [v + 1, v + w]
                });
            }
        }
    }
    let emb = Embedding::from_drawing(w * h, &edges, &points);
    check_embedding(w * h, &edges, &emb);
    assert_eq!(emb.faces().len(), 2 * (w - 1) * (h - 1) + 1);
}
