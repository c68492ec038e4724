//! The individualisation–refinement search tree (McKay 1981; McKay &
//! Piperno 2014, sections 2–5).
//!
//! A node is an equitable ordered partition; its children individualise
//! each vertex of its target cell in turn and refine. A leaf (a discrete
//! partition) is a labelling. The leaf kept is the greatest by its
//! *certificate*: the traces of the refinements along its path, then the
//! graph relabelled by it (the traces are invariants, so comparing them
//! first decides most comparisons early and lets whole subtrees go).
//!
//! Pruning, each sound for the canonical leaf and for the group:
//!
//! - *by certificate*: a node whose traces so far are less than the best
//!   leaf's is left unless they equal the first leaf's (it may still give
//!   an automorphism); its refinement stops at the first entry of its
//!   trace that decides this (`refine::Against`);
//! - *by orbits on the first path*: all automorphisms found while a node
//!   of the first path is being explored fix that node's individualised
//!   vertices, so children in one orbit of the group found have
//!   equivalent subtrees and one per orbit is tried (nauty's classic
//!   pruning);
//! - *by fixed points off the first path*: at any other node, a child
//!   `v` is skipped when some automorphism found fixes the node's
//!   individualised vertices and `v` is not the smallest vertex of its
//!   cycle: that automorphism maps `v`'s subtree onto a smaller child's,
//!   and the smallest of a chain of such children is always tried
//!   (nauty's fixed-point and minimum-cell-representative sets, McKay
//!   1981, section 2; McKay & Piperno 2014, section 5);
//! - *by jumping back*: a leaf equivalent to the first (or best) leaf
//!   shows that the subtree hanging below their common ancestor is the
//!   image of one already explored, so the search goes on at that
//!   ancestor's next child (McKay 1981, lemma 2.25).
//!
//! Every search counts its nodes (refinements) and stops with
//! [`LimitReached`] past [`SearchLimits::max_nodes`].

use std::cmp::Ordering;
use std::rc::Rc;

use super::group::{Automorphisms, GroupOrder, Orbits};
use super::partition::Partition;
use super::prepared::Prepared;
use super::refine::{Against, Refiner};

/// The bounds of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// The most search-tree nodes (refinements) a search may visit.
    /// Default: 1,000,000 (a level of 1,000 vertices needs a few thousand;
    /// the hard strongly regular graphs of nauty's benchmarks a few tens
    /// of thousands).
    pub max_nodes: u64,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            max_nodes: 1_000_000,
        }
    }
}

/// A search stopped by its node budget: no labelling is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the canonical labelling search visited {nodes} nodes, its limit (SearchLimits::max_nodes), without finishing")]
pub struct LimitReached {
    /// The nodes visited when it stopped: the limit plus the one that
    /// went past it.
    pub nodes: u64,
}

/// What a finished search found.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    /// The canonical labelling: place → vertex.
    pub(crate) labelling: Vec<u32>,
    pub(crate) automorphisms: Automorphisms,
    /// The nodes it visited.
    pub(crate) nodes: u64,
    /// The graph relabelled by the canonical labelling, as
    /// [`leaf_rows`] writes it.
    pub(crate) rows: Vec<u32>,
}

/// A leaf kept for comparison: the first or the best.
#[derive(Clone, Debug)]
struct Leaf {
    /// The traces from the root to the leaf, one after the other.
    trace: Vec<u64>,
    /// Per depth, the range of `trace` its refinement wrote.
    trace_at: Vec<(usize, usize)>,
    /// The individualised vertices from the root down.
    path: Vec<u32>,
    /// Place → vertex.
    lab: Vec<u32>,
    /// The graph relabelled by the leaf, row by row
    /// ([`leaf_rows`]).
    rows: Vec<u32>,
}

impl Leaf {
    /// The trace of its path's node at `depth`, if the path is that deep.
    fn trace_of(&self, depth: usize) -> Option<&[u64]> {
        self.trace_at.get(depth).map(|&(a, b)| &self.trace[a..b])
    }
}

