//! Canonical forms and automorphism groups (`levelgraph::canon`): known
//! group orders, invariance under renumbering, a brute-force oracle on
//! small coloured digraphs, levels that differ in one respect, the node
//! budget.

use levelgraph::canon::{
    canonical, encode, of_graph, Canon, ColouredGraph, GroupOrder, LimitReached, SearchLimits,
};
use levelgraph::graph::{Edge, Graph};
use proptest::prelude::*;

fn canon(g: &ColouredGraph) -> Canon {
    canonical(g, &SearchLimits::default()).expect("within the default budget")
}

fn order(g: &ColouredGraph) -> u128 {
    canon(g)
        .automorphisms
        .order
        .exact()
        .expect("an order that fits")
}

fn factorial(n: u128) -> u128 {
    (1..=n).product()
}

/// Whether `perm` maps `g` onto itself: vertex colours kept, arcs (with
/// their colours and repeats) onto arcs.
fn is_automorphism(g: &ColouredGraph, perm: &[u32]) -> bool {
    g.relabelled(perm).is_some_and(|h| encode(&h) == encode(g))
}

/// A permutation of `0..n` drawn from `seed` (Fisher–Yates over a
/// SplitMix64 stream).
fn permutation(n: usize, seed: u64) -> Vec<u32> {
    let mut perm: Vec<u32> = (0..n as u32).collect();
    let mut s = seed;
    for i in (1..n).rev() {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        perm.swap(i, (z % (i as u64 + 1)) as usize);
    }
    perm
}

fn complete_binary_tree(depth: u32) -> ColouredGraph {
    let n = (1usize << (depth + 1)) - 1;
    let mut g = ColouredGraph::uncoloured(n);
    for v in 1..n {
        g.add_edge(((v - 1) / 2) as u32, v as u32, 0).unwrap();
    }
    g
}

#[test]
fn orders_of_known_graphs() {
    for n in 3..=12 {
        assert_eq!(order(&ColouredGraph::cycle(n)), 2 * n as u128, "C_{n}");
    }
    for n in 0..=9 {
        assert_eq!(
            order(&ColouredGraph::complete(n)),
            factorial(n as u128),
            "K_{n}"
        );
        assert_eq!(
            order(&ColouredGraph::uncoloured(n)),
            factorial(n as u128),
            "empty {n}"
        );
    }
    assert_eq!(order(&ColouredGraph::complete(34)), factorial(34));
    assert_eq!(order(&ColouredGraph::petersen()), 120);
    assert_eq!(order(&ColouredGraph::grid(5, 5)), 8);
    assert_eq!(order(&ColouredGraph::grid(2, 2)), 8);
    assert_eq!(order(&ColouredGraph::grid(4, 6)), 4);
    assert_eq!(order(&ColouredGraph::grid(30, 30)), 8);
    assert_eq!(order(&ColouredGraph::star(6)), 720);
    assert_eq!(order(&ColouredGraph::path(2)), 2);
    assert_eq!(order(&ColouredGraph::path(7)), 2);
    assert_eq!(order(&ColouredGraph::path(1)), 1);
    assert_eq!(order(&complete_binary_tree(3)), 1 << 7);
    assert_eq!(order(&complete_binary_tree(5)), 1 << 31);
    let triangles = ColouredGraph::disjoint_union(&[
        ColouredGraph::cycle(3),
        ColouredGraph::cycle(3),
        ColouredGraph::cycle(3),
    ]);
    assert_eq!(order(&triangles), 1296);
    let mixed = ColouredGraph::disjoint_union(&[
        ColouredGraph::cycle(4),
        ColouredGraph::path(3),
        ColouredGraph::cycle(4),
    ]);
    assert_eq!(order(&mixed), 8 * 8 * 2 * 2);
    assert_eq!(order(&ColouredGraph::paley(13).unwrap()), 78);
    assert_eq!(order(&ColouredGraph::paley(29).unwrap()), 406);
    assert_eq!(order(&ColouredGraph::shrikhande()), 192);
    assert_eq!(order(&ColouredGraph::rook(4)), 1152);
    assert_eq!(order(&ColouredGraph::rook(5)), 2 * 120 * 120);
}

