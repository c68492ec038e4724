//! The graph as the search reads it: repeated arcs merged into one arc of
//! a combined colour, and per vertex the list of links that a refinement
//! follows out of a splitter cell.

use std::collections::BTreeMap;

use super::coloured::ColouredGraph;

/// A [`ColouredGraph`] compiled for refinement and for comparing leaves.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    /// The vertex colours, by vertex.
    pub(crate) colours: Vec<u32>,
    /// Per vertex `u`, `out[out_start[u]..out_start[u + 1]]`: one entry
    /// `(v, combined)` per head `v` of arcs from `u`, sorted by `v`.
    /// `combined` numbers the sorted multiset of the pair's arc colours
    /// among all such multisets in increasing order, so it is the same
    /// for isomorphic graphs.
    pub(crate) out: Vec<(u32, u32)>,
    pub(crate) out_start: Vec<u32>,
    /// Per vertex `v`, `inn[inn_start[v]..inn_start[v + 1]]`: one entry
    /// `(u, combined)` per tail `u` of arcs into `v`, sorted by `u`. Empty
    /// when the graph is symmetric (then the arcs into `v` are those out
    /// of it).
    inn: Vec<(u32, u32)>,
    inn_start: Vec<u32>,
    /// Per vertex `s`, `links[link_start[s]..link_start[s + 1]]`: the pairs
    /// `(w, r)` saying that `s` in a splitter adds one to `w`'s count in
    /// relation `r`, sorted by `(r, w)`. In a symmetric graph `r` is the
    /// combined colour (a neighbour is a neighbour both ways, so half the
    /// work); otherwise `2c` counts arcs from the splitter into `w` and
    /// `2c + 1` arcs from `w` into the splitter.
    pub(crate) links: Vec<(u32, u32)>,
    pub(crate) link_start: Vec<u32>,
    /// Combined colour → the sorted arc colours it stands for.
    pub(crate) multisets: Vec<Vec<u32>>,
}

impl Prepared {
    /// O(n + m log d) for m arcs of largest out-degree d: rows are
    /// bucketed by vertex and only sorted within (a global sort of the
    /// arcs was most of the time on dense graphs).
    pub(crate) fn new(g: &ColouredGraph) -> Self {
        let n = g.vertex_count();
        let raw: Vec<(u32, u32, u32)> = g.arcs().iter().map(|a| (a.from, a.to, a.colour)).collect();
        let (_, raw) = rows(n, raw, |a| a.0);

        // Each ordered pair's colours are a sorted run of `raw`; the
        // combined colour is the rank of that multiset by value.
        let mut runs: Vec<(usize, usize)> = Vec::with_capacity(raw.len());
        let mut at = 0;
        while at < raw.len() {
            let mut end = at + 1;
            while end < raw.len() && (raw[end].0, raw[end].1) == (raw[at].0, raw[at].1) {
                end += 1;
            }
            runs.push((at, end));
            at = end;
        }
        let colours_of =
            |&(a, b): &(usize, usize)| -> Vec<u32> { raw[a..b].iter().map(|x| x.2).collect() };
        // Single arcs, nearly all of them, are ranked through a sorted
        // list of their colours (a map lookup per arc was a fifth of the
        // time on dense graphs); repeated arcs through the map.
        let mut rank: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
        let mut singles: Vec<u32> = Vec::new();
        for run in &runs {
            if run.1 - run.0 == 1 {
                singles.push(raw[run.0].2);
            } else {
                rank.insert(colours_of(run), 0);
            }
        }
        singles.sort_unstable();
        singles.dedup();
        for &c in &singles {
            rank.insert(vec![c], 0);
        }
        for (r, value) in rank.values_mut().enumerate() {
            *value = r as u32;
        }
        let single_rank: Vec<u32> = singles.iter().map(|&c| rank[&[c][..]]).collect();
        let multisets: Vec<Vec<u32>> = rank.keys().cloned().collect();
        let combined = |run: &(usize, usize)| {
            if run.1 - run.0 == 1 {
                let at = singles.binary_search(&raw[run.0].2).expect("listed above");
                single_rank[at]
            } else {
                rank[&colours_of(run)]
            }
        };

        let mut out_start = vec![0u32; n + 1];
        let mut out = Vec::with_capacity(runs.len());
        for run in &runs {
            let (u, v, _) = raw[run.0];
            out_start[u as usize + 1] += 1;
            out.push((v, combined(run)));
        }
        for u in 0..n {
            out_start[u + 1] += out_start[u];
        }

        // The arcs into each vertex, by tail: going through the tails in
        // order keeps each list sorted without a sort. The graph is
        // symmetric exactly when they equal the arcs out.
        let mut inn_start = vec![0u32; n + 1];
        for &(v, _) in &out {
            inn_start[v as usize + 1] += 1;
        }
        for v in 0..n {
            inn_start[v + 1] += inn_start[v];
        }
        let mut inn = vec![(0, 0); out.len()];
        let mut next = inn_start.clone();
        for u in 0..n {
            for &(v, c) in &out[out_start[u] as usize..out_start[u + 1] as usize] {
                inn[next[v as usize] as usize] = (u as u32, c);
                next[v as usize] += 1;
            }
        }
        let symmetric = inn == out && inn_start == out_start;
        if symmetric {
            inn = Vec::new();
            inn_start = Vec::new();
        }
        let row = |u: u32| &out[out_start[u as usize] as usize..out_start[u as usize + 1] as usize];

        let mut pairs: Vec<(u32, u32, u32)> = Vec::with_capacity(out.len() * 2);
        for u in 0..n as u32 {
            for &(v, c) in row(u) {
                if symmetric {
                    pairs.push((u, c, v));
                } else {
                    pairs.push((u, 2 * c, v));
                    pairs.push((v, 2 * c + 1, u));
                }
            }
        }
        let (link_start, pairs) = rows(n, pairs, |p| p.0);
        Prepared {
            colours: g.vertex_colours().to_vec(),
            out,
            out_start,
            inn,
            inn_start,
            links: pairs.into_iter().map(|(_, r, w)| (w, r)).collect(),
            link_start,
            multisets,
        }
    }