/// A node on the path from the root to the one being explored.
#[derive(Clone, Debug)]
struct Node {
    /// The range of [`Search::trace`] its refinement wrote.
    trace_at: (usize, usize),
    /// The vertex individualised to reach it (unused at the root).
    chosen: u32,
    /// The first place of its target cell.
    target: u32,
    /// The first child: the target cell's first vertex when the node was
    /// made (any choice gives the same canonical form; this one costs
    /// nothing, which matters on the long paths of large cells).
    first_child: u32,
    /// Whether the first child has been tried.
    first_tried: bool,
    /// The other children by number, listed when the second is asked for
    /// (most nodes off the first path never are).
    others: Option<Vec<u32>>,
    /// How many of `others` have been taken.
    taken: usize,
    /// On the first path: the children tried, for orbit pruning.
    tried: Vec<u32>,
    /// Off the first path: the generators (indices into
    /// [`Search::cycles`]) that fix the path to this node, as far as
    /// `checked` generators have been looked at.
    fixing: Vec<usize>,
    checked: usize,
    /// Whether it lies on the first path (from the root to the first leaf).
    on_first: bool,
    /// Whether its traces so far equal the first leaf's.
    eq_first: bool,
    /// Its traces so far against the best leaf's.
    cmp_best: Ordering,
}

/// Searches the tree of `g` within `limits`.
pub(crate) fn search(g: &Prepared, limits: &SearchLimits) -> Result<Outcome, LimitReached> {
    Search::new(g, limits).run()
}

struct Search<'g> {
    g: &'g Prepared,
    max_nodes: u64,
    nodes: u64,
    p: Partition,
    /// The level `p` is refined to.
    p_level: usize,
    refiner: Refiner,
    stack: Vec<Node>,
    /// The first and the best leaf; shared (not copied: the rows are
    /// as large as the graph) while the first is the best.
    first: Option<Rc<Leaf>>,
    best: Option<Rc<Leaf>>,
    /// The traces of the nodes on the stack, one after the other (each
    /// node says where its own is).
    trace: Vec<u64>,
    orbits: Orbits,
    generators: Vec<Vec<u32>>,
    /// Per generator: its fixed points and the smallest vertex of each of
    /// its cycles, for pruning off the first path.
    cycles: Vec<FixedAndLeast>,
    order: GroupOrder,
    /// Buffers of leaf rows, kept between leaves.
    rows: Vec<u32>,
    /// Per place, where its row's next pair goes ([`leaf_rows`]).
    next: Vec<u32>,
}

impl<'g> Search<'g> {
    fn new(g: &'g Prepared, limits: &SearchLimits) -> Self {
        let n = g.vertex_count();
        Search {
            g,
            max_nodes: limits.max_nodes,
            nodes: 0,
            p: Partition::by_colour(&g.colours),
            p_level: 0,
            refiner: Refiner::new(n),
            stack: Vec::new(),
            first: None,
            best: None,
            trace: Vec::new(),
            orbits: Orbits::new(n),
            generators: Vec::new(),
            cycles: Vec::new(),
            order: GroupOrder::Exact(1),
            rows: Vec::new(),
            next: Vec::new(),
        }
    }

