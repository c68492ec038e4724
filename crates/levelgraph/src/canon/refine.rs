//! Colour refinement: the coarsest equitable partition finer than a given
//! ordered partition, and a trace of how it was reached.
//!
//! A partition is *equitable* when any two vertices of a cell have, for
//! every cell and every relation, as many neighbours in that cell. The
//! refinement is nauty's (McKay 1981, algorithm 2.5; McKay & Piperno
//! 2014, section 3): a queue of splitter cells; for a splitter, count each
//! vertex's links into it per relation, and split every cell whose
//! vertices' counts differ into fragments ordered by count, placed where
//! the cell was. A cell split while it waits in the queue queues its new
//! fragments; otherwise all fragments but the largest are queued
//! (Hopcroft's trick: the counts into the largest follow from those into
//! the others), which makes the whole refinement O(m log n) on the cells'
//! sizes.
//!
//! Everything the refinement decides (which splitter, which cells split,
//! where fragments go) depends only on cell places and counts, never on
//! vertex numbers, so isomorphic inputs give corresponding outputs. The
//! trace, the running hash of the splits after each splitter's step, is
//! such an invariant too: the search compares traces to prune (McKay &
//! Piperno 2014, section 4, "node invariants"). It is compared *while it
//! is written* with the trace at the same depth of the first and of the
//! best leaf's path ([`Against`]); once it differs from the first's and
//! falls below the best's the node is pruned whatever the rest, so the
//! refinement stops there (Traces, McKay & Piperno 2014, section 4;
//! bliss, Junttila & Kaski 2011, "Conflict propagation and component
//! recursion for canonical labeling", section 3). On a graph whose first
//! branch is in the wrong orbit (the generalized Petersen graphs) most
//! children are cut after a few splitters instead of refined in full.
//!
//! [`reference`] (tests only) is the plain algorithm: split every cell by
//! its vertices' counts into every cell until nothing changes.

use std::cmp::Ordering;
use std::collections::VecDeque;

use super::partition::Partition;
use super::prepared::Prepared;

/// How a refinement's trace compares, entry by entry while it is
/// written, with the traces at the same depth of the first leaf's path
/// and of the best leaf's. Traces are compared as sequences
/// (lexicographically, a prefix being less); the search keeps the
/// greatest certificate.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Against<'a> {
    /// The first path's trace while this one is still equal to it (and
    /// `None` on the first path itself, which is equal by definition).
    first: Option<&'a [u64]>,
    /// Whether the trace (and the path above it) equals the first's so far.
    pub(crate) eq_first: bool,
    /// The best path's trace while `cmp_best` is still `Equal`.
    best: Option<&'a [u64]>,
    /// The trace (and the path above it) against the best's so far.
    pub(crate) cmp_best: Ordering,
}

impl<'a> Against<'a> {
    /// Nothing to compare with: the root, and the first path.
    pub(crate) fn nothing() -> Self {
        Against {
            first: None,
            eq_first: true,
            best: None,
            cmp_best: Ordering::Equal,
        }
    }

    /// Compares with `first` while `eq_first` (a missing trace, where the
    /// first leaf's path ended higher up, differs) and with `best` while
    /// `cmp_best` is `Equal` (a missing trace is less than any).
    pub(crate) fn new(
        eq_first: Option<Option<&'a [u64]>>,
        cmp_best: Result<Option<&'a [u64]>, Ordering>,
    ) -> Self {
        let (first, eq_first) = match eq_first {
            Some(Some(t)) => (Some(t), true),
            Some(None) | None => (None, false),
        };
        let (best, cmp_best) = match cmp_best {
            Ok(Some(t)) => (Some(t), Ordering::Equal),
            Ok(None) => (None, Ordering::Greater),
            Err(o) => (None, o),
        };
        Against {
            first,
            eq_first,
            best,
            cmp_best,
        }
    }

    /// Takes entry `i` of the trace being written.
    fn step(&mut self, i: usize, h: u64) {
        if self.eq_first {
            if let Some(f) = self.first {
                self.eq_first = f.get(i) == Some(&h);
            }
        }
        if self.cmp_best == Ordering::Equal {
            if let Some(b) = self.best {
                self.cmp_best = b.get(i).map_or(Ordering::Greater, |x| h.cmp(x));
            }
        }
    }

