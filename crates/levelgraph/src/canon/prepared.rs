//! The graph as the search reads it: repeated arcs merged into one arc of
//! a combined colour, and per vertex the list of links that a refinement
//! follows out of a splitter cell.

use super::coloured::ColouredGraph;

/// A [`ColouredGraph`] compiled for refinement and for comparing leaves.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    /// The vertex colours, by vertex.
    pub(crate) colours: Vec<u32>,
    /// One arc per ordered pair that has any, `(from, to, combined)`,
    /// sorted; `combined` numbers the sorted multiset of the pair's arc
    /// colours among all such multisets in increasing order, so it is the
    /// same for isomorphic graphs.
    pub(crate) merged: Vec<[u32; 3]>,
    /// Per vertex `s`, `links[link_start[s]..link_start[s + 1]]`: the pairs
    /// `(w, r)` saying that `s` in a splitter adds one to `w`'s count in
    /// relation `r`, sorted by `(r, w)`. In a symmetric graph `r` is the
    /// combined colour (a neighbour is a neighbour both ways, so half the
    /// work); otherwise `2c` counts arcs from the splitter into `w` and
    /// `2c + 1` arcs from `w` into the splitter.
    pub(crate) links: Vec<(u32, u32)>,
    pub(crate) link_start: Vec<u32>,
}

impl Prepared {
    pub(crate) fn new(g: &ColouredGraph) -> Self {
        let n = g.vertex_count();
        let mut raw: Vec<[u32; 3]> = g.arcs().iter().map(|a| [a.from, a.to, a.colour]).collect();
        raw.sort_unstable();
        // Each ordered pair's colours are a sorted run of `raw`: the
        // multiset is that slice, compared by value.
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut at = 0;
        while at < raw.len() {
            let mut end = at + 1;
            while end < raw.len() && raw[end][..2] == raw[at][..2] {
                end += 1;
            }
            runs.push((at, end));
            at = end;
        }
        let colours_of = |&(a, b): &(usize, usize)| raw[a..b].iter().map(|x| x[2]);
        let mut order: Vec<usize> = (0..runs.len()).collect();
        order.sort_unstable_by(|&x, &y| colours_of(&runs[x]).cmp(colours_of(&runs[y])));
        let mut combined = vec![0u32; runs.len()];
        let mut next = 0u32;
        for (k, &run) in order.iter().enumerate() {
            if k > 0 && colours_of(&runs[order[k - 1]]).ne(colours_of(&runs[run])) {
                next += 1;
            }
            combined[run] = next;
        }
        let merged: Vec<[u32; 3]> = runs
            .iter()
            .zip(&combined)
            .map(|(&(a, _), &c)| [raw[a][0], raw[a][1], c])
            .collect();

        let mut reversed: Vec<[u32; 3]> = merged.iter().map(|&[u, v, c]| [v, u, c]).collect();
        reversed.sort_unstable();
        let symmetric = reversed == merged;

        let mut pairs: Vec<(u32, u32, u32)> = Vec::with_capacity(merged.len() * 2);
        for &[u, v, c] in &merged {
            if symmetric {
                pairs.push((u, c, v));
            } else {
                pairs.push((u, 2 * c, v));
                pairs.push((v, 2 * c + 1, u));
            }
        }
        pairs.sort_unstable();
        let mut link_start = vec![0u32; n + 1];
        for &(s, _, _) in &pairs {
            link_start[s as usize + 1] += 1;
        }
        for s in 0..n {
            link_start[s + 1] += link_start[s];
        }
        Prepared {
            colours: g.vertex_colours().to_vec(),
            merged,
            links: pairs.into_iter().map(|(_, r, w)| (w, r)).collect(),
            link_start,
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
        assert_eq!(p.merged, vec![[0, 1, 1], [1, 2, 2], [2, 0, 0]]);
        assert_eq!(p.links(0), &[(2, 1), (1, 2)]);
    }

    #[test]
    fn an_undirected_graph_links_one_way() {
        let p = Prepared::new(&ColouredGraph::path(3));
        assert_eq!(p.links(1), &[(0, 0), (2, 0)]);
    }
}
