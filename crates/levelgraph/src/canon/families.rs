//! Named graphs with known automorphism groups, for tests and benchmarks:
//! cycles, complete graphs, paths, stars, grids, the Petersen graph, the
//! Paley, Shrikhande and rook's graphs (strongly regular, the hard cases of
//! McKay & Piperno 2014, section 6), and disjoint unions. All uncoloured
//! and undirected (arc colour 0).

use super::coloured::ColouredGraph;

impl ColouredGraph {
    /// The graph of `n` vertices whose edges are `edges` (vertices below
    /// `n`; the constructors here only pass valid ones).
    fn undirected(n: usize, edges: impl IntoIterator<Item = (usize, usize)>) -> Self {
        let mut g = ColouredGraph::uncoloured(n);
        for (a, b) in edges {
            g.add_edge(a as u32, b as u32, 0)
                .expect("family constructors name vertices below n");
        }
        g
    }

    /// The cycle C_n (`n ≥ 3`; fewer vertices give a path). |Aut| = 2n.
    pub fn cycle(n: usize) -> Self {
        if n < 3 {
            return Self::path(n);
        }
        Self::undirected(n, (0..n).map(|i| (i, (i + 1) % n)))
    }

    /// The path P_n on `n` vertices. |Aut| = 2 for `n ≥ 2`.
    pub fn path(n: usize) -> Self {
        Self::undirected(n, (1..n).map(|i| (i - 1, i)))
    }

    /// The complete graph K_n. |Aut| = n!.
    pub fn complete(n: usize) -> Self {
        Self::undirected(n, (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))))
    }

    /// The star K_{1,leaves}: vertex 0 joined to `leaves` others.
    /// |Aut| = leaves!.
    pub fn star(leaves: usize) -> Self {
        Self::undirected(leaves + 1, (1..=leaves).map(|i| (0, i)))
    }

    /// The `rows × columns` grid graph (vertex `r * columns + c`).
    /// |Aut| = 8 for a square of side ≥ 2, 4 for other rectangles with
    /// both sides ≥ 2.
    pub fn grid(rows: usize, columns: usize) -> Self {
        let at = move |r: usize, c: usize| r * columns + c;
        let edges = (0..rows).flat_map(move |r| {
            (0..columns).flat_map(move |c| {
                let right = (c + 1 < columns).then(|| (at(r, c), at(r, c + 1)));
                let down = (r + 1 < rows).then(|| (at(r, c), at(r + 1, c)));
                right.into_iter().chain(down)
            })
        });
        Self::undirected(rows * columns, edges)
    }

    /// The Petersen graph: outer 5-cycle `0..5`, inner pentagram `5..10`.
    /// |Aut| = 120.
    pub fn petersen() -> Self {
        let outer = (0..5).map(|i| (i, (i + 1) % 5));
        let spokes = (0..5).map(|i| (i, i + 5));
        let inner = (0..5).map(|i| (5 + i, 5 + (i + 2) % 5));
        Self::undirected(10, outer.chain(spokes).chain(inner))
    }

    /// The Paley graph of prime order `q ≡ 1 (mod 4)`: `a ~ b` when `a − b`
    /// is a non-zero square mod `q`. Strongly regular; |Aut| = q(q−1)/2
    /// for a prime `q`. `None` unless `q` is such a prime.
    pub fn paley(q: usize) -> Option<Self> {
        let prime = q >= 5 && (2..q).take_while(|d| d * d <= q).all(|d| q % d != 0);
        if !prime || q % 4 != 1 {
            return None;
        }
        let mut square = vec![false; q];
        for x in 1..q {
            square[x * x % q] = true;
        }
        let edges = (0..q).flat_map(|a| (a + 1..q).map(move |b| (a, b)));
        let edges: Vec<_> = edges.filter(|&(a, b)| square[b - a]).collect();
        Some(Self::undirected(q, edges))
    }

    /// The Shrikhande graph: Z_4 × Z_4, `(a, b) ~ (a ± 1, b)`,
    /// `(a, b ± 1)`, `(a + 1, b + 1)`, `(a − 1, b − 1)`. Strongly regular
    /// (16, 6, 2, 2) like the 4×4 rook's graph but not isomorphic to it;
    /// |Aut| = 192.
    pub fn shrikhande() -> Self {
        let at = |a: usize, b: usize| (a % 4) * 4 + b % 4;
        let mut edges = Vec::new();
        for a in 0..4 {
            for b in 0..4 {
                for (da, db) in [(1, 0), (0, 1), (1, 1)] {
                    edges.push((at(a, b), at(a + da, b + db)));
                }
            }
        }
        Self::undirected(16, edges)
    }

    /// The `k × k` rook's graph K_k □ K_k: cells of a board, joined when
    /// they share a row or a column. |Aut| = 2 (k!)² for `k ≥ 2`
    /// (1152 for `k = 4`).
    pub fn rook(k: usize) -> Self {
        let n = k * k;
        let edges = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
        let edges: Vec<_> = edges
            .filter(|&(a, b)| a / k == b / k || a % k == b % k)
            .collect();
        Self::undirected(n, edges)
    }

    /// The disjoint union of `parts`, in order (the vertices of the second
    /// part numbered after the first's, and so on); vertex and arc colours
    /// kept, palettes dropped.
    pub fn disjoint_union(parts: &[ColouredGraph]) -> Self {
        let colours = parts
            .iter()
            .flat_map(|p| p.vertex_colours().iter().copied())
            .collect();
        let mut g = ColouredGraph::new(colours);
        let mut offset = 0u32;
        for p in parts {
            for a in p.arcs() {
                g.add_arc(a.from + offset, a.to + offset, a.colour)
                    .expect("a part's arcs lie within its own vertices");
            }
            offset += p.vertex_count() as u32;
        }
        g
    }
}
