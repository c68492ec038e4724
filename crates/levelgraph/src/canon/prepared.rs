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
    /// `2c + 1` arcs from `w` into the splitter. Empty when they are the
    /// arcs out as they are (a symmetric graph with one colour per row).
    pub(crate) links: Vec<(u32, u32)>,
    pub(crate) link_start: Vec<u32>,
    /// Combined colour → the sorted arc colours it stands for.
    pub(crate) multisets: Vec<Vec<u32>>,
}

impl Prepared {
    /// O(n + m) for m arcs (O(m log d) more for the rare rows with
    /// repeated arcs, d their length): no comparison sort of the arcs.
    pub(crate) fn new(g: &ColouredGraph) -> Self {
        let n = g.vertex_count();
        let (out_start, out, multisets) = merged_arcs(g);

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
        let (links, link_start) = if symmetric {
            // A neighbour is a neighbour both ways: the links are the arcs
            // out, sorted by (colour, head) instead of by head; with one
            // colour per row (nearly always) they are the arcs out as they
            // are, and are not copied.
            let by_relation = |u: u32| row(u).is_sorted_by_key(|&(v, c)| (c, v));
            if (0..n as u32).all(by_relation) {
                (Vec::new(), Vec::new())
            } else {
                let mut links = out.clone();
                for u in 0..n {
                    links[out_start[u] as usize..out_start[u + 1] as usize]
                        .sort_unstable_by_key(|&(v, c)| (c, v));
                }
                (links, out_start.clone())
            }
        } else {
            let mut pairs: Vec<(u32, u32, u32)> = Vec::with_capacity(out.len() * 2);
            for u in 0..n as u32 {
                for &(v, c) in row(u) {
                    pairs.push((u, 2 * c, v));
                    pairs.push((v, 2 * c + 1, u));
                }
            }
            let (link_start, pairs) = rows(n, pairs, |p| p.0);
            (
                pairs.into_iter().map(|(_, r, w)| (w, r)).collect(),
                link_start,
            )
        };
        Prepared {
            colours: g.vertex_colours().to_vec(),
            out,
            out_start,
            inn,
            inn_start,
            links,
            link_start,
            multisets,
        }
    }

    pub(crate) fn vertex_count(&self) -> usize {
        self.colours.len()
    }

    /// Whether the arcs have more than one combined colour: only then do
    /// the leaf rows and the form carry each arc's.
    pub(crate) fn arc_colours(&self) -> bool {
        self.multisets.len() > 1
    }

