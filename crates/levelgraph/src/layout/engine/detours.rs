//! The detours of doors with three detours, for the chain order: bare
//! detours moved to chains of their own ([`enclosed_detours_later`]), the
//! chains that are such detours ([`nested_detours`]), and the pendant rooms
//! hanging off the level's cycles ([`pendant_rooms`]).

use super::paths::{disjoint_paths, has_three_detours};

/// `chains` with the rooms of enclosed detours moved to chains of their
/// own, each right after the chain that closes the other detours around
/// its door. A door `(u, v)` whose rooms are also joined by three other
/// paths with no room in common has, in any layout, one of those paths shut
/// in between the door's wall and the others (the level of seed 92 of
/// `tests/data/undirected-dungeon-rooms.lg`, BENCHMARKS.md). A path of rooms with no
/// other neighbours ("bare", dead ends aside: [`bare_detours`]) can be that
/// one; laid out first, as the face order tends to, it takes the room the
/// others need around the door. Laid out last, it goes into the corner the
/// others leave, with the dead ends that hang off it (the one with the
/// fewest is taken).
///
/// When the chain that closes the other detours is itself a detour of up
/// to [`MOST_WRAPPING`] rooms (dead ends aside) and the door's rooms are
/// placed before it, the bare detour goes before that chain instead, right
/// after the door's rooms are placed, and the closing chain is marked in
/// the second result ("wraps"): with [`LayoutSettings::compact_detours`](super::LayoutSettings::compact_detours)
/// the bare detour is tucked into the corner beside the door and the
/// closing chain filled around it ([`Run::add_chain`](super::run::Run::add_chain)), where annealing it
/// first would leave a pocket of the bare detour's size only by chance
/// (level 872 of `tests/data/undirected-dungeon-rooms.lg`: about one placement in a
/// thousand).
pub(super) fn enclosed_detours_later(
    chains: Vec<Vec<usize>>,
    edges: &[[usize; 2]],
    neighbours: &[Vec<(usize, usize)>],
    pendant: &[bool],
) -> (Vec<Vec<usize>>, Vec<bool>) {
    let n = neighbours.len();
    let original = chains.clone();
    let mut chains = chains;
    let mut wraps = vec![false; chains.len()];
    let mut late = vec![false; n];
    for (k, &[u, v]) in edges.iter().enumerate() {
        if !has_three_detours(neighbours, u, v, k) {
            continue;
        }
        // The bare detour from u to v with the fewest dead ends hanging
        // off it, then the shortest, if any.
        let best = bare_detours(neighbours, pendant, u, v, k, &late)
            .into_iter()
            .min_by_key(|p| (hanging(neighbours, pendant, p), p.len()));
        let Some(mut path) = best else {
            continue;
        };
        // The dead ends hanging off it go with it: the detour shut in
        // takes them in with it.
        path.extend(hanging_rooms(neighbours, pendant, &path));
        for &x in &path {
            late[x] = true;
        }
        for chain in &mut chains {
            chain.retain(|x| !path.contains(x));
        }
        let pairs: Vec<(Vec<usize>, bool)> = std::mem::take(&mut chains)
            .into_iter()
            .zip(std::mem::take(&mut wraps))
            .filter(|(c, _)| !c.is_empty())
            .collect();
        (chains, wraps) = pairs.into_iter().unzip();
        let (at, closing, after_door) = closing_chain(&chains, neighbours, u, v, k);
        // A short closing detour can be filled around the bare one; a
        // longer one is annealed, with the bare detour last.
        let closing = closing.filter(|&c| {
            !wraps[c] && chains[c].iter().filter(|&&x| !pendant[x]).count() <= MOST_WRAPPING
        });
        match (closing, after_door) {
            // As soon as the door's rooms are placed: the detours laid out
            // between are annealed around the bare one (level 92, whose
            // only known layout has the three-room detour 4-1-14 round
            // 16-17 and the closing 10-11 beyond: 37 → 40 of 40 layout
            // seeds against the bare detour just before 10-11).
            (Some(c), Some(first)) => {
                chains.insert(first, path);
                wraps.insert(first, false);
                wraps[c + 1] = true;
            }
            _ => {
                chains.insert(at, path);
                wraps.insert(at, false);
            }
        }
    }
    // Every chain after the first must still touch an earlier one (the
    // detour's rooms touch only each other and the door's rooms, so it
    // does; kept as a guard, with the face order as the fallback).
    if !each_touches_an_earlier(&chains, neighbours) {
        let none = vec![false; original.len()];
        return (original, none);
    }
    (chains, wraps)
}

