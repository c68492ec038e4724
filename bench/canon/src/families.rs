//! The graph families: seeded generators written here (random graphs,
//! random trees, Paley, Latin-square, rook's, Johnson, Kneser, hypercube,
//! grid and torus graphs, CFI graphs) and nauty's generators (`geng`,
//! `gentreeg`, `genrang`, `genspecialg`) run as processes.

use std::process::Command;

use levelgraph::rng::Rng;

use crate::graph::{from_graph6, Input};

/// One row of the table: its graphs (before the shuffled copies).
pub struct Family {
    pub name: String,
    pub graphs: Vec<Input>,
    /// The levels the graphs were read from (level families only), for
    /// the check against `canon::of_graph`.
    pub levels: Vec<levelgraph::Graph>,
}

/// Graphs of a nauty generator's graph6 output (`sh -c`, so that sparse6
/// generators can be piped through `copyg -g`).
pub fn nauty_gen(prefix: &str, pipeline: &str) -> Vec<Input> {
    let cmd = pipeline.replace("nauty-", prefix);
    let out = Command::new("sh")
        .arg("-c")
        .arg(&cmd)
        .output()
        .unwrap_or_else(|e| panic!("{cmd}: {e}"));
    assert!(out.status.success(), "{cmd} failed");
    String::from_utf8(out.stdout)
        .expect("graph6 is ASCII")
        .lines()
        .filter(|l| !l.is_empty())
        .map(from_graph6)
        .collect()
}

/// G(n, p).
pub fn gnp(n: usize, p: f64, rng: &mut Rng) -> Input {
    let mut edges = Vec::new();
    for j in 1..n {
        for i in 0..j {
            if rng.unit() < p {
                edges.push((i as u32, j as u32));
            }
        }
    }
    Input::plain(n, edges)
}

/// A uniformly random labelled tree on `n >= 2` vertices (Prüfer code).
pub fn prufer_tree(n: usize, rng: &mut Rng) -> Input {
    let code: Vec<usize> = (0..n - 2).map(|_| rng.below(n)).collect();
    let mut degree = vec![1usize; n];
    for &c in &code {
        degree[c] += 1;
    }
    let mut heap = std::collections::BinaryHeap::new();
    for (v, &d) in degree.iter().enumerate() {
        if d == 1 {
            heap.push(std::cmp::Reverse(v));
        }
    }
    let mut edges = Vec::with_capacity(n - 1);
    for &c in &code {
        let std::cmp::Reverse(leaf) = heap.pop().expect("a leaf");
        edges.push((leaf as u32, c as u32));
        degree[c] -= 1;
        if degree[c] == 1 {
            heap.push(std::cmp::Reverse(c));
        }
    }
    let std::cmp::Reverse(a) = heap.pop().expect("two leaves left");
    let std::cmp::Reverse(b) = heap.pop().expect("two leaves left");
    edges.push((a as u32, b as u32));
    Input::plain(n, edges)
}

fn from_adjacency(n: usize, adjacent: impl Fn(usize, usize) -> bool) -> Input {
    let mut edges = Vec::new();
    for j in 1..n {
        for i in 0..j {
            if adjacent(i, j) {
                edges.push((i as u32, j as u32));
            }
        }
    }
    Input::plain(n, edges)
}

/// The Paley graph of a prime `q ≡ 1 (mod 4)`: `x ~ y` when `x − y` is a
/// non-zero square. Strongly regular, group order q(q−1)/2.
pub fn paley(q: usize) -> Input {
    let mut square = vec![false; q];
    for x in 1..q {
        square[x * x % q] = true;
    }
    from_adjacency(q, |i, j| square[(j - i) % q])
}

/// The Latin-square graph of the Cayley table of Z_n: cells `(r, c)`,
/// adjacent when they share a row, a column or a symbol `r + c mod n`.
/// Strongly regular srg(n², 3(n−1), n, 6).
pub fn latin_cyclic(n: usize) -> Input {
    from_adjacency(n * n, |a, b| {
        let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
        r1 == r2 || c1 == c2 || (r1 + c1) % n == (r2 + c2) % n
    })
}

/// The rook's graph K_m □ K_n.
pub fn rook(m: usize, n: usize) -> Input {
    from_adjacency(m * n, |a, b| a / n == b / n || a % n == b % n)
}

/// The k-subsets of `0..n` as bit sets, in increasing order.
fn subsets(n: usize, k: usize) -> Vec<u64> {
    fn go(from: usize, n: usize, k: usize, set: u64, out: &mut Vec<u64>) {
        if k == 0 {
            out.push(set);
            return;
        }
        for i in from..=n - k {
            go(i + 1, n, k - 1, set | 1 << i, out);
        }
    }
    let mut out = Vec::new();
    go(0, n, k, 0, &mut out);
    out
}