    /// The trace ended with `len` entries: a longer reference differs, and
    /// is greater.
    fn end(&mut self, len: usize) {
        if self.eq_first && self.first.is_some_and(|f| f.len() != len) {
            self.eq_first = false;
        }
        if self.cmp_best == Ordering::Equal && self.best.is_some_and(|b| b.len() > len) {
            self.cmp_best = Ordering::Less;
        }
    }

    /// Whether the node is pruned whatever the rest of its trace: not
    /// equal to the first path (no automorphism to find) and below the
    /// best (no better leaf).
    pub(crate) fn hopeless(&self) -> bool {
        !self.eq_first && self.cmp_best == Ordering::Less
    }
}

/// The buffers of a refinement, kept between the search's many calls.
#[derive(Debug)]
pub(crate) struct Refiner {
    /// Per vertex: its links into the splitter in the current relation.
    count: Vec<u32>,
    /// The vertices with a count, in the order met.
    touched: Vec<u32>,
    /// Per cell (first place): how many of its vertices have a count;
    /// those sit at the cell's end.
    cell_touched: Vec<u32>,
    /// The cells with a touched vertex.
    touched_cells: Vec<u32>,
    queue: VecDeque<u32>,
    /// Per cell (first place): whether it waits in `queue`.
    queued: Vec<bool>,
    /// The splitter's vertices, copied: splitting moves them in `lab`.
    splitter: Vec<u32>,
    relations: Vec<u32>,
    /// A split cell's fragments: (first place, count).
    fragments: Vec<(u32, u32)>,
}

impl Refiner {
    pub(crate) fn new(n: usize) -> Self {
        Refiner {
            count: vec![0; n],
            touched: Vec::new(),
            cell_touched: vec![0; n],
            touched_cells: Vec::new(),
            queue: VecDeque::new(),
            queued: vec![false; n],
            splitter: Vec::new(),
            relations: Vec::new(),
            fragments: Vec::new(),
        }
    }

    /// Refines `p` to equitable from the colour partition: every cell is a
    /// splitter. Appends the trace to `trace`.
    pub(crate) fn refine_all(&mut self, g: &Prepared, p: &mut Partition, trace: &mut Vec<u64>) {
        let starts: Vec<u32> = p.cell_starts().collect();
        self.refine(g, p, 0, &starts, trace, &mut Against::nothing());
    }

    /// Refines `p` to equitable, given that it is equitable with respect
    /// to every cell but `splitters` (the singleton just individualised,
    /// or every cell at the root). New cells are made at `level`. Appends
    /// the trace to `trace`: the running hash after each splitter's
    /// relation, then one entry for the end (it mixes in the number of
    /// cells). Returns `false`, the partition half refined, as soon as
    /// `against` says the node is [hopeless](Against::hopeless).
    pub(crate) fn refine(
        &mut self,
        g: &Prepared,
        p: &mut Partition,
        level: u32,
        splitters: &[u32],
        trace: &mut Vec<u64>,
        against: &mut Against<'_>,
    ) -> bool {
        let start = trace.len();
        let mut hash = 0x243f_6a88_85a3_08d3_u64;
        for &s in splitters {
            self.push(s);
        }
        while let Some(s) = self.queue.pop_front() {
            self.queued[s as usize] = false;
            if p.is_discrete() {
                continue;
            }
            self.splitter.clear();
            self.splitter.extend_from_slice(p.cell(s));
            self.relations.clear();
            for &v in &self.splitter {
                let links = g.links(v);
                let mut i = 0;
                while i < links.len() {
                    let r = links[i].1;
                    self.relations.push(r);
                    i += links[i..].partition_point(|l| l.1 == r);
                }
            }
            self.relations.sort_unstable();
            self.relations.dedup();
            for k in 0..self.relations.len() {
                let r = self.relations[k];
                hash = mix(hash, u64::from(s) << 32 | u64::from(r));
                self.count_links(g, p, r, self.relations.len() == 1);
                hash = self.split_touched(p, level, hash);
                against.step(trace.len() - start, hash);
                trace.push(hash);
                if against.hopeless() {
                    self.abandon();
                    return false;
                }
            }
        }
        let end = mix(hash, p.cells as u64);
        against.step(trace.len() - start, end);
        trace.push(end);
        against.end(trace.len() - start);
        !against.hopeless()
    }

