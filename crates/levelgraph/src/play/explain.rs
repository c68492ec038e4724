//! Why a level cannot be finished: from a fixpoint that did not reach a
//! goal, the barrier in front of it and what keeps that barrier shut — a
//! lock no key opens, a key behind its own lock, keys behind each other's
//! locks, a one-way corridor that points the wrong way, or no corridor at
//! all.
//!
//! Each question is a breadth-first search over places with every lock
//! treated as open (but one, where it asks "without this lock"), so a path
//! it reports is a shortest one in corridors.

use std::collections::VecDeque;

use super::fixpoint::Reach;
use super::level::Level;
use super::{Reason, Wait};

/// The reason goal `goal` (a place) was not reached by `reach`, the
/// fixpoint from `start`.
pub(crate) fn explain(level: &Level, start: u32, reach: &Reach, goal: u32) -> Reason {
    let mut chain = Vec::new();
    barrier(level, start, reach, goal, None, &mut chain)
}

/// What keeps place `target` from being reached, searching with every
/// lock but `without` treated as open; `chain` holds the keys followed so
/// far, each behind the next one's lock.
fn barrier(
    level: &Level,
    start: u32,
    reach: &Reach,
    target: u32,
    without: Option<u32>,
    chain: &mut Vec<Wait>,
) -> Reason {
    let room = level.vertex(target);
    // Callers pass `without` only for a target reachable without it.
    let Some(path) = shortest(level, start, target, without) else {
        return match against_one_way(level, start, target) {
            Some((corridor, path)) => Reason::AgainstOneWay {
                room,
                corridor,
                path: path.iter().map(|&p| level.vertex(p)).collect(),
            },
            None => Reason::Disconnected { room },
        };
    };
    // The first lock on the path that no key reached opens.
    let shut = path.windows(2).find_map(|w| {
        let passage = step_between(level, w[0], w[1], without)?;
        level
            .locks_on(passage, w[1])
            .find(|&l| reach.opener[l as usize].is_none())
    });
    let Some(lock) = shut else {
        // Every lock on a shortest path opens, yet the target was not
        // reached: only a closed `without` could explain it, and the
        // caller handles that; say the place is cut off.
        return Reason::Disconnected { room };
    };
    let what = level.locks[lock as usize].what;
    if let Some(i) = chain.iter().position(|w| w.opens == what) {
        return Reason::KeysBehindEachOther {
            chain: chain[i..].to_vec(),
        };
    }
    let keys = level.keys_of(lock);
    let Some(&first) = keys.first() else {
        return Reason::LockWithoutKey {
            lock: what,
            before: room,
        };
    };
    // A key reachable without its own lock: what stands in its way?
    for &k in &keys {
        let place = level.keys[k as usize].place;
        if shortest(level, start, place, Some(lock)).is_some() {
            chain.push(Wait {
                key: level.keys[k as usize].vertex,
                opens: what,
                behind: what,
            });
            let reason = barrier(level, start, reach, place, Some(lock), chain);
            // The entry's `behind` is the lock the search found next.
            return match reason {
                Reason::KeysBehindEachOther { chain: mut cycle } => {
                    fix_behind(&mut cycle);
                    Reason::KeysBehindEachOther { chain: cycle }
                }
                other => other,
            };
        }
    }
    // Every key of the lock lies behind it (or nowhere reachable).
    let k = &level.keys[first as usize];
    match shortest(level, start, k.place, None) {
        Some(path) => Reason::KeyBehindOwnLock {
            key: k.vertex,
            lock: what,
            path: path.iter().map(|&p| level.vertex(p)).collect(),
        },
        None => barrier(level, start, reach, k.place, None, chain),
    }
}

/// Each entry of a cycle lies behind the lock the next entry opens (the
/// last behind the first's).
fn fix_behind(cycle: &mut [Wait]) {
    let n = cycle.len();
    for i in 0..n {
        cycle[i].behind = cycle[(i + 1) % n].opens;
    }
}

/// A passage that steps from `a` to `b`, not through `without`.
fn step_between(level: &Level, a: u32, b: u32, without: Option<u32>) -> Option<u32> {
    level.out[a as usize]
        .iter()
        .filter(|s| s.to == b)
        .map(|s| s.passage)
        .find(|&p| level.locks_on(p, b).all(|l| Some(l) != without))
}

/// A shortest walk from `from` to `to` (places, both ends included) with
/// every lock open except `without`.
pub(crate) fn shortest(
    level: &Level,
    from: u32,
    to: u32,
    without: Option<u32>,
) -> Option<Vec<u32>> {
    let n = level.places.len();
    let mut parent: Vec<Option<u32>> = vec![None; n];
    let mut seen = vec![false; n];
    seen[from as usize] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        if p == to {
            let mut path = vec![to];
            let mut at = to;
            while let Some(q) = parent[at as usize] {
                path.push(q);
                at = q;
            }
            path.reverse();
            return Some(path);
        }
        for s in &level.out[p as usize] {
            if !seen[s.to as usize] && level.locks_on(s.passage, s.to).all(|l| Some(l) != without) {
                seen[s.to as usize] = true;
                parent[s.to as usize] = Some(p);
                queue.push_back(s.to);
            }
        }
    }
    None
}

/// When `to` can be reached from `from` only by walking some one-way
/// corridor backwards (every lock open): the first such corridor on a
/// walk that takes the fewest of them, and that walk.
fn against_one_way(level: &Level, from: u32, to: u32) -> Option<(crate::graph::EdgeId, Vec<u32>)> {
    if !level.one_way {
        return None;
    }
    // 0-1 breadth-first search: a step along a passage costs 0, a step
    // against a one-way passage 1.
    let n = level.places.len();
    let mut cost = vec![u32::MAX; n];
    let mut parent: Vec<Option<(u32, u32, bool)>> = vec![None; n];
    cost[from as usize] = 0;
    let mut deque = VecDeque::from([from]);
    while let Some(p) = deque.pop_front() {
        let forward = level.out[p as usize].iter().map(|s| (s, false));
        let backward = level.into[p as usize]
            .iter()
            .filter(|s| !level.passages[s.passage as usize].two_way)
            .map(|s| (s, true));
        for (s, against) in forward.chain(backward) {
            let c = cost[p as usize] + u32::from(against);
            if c < cost[s.to as usize] {
                cost[s.to as usize] = c;
                parent[s.to as usize] = Some((p, s.passage, against));
                if against {
                    deque.push_back(s.to);
                } else {
                    deque.push_front(s.to);
                }
            }
        }
    }
    if cost[to as usize] == u32::MAX || cost[to as usize] == 0 {
        return None;
    }
    let mut path = vec![to];
    let mut first_against = None;
    let mut at = to;
    while let Some((q, passage, against)) = parent[at as usize] {
        if against {
            first_against = Some(passage);
        }
        path.push(q);
        at = q;
    }
    path.reverse();
    let passage = first_against?;
    Some((level.passages[passage as usize].edge, path))
}
