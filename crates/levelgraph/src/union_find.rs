//! Union-find (disjoint sets), the crate's only one: the lint's test that
//! a rule side is connected and the rooms-and-corridors generator's
//! connectivity of rooms and corridors both use it.

/// Disjoint sets of the nodes `0..len()`, each set named by one of its
/// nodes, its root.
///
/// [`UnionFind::find`] halves the path it walks (each node on it is hung
/// from its grandparent) and [`UnionFind::union`] hangs the smaller set
/// under the larger one's root (ties: the second under the first), so a
/// tree stays at most log₂ n deep and a sequence of operations costs
/// nearly constant time each (inverse Ackermann, amortized). Which node is
/// a root depends on the order of unions; callers compare roots, never
/// keep them across a union.
///
/// Nodes are `u32` inside (half the memory of `usize`, for the tile
/// generator's buffers kept between maps) and `usize` at the interface. A
/// value can be reused: [`UnionFind::reset`] keeps its memory.
#[derive(Clone, Debug, Default)]
pub(crate) struct UnionFind {
    /// Per node: its parent, itself at a root.
    parent: Vec<u32>,
    /// Per node: the size of its set, read only at roots.
    size: Vec<u32>,
    /// How many sets there are.
    sets: usize,
}

impl UnionFind {
    /// `n` nodes, each a set of its own.
    pub(crate) fn new(n: usize) -> Self {
        let mut sets = UnionFind::default();
        sets.reset(n);
        sets
    }

    /// Back to `n` nodes, each a set of its own, in the memory already held.
    pub(crate) fn reset(&mut self, n: usize) {
        let n = u32::try_from(n).expect("a union-find has fewer than 2³² nodes");
        self.parent.clear();
        self.parent.extend(0..n);
        self.size.clear();
        self.size.resize(n as usize, 1);
        self.sets = n as usize;
    }

    /// Room for `additional` more nodes without reallocating.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.parent.reserve(additional);
        self.size.reserve(additional);
    }

    /// Adds a node in a set of its own; returns it.
    pub(crate) fn push(&mut self) -> usize {
        let node = self.parent.len();
        let id = u32::try_from(node).expect("a union-find has fewer than 2³² nodes");
        self.parent.push(id);
        self.size.push(1);
        self.sets += 1;
        node
    }

    /// How many nodes there are.
    pub(crate) fn len(&self) -> usize {
        self.parent.len()
    }

    /// How many sets there are.
    pub(crate) fn sets(&self) -> usize {
        self.sets
    }

    /// The root of `node`'s set. Hangs every other node of the path it
    /// walks from its grandparent (path halving).
    pub(crate) fn find(&mut self, node: usize) -> usize {
        let mut n = node;
        loop {
            let up = self.parent[n] as usize;
            if up == n {
                return n;
            }
            let grand = self.parent[up];
            self.parent[n] = grand;
            n = grand as usize;
        }
    }

    /// Merges the sets of `a` and `b` (nothing when they are one); returns
    /// the root of the merged set.
    pub(crate) fn union(&mut self, a: usize, b: usize) -> usize {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        let (root, child) = if self.size[ra] >= self.size[rb] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.parent[child] = root as u32;
        self.size[root] += self.size[child];
        self.sets -= 1;
        root
    }
}

#[cfg(test)]
mod tests {
    use super::UnionFind;
    use proptest::prelude::*;

    /// The plain reference: a set label per node, relabelled by a scan at
    /// each union.
    struct Labels(Vec<usize>);

    impl Labels {
        fn union(&mut self, a: usize, b: usize) {
            let (from, to) = (self.0[b], self.0[a]);
            for label in &mut self.0 {
                if *label == from {
                    *label = to;
                }
            }
        }
    }

    #[test]
    fn nodes_start_alone_and_unions_count_down() {
        let mut sets = UnionFind::new(4);
        assert_eq!((sets.len(), sets.sets()), (4, 4));
        assert_eq!(
            (0..4).map(|n| sets.find(n)).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        let root = sets.union(0, 1);
        assert_eq!((sets.find(0), sets.find(1)), (root, root));
        assert_eq!(sets.union(1, 0), root, "already one set");
        assert_eq!(sets.sets(), 3);
        assert_eq!(sets.push(), 4);
        assert_eq!((sets.len(), sets.sets()), (5, 4));
        sets.union(4, 2);
        sets.union(3, 0);
        assert_eq!(sets.sets(), 2);
        assert_ne!(sets.find(2), sets.find(3));
        sets.reset(2);
        assert_eq!((sets.len(), sets.sets(), sets.find(1)), (2, 2, 1));
    }

    /// The larger set's root stays root, so a chain of unions onto one
    /// node keeps every tree one level deep.
    #[test]
    fn the_smaller_set_goes_under_the_larger() {
        let mut sets = UnionFind::new(100);
        for n in 1..100 {
            sets.union(n, 0);
        }
        assert!((0..100).all(|n| sets.parent[n] == sets.parent[0]));
    }

    proptest! {
        /// After any unions and pushes, two nodes share a root exactly when
        /// the reference gives them one label, and the count of sets is
        /// the count of labels.
        #[test]
        fn agrees_with_relabelling(
            n in 1usize..40,
            ops in prop::collection::vec((0usize..64, 0usize..64, prop::bool::weighted(0.1)), 0..80),
        ) {
            let mut sets = UnionFind::new(n);
            let mut labels = Labels((0..n).collect());
            for (a, b, push) in ops {
                if push {
                    prop_assert_eq!(sets.push(), labels.0.len());
                    labels.0.push(labels.0.len());
                    continue;
                }
                let (a, b) = (a % labels.0.len(), b % labels.0.len());
                let root = sets.union(a, b);
                labels.union(a, b);
                prop_assert_eq!((sets.find(a), sets.find(b)), (root, root));
            }
            let nodes = labels.0.len();
            prop_assert_eq!(sets.len(), nodes);
            for a in 0..nodes {
                for b in 0..nodes {
                    prop_assert_eq!(sets.find(a) == sets.find(b), labels.0[a] == labels.0[b]);
                }
            }
            let mut distinct = labels.0.clone();
            distinct.sort_unstable();
            distinct.dedup();
            prop_assert_eq!(sets.sets(), distinct.len());
        }
    }
}