    fn count_node(&mut self) -> Result<(), LimitReached> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(LimitReached { nodes: self.nodes });
        }
        Ok(())
    }

    fn run(mut self) -> Result<Outcome, LimitReached> {
        self.refiner
            .refine_all(self.g, &mut self.p, &mut self.trace);
        let trace_at = (0, self.trace.len());
        self.count_node()?;
        match self.p.target_cell(0) {
            None => self.leaf(trace_at, u32::MAX, true, Ordering::Equal),
            Some(target) => {
                let node = self.node(trace_at, u32::MAX, target, true, true, Ordering::Equal);
                self.stack.push(node);
            }
        }
        while let Some(depth) = self.stack.len().checked_sub(1) {
            if self.p_level != depth {
                self.p.restore(depth as u32);
                self.p_level = depth;
            }
            let Some(v) = self.next_child(depth) else {
                self.finish(depth);
                continue;
            };
            if self.stack[depth].on_first {
                self.stack[depth].tried.push(v);
            }
            self.visit_child(depth, v)?;
        }
        self.first = None;
        let best = self.best.expect("a search reaches at least one leaf");
        let best = Rc::try_unwrap(best).unwrap_or_else(|shared| (*shared).clone());
        Ok(Outcome {
            labelling: best.lab,
            automorphisms: Automorphisms {
                generators: self.generators,
                orbits: self.orbits.representatives(),
                order: self.order,
            },
            nodes: self.nodes,
            rows: best.rows,
        })
    }

    fn node(
        &self,
        trace_at: (usize, usize),
        chosen: u32,
        target: u32,
        on_first: bool,
        eq_first: bool,
        cmp_best: Ordering,
    ) -> Node {
        Node {
            trace_at,
            chosen,
            target,
            first_child: self.p.lab[target as usize],
            first_tried: false,
            others: None,
            taken: 0,
            tried: Vec::new(),
            fixing: Vec::new(),
            checked: 0,
            on_first,
            eq_first,
            cmp_best,
        }
    }

    /// The next child of the node at `depth`: its first child, then the
    /// other vertices of the target cell by number; on the first path
    /// only one vertex per orbit of the automorphisms found (all of which
    /// fix the path's vertices).
    fn next_child(&mut self, depth: usize) -> Option<u32> {
        let node = &mut self.stack[depth];
        if !node.first_tried {
            node.first_tried = true;
            return Some(node.first_child);
        }
        if node.others.is_none() {
            let mut others = self.p.cell(node.target).to_vec();
            others.retain(|&w| w != node.first_child);
            others.sort_unstable();
            node.others = Some(others);
        }
        if !node.on_first {
            // Generators found since the last call that fix this node's
            // path (the vertices individualised from the root to it).
            let path = &self.stack[1..=depth];
            let node = &self.stack[depth];
            let newly: Vec<usize> = (node.checked..self.cycles.len())
                .filter(|&g| path.iter().all(|n| self.cycles[g].fixed[n.chosen as usize]))
                .collect();
            let node = &mut self.stack[depth];
            node.fixing.extend(newly);
            node.checked = self.cycles.len();
        }
        let node = &mut self.stack[depth];
        let others = node.others.as_ref().expect("listed above");
        while let Some(&v) = others.get(node.taken) {
            node.taken += 1;
            if !node.on_first {
                let cycles = &self.cycles;
                if node.fixing.iter().all(|&g| cycles[g].least[v as usize]) {
                    return Some(v);
                }
                continue;
            }
            let orbit = self.orbits.find(v);
            if node.tried.iter().all(|&u| self.orbits.find(u) != orbit) {
                return Some(v);
            }
        }
        None
    }

    /// A node all of whose children are done: on the first path, its
    /// index in the stabiliser chain goes into the order.
    fn finish(&mut self, depth: usize) {
        let node = self.stack.pop().expect("finishing the top node");
        if node.on_first {
            let first = self.first.as_ref().expect("the first path ends in a leaf");
            let child = first.path[depth];
            let size = self.orbits.size_within(child, self.p.cell(node.target));
            self.order = self.order.times(size);
        }
    }

    fn visit_child(&mut self, depth: usize, v: u32) -> Result<(), LimitReached> {
        let level = depth as u32 + 1;
        let parent = &self.stack[depth];
        self.trace.truncate(parent.trace_at.1);
        let start = self.trace.len();
        let singleton = self.p.individualise(v, level);
        let on_first = self.first.is_none();
        let mut against = match (&self.first, &self.best) {
            (Some(f), Some(b)) => Against::new(
                parent.eq_first.then(|| f.trace_of(depth + 1)),
                match parent.cmp_best {
                    Ordering::Equal => Ok(b.trace_of(depth + 1)),
                    o => Err(o),
                },
            ),
            _ => Against::nothing(),
        };
        let finished = self.refiner.refine(
            self.g,
            &mut self.p,
            level,
            &[singleton],
            &mut self.trace,
            &mut against,
        );
        let (eq_first, cmp_best) = (against.eq_first, against.cmp_best);
        self.p_level = depth + 1;
        self.count_node()?;
        if !finished {
            return Ok(());
        }
        let trace_at = (start, self.trace.len());
        match self.p.target_cell(self.stack[depth].target) {
            None => self.leaf(trace_at, v, eq_first, cmp_best),
            Some(target) => {
                let node = self.node(trace_at, v, target, on_first, eq_first, cmp_best);
                self.stack.push(node);
            }
        }
        Ok(())
    }

    /// A discrete partition reached by individualising `v` (`u32::MAX` at
    /// the root) below the stack's nodes, with its traces compared to the
    /// first and best leaves' already.
    fn leaf(&mut self, trace_at: (usize, usize), v: u32, eq_first: bool, cmp_best: Ordering) {
        let mut path: Vec<u32> = self.stack.iter().skip(1).map(|n| n.chosen).collect();
        if v != u32::MAX {
            path.push(v);
        }
        let mut rows = std::mem::take(&mut self.rows);
        leaf_rows(self.g, &self.p, &mut rows, &mut self.next);
        let (Some(first), Some(best)) = (self.first.take(), self.best.take()) else {
            let leaf = Rc::new(self.keep(trace_at, path, rows));
            self.first = Some(Rc::clone(&leaf));
            self.best = Some(leaf);
            return;
        };
        // Against the first leaf only for an automorphism; against the
        // best for order too. The rows are built whole and compared after
        // (building them costs no sort, see `leaf_rows`; a leaf that gets
        // here has the traces of the first or the best, and is mostly
        // equivalent to it, so stopping at the first differing row saved
        // little).
        let mut found: Option<(Vec<u32>, usize)> = None;
        let mut new_best = false;
        if eq_first && rows == first.rows {
            found = Some((
                compose(&first.lab, &self.p.lab),
                common_prefix(&path, &first.path),
            ));
        } else if cmp_best != Ordering::Less {
            match cmp_best.then_with(|| rows.cmp(&best.rows)) {
                Ordering::Greater => new_best = true,
                Ordering::Equal => {
                    found = Some((
                        compose(&best.lab, &self.p.lab),
                        common_prefix(&path, &best.path),
                    ));
                }
                Ordering::Less => {}
            }
        }
        self.first = Some(first);
        if new_best {
            for node in &mut self.stack {
                node.cmp_best = Ordering::Equal;
            }
            self.best = Some(Rc::new(self.keep(trace_at, path, rows)));
            return;
        }
        self.best = Some(best);
        self.rows = rows;
        if let Some((gamma, jump)) = found {
            self.add_generator(gamma);
            self.stack.truncate(jump + 1);
        }
    }

    /// The current leaf as a [`Leaf`] with its rows.
    fn keep(&self, last: (usize, usize), path: Vec<u32>, rows: Vec<u32>) -> Leaf {
        let mut trace_at: Vec<(usize, usize)> = self.stack.iter().map(|n| n.trace_at).collect();
        trace_at.push(last);
        Leaf {
            trace: self.trace[..last.1].to_vec(),
            trace_at,
            path,
            lab: self.p.lab.clone(),
            rows,
        }
    }

    fn add_generator(&mut self, gamma: Vec<u32>) {
        if gamma.iter().enumerate().all(|(v, &w)| v as u32 == w) {
            return;
        }
        self.orbits.add_generator(&gamma);
        self.cycles.push(FixedAndLeast::of(&gamma));
        self.generators.push(gamma);
    }
}