    /// The links out of `s`, sorted by relation.
    pub(crate) fn links(&self, s: u32) -> &[(u32, u32)] {
        if self.link_start.is_empty() {
            return self.out(s);
        }
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

/// The arcs of `g` with each ordered pair's repeats merged, for
/// [`Prepared::new`] and [`super::form::encode`]: per vertex `u` from
/// `start[u]`, `(v, combined)` by `v`; `multisets[combined]` is the
/// sorted multiset of the pair's colours, the list sorted (so the same
/// for isomorphic graphs).
#[allow(clippy::type_complexity)]
pub(crate) fn merged_arcs(g: &ColouredGraph) -> (Vec<u32>, Vec<(u32, u32)>, Vec<Vec<u32>>) {
    let (start, arcs) = arcs_by_tail(g);
    let (arcs, start, multisets) = merge_repeats(start, arcs);
    (start, arcs, multisets)
}

/// The arcs of `g` as `(head, colour)` per tail (from `start[u]`), each
/// tail's row sorted: grouped by tail (a counting sort), then each row
/// sorted on its own where it is not already.
///
/// Sorting the rows one by one costs O(d log d) per row of d arcs: nothing
/// on short rows, but a third of `Prepared::new` on a shuffled dense
/// graph. When rows are long on average ([`LONG_ROWS`] or more arcs) the
/// arcs are first grouped by head, so that grouping them by tail, going
/// through the heads in order, leaves each row sorted by head (a radix
/// sort, O(n + m)); only the colours of repeated arcs between one pair can
/// then be out of order.
fn arcs_by_tail(g: &ColouredGraph) -> (Vec<u32>, Vec<(u32, u32)>) {
    let long = g.arcs().len() >= LONG_ROWS * g.vertex_count();
    arcs_by_tail_with(g, long)
}

/// The average row length from which [`arcs_by_tail`] sorts by heads
/// first: about where a counting pass over the arcs costs less than
/// sorting each row (the rows of a 9-vertex graph are sorted by
/// insertion in a few nanoseconds).
const LONG_ROWS: usize = 16;

/// [`arcs_by_tail`], by heads first or not (both give the same rows; a
/// proptest holds both to sorting the arcs).
fn arcs_by_tail_with(g: &ColouredGraph, heads_first: bool) -> (Vec<u32>, Vec<(u32, u32)>) {
    let n = g.vertex_count();
    let (start, mut arcs) = if heads_first {
        let (_, by_head) = counting_sort(n, g.arcs(), |a| (a.to, *a));
        counting_sort(n, &by_head, |a| (a.from, (a.to, a.colour)))
    } else {
        counting_sort(n, g.arcs(), |a| (a.from, (a.to, a.colour)))
    };
    for row in start.windows(2) {
        let row = &mut arcs[row[0] as usize..row[1] as usize];
        if !row.is_sorted() {
            row.sort_unstable();
        }
    }
    (start, arcs)
}

/// A stable counting sort: the values of `items` grouped by key, where
/// `key_value(item)` is `(key, value)` with `key < n`; each group keeps
/// the order of `items`. Returns the groups' starts (`n + 1` of them) and
/// the values. O(n + items).
fn counting_sort<T, U: Copy>(
    n: usize,
    items: &[T],
    key_value: impl Fn(&T) -> (u32, U),
) -> (Vec<u32>, Vec<U>) {
    let mut start = vec![0u32; n + 1];
    for item in items {
        start[key_value(item).0 as usize + 1] += 1;
    }
    for k in 0..n {
        start[k + 1] += start[k];
    }
    let Some(first) = items.first() else {
        return (start, Vec::new());
    };
    let mut next = start.clone();
    let mut values = vec![key_value(first).1; items.len()];
    for item in items {
        let (k, value) = key_value(item);
        values[next[k as usize] as usize] = value;
        next[k as usize] += 1;
    }
    (start, values)
}

/// The arcs by tail ([`arcs_by_tail`]) with each ordered pair's repeats
/// merged: per vertex `u` from `out_start[u]`, `(v, combined)` by `v`,
/// where `combined` is the rank by value of the sorted multiset of the
/// pair's colours among all such multisets (the third result, in order),
/// so it is the same for isomorphic graphs.
#[allow(clippy::type_complexity)]
fn merge_repeats(
    start: Vec<u32>,
    mut arcs: Vec<(u32, u32)>,
) -> (Vec<(u32, u32)>, Vec<u32>, Vec<Vec<u32>>) {
    let n = start.len() - 1;
    let row = |u: usize| start[u] as usize..start[u + 1] as usize;
    let repeated = (0..n).any(|u| arcs[row(u)].windows(2).any(|w| w[0].0 == w[1].0));
    if !repeated {
        // Nearly always: the multisets are the single colours, ranked in
        // place through a sorted list of them (a map lookup per arc was a
        // fifth of the time on dense graphs), or all 0 for one colour.
        let one = arcs.first().map(|a| a.1);
        if arcs.iter().all(|a| Some(a.1) == one) {
            arcs.iter_mut().for_each(|a| a.1 = 0);
            return (arcs, start, one.into_iter().map(|c| vec![c]).collect());
        }
        let mut singles: Vec<u32> = arcs.iter().map(|a| a.1).collect();
        singles.sort_unstable();
        singles.dedup();
        for arc in &mut arcs {
            arc.1 = singles.binary_search(&arc.1).expect("listed above") as u32;
        }
        return (arcs, start, singles.into_iter().map(|c| vec![c]).collect());
    }
    // Each ordered pair's colours are a sorted run of its tail's row.
    let mut out_start = vec![0u32; n + 1];
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(arcs.len());
    let mut run_start: Vec<u32> = Vec::with_capacity(arcs.len() + 1);
    for u in 0..n {
        for i in row(u) {
            if i == start[u] as usize || arcs[i - 1].0 != arcs[i].0 {
                out.push((arcs[i].0, 0));
                run_start.push(i as u32);
            }
        }
        out_start[u + 1] = out.len() as u32;
    }
    run_start.push(arcs.len() as u32);
    let colours: Vec<u32> = arcs.iter().map(|a| a.1).collect();
    let run = |k: usize| &colours[run_start[k] as usize..run_start[k + 1] as usize];
    let mut rank: BTreeMap<&[u32], u32> = (0..out.len()).map(|k| (run(k), 0)).collect();
    for (r, value) in rank.values_mut().enumerate() {
        *value = r as u32;
    }
    for (k, arc) in out.iter_mut().enumerate() {
        arc.1 = rank[run(k)];
    }
    let multisets = rank.keys().map(|m| m.to_vec()).collect();
    (out, out_start, multisets)
}

/// `items` sorted, given that `row(item) < n` is each item's first key:
/// bucketed by row ([`counting_sort`]), then each row sorted on its own
/// (rows often arrive sorted: links built from sorted rows). Returns the
/// rows' starts (`n + 1` of them) and the sorted items.
fn rows<T: Ord + Copy>(n: usize, items: Vec<T>, row: impl Fn(&T) -> u32) -> (Vec<u32>, Vec<T>) {
    let (start, mut sorted) = counting_sort(n, &items, |item| (row(item), *item));
    for r in start.windows(2) {
        let slice = &mut sorted[r[0] as usize..r[1] as usize];
        if !slice.is_sorted() {
            slice.sort_unstable();
        }
    }
    (start, sorted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The rows, by heads first or not, are the arcs sorted plainly,
        /// for any digraph with repeated arcs and loops given in any
        /// order.
        #[test]
        fn arcs_by_tail_agrees_with_sorting_the_arcs(
            (n, arcs) in (1usize..12).prop_flat_map(|n| (
                Just(n),
                prop::collection::vec((0..n as u32, 0..n as u32, 0u32..3), 0..5 * n),
            )),
        ) {
            let mut g = ColouredGraph::uncoloured(n);
            for &(a, b, c) in &arcs {
                g.add_arc(a, b, c).unwrap();
            }
            let mut plain = arcs.clone();
            plain.sort_unstable();
            for heads_first in [false, true] {
                let (start, rows) = arcs_by_tail_with(&g, heads_first);
                let mut ours = Vec::new();
                for u in 0..n {
                    for &(v, c) in &rows[start[u] as usize..start[u + 1] as usize] {
                        ours.push((u as u32, v, c));
                    }
                }
                prop_assert_eq!(ours, plain.clone());
            }
        }
    }

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
        assert_eq!(p.incoming(1), p.out(1));
        // Two edge colours: links by (colour, head), arcs by head.
        let mut g = ColouredGraph::uncoloured(3);
        g.add_edge(1, 0, 7).unwrap();
        g.add_edge(1, 2, 3).unwrap();
        let p = Prepared::new(&g);
        assert_eq!(p.out(1), &[(0, 1), (2, 0)]);
        assert_eq!(p.links(1), &[(2, 0), (0, 1)]);
        assert_eq!(p.links(0), &[(1, 1)]);
    }

    #[test]
    fn a_directed_graph_keeps_its_arcs_in() {
        let mut g = ColouredGraph::uncoloured(3);
        g.add_arc(2, 1, 0).unwrap();
        g.add_arc(0, 1, 0).unwrap();
        g.add_arc(1, 0, 0).unwrap();
        let p = Prepared::new(&g);
        assert_eq!(p.incoming(1), &[(0, 0), (2, 0)]);
        assert_eq!(p.incoming(2), &[]);
        assert_eq!(p.links(1), &[(0, 0), (0, 1), (2, 1)]);
    }
}