/// The Johnson graph J(n, k): k-subsets meeting in k − 1 elements.
pub fn johnson(n: usize, k: usize) -> Input {
    let s = subsets(n, k);
    from_adjacency(s.len(), |a, b| (s[a] & s[b]).count_ones() as usize == k - 1)
}

/// The Kneser graph K(n, k): disjoint k-subsets.
pub fn kneser(n: usize, k: usize) -> Input {
    let s = subsets(n, k);
    from_adjacency(s.len(), |a, b| s[a] & s[b] == 0)
}

/// The hypercube Q_d.
pub fn hypercube(d: usize) -> Input {
    from_adjacency(1 << d, |a, b| (a ^ b).count_ones() == 1)
}

/// The m × n grid, or torus when `wrap`.
pub fn grid(m: usize, n: usize, wrap: bool) -> Input {
    let mut edges = Vec::new();
    let id = |r: usize, c: usize| (r * n + c) as u32;
    for r in 0..m {
        for c in 0..n {
            if c + 1 < n || (wrap && n > 2) {
                edges.push((id(r, c), id(r, (c + 1) % n)));
            }
            if r + 1 < m || (wrap && m > 2) {
                edges.push((id(r, c), id((r + 1) % m, c)));
            }
        }
    }
    Input::plain(m * n, edges)
}

/// A random simple cubic graph on `n` (even) vertices: the configuration
/// model, redrawn until simple and connected.
pub fn random_cubic(n: usize, rng: &mut Rng) -> Vec<(u32, u32)> {
    'again: loop {
        let mut points: Vec<u32> = (0..n as u32).flat_map(|v| [v, v, v]).collect();
        crate::graph::shuffle(&mut points, rng);
        let mut edges: Vec<(u32, u32)> = points
            .chunks(2)
            .map(|p| (p[0].min(p[1]), p[0].max(p[1])))
            .collect();
        edges.sort_unstable();
        if edges.iter().any(|&(a, b)| a == b) || edges.windows(2).any(|w| w[0] == w[1]) {
            continue 'again;
        }
        // Connected?
        let mut uf: Vec<u32> = (0..n as u32).collect();
        fn find(uf: &mut [u32], x: u32) -> u32 {
            let mut x = x;
            while uf[x as usize] != x {
                uf[x as usize] = uf[uf[x as usize] as usize];
                x = uf[x as usize];
            }
            x
        }
        for &(a, b) in &edges {
            let (ra, rb) = (find(&mut uf, a), find(&mut uf, b));
            uf[ra as usize] = rb;
        }
        let r0 = find(&mut uf, 0);
        if (0..n as u32).all(|v| find(&mut uf, v) == r0) {
            return edges;
        }
    }
}

/// The Cai–Fürer–Immerman graph over a base graph (Cai, Fürer &
/// Immerman 1992): for each base vertex `v` of degree `d`, a middle
/// vertex per even subset of its edges and two vertices `a(v,e,0|1)` per
/// edge `e`; the middle vertex of `S` is adjacent to `a(v,e,1)` for `e` in
/// `S` and `a(v,e,0)` otherwise. Each base edge `{u, v}` joins `a(u,e,i)`
/// to `a(v,e,i)`, or to `a(v,e,1−i)` when twisted. Over a connected base,
/// an odd number of twists gives the one other isomorphism class.
pub fn cfi(n: usize, base: &[(u32, u32)], twisted: &[bool]) -> Input {
    let mut incident: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, &(a, b)) in base.iter().enumerate() {
        incident[a as usize].push(e);
        incident[b as usize].push(e);
    }
    let mut count = 0u32;
    let mut edges = Vec::new();
    // a[(v, e)] = first of the two a-vertices.
    let mut a_vertex = std::collections::HashMap::new();
    for (v, inc) in incident.iter().enumerate() {
        let d = inc.len();
        let base_a = count;
        for (k, &e) in inc.iter().enumerate() {
            a_vertex.insert((v, e), base_a + 2 * k as u32);
        }
        count += 2 * d as u32;
        for s in 0u32..1 << d {
            if s.count_ones() % 2 != 0 {
                continue;
            }
            let m = count;
            count += 1;
            for k in 0..d {
                let bit = (s >> k) & 1;
                edges.push((m, base_a + 2 * k as u32 + bit));
            }
        }
    }
    for (e, &(u, v)) in base.iter().enumerate() {
        let au = a_vertex[&(u as usize, e)];
        let av = a_vertex[&(v as usize, e)];
        for i in 0..2 {
            let j = if twisted[e] { 1 - i } else { i };
            edges.push((au + i, av + j));
        }
    }
    Input::plain(count as usize, edges)
}