#[test]
fn directions_and_colours_cut_the_group() {
    let mut directed = ColouredGraph::uncoloured(5);
    for i in 0..5 {
        directed.add_arc(i, (i + 1) % 5, 0).unwrap();
    }
    assert_eq!(order(&directed), 5);
    let mut coloured = ColouredGraph::cycle(6);
    coloured = coloured.relabelled(&[0, 1, 2, 3, 4, 5]).unwrap();
    let mut g = ColouredGraph::new(vec![0, 1, 0, 1, 0, 1]);
    for a in coloured.arcs() {
        g.add_arc(a.from, a.to, a.colour).unwrap();
    }
    assert_eq!(order(&g), 6);
    // A loop is a colour of its own kind.
    let mut looped = ColouredGraph::path(3);
    looped.add_edge(0, 0, 0).unwrap();
    assert_eq!(order(&looped), 1);
}

#[test]
fn large_groups_overflow_into_a_logarithm() {
    let k40 = canon(&ColouredGraph::complete(40));
    let GroupOrder::Overflow { log10 } = k40.automorphisms.order else {
        panic!("40! does not fit a u128: {:?}", k40.automorphisms.order);
    };
    // 40! = 8.159e47.
    assert!((log10 - 47.9116).abs() < 1e-3, "{log10}");
    assert!(k40
        .automorphisms
        .order
        .to_string()
        .starts_with("about 8.16e47"));
}

#[test]
fn orbits_of_known_graphs() {
    let c = canon(&ColouredGraph::path(5));
    assert_eq!(c.automorphisms.orbits, vec![0, 1, 2, 1, 0]);
    let c = canon(&ColouredGraph::star(4));
    assert_eq!(c.automorphisms.orbits, vec![0, 1, 1, 1, 1]);
    let c = canon(&ColouredGraph::petersen());
    assert!(c.automorphisms.orbits.iter().all(|&o| o == 0));
    for gen in &c.automorphisms.generators {
        assert!(is_automorphism(&ColouredGraph::petersen(), gen));
    }
}

#[test]
fn isomorphic_and_non_isomorphic_strongly_regular_graphs() {
    // Both (16, 6, 2, 2): refinement alone cannot tell them apart.
    let shrikhande = canon(&ColouredGraph::shrikhande());
    let rook = canon(&ColouredGraph::rook(4));
    assert_ne!(shrikhande.form, rook.form);
    let shuffled = ColouredGraph::shrikhande()
        .relabelled(&permutation(16, 7))
        .unwrap();
    assert_eq!(canon(&shuffled).form, shrikhande.form);
}

#[test]
fn the_node_budget_stops_a_search() {
    let hard = ColouredGraph::paley(29).unwrap();
    let limits = SearchLimits { max_nodes: 3 };
    assert_eq!(canonical(&hard, &limits), Err(LimitReached { nodes: 4 }));
    let message = LimitReached { nodes: 4 }.to_string();
    assert!(message.contains("4 nodes"), "{message}");
    assert!(canonical(
        &ColouredGraph::complete(40),
        &SearchLimits { max_nodes: 100 }
    )
    .is_err());
    assert!(canonical(
        &ColouredGraph::uncoloured(3),
        &SearchLimits { max_nodes: 0 }
    )
    .is_err());
}

#[test]
fn graph6_lines_are_read_like_built_graphs() {
    // nauty-geng's line for the Petersen graph, and C_5.
    let petersen = ColouredGraph::from_graph6("IheA@GUAo").unwrap();
    assert_eq!(
        canon(&petersen).form,
        canon(&ColouredGraph::petersen()).form
    );
    let c5 = ColouredGraph::from_graph6("Dhc").unwrap();
    assert_eq!(canon(&c5).form, canon(&ColouredGraph::cycle(5)).form);
    let line = ColouredGraph::grid(3, 4).to_graph6().unwrap();
    let back = ColouredGraph::from_graph6(&line).unwrap();
    assert_eq!(canon(&back).form, canon(&ColouredGraph::grid(3, 4)).form);
}

#[test]
fn large_sparse_families_finish_within_the_budget() {
    for g in [
        ColouredGraph::cycle(1000),
        ColouredGraph::path(1000),
        ColouredGraph::star(999),
        ColouredGraph::grid(25, 40),
        complete_binary_tree(9),
        ColouredGraph::uncoloured(1000),
    ] {
        let c = canon(&g);
        assert_eq!(c.labelling.len(), g.vertex_count());
        for gen in &c.automorphisms.generators {
            assert!(is_automorphism(&g, gen));
        }
    }
    assert_eq!(order(&ColouredGraph::cycle(1000)), 2000);
    assert_eq!(order(&ColouredGraph::grid(25, 40)), 4);
    // 511 inner vertices, each swapping its two subtrees: 2^511.
    let GroupOrder::Overflow { log10 } = canon(&complete_binary_tree(9)).automorphisms.order else {
        panic!("2^511 does not fit a u128");
    };
    assert!((log10 - 511.0 * 2f64.log10()).abs() < 1e-6, "{log10}");
}