    /// Empties the queue of a refinement stopped half way (the other
    /// buffers are clean between splitters).
    fn abandon(&mut self) {
        while let Some(s) = self.queue.pop_front() {
            self.queued[s as usize] = false;
        }
    }

    fn push(&mut self, cell: u32) {
        if !std::mem::replace(&mut self.queued[cell as usize], true) {
            self.queue.push_back(cell);
        }
    }

    /// Counts the splitter's links of relation `r` into each vertex of a
    /// cell of two or more, moving each vertex met to the end of its cell.
    fn count_links(&mut self, g: &Prepared, p: &mut Partition, r: u32, only: bool) {
        for &s in &self.splitter {
            let mut links = g.links(s);
            if !only {
                let from = links.partition_point(|l| l.1 < r);
                let to = from + links[from..].partition_point(|l| l.1 == r);
                links = &links[from..to];
            }
            for &(w, _) in links {
                let wu = w as usize;
                let cell = p.cell_of[wu];
                let size = p.len[cell as usize];
                if size == 1 {
                    continue;
                }
                if self.count[wu] == 0 {
                    self.touched.push(w);
                    let seen = &mut self.cell_touched[cell as usize];
                    if *seen == 0 {
                        self.touched_cells.push(cell);
                    }
                    p.swap(p.pos[wu], cell + size - 1 - *seen);
                    *seen += 1;
                }
                self.count[wu] += 1;
            }
        }
    }

    /// Splits each touched cell by count; returns the trace hash with the
    /// splits added.
    fn split_touched(&mut self, p: &mut Partition, level: u32, mut hash: u64) -> u64 {
        // By place, not by the order met, which depends on numbering.
        self.touched_cells.sort_unstable();
        for k in 0..self.touched_cells.len() {
            let cell = self.touched_cells[k];
            let touched = std::mem::take(&mut self.cell_touched[cell as usize]);
            let size = p.len[cell as usize];
            let end = (cell + size) as usize;
            let zone = end - touched as usize;
            let count = &self.count;
            p.lab[zone..end].sort_unstable_by_key(|&v| count[v as usize]);
            for i in zone..end {
                p.pos[p.lab[i] as usize] = i as u32;
            }
            self.fragments.clear();
            if zone > cell as usize {
                self.fragments.push((cell, 0));
            }
            for i in zone..end {
                let c = count[p.lab[i] as usize];
                if i == zone || c != count[p.lab[i - 1] as usize] {
                    self.fragments.push((i as u32, c));
                }
            }
            if self.fragments.len() == 1 {
                hash = mix(hash, u64::from(cell) << 32 | u64::from(self.fragments[0].1));
                continue;
            }
            hash = mix(hash, u64::from(cell) << 32 | self.fragments.len() as u64);
            for f in (1..self.fragments.len()).rev() {
                p.split_at(cell, self.fragments[f].0, level);
            }
            let mut largest = 0;
            for (f, &(start, c)) in self.fragments.iter().enumerate() {
                let len = p.len[start as usize];
                hash = mix(hash, u64::from(c) << 32 | u64::from(len));
                if len > p.len[self.fragments[largest].0 as usize] {
                    largest = f;
                }
            }
            let keep_out = if self.queued[cell as usize] {
                0
            } else {
                largest
            };
            for f in 0..self.fragments.len() {
                if f != keep_out {
                    self.push(self.fragments[f].0);
                }
            }
        }
        for &w in &self.touched {
            self.count[w as usize] = 0;
        }
        self.touched.clear();
        self.touched_cells.clear();
        hash
    }
}