/// Where the bare detour of door `k` between `u` and `v` goes in
/// `chains`: after the first chain at which `u` and `v` are joined by two
/// more paths of placed rooms (else last); that chain, if the door's rooms
/// are placed before it; and the first chain after both of them are.
fn closing_chain(
    chains: &[Vec<usize>],
    neighbours: &[Vec<(usize, usize)>],
    u: usize,
    v: usize,
    k: usize,
) -> (usize, Option<usize>, Option<usize>) {
    let n = neighbours.len();
    // The detour's rooms are in no chain now: no path counted goes
    // through it.
    let mut placed = vec![false; n];
    let mut at = chains.len();
    // The chain that closes the paths, if the door's rooms are placed
    // before it, and the first chain after both of them are.
    let mut closing = None;
    let mut after_door = None;
    for (i, chain) in chains.iter().enumerate() {
        let door_before = placed[u] && placed[v];
        if door_before && after_door.is_none() {
            after_door = Some(i);
        }
        for &x in chain {
            placed[x] = true;
        }
        if placed[u] && placed[v] && disjoint_paths(neighbours, Some(&placed), u, v, k, 2) >= 2 {
            at = i + 1;
            closing = Some(i).filter(|_| door_before);
            break;
        }
    }
    (at, closing, after_door)
}

/// Whether every chain after the first has a room next to a room of an
/// earlier chain.
fn each_touches_an_earlier(chains: &[Vec<usize>], neighbours: &[Vec<(usize, usize)>]) -> bool {
    let mut placed = vec![false; neighbours.len()];
    for (i, chain) in chains.iter().enumerate() {
        let touches = chain
            .iter()
            .any(|&x| neighbours[x].iter().any(|&(w, _)| placed[w]));
        if i > 0 && !touches {
            return false;
        }
        for &x in chain {
            placed[x] = true;
        }
    }
    true
}

/// Per chain, whether all its rooms lie on bare detours of doors with three
/// detours ([`has_three_detours`]) or hang off one, and every pendant room
/// next to them is in the chain too: the detours one of which is shut in by
/// the others in any layout. A bare detour whose dead ends come in later
/// chains is not: its most compact placement would leave them no room
/// (level 872 of `tests/data/undirected-dungeon-rooms.lg`, before its closing detour
/// wrapped, b22827c: 9 of 20 layout seeds otherwise, 0 so).
pub(super) fn nested_detours(
    chains: &[Vec<usize>],
    edges: &[[usize; 2]],
    neighbours: &[Vec<(usize, usize)>],
    pendant: &[bool],
) -> Vec<bool> {
    let n = neighbours.len();
    let mut on = vec![false; n];
    let none = vec![false; n];
    for (k, &[u, v]) in edges.iter().enumerate() {
        if has_three_detours(neighbours, u, v, k) {
            for path in bare_detours(neighbours, pendant, u, v, k, &none) {
                for x in hanging_rooms(neighbours, pendant, &path) {
                    on[x] = true;
                }
                for x in path {
                    on[x] = true;
                }
            }
        }
    }
    chains
        .iter()
        .map(|c| {
            c.iter().any(|&x| !pendant[x])
                && c.iter().all(|&x| {
                    on[x]
                        && neighbours[x]
                            .iter()
                            .all(|&(w, _)| !pendant[w] || c.contains(&w))
                })
        })
        .collect()
}