// ---- random graphs -------------------------------------------------------

/// Coloured digraphs of at most `max_n` vertices: vertex colours in
/// `0..colours`, arcs and edges (loops and repeats allowed) in
/// `0..arc_colours`.
fn arb_graph(
    max_n: usize,
    colours: u32,
    arc_colours: u32,
    arcs_per_vertex: usize,
) -> impl Strategy<Value = ColouredGraph> {
    (0..=max_n).prop_flat_map(move |n| {
        let vertex = 0..(n.max(1) as u32);
        let colours = prop::collection::vec(0..colours, n);
        let arcs = prop::collection::vec(
            (vertex.clone(), vertex, 0..arc_colours, any::<bool>()),
            0..=arcs_per_vertex * n,
        );
        (colours, arcs).prop_map(move |(colours, arcs)| {
            let mut g = ColouredGraph::new(colours);
            if n > 0 {
                for (a, b, c, both) in arcs {
                    if both {
                        g.add_edge(a, b, c).unwrap();
                    } else {
                        g.add_arc(a, b, c).unwrap();
                    }
                }
            }
            g
        })
    })
}

/// Every permutation of `0..n` (Heap's algorithm).
fn all_permutations(n: usize) -> Vec<Vec<u32>> {
    let mut perm: Vec<u32> = (0..n as u32).collect();
    let mut out = vec![perm.clone()];
    let mut c = vec![0usize; n];
    let mut i = 0;
    while i < n {
        if c[i] < i {
            let j = if i % 2 == 0 { 0 } else { c[i] };
            perm.swap(j, i);
            out.push(perm.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

/// The brute-force canonical form (the least encoding over all
/// renumberings), the number of automorphisms, and per vertex the
/// smallest vertex of its orbit.
fn brute_force(g: &ColouredGraph) -> (Vec<u8>, u128, Vec<u32>) {
    let n = g.vertex_count();
    let own = encode(g);
    let mut least: Option<Vec<u8>> = None;
    let mut count = 0;
    let mut orbits: Vec<u32> = (0..n as u32).collect();
    for perm in all_permutations(n) {
        let form = encode(&g.relabelled(&perm).unwrap());
        if form == own {
            count += 1;
            for v in 0..n {
                let w = perm[v] as usize;
                orbits[v] = orbits[v].min(w as u32);
            }
        }
        if least.as_ref().is_none_or(|l| form < *l) {
            least = Some(form);
        }
    }
    // One pass gives each vertex the least image; the orbit's least member
    // is the least image of any member, which is the least image of `v`
    // itself (an orbit is the images of any one member).
    (least.unwrap_or_default(), count, orbits)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Renumbered graphs get the same form and hash; the labelling maps
    /// the graph onto its form; generators are automorphisms.
    #[test]
    fn renumbering_keeps_the_form(g in arb_graph(30, 3, 3, 3), seed in any::<u64>()) {
        let n = g.vertex_count();
        let h = g.relabelled(&permutation(n, seed)).unwrap();
        let (cg, ch) = (canon(&g), canon(&h));
        prop_assert_eq!(&cg.form, &ch.form);
        prop_assert_eq!(cg.hash, ch.hash);
        prop_assert_eq!(cg.automorphisms.order, ch.automorphisms.order);
        prop_assert_eq!(encode(&g.relabelled(&cg.places()).unwrap()), cg.form.clone());
        for gen in &cg.automorphisms.generators {
            prop_assert!(is_automorphism(&g, gen));
        }
    }

    /// Against the brute-force form on small coloured digraphs: equal
    /// forms exactly when the brute-force forms are equal; the group's
    /// order and orbits as counted by brute force.
    #[test]
    fn agrees_with_brute_force(
        g1 in arb_graph(6, 2, 2, 2),
        g2 in arb_graph(6, 2, 2, 2),
        seed in any::<u64>(),
    ) {
        let h1 = g1.relabelled(&permutation(g1.vertex_count(), seed)).unwrap();
        let (b1, count, orbits) = brute_force(&g1);
        let (b2, _, _) = brute_force(&g2);
        let (c1, c2, d1) = (canon(&g1), canon(&g2), canon(&h1));
        prop_assert_eq!(&c1.form, &d1.form);
        prop_assert_eq!(c1.form == c2.form, b1 == b2);
        prop_assert_eq!(c1.automorphisms.order, GroupOrder::Exact(count));
        prop_assert_eq!(&c1.automorphisms.orbits, &orbits);
    }

    /// Small dense graphs, where most pairs are isomorphic or nearly so.
    #[test]
    fn agrees_with_brute_force_on_dense_graphs(
        g1 in arb_graph(7, 1, 1, 3),
        g2 in arb_graph(7, 1, 1, 3),
    ) {
        let (b1, count, orbits) = brute_force(&g1);
        let (b2, _, _) = brute_force(&g2);
        let (c1, c2) = (canon(&g1), canon(&g2));
        prop_assert_eq!(c1.form == c2.form, b1 == b2);
        prop_assert_eq!(c1.automorphisms.order, GroupOrder::Exact(count));
        prop_assert_eq!(&c1.automorphisms.orbits, &orbits);
    }
}

// ---- levels --------------------------------------------------------------

/// A small level: a start room, two rooms, a key stored in one of them, a
/// locked directed door, a cosmetic edge and a labelled parallel edge.
fn level() -> Graph {
    let mut g = Graph::new();
    let start = g.add_vertex_named("start");
    let a = g.add_vertex_named("room");
    let b = g.add_vertex_named("room");
    let key = g.add_vertex_named("key");
    g.vertex_mut(key)
        .unwrap()
        .attributes
        .insert("colour".into(), "red".into());
    g.connect(start, a, false);
    g.connect(a, b, true);
    let locked = g.labels_mut().intern("locked");
    let mut edge = plain(a, b);
    edge.label = Some(locked);
    g.add_edge(edge);
    let mut cosmetic = plain(start, b);
    cosmetic.cosmetic = true;
    g.add_edge(cosmetic);
    assert!(g.set_parent(key, Some(a)));
    g
}

fn plain(a: levelgraph::VertexId, b: levelgraph::VertexId) -> Edge {
    Edge {
        source: a,
        target: b,
        directed: false,
        cosmetic: false,
        label: None,
        length_factor: 1.0,
    }
}

fn level_form(g: &Graph) -> Vec<u8> {
    canon(&of_graph(g).0).form
}

/// [`level`] with its first edge that `pick` selects changed by `change`.
fn with_edge_changed(pick: impl Fn(&Edge) -> bool, change: impl FnOnce(&mut Edge)) -> Graph {
    edge_changed(level(), pick, change)
}

/// `g` with its first edge that `pick` selects changed by `change`.
fn edge_changed(
    mut g: Graph,
    pick: impl Fn(&Edge) -> bool,
    change: impl FnOnce(&mut Edge),
) -> Graph {
    let e = g.edges().find(|(_, e)| pick(e)).map(|(id, _)| id).unwrap();
    let mut edge = g.remove_edge(e).unwrap();
    change(&mut edge);
    g.add_edge(edge);
    g
}

#[test]
fn levels_that_differ_in_one_respect_differ_in_form() {
    let base = level();
    let mut variants: Vec<(&str, Graph)> = Vec::new();

    let mut g = level();
    let v = g.vertex_ids().nth(2).unwrap();
    g.set_tag(v, g.tags().get("start").unwrap());
    variants.push(("a tag", g));

    let mut g = level();
    let key = g.vertex_ids().nth(3).unwrap();
    g.vertex_mut(key)
        .unwrap()
        .attributes
        .insert("colour".into(), "blue".into());
    variants.push(("an attribute", g));

    variants.push((
        "a direction",
        with_edge_changed(
            |e| e.directed,
            |e| (e.source, e.target) = (e.target, e.source),
        ),
    ));
    variants.push((
        "directed or not",
        with_edge_changed(|e| e.directed, |e| e.directed = false),
    ));
    let mut g = level();
    let other = g.labels_mut().intern("secret");
    variants.push((
        "a label",
        edge_changed(g, |e| e.label.is_some(), |e| e.label = Some(other)),
    ));
    variants.push((
        "the cosmetic flag",
        with_edge_changed(|e| e.cosmetic, |e| e.cosmetic = false),
    ));

    let mut g = level();
    let key = g.vertex_ids().nth(3).unwrap();
    let b = g.vertex_ids().nth(2).unwrap();
    assert!(g.set_parent(key, Some(b)));
    variants.push(("containment", g));

    let mut g = level();
    let key = g.vertex_ids().nth(3).unwrap();
    assert!(g.set_parent(key, None));
    variants.push(("no containment", g));

    let mut g = level();
    let e = g
        .edges()
        .find(|(_, e)| e.label.is_some())
        .map(|(id, _)| id)
        .unwrap();
    g.remove_edge(e);
    variants.push(("a parallel edge", g));

    let base_form = level_form(&base);
    let forms: Vec<(&str, Vec<u8>)> = variants
        .iter()
        .map(|(what, g)| (*what, level_form(g)))
        .collect();
    for (i, (what, form)) in forms.iter().enumerate() {
        assert_ne!(*form, base_form, "{what}");
        for (other, form2) in &forms[i + 1..] {
            assert_ne!(form, form2, "{what} vs {other}");
        }
    }
}

#[test]
fn a_level_built_otherwise_has_the_same_form() {
    // The same level with other ids, symbols interned in another order
    // and drawing data that is not identity.
    let mut g = Graph::new();
    g.labels_mut().intern("unused");
    let locked = g.labels_mut().intern("locked");
    g.add_vertex_named("key");
    let hole = g.add_vertex_named("room");
    let b = g.add_vertex_named("room");
    let a = g.add_vertex_named("room");
    let start = g.add_vertex_named("start");
    let key = levelgraph::VertexId(0);
    g.remove_vertex(hole);
    g.vertex_mut(key)
        .unwrap()
        .attributes
        .insert("colour".into(), "red".into());
    g.vertex_mut(a).unwrap().position = Some([3.0, 4.0]);
    let mut edge = plain(b, a);
    edge.label = Some(locked);
    edge.length_factor = 2.5;
    g.add_edge(edge);
    let mut cosmetic = plain(b, start);
    cosmetic.cosmetic = true;
    g.add_edge(cosmetic);
    g.connect(a, start, false);
    g.connect(a, b, true);
    assert!(g.set_parent(key, Some(a)));
    assert_eq!(level_form(&g), level_form(&level()));
    let (coloured, ids) = of_graph(&g);
    assert_eq!(ids.len(), 4);
    assert_eq!(coloured.vertex_count(), 4);
}

#[test]
fn forms_with_equal_colour_numbers_but_other_names_differ() {
    let mut a = Graph::new();
    a.add_vertex_named("room");
    let mut b = Graph::new();
    b.add_vertex_named("hall");
    assert_eq!(
        of_graph(&a).0.vertex_colours(),
        of_graph(&b).0.vertex_colours()
    );
    assert_ne!(level_form(&a), level_form(&b));
    assert_eq!(level_form(&Graph::new()), level_form(&Graph::new()));
}

// ---- hard families, renumbered -------------------------------------------

/// The generalized Petersen graph GP(n, k): an outer cycle `0..n`, spokes
/// `i – n + i`, and inner vertices `n + i – n + (i + k) mod n`.
fn generalized_petersen(n: usize, k: usize) -> ColouredGraph {
    let mut g = ColouredGraph::uncoloured(2 * n);
    for i in 0..n {
        let (i, j, k) = (i as u32, ((i + 1) % n) as u32, ((i + k) % n) as u32);
        g.add_edge(i, j, 0).unwrap();
        g.add_edge(i, n as u32 + i, 0).unwrap();
        g.add_edge(n as u32 + i, n as u32 + k, 0).unwrap();
    }
    g
}

/// |Aut GP(n, k)| for `1 ≤ k < n/2` (Frucht, Graver and Watkins, "The
/// groups of the generalized Petersen graphs", 1971): 4n when
/// k² ≡ ±1 (mod n), else 2n, apart from seven graphs (their orders as
/// dreadnaut gives them).
fn generalized_petersen_order(n: usize, k: usize) -> u128 {
    let exceptions = [
        ((4, 1), 48),
        ((5, 2), 120),
        ((8, 3), 96),
        ((10, 2), 120),
        ((10, 3), 240),
        ((12, 5), 144),
        ((24, 5), 288),
    ];
    if let Some(&(_, order)) = exceptions.iter().find(|(nk, _)| *nk == (n, k)) {
        return order;
    }
    let square = k * k % n;
    if square == 1 || square == n - 1 {
        4 * n as u128
    } else {
        2 * n as u128
    }
}

/// A Latin square of side `n` filled row by row with random choices
/// (backtracking, drawn from `seed`), as its graph: cells joined when they
/// share a row, a column or a symbol. Strongly regular (n², 3(n − 1),
/// n, 6): every vertex looks alike to refinement, as in nauty's hard
/// families, while the group depends on the square.
fn latin_square_graph(n: usize, seed: u64) -> ColouredGraph {
    fn fill(square: &mut Vec<usize>, n: usize, order: &[usize]) -> bool {
        let at = square.len();
        if at == n * n {
            return true;
        }
        let (r, c) = (at / n, at % n);
        for &s in order.iter().cycle().skip(at % n).take(n) {
            let clash =
                (0..c).any(|j| square[r * n + j] == s) || (0..r).any(|i| square[i * n + c] == s);
            if !clash {
                square.push(s);
                if fill(square, n, order) {
                    return true;
                }
                square.pop();
            }
        }
        false
    }
    let order: Vec<usize> = permutation(n, seed).iter().map(|&s| s as usize).collect();
    let mut square = Vec::new();
    assert!(fill(&mut square, n, &order));
    let mut g = ColouredGraph::uncoloured(n * n);
    for a in 0..n * n {
        for b in a + 1..n * n {
            if a / n == b / n || a % n == b % n || square[a] == square[b] {
                g.add_edge(a as u32, b as u32, 0).unwrap();
            }
        }
    }
    g
}

/// The form is the same under renumbering and the generators are
/// automorphisms; returns the order.
fn check_renumbered(g: &ColouredGraph, seed: u64) -> GroupOrder {
    let h = g.relabelled(&permutation(g.vertex_count(), seed)).unwrap();
    let (cg, ch) = (canon(g), canon(&h));
    assert_eq!(cg.form, ch.form);
    assert_eq!(cg.automorphisms.order, ch.automorphisms.order);
    for gen in &cg.automorphisms.generators {
        assert!(is_automorphism(g, gen));
    }
    cg.automorphisms.order
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Generalized Petersen graphs (a first branch in the wrong orbit
    /// makes every other child's refinement stop early): the known orders
    /// and the same form renumbered.
    #[test]
    fn generalized_petersen_graphs(n in 3usize..60, k in 1usize..30, seed in any::<u64>()) {
        let k = 1 + k % n.div_ceil(2).saturating_sub(1).max(1);
        prop_assume!(2 * k < n);
        let g = generalized_petersen(n, k);
        prop_assert_eq!(check_renumbered(&g, seed), GroupOrder::Exact(generalized_petersen_order(n, k)));
    }

    /// Paley graphs of prime order: q(q − 1)/2 automorphisms.
    #[test]
    fn paley_graphs(q in prop::sample::select(vec![5usize, 13, 17, 29, 37, 41, 53, 61, 73, 89, 97, 101]), seed in any::<u64>()) {
        let g = ColouredGraph::paley(q).unwrap();
        prop_assert_eq!(check_renumbered(&g, seed), GroupOrder::Exact((q * (q - 1) / 2) as u128));
    }

    /// Latin square graphs (strongly regular, hard for refinement): the
    /// same form renumbered, and a square and its transpose (isomorphic
    /// graphs) the same form.
    #[test]
    fn latin_square_graphs(n in 3usize..8, seed in any::<u64>(), renumber in any::<u64>()) {
        let g = latin_square_graph(n, seed);
        check_renumbered(&g, renumber);
        let transpose: Vec<u32> = (0..n * n).map(|v| ((v % n) * n + v / n) as u32).collect();
        prop_assert_eq!(canon(&g).form, canon(&g.relabelled(&transpose).unwrap()).form);
    }
}

#[test]
fn known_orders_of_generalized_petersen_graphs() {
    for (n, k) in [
        (5, 2),
        (10, 2),
        (10, 3),
        (12, 5),
        (24, 5),
        (8, 3),
        (4, 1),
        (500, 2),
        (13, 5),
    ] {
        assert_eq!(
            order(&generalized_petersen(n, k)),
            generalized_petersen_order(n, k),
            "GP({n}, {k})"
        );
    }
}
