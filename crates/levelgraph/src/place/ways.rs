//! Which locks open a way to each zone: per zone, the minimal sets of
//! locks that, once open, let the player walk there from a start zone.
//!
//! Within one phase of key pick-ups the open locks are fixed, so whether a
//! zone is reached is a monotone function of them: the zone is reached
//! exactly when every lock of one of its minimal sets is open. Computing
//! those sets on the zone graph, outside the solver, lets the encoding
//! write each phase's reachability as an OR of ANDs, where unrolling it
//! step by step needs a layer of variables per step (`encode.rs`). The
//! sets are the labels of a label-correcting search as for shortest paths
//! under several criteria (Pareto labels, as in Martins, "On a
//! multicriteria shortest path problem", EJOR 1984), with set inclusion
//! for dominance.
//!
//! A level whose zones need too many sets (many ways round many locks)
//! gets [`TooManyWays`], and the encoding unrolls steps instead.

use std::collections::VecDeque;

use super::zones::Zones;

/// The most minimal lock sets one zone may have before the encoding falls
/// back to unrolling steps. A zone has one set per way round the locks
/// that no other way beats (on a tree of rooms, one); the limit
/// stops the blow-up of many parallel locked ways (2^k sets behind k
/// rungs of two doors each).
pub(crate) const MAX_SETS_PER_ZONE: usize = 32;

/// The most label insertions one search may make (each costs a scan of a
/// zone's sets): about a millisecond of work.
const MAX_INSERTIONS: usize = 100_000;

/// Per zone, its minimal lock sets, each a list of lock indices.
pub(crate) type LockSets = Vec<Vec<Vec<u32>>>;

/// Which limit stopped the search for each zone's minimal lock sets, so
/// that placement unrolled reachability step by step instead
/// ([`super::Placer::unrolled_by`]). The answers are the same either way;
/// only the encoding is larger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TooManyWays {
    /// A zone needed more than 32 sets (`MAX_SETS_PER_ZONE`).
    #[error("a zone needs more than {MAX_SETS_PER_ZONE} minimal lock sets")]
    SetsPerZone,
    /// The search made more than 100,000 label insertions.
    #[error("the lock-set search passed {MAX_INSERTIONS} labels")]
    Insertions,
}

/// A set of locks as a bit set.
#[derive(Clone, Debug, PartialEq, Eq)]
struct LockSet(Vec<u64>);

impl LockSet {
    fn empty(locks: usize) -> LockSet {
        LockSet(vec![0; locks.div_ceil(64).max(1)])
    }

    fn insert(&mut self, lock: u32) {
        self.0[lock as usize / 64] |= 1 << (lock % 64);
    }

    fn union(&self, other: &LockSet) -> LockSet {
        LockSet(self.0.iter().zip(&other.0).map(|(a, b)| a | b).collect())
    }

    fn is_subset(&self, other: &LockSet) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    fn locks(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for (w, &word) in self.0.iter().enumerate() {
            for bit in 0..64 {
                if word & (1 << bit) != 0 {
                    out.push((w * 64 + bit) as u32);
                }
            }
        }
        out
    }
}