/// The bare detours of door `k` between `u` and `v`: paths from `u` to `v`
/// through rooms of two neighbours each (none of them `late`), pendant
/// trees not counted ([`pendant_rooms`]), found by following such rooms
/// from each neighbour of `u` (at most n steps each).
pub(super) fn bare_detours(
    neighbours: &[Vec<(usize, usize)>],
    pendant: &[bool],
    u: usize,
    v: usize,
    k: usize,
    late: &[bool],
) -> Vec<Vec<usize>> {
    let n = neighbours.len();
    let degree = |x: usize| neighbours[x].iter().filter(|&&(w, _)| !pendant[w]).count();
    let mut out = Vec::new();
    for &(first, e) in &neighbours[u] {
        if e == k || late[first] || pendant[first] {
            continue;
        }
        let (mut prev, mut at) = (u, first);
        let mut path = Vec::new();
        while degree(at) == 2 && at != v && at != u && path.len() < n {
            path.push(at);
            let next = neighbours[at]
                .iter()
                .map(|&(w, _)| w)
                .find(|&w| w != prev && !pendant[w])
                .unwrap_or(prev);
            (prev, at) = (at, next);
        }
        if at == v && !path.is_empty() && hanging(neighbours, pendant, &path) <= MOST_HANGING {
            out.push(path);
        }
    }
    out
}

/// Most pendant rooms ([`pendant_rooms`]) that may hang off a detour
/// still taken for bare ([`bare_detours`]): the detour that is shut in
/// takes them in with it, so only a few can be.
pub(super) const MOST_HANGING: usize = 3;

/// Most rooms (dead ends aside) of a detour that closes around a bare one
/// and is filled around it ([`enclosed_detours_later`]'s wraps):
/// levels 1399 and 2674 of `tests/data/undirected-dungeon-rooms.lg`, whose closing
/// detours have three rooms, go from 95 / 70 % to 100 / 100 % of 20
/// layout seeds with their fills capped at an annealing's iterations.
pub(super) const MOST_WRAPPING: usize = 3;

/// How many pendant rooms hang off the rooms of `path`.
pub(super) fn hanging(
    neighbours: &[Vec<(usize, usize)>],
    pendant: &[bool],
    path: &[usize],
) -> usize {
    hanging_rooms(neighbours, pendant, path).len()
}

/// The pendant rooms that hang off the rooms of `path`, breadth first (a
/// search through pendant rooms only, each visited once), so that each
/// touches `path` or a room before it.
pub(super) fn hanging_rooms(
    neighbours: &[Vec<(usize, usize)>],
    pendant: &[bool],
    path: &[usize],
) -> Vec<usize> {
    let mut seen = vec![false; neighbours.len()];
    let mut out: Vec<usize> = Vec::new();
    let mut k = 0;
    let mut from: Vec<usize> = path.to_vec();
    while k < from.len() {
        let x = from[k];
        k += 1;
        for &(w, _) in &neighbours[x] {
            if pendant[w] && !seen[w] {
                seen[w] = true;
                out.push(w);
                from.push(w);
            }
        }
    }
    out
}

/// Per room, whether it lies in a pendant tree: removed when rooms of one
/// neighbour are stripped again and again (each room at most once), so not
/// on any cycle nor on a path between two. A pendant room can be placed
/// after the cycle rooms it hangs off, so a detour with a dead end hanging
/// off it (levels 682 and 685 of `tests/data/undirected-dungeon-rooms.lg`: a leaf off
/// each of two of the three detours of a door) is still filled exactly
/// (those two levels have no layout at all, `crates/levelgraph/examples/shut_in.rs`: every
/// detour there carries a room, and no ring of four rooms holds one).
pub(super) fn pendant_rooms(neighbours: &[Vec<(usize, usize)>]) -> Vec<bool> {
    let n = neighbours.len();
    let mut left: Vec<usize> = neighbours.iter().map(Vec::len).collect();
    let mut pendant = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&x| left[x] <= 1).collect();
    while let Some(x) = stack.pop() {
        if pendant[x] {
            continue;
        }
        pendant[x] = true;
        for &(w, _) in &neighbours[x] {
            if !pendant[w] {
                left[w] -= 1;
                if left[w] == 1 {
                    stack.push(w);
                }
            }
        }
    }
    pendant
}