/// A permutation's fixed points, and whether each vertex is the smallest
/// of its cycle (nauty's `fix` and `mcr` sets).
#[derive(Debug)]
struct FixedAndLeast {
    fixed: Vec<bool>,
    least: Vec<bool>,
}

impl FixedAndLeast {
    fn of(gamma: &[u32]) -> Self {
        let n = gamma.len();
        let fixed: Vec<bool> = (0..n).map(|v| gamma[v] as usize == v).collect();
        let mut least = vec![false; n];
        let mut seen = vec![false; n];
        for start in 0..n {
            if seen[start] {
                continue;
            }
            // Walking a cycle from its first vertex met in increasing
            // order: that vertex is its smallest.
            least[start] = true;
            let mut v = start;
            while !seen[v] {
                seen[v] = true;
                v = gamma[v] as usize;
            }
        }
        FixedAndLeast { fixed, least }
    }
}

/// The automorphism taking leaf `from`'s labelling to leaf `to`'s: the
/// vertex at each place of `from` to the vertex at that place of `to`.
fn compose(from: &[u32], to: &[u32]) -> Vec<u32> {
    let mut gamma = vec![0; from.len()];
    for (&a, &b) in from.iter().zip(to) {
        gamma[a as usize] = b;
    }
    gamma
}