    pub(crate) fn vertex_count(&self) -> usize {
        self.colours.len()
    }

    /// The links out of `s`, sorted by relation.
    pub(crate) fn links(&self, s: u32) -> &[(u32, u32)] {
        let s = s as usize;
        &self.links[self.link_start[s] as usize..self.link_start[s + 1] as usize]
    }

    /// The merged arcs out of `u`: `(head, combined colour)` by head.
    pub(crate) fn out(&self, u: u32) -> &[(u32, u32)] {
        let u = u as usize;
        &self.out[self.out_start[u] as usize..self.out_start[u + 1] as usize]
    }

    /// The merged arcs into `v`: `(tail, combined colour)` by tail.
    pub(crate) fn incoming(&self, v: u32) -> &[(u32, u32)] {
        if self.inn_start.is_empty() {
            return self.out(v);
        }
        let v = v as usize;
        &self.inn[self.inn_start[v] as usize..self.inn_start[v + 1] as usize]
    }
}

/// `items` sorted, given that `row(item) < n` is each item's first key:
/// bucketed by row (counting sort), then each row sorted on its own.
/// Returns the rows' starts (`n + 1` of them) and the sorted items.
pub(crate) fn rows<T: Ord + Copy>(
    n: usize,
    items: Vec<T>,
    row: impl Fn(&T) -> u32,
) -> (Vec<u32>, Vec<T>) {
    let mut start = vec![0u32; n + 1];
    for item in &items {
        start[row(item) as usize + 1] += 1;
    }
    for r in 0..n {
        start[r + 1] += start[r];
    }
    let Some(&first) = items.first() else {
        return (start, items);
    };
    let mut next = start.clone();
    let mut sorted: Vec<T> = vec![first; items.len()];
    for item in items {
        let r = row(&item) as usize;
        sorted[next[r] as usize] = item;
        next[r] += 1;
    }
    for r in 0..n {
        let slice = &mut sorted[start[r] as usize..start[r + 1] as usize];
        // Rows often arrive sorted (links built from sorted rows).
        if !slice.is_sorted() {
            slice.sort_unstable();
        }
    }
    (start, sorted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_arcs_merge_into_a_colour_named_by_value() {
        // 0->1 twice in colour 5 and once in 2; 1->2 once in 5; 2->0 in 2
        // and 5: the multisets {2,5,5} < {2,5} ... sorted as sequences:
        // [2] absent; [2,5] < [2,5,5] < [5].
        let mut g = ColouredGraph::uncoloured(3);
        for (a, b, c) in [
            (0, 1, 5),
            (1, 2, 5),
            (0, 1, 2),
            (2, 0, 5),
            (0, 1, 5),
            (2, 0, 2),
        ] {
            g.add_arc(a, b, c).unwrap();
        }
        let p = Prepared::new(&g);
        assert_eq!(p.out, vec![(1, 1), (2, 2), (0, 0)]);
        assert_eq!(p.out_start, vec![0, 1, 2, 3]);
        assert_eq!(p.links(0), &[(2, 1), (1, 2)]);
    }

    #[test]
    fn an_undirected_graph_links_one_way() {
        let p = Prepared::new(&ColouredGraph::path(3));
        assert_eq!(p.links(1), &[(0, 0), (2, 0)]);
    }
}