fn is_prime(q: usize) -> bool {
    q >= 2
        && (2..)
            .take_while(|d| d * d <= q)
            .all(|d| !q.is_multiple_of(d))
}

/// Relabel a graph by a random permutation (so that generated graphs do
/// not arrive in a structured order).
fn scrambled(g: Input, rng: &mut Rng) -> Input {
    g.shuffled(rng)
}

/// A random coloured multigraph with directions: vertex colours in `0..3`,
/// about `d·n/2` connections, each an undirected edge or an arc of colour
/// `0..3`, with parallel ones, opposite arcs and loops (what the gadget
/// encoding and `canon`'s multiset reading must agree on).
pub fn coloured_multigraph(n: usize, d: usize, rng: &mut Rng) -> Input {
    let mut g = Input {
        colours: (0..n).map(|_| rng.below(3) as u32).collect(),
        ..Input::default()
    };
    for _ in 0..d * n / 2 {
        let u = rng.below(n) as u32;
        let v = if rng.below(20) == 0 {
            u
        } else {
            rng.below(n) as u32
        };
        let c = rng.below(3) as u32;
        let times = if rng.below(8) == 0 { 2 } else { 1 };
        for _ in 0..times {
            match rng.below(3) {
                0 => g.edges.push((u, v, c)),
                1 => g.arcs.push((u, v, c)),
                _ => {
                    g.arcs.push((u, v, c));
                    g.arcs.push((v, u, rng.below(3) as u32));
                }
            }
        }
    }
    g
}

/// How big a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    Quick,
    Full,
}