/// Per zone of `zones`, the minimal sets of locks (each a list of lock
/// indices, increasing) whose opening gives a walk from zone `start` to
/// it: entering a zone needs its own locks (a locked room's), crossing a
/// link its door's lock. `start` itself needs none. A zone no set opens
/// has none. Sets are listed in the order found, which depends only on
/// the zones (deterministic).
///
/// # Errors
/// [`TooManyWays`] when a zone needs more than [`MAX_SETS_PER_ZONE`] sets
/// or the search outgrows its insertions.
///
/// # Complexity
/// O(links × sets per zone² × locks / 64) per pass; a zone is revisited
/// only when its sets change.
pub(crate) fn minimal_lock_sets(
    zones: &Zones,
    locks: usize,
    start: u32,
) -> Result<LockSets, TooManyWays> {
    let z_count = zones.len();
    // What crossing into each zone by each link costs, by zone left.
    let mut out_links: Vec<Vec<(u32, LockSet)>> = vec![Vec::new(); z_count];
    for link in &zones.links {
        let mut cost = LockSet::empty(locks);
        for &l in &zones.enter_locks[link.to as usize] {
            cost.insert(l);
        }
        if let Some(d) = link.door {
            cost.insert(d);
        }
        out_links[link.from as usize].push((link.to, cost));
    }
    let mut sets: Vec<Vec<LockSet>> = vec![Vec::new(); z_count];
    sets[start as usize].push(LockSet::empty(locks));
    let mut queued = vec![false; z_count];
    let mut queue = VecDeque::from([start]);
    queued[start as usize] = true;
    let mut insertions = 0;
    while let Some(u) = queue.pop_front() {
        queued[u as usize] = false;
        for (to, cost) in &out_links[u as usize] {
            let mut changed = false;
            for i in 0..sets[u as usize].len() {
                let candidate = sets[u as usize][i].union(cost);
                let here = &mut sets[*to as usize];
                if here.iter().any(|s| s.is_subset(&candidate)) {
                    continue;
                }
                here.retain(|s| !candidate.is_subset(s));
                here.push(candidate);
                changed = true;
                insertions += 1;
                if here.len() > MAX_SETS_PER_ZONE {
                    return Err(TooManyWays::SetsPerZone);
                }
                if insertions > MAX_INSERTIONS {
                    return Err(TooManyWays::Insertions);
                }
            }
            if changed && !queued[*to as usize] {
                queued[*to as usize] = true;
                queue.push_back(*to);
            }
        }
    }
    Ok(sets
        .iter()
        .map(|zone| zone.iter().map(LockSet::locks).collect())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::place::zones::Link;

    fn zones(enter_locks: Vec<Vec<u32>>, links: &[(u32, u32, Option<u32>)]) -> Zones {
        let mut all = Vec::new();
        for &(a, b, door) in links {
            all.push(Link {
                from: a,
                to: b,
                door,
            });
            all.push(Link {
                from: b,
                to: a,
                door,
            });
        }
        all.sort_unstable();
        Zones {
            of_place: Vec::new(),
            places: vec![Vec::new(); enter_locks.len()],
            enter_locks,
            links: all,
        }
    }

    #[test]
    fn a_chain_of_locked_rooms_needs_every_lock_before() {
        // 0 -- [1: lock 0] -- 2 -- [3: lock 1]
        let z = zones(
            vec![vec![], vec![0], vec![], vec![1]],
            &[(0, 1, None), (1, 2, None), (2, 3, None)],
        );
        let sets = minimal_lock_sets(&z, 2, 0).unwrap();
        let empty: Vec<u32> = Vec::new();
        assert_eq!(
            sets,
            vec![vec![empty], vec![vec![0]], vec![vec![0]], vec![vec![0, 1]]]
        );
    }

    #[test]
    fn two_ways_round_give_two_sets_and_a_superset_is_dropped() {
        // 0 -[door 0]- 1, 0 -[door 1]- 1, and 0 -[door 0]- 2 -[door 1]- 1.
        let z = zones(
            vec![vec![], vec![], vec![]],
            &[
                (0, 1, Some(0)),
                (0, 1, Some(1)),
                (0, 2, Some(0)),
                (2, 1, Some(1)),
            ],
        );
        let mut sets = minimal_lock_sets(&z, 2, 0).unwrap();
        for zone in &mut sets {
            zone.sort();
        }
        assert_eq!(sets[1], vec![vec![0], vec![1]]);
        // Through 1 by door 1 ({1}), or straight by door 0; {0, 1} is not
        // minimal.
        assert_eq!(sets[2], vec![vec![0], vec![1]]);
    }

    #[test]
    fn an_unlinked_zone_has_no_set() {
        let z = zones(vec![vec![], vec![]], &[]);
        let none: Vec<Vec<u32>> = Vec::new();
        assert_eq!(
            minimal_lock_sets(&z, 0, 0).unwrap(),
            vec![vec![vec![]], none]
        );
    }

    #[test]
    fn many_parallel_ways_stop_at_the_limit() {
        // A ladder of 7 rungs, each crossable by one of two doors: 2^7
        // minimal sets at its top.
        let mut links = Vec::new();
        for i in 0..7u32 {
            links.push((i, i + 1, Some(2 * i)));
            links.push((i, i + 1, Some(2 * i + 1)));
        }
        let z = zones(vec![vec![]; 8], &links);
        assert_eq!(minimal_lock_sets(&z, 14, 0), Err(TooManyWays::SetsPerZone));
    }
}