fn common_prefix(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Writes the graph relabelled by the discrete partition `p` into `rows`:
/// per place, the out-degree and then the places of its heads in
/// increasing order (the order nauty compares leaves in), each followed by
/// the arc's combined colour when the graph has more than one
/// ([`Prepared::arc_colours`]; with one the colours say nothing, and
/// leaving them out halves the rows of an uncoloured graph). The rows are
/// filled by going through the heads in place order and appending each to
/// the rows of its tails, a counting sort in O(n + m) (sorting each row
/// was most of a leaf's cost on dense graphs). `next` is a buffer.
/// [`leaf_rows_plain`] (tests) sorts each row.
fn leaf_rows(g: &Prepared, p: &Partition, rows: &mut Vec<u32>, next: &mut Vec<u32>) {
    let coloured = g.arc_colours();
    let step = if coloured { 2 } else { 1 };
    rows.clear();
    next.clear();
    let mut len = 0;
    for &u in &p.lab {
        next.push(len + 1);
        len += 1 + step * g.out(u).len() as u32;
    }
    rows.resize(len as usize, 0);
    for (place, &u) in p.lab.iter().enumerate() {
        rows[next[place] as usize - 1] = g.out(u).len() as u32;
    }
    for (head_place, &head) in p.lab.iter().enumerate() {
        for &(tail, colour) in g.incoming(head) {
            let row = p.pos[tail as usize] as usize;
            let at = next[row] as usize;
            rows[at] = head_place as u32;
            if coloured {
                rows[at + 1] = colour;
            }
            next[row] += step;
        }
    }
}

/// [`leaf_rows`] the plain way, each row sorted on its own.
#[cfg(test)]
fn leaf_rows_plain(g: &Prepared, p: &Partition) -> Vec<u32> {
    let mut rows = Vec::new();
    for &u in &p.lab {
        let mut row: Vec<(u32, u32)> = g
            .out(u)
            .iter()
            .map(|&(v, c)| (p.pos[v as usize], c))
            .collect();
        row.sort_unstable();
        rows.push(row.len() as u32);
        for (v, c) in row {
            rows.push(v);
            if g.arc_colours() {
                rows.push(c);
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::super::coloured::ColouredGraph;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The rows by counting sort are the rows sorted one by one, for
        /// any numbering of any coloured digraph with repeated arcs.
        #[test]
        fn leaf_rows_agree_with_sorting_each_row(
            (n, arcs, order) in (1usize..12).prop_flat_map(|n| (
                Just(n),
                prop::collection::vec((0..n as u32, 0..n as u32, 0u32..3, any::<bool>()), 0..4 * n),
                Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle(),
            )),
        ) {
            let mut g = ColouredGraph::uncoloured(n);
            for (a, b, c, both) in arcs {
                if both {
                    g.add_edge(a, b, c).unwrap();
                } else {
                    g.add_arc(a, b, c).unwrap();
                }
            }
            let prepared = Prepared::new(&g);
            let mut p = Partition::by_colour(&vec![0; n]);
            for (level, &v) in order.iter().enumerate().take(n - 1) {
                p.individualise(v, level as u32 + 1);
            }
            let (mut rows, mut next) = (Vec::new(), Vec::new());
            leaf_rows(&prepared, &p, &mut rows, &mut next);
            prop_assert_eq!(rows, leaf_rows_plain(&prepared, &p));
        }
    }
}