/// Every family but the levels (src/levels.rs), in table order.
pub fn all(size: Size, seed: u64, prefix: &str) -> Vec<Family> {
    let full = size == Size::Full;
    let mut rng = Rng::seeded(seed);
    let mut fams = Vec::new();
    let take = |mut v: Vec<Input>, quick: usize| {
        if !full {
            v.truncate(quick);
        }
        v
    };

    fams.push(Family {
        name: "all graphs on 8 vertices (geng 8)".into(),
        graphs: take(nauty_gen(prefix, "nauty-geng -q 8"), 300),
        levels: Vec::new(),
    });
    fams.push(Family {
        name: "connected graphs on 9 vertices, ¼ (geng -c 9 0/4)".into(),
        graphs: if full {
            nauty_gen(prefix, "nauty-geng -q -c 9 0/4")
        } else {
            nauty_gen(prefix, "nauty-geng -q -c 9 0/4000")
        },
        levels: Vec::new(),
    });
    fams.push(Family {
        name: "all trees on 15 vertices (gentreeg 15)".into(),
        graphs: take(
            nauty_gen(prefix, "nauty-gentreeg -q 15 | nauty-copyg -q -g"),
            200,
        ),
        levels: Vec::new(),
    });
    let mut trees = Vec::new();
    for &(n, k) in &[(10, 300), (100, 100), (300, 30), (1000, 20)] {
        for _ in 0..if full { k } else { k / 10 } {
            trees.push(prufer_tree(n, &mut rng));
        }
    }
    fams.push(Family {
        name: "random trees, n = 10…1000 (Prüfer)".into(),
        graphs: trees,
        levels: Vec::new(),
    });

    for &(label, ns, ps, k) in &[
        (
            "G(n, p), n = 10…30",
            &[10usize, 20, 30][..],
            &[0.1, 0.3, 0.5][..],
            400usize,
        ),
        (
            "G(n, p), n = 50…200",
            &[50, 100, 200][..],
            &[0.03, 0.1, 0.5][..],
            40,
        ),
        (
            "G(n, p), n = 500…1000",
            &[500, 1000][..],
            &[0.005, 0.05, 0.5][..],
            3,
        ),
    ] {
        let mut gs = Vec::new();
        for &n in ns {
            for &p in ps {
                let count = if full { k } else { (k / 20).max(1) };
                for _ in 0..count {
                    gs.push(gnp(if full { n } else { n.min(200) }, p, &mut rng));
                }
            }
        }
        fams.push(Family {
            name: label.into(),
            graphs: gs,
            levels: Vec::new(),
        });
    }

    let mut reg = Vec::new();
    // genrang -r (uniform) is slow past degree 6; degree 10 is -d (a
    // pseudorandom regular graph) mixed by 1000 steps of -M's Markov chain.
    for &(how, d, n, k) in &[
        ("-r", 3, 20, 200),
        ("-r", 3, 100, 40),
        ("-r", 3, 1000, 5),
        ("-r", 4, 500, 5),
        ("-r", 6, 200, 10),
        ("-M1000 -d", 10, 200, 10),
    ] {
        let k = if full { k } else { 2 };
        let n = if full { n } else { n.min(200) };
        let s = rng.below(1 << 30);
        reg.extend(nauty_gen(
            prefix,
            &format!("nauty-genrang -q -g {how}{d} -S{s} {n} {k}"),
        ));
    }
    fams.push(Family {
        name: "random regular, d = 3, 4, 6, 10 (genrang)".into(),
        graphs: reg,
        levels: Vec::new(),
    });

    let mut srg = Vec::new();
    let limit = if full { 600 } else { 120 };
    for q in (5..limit).filter(|&q| is_prime(q) && q % 4 == 1) {
        srg.push(scrambled(paley(q), &mut rng));
    }
    fams.push(Family {
        name: "Paley graphs, prime q < 600".into(),
        graphs: take(srg, 8),
        levels: Vec::new(),
    });

    let mut srg = Vec::new();
    for n in 3..=if full { 31 } else { 8 } {
        if n <= 25 {
            srg.push(scrambled(latin_cyclic(n), &mut rng));
        }
        srg.push(scrambled(rook(n, n), &mut rng));
        srg.push(scrambled(rook(n, n + 1), &mut rng));
    }
    for n in 5..=if full { 40 } else { 10 } {
        srg.push(scrambled(johnson(n, 2), &mut rng));
        srg.push(scrambled(kneser(n, 2), &mut rng));
    }
    for n in 6..=if full { 18 } else { 8 } {
        srg.push(scrambled(johnson(n, 3), &mut rng));
        srg.push(scrambled(kneser(n, 3), &mut rng));
    }
    fams.push(Family {
        name: "Latin-square (Z_n), rook's, Johnson, Kneser".into(),
        graphs: srg,
        levels: Vec::new(),
    });

    let mut misc = Vec::new();
    for d in 2..=if full { 10 } else { 6 } {
        misc.push(scrambled(hypercube(d), &mut rng));
    }
    let mut special = String::from("nauty-genspecialg -q -g");
    for n in 5..=if full { 100 } else { 12 } {
        special.push_str(&format!(" -P{n},2 -P{n},{}", (n - 1) / 2));
        if n % 2 == 1 {
            special.push_str(&format!(" -f{n}"));
        }
    }
    misc.extend(
        nauty_gen(prefix, &special)
            .into_iter()
            .map(|g| scrambled(g, &mut rng)),
    );
    fams.push(Family {
        name: "hypercubes, generalized Petersen, flower snarks (genspecialg)".into(),
        graphs: misc,
        levels: Vec::new(),
    });

    let mut cfis = Vec::new();
    for &(n, k) in &[(4, 4), (10, 10), (20, 10), (50, 6), (100, 4)] {
        let k = if full { k } else { 1 };
        if !full && n > 20 {
            continue;
        }
        for _ in 0..k {
            let base = random_cubic(n, &mut rng);
            let plain = vec![false; base.len()];
            let mut one = plain.clone();
            one[rng.below(base.len())] = true;
            // Three twists: isomorphic to one twist.
            let mut three = plain.clone();
            for _ in 0..3 {
                let e = rng.below(base.len());
                three[e] = !three[e];
            }
            for t in [plain, one, three] {
                cfis.push(scrambled(cfi(n, &base, &t), &mut rng));
            }
        }
    }
    fams.push(Family {
        name: "CFI graphs over random cubic graphs (untwisted, twisted)".into(),
        graphs: cfis,
        levels: Vec::new(),
    });

    let mut multi = Vec::new();
    for &(n, d, k) in &[
        (4, 1, 2000),
        (6, 2, 2000),
        (10, 3, 1000),
        (50, 3, 100),
        (200, 4, 20),
        (1000, 3, 5),
    ] {
        let k = if full { k } else { k / 50 };
        for _ in 0..k.max(1) {
            multi.push(coloured_multigraph(n, d, &mut rng));
        }
    }
    fams.push(Family {
        name: "random coloured multigraphs with arcs and loops".into(),
        graphs: multi,
        levels: Vec::new(),
    });

    let mut grids = Vec::new();
    let max = if full { 31 } else { 8 };
    for m in 2..=max {
        for n in m..=max {
            grids.push(scrambled(grid(m, n, false), &mut rng));
            if m >= 3 {
                grids.push(scrambled(grid(m, n, true), &mut rng));
            }
        }
    }
    fams.push(Family {
        name: "grids and tori, up to 31 × 31".into(),
        graphs: grids,
        levels: Vec::new(),
    });
    fams
}