/// Adds `x` to the running hash `h`: a multiply-xorshift mix (the
/// finaliser of SplitMix64), fixed here so traces are the same on every
/// platform and Rust version.
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    let mut z = (h ^ x).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The plain refinement, for tests: starting from `cells` (an ordered
/// partition), split every cell by each vertex's counts of links per
/// relation into every cell, fragments in order of those counts, until a
/// round splits nothing. Returns the cells in order.
#[cfg(test)]
pub(crate) fn reference(g: &Prepared, cells: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    let n = g.vertex_count();
    let mut cells = cells;
    loop {
        let mut cell_of = vec![0usize; n];
        for (i, c) in cells.iter().enumerate() {
            for &v in c {
                cell_of[v as usize] = i;
            }
        }
        // Per vertex: (relation, cell of the link's source) for each link
        // into it, sorted: equal exactly when the counts are equal.
        let mut signature: Vec<Vec<(u32, usize)>> = vec![Vec::new(); n];
        for s in 0..n as u32 {
            for &(w, r) in g.links(s) {
                signature[w as usize].push((r, cell_of[s as usize]));
            }
        }
        for sig in &mut signature {
            sig.sort_unstable();
        }
        let mut next: Vec<Vec<u32>> = Vec::new();
        for c in &cells {
            let mut members = c.clone();
            members.sort_by(|&a, &b| {
                signature[a as usize]
                    .cmp(&signature[b as usize])
                    .then(a.cmp(&b))
            });
            let mut fragment: Vec<u32> = Vec::new();
            for &v in &members {
                if fragment
                    .last()
                    .is_some_and(|&u| signature[u as usize] != signature[v as usize])
                {
                    next.push(std::mem::take(&mut fragment));
                }
                fragment.push(v);
            }
            if !fragment.is_empty() {
                next.push(fragment);
            }
        }
        if next.len() == cells.len() {
            return next;
        }
        cells = next;
    }
}

#[cfg(test)]
mod tests {
    use super::super::coloured::ColouredGraph;
    use super::*;
    use proptest::prelude::*;

    fn cells_of(p: &Partition) -> Vec<Vec<u32>> {
        p.cell_starts()
            .map(|s| {
                let mut c = p.cell(s).to_vec();
                c.sort_unstable();
                c
            })
            .collect()
    }

    fn refined(g: &ColouredGraph) -> (Partition, Vec<u64>) {
        let prepared = Prepared::new(g);
        let mut p = Partition::by_colour(g.vertex_colours());
        let mut trace = Vec::new();
        Refiner::new(g.vertex_count()).refine_all(&prepared, &mut p, &mut trace);
        (p, trace)
    }

    /// Whether any two vertices of a cell have equal counts of links per
    /// relation into every cell.
    fn is_equitable(g: &Prepared, p: &Partition) -> bool {
        let n = g.vertex_count();
        let mut sig: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
        for s in 0..n as u32 {
            for &(w, r) in g.links(s) {
                sig[w as usize].push((r, p.cell_of[s as usize]));
            }
        }
        for s in &mut sig {
            s.sort_unstable();
        }
        p.cell_starts().all(|c| {
            p.cell(c)
                .iter()
                .all(|&v| sig[v as usize] == sig[p.cell(c)[0] as usize])
        })
    }

    pub(super) fn arb_graph() -> impl Strategy<Value = ColouredGraph> {
        (1usize..14).prop_flat_map(|n| {
            let colours = prop::collection::vec(0u32..3, n);
            let arcs =
                prop::collection::vec((0..n as u32, 0..n as u32, 0u32..3, any::<bool>()), 0..3 * n);
            (colours, arcs).prop_map(|(colours, arcs)| {
                let mut g = ColouredGraph::new(colours);
                for (a, b, c, both) in arcs {
                    if both {
                        g.add_edge(a, b, c).unwrap();
                    } else {
                        g.add_arc(a, b, c).unwrap();
                    }
                }
                g
            })
        })
    }

    #[test]
    fn a_path_splits_into_distance_classes() {
        let (p, _) = refined(&ColouredGraph::path(5));
        assert_eq!(cells_of(&p), vec![vec![0, 4], vec![2], vec![1, 3]]);
        let (p, _) = refined(&ColouredGraph::petersen());
        assert_eq!(p.cells, 1);
    }

    proptest! {
        /// The refinement ends equitable, with the cells of the plain
        /// refinement (the coarsest equitable partition finer than the
        /// colours is unique as a set of cells), each inside the colour it
        /// came from and colours in order. The two cell orders differ
        /// (each follows its own splitting order); each is an invariant,
        /// tested below.
        #[test]
        fn agrees_with_the_plain_refinement(g in arb_graph()) {
            let prepared = Prepared::new(&g);
            let (p, _) = refined(&g);
            prop_assert!(is_equitable(&prepared, &p));
            let colour_cells = cells_of(&Partition::by_colour(g.vertex_colours()));
            let plain = reference(&prepared, colour_cells);
            let mut fast = cells_of(&p);
            let colour_order = |cells: &[Vec<u32>]| cells.iter().map(|c| g.vertex_colours()[c[0] as usize]).collect::<Vec<_>>();
            prop_assert_eq!(colour_order(&fast), colour_order(&plain));
            let mut plain_sorted: Vec<Vec<u32>> = plain.into_iter().map(|mut c| { c.sort_unstable(); c }).collect();
            plain_sorted.sort();
            fast.sort();
            prop_assert_eq!(fast, plain_sorted);
        }

        /// A refinement compared while it runs (and stopped when hopeless)
        /// decides as the full refinement's trace compared afterwards
        /// would: equal to the first's exactly when the full traces are
        /// equal, ordered against the best's as the full traces are, and
        /// stopped exactly when it is neither equal to the first's nor
        /// at least the best's.
        #[test]
        fn comparing_while_refining_agrees_with_comparing_after(
            g in arb_graph(),
            picks in (any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<prop::sample::Index>()),
        ) {
            let prepared = Prepared::new(&g);
            let (root, _) = refined(&g);
            let Some(target) = root.target_cell(0) else { return Ok(()) };
            let cell = root.cell(target).to_vec();
            let full = |v: u32| {
                let mut p = root.clone();
                let s = p.individualise(v, 1);
                let mut trace = Vec::new();
                let done = Refiner::new(g.vertex_count()).refine(&prepared, &mut p, 1, &[s], &mut trace, &mut Against::nothing());
                assert!(done);
                trace
            };
            let (first, best, v) = (full(*picks.0.get(&cell)), full(*picks.1.get(&cell)), *picks.2.get(&cell));
            let plain = full(v);
            let mut p = root.clone();
            let s = p.individualise(v, 1);
            let mut trace = Vec::new();
            let mut against = Against::new(Some(Some(&first)), Ok(Some(&best)));
            let finished = Refiner::new(g.vertex_count()).refine(&prepared, &mut p, 1, &[s], &mut trace, &mut against);
            let hopeless = plain != first && plain < best;
            prop_assert_eq!(finished, !hopeless);
            if finished {
                prop_assert_eq!(&trace, &plain);
                prop_assert_eq!(against.eq_first, plain == first);
                prop_assert_eq!(against.cmp_best, plain.cmp(&best));
            }
        }

        /// Renumbering the vertices renumbers the cells and changes neither
        /// their order nor the trace.
        #[test]
        fn is_invariant_under_renumbering(g in arb_graph(), seed in any::<u64>()) {
            let n = g.vertex_count();
            let mut perm: Vec<u32> = (0..n as u32).collect();
            let mut s = seed;
            for i in (1..n).rev() {
                s = mix(s, i as u64);
                perm.swap(i, (s % (i as u64 + 1)) as usize);
            }
            let h = g.relabelled(&perm).unwrap();
            let (p, tp) = refined(&g);
            let (q, tq) = refined(&h);
            prop_assert_eq!(tp, tq);
            let mapped: Vec<Vec<u32>> = cells_of(&p)
                .into_iter()
                .map(|c| { let mut c: Vec<u32> = c.iter().map(|&v| perm[v as usize]).collect(); c.sort_unstable(); c })
                .collect();
            prop_assert_eq!(mapped, cells_of(&q));
        }
    }
}
