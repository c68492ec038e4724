//! The automorphism group a search finds: generators, orbits and the
//! exact order.
//!
//! The order is nauty's product of orbit sizes along the first path of the
//! search tree (McKay 1981, theorem 2.34; McKay & Piperno 2014,
//! section 5): the stabiliser chain G ≥ G_{v1} ≥ G_{v1 v2} ≥ … ends in
//! the identity at the first leaf, and |G_{v1…vk} : G_{v1…vk+1}| is the
//! size of v_{k+1}'s orbit under G_{v1…vk}.

use std::fmt;

use crate::union_find::UnionFind;

/// The automorphisms of a coloured graph (permutations of its vertices
/// that keep vertex colours and arcs with their colours).
#[derive(Clone, Debug, PartialEq)]
pub struct Automorphisms {
    /// Permutations that generate the group, each as `image[v]`, in the
    /// order found. Not a minimal set; empty for the trivial group.
    pub generators: Vec<Vec<u32>>,
    /// Per vertex: the smallest vertex of its orbit (two vertices share an
    /// orbit exactly when they have the same entry).
    pub orbits: Vec<u32>,
    /// The group's order.
    pub order: GroupOrder,
}

/// The order of a group: exact while it fits in a `u128` (up to about
/// 3.4 · 10^38; 34! fits, 35! does not).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GroupOrder {
    /// The exact order.
    Exact(u128),
    /// Too large for a `u128`: its decimal logarithm (the product of the
    /// orbit sizes, added as logarithms, so a few digits are exact).
    Overflow {
        /// log10 of the order.
        log10: f64,
    },
}

impl GroupOrder {
    /// The exact order, if it fits.
    pub fn exact(self) -> Option<u128> {
        match self {
            GroupOrder::Exact(n) => Some(n),
            GroupOrder::Overflow { .. } => None,
        }
    }

    /// The order times `factor`, overflowing into a logarithm.
    pub(crate) fn times(self, factor: u64) -> GroupOrder {
        match self {
            GroupOrder::Exact(n) => match n.checked_mul(u128::from(factor)) {
                Some(m) => GroupOrder::Exact(m),
                None => GroupOrder::Overflow {
                    log10: log10_u128(n) + (factor as f64).log10(),
                },
            },
            GroupOrder::Overflow { log10 } => GroupOrder::Overflow {
                log10: log10 + (factor as f64).log10(),
            },
        }
    }
}

/// log10 of `n` from its leading 53 bits (IEEE-exact arithmetic apart from
/// `log10` itself; only shown, never compared).
fn log10_u128(n: u128) -> f64 {
    let shift = (128 - n.leading_zeros()).saturating_sub(53);
    ((n >> shift) as f64).log10() + f64::from(shift) * std::f64::consts::LOG10_2
}

impl fmt::Display for GroupOrder {
    /// `1152`, or `about 8.16e47` when it overflowed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GroupOrder::Exact(n) => write!(f, "{n}"),
            GroupOrder::Overflow { log10 } => {
                let exponent = log10.floor();
                let mantissa = 10f64.powf(log10 - exponent);
                write!(f, "about {mantissa:.2}e{exponent}")
            }
        }
    }
}

/// The orbits of the group generated so far: disjoint sets of vertices
/// with the smallest vertex of each set kept at its root.
#[derive(Debug)]
pub(crate) struct Orbits {
    sets: UnionFind,
    /// Root → the smallest vertex of its set.
    min: Vec<u32>,
}

impl Orbits {
    pub(crate) fn new(n: usize) -> Self {
        Orbits {
            sets: UnionFind::new(n),
            min: (0..n as u32).collect(),
        }
    }

    /// Joins the orbits of `v` and `perm[v]` for every `v`.
    pub(crate) fn add_generator(&mut self, perm: &[u32]) {
        for (v, &w) in perm.iter().enumerate() {
            let (a, b) = (self.sets.find(v), self.sets.find(w as usize));
            if a != b {
                let low = self.min[a].min(self.min[b]);
                let root = self.sets.union(a, b);
                self.min[root] = low;
            }
        }
    }

    /// The orbit of `v`, named by its root (valid until the next
    /// generator).
    pub(crate) fn find(&mut self, v: u32) -> usize {
        self.sets.find(v as usize)
    }

    /// The smallest vertex of `v`'s orbit.
    pub(crate) fn min_of(&mut self, v: u32) -> u32 {
        let root = self.sets.find(v as usize);
        self.min[root]
    }

    /// Per vertex, the smallest vertex of its orbit.
    pub(crate) fn representatives(&mut self) -> Vec<u32> {
        (0..self.min.len() as u32).map(|v| self.min_of(v)).collect()
    }

    /// How many vertices of `cell` share `v`'s orbit.
    pub(crate) fn size_within(&mut self, v: u32, cell: &[u32]) -> u64 {
        let root = self.sets.find(v as usize);
        cell.iter()
            .filter(|&&w| self.sets.find(w as usize) == root)
            .count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_overflow_into_logarithms() {
        let mut order = GroupOrder::Exact(1);
        for k in 1..=34u64 {
            order = order.times(k);
        }
        assert_eq!(order.exact(), Some((1..=34u128).product()));
        let order = order.times(35);
        let GroupOrder::Overflow { log10 } = order else {
            panic!("35! overflows a u128");
        };
        // 35! = 1.0333e40.
        assert!((log10 - 40.0142).abs() < 1e-3, "{log10}");
        assert_eq!(order.to_string(), "about 1.03e40");
        assert_eq!(GroupOrder::Exact(120).to_string(), "120");
    }

    #[test]
    fn orbits_keep_their_smallest_vertex() {
        let mut orbits = Orbits::new(5);
        orbits.add_generator(&[0, 4, 2, 1, 3]);
        assert_eq!(orbits.representatives(), vec![0, 1, 2, 1, 1]);
        assert_eq!(orbits.size_within(4, &[1, 2, 3, 4]), 3);
    }
}
