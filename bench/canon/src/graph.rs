//! The benchmark's own graph: vertex colours, coloured undirected edges and
//! coloured arcs, on vertices `0..n`. Both sides are given this: levelgraph
//! through `canon::ColouredGraph` (src/ours.rs), nauty through the gadget
//! encoding of src/nauty.rs. graph6 in and out for nauty's generators.

use levelgraph::rng::Rng;

/// A vertex- and edge-coloured (multi)graph with optional directions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Input {
    /// Vertex colours, one per vertex.
    pub colours: Vec<u32>,
    /// Undirected edges `(u, v, colour)`.
    pub edges: Vec<(u32, u32, u32)>,
    /// Arcs `(tail, head, colour)`.
    pub arcs: Vec<(u32, u32, u32)>,
}

impl Input {
    /// An uncoloured simple graph on `n` vertices.
    pub fn plain(n: usize, edges: Vec<(u32, u32)>) -> Self {
        Input {
            colours: vec![0; n],
            edges: edges.into_iter().map(|(u, v)| (u, v, 0)).collect(),
            arcs: Vec::new(),
        }
    }

    pub fn n(&self) -> usize {
        self.colours.len()
    }

    /// Whether nauty's plain tools (labelg) can take it as it is: one
    /// vertex colour, uncoloured undirected edges, no loops.
    pub fn is_plain(&self) -> bool {
        self.arcs.is_empty()
            && self.colours.iter().all(|&c| c == 0)
            && self.edges.iter().all(|&(u, v, c)| c == 0 && u != v)
    }

    /// The same graph with its vertices renamed by a uniformly random
    /// permutation (vertex `v` becomes `perm[v]`), edges in a random order.
    pub fn shuffled(&self, rng: &mut Rng) -> Input {
        let n = self.n();
        let perm = permutation(n, rng);
        let mut colours = vec![0; n];
        for (v, &c) in self.colours.iter().enumerate() {
            colours[perm[v] as usize] = c;
        }
        let map = |&(u, v, c): &(u32, u32, u32)| (perm[u as usize], perm[v as usize], c);
        let mut edges: Vec<_> = self.edges.iter().map(map).collect();
        // An undirected edge may be given either way round.
        for e in &mut edges {
            if rng.below(2) == 1 {
                *e = (e.1, e.0, e.2);
            }
        }
        let mut arcs: Vec<_> = self.arcs.iter().map(map).collect();
        shuffle(&mut edges, rng);
        shuffle(&mut arcs, rng);
        Input {
            colours,
            edges,
            arcs,
        }
    }

    /// graph6 of a plain graph (parallel edges collapse).
    pub fn to_graph6(&self) -> String {
        debug_assert!(self.is_plain());
        let n = self.n();
        let mut out = String::new();
        if n < 63 {
            out.push((n as u8 + 63) as char);
        } else if n < 258_048 {
            out.push('~');
            for shift in [12, 6, 0] {
                out.push((((n >> shift) & 63) as u8 + 63) as char);
            }
        } else {
            panic!("graph too large for this graph6 writer");
        }
        let bits = n * n.saturating_sub(1) / 2;
        let mut bitv = vec![false; bits];
        for &(u, v, _) in &self.edges {
            let (i, j) = (u.min(v) as usize, u.max(v) as usize);
            bitv[j * (j - 1) / 2 + i] = true;
        }
        for chunk in bitv.chunks(6) {
            let mut x = 0u8;
            for (k, &b) in chunk.iter().enumerate() {
                if b {
                    x |= 1 << (5 - k);
                }
            }
            out.push((x + 63) as char);
        }
        out
    }
}

/// Parse one graph6 line (no header) into a plain graph.
pub fn from_graph6(line: &str) -> Input {
    let b = line.trim_end().as_bytes();
    let b = b.strip_prefix(b">>graph6<<").unwrap_or(b);
    let (n, rest) = if b[0] != 126 {
        ((b[0] - 63) as usize, &b[1..])
    } else if b[1] != 126 {
        let n = b[1..4]
            .iter()
            .fold(0usize, |a, &x| (a << 6) | (x - 63) as usize);
        (n, &b[4..])
    } else {
        let n = b[2..8]
            .iter()
            .fold(0usize, |a, &x| (a << 6) | (x - 63) as usize);
        (n, &b[8..])
    };
    let mut edges = Vec::new();
    let mut k = 0usize;
    'outer: for j in 1..n {
        for i in 0..j {
            let byte = rest[k / 6] - 63;
            if byte & (1 << (5 - k % 6)) != 0 {
                edges.push((i as u32, j as u32));
            }
            k += 1;
            if k / 6 >= rest.len() {
                break 'outer;
            }
        }
    }
    Input::plain(n, edges)
}

/// A uniformly random permutation of `0..n` (Fisher–Yates).
pub fn permutation(n: usize, rng: &mut Rng) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n as u32).collect();
    shuffle(&mut p, rng);
    p
}

pub fn shuffle<T>(xs: &mut [T], rng: &mut Rng) {
    for i in (1..xs.len()).rev() {
        let j = rng.below(i + 1);
        xs.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph6_round_trip() {
        let mut rng = Rng::seeded(3);
        for n in [1usize, 2, 5, 62, 63, 64, 130] {
            let mut edges = Vec::new();
            for j in 1..n {
                for i in 0..j {
                    if rng.below(3) == 0 {
                        edges.push((i as u32, j as u32));
                    }
                }
            }
            let g = Input::plain(n, edges);
            assert_eq!(from_graph6(&g.to_graph6()), g, "n = {n}");
        }
    }
}
