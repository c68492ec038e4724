//! Steps 2 and 3: which rooms to join. Random links from each room, then
//! a depth-first search from room 0 that links every unreached room.

use crate::rng::Rng;

/// The buffers [`choose_links`] works in, kept from one map to the next.
#[derive(Default)]
pub(super) struct LinkScratch {
    /// Pairs already linked, one bit per unordered pair.
    seen: Vec<u64>,
    /// The links as adjacency lists in one array: room `r`'s neighbours
    /// are `adjacent[start[r]..start[r + 1]]`.
    start: Vec<usize>,
    next: Vec<usize>,
    adjacent: Vec<usize>,
    reached: Vec<bool>,
    reached_list: Vec<usize>,
    stack: Vec<usize>,
}

/// Steps 2 and 3: `corridors` links from each room to random other
/// rooms (a pair already linked either way is skipped), then every room the
/// links do not reach from room 0 is linked to a random reached room.
/// Writes them to `links`.
pub(super) fn choose_links(
    n: usize,
    corridors: usize,
    rng: &mut Rng,
    scratch: &mut LinkScratch,
    links: &mut Vec<(usize, usize)>,
) {
    links.clear();
    if n < 2 {
        return;
    }
    links.reserve(n * (corridors + 1));
    // Pairs already linked, one bit per unordered pair (a < b).
    let seen = &mut scratch.seen;
    seen.clear();
    seen.resize((n * n).div_ceil(64), 0);
    for a in 0..n {
        for _ in 0..corridors {
            let mut b = rng.below_inlined(n - 1);
            if b >= a {
                b += 1;
            }
            let bit = a.min(b) * n + a.max(b);
            if seen[bit / 64] & (1 << (bit % 64)) == 0 {
                seen[bit / 64] |= 1 << (bit % 64);
                links.push((a, b));
            }
        }
    }
    // The links as adjacency lists in one array (compressed rows).
    let LinkScratch {
        start,
        next,
        adjacent,
        reached,
        reached_list,
        stack,
        ..
    } = scratch;
    start.clear();
    start.resize(n + 1, 0);
    for &(a, b) in links.iter() {
        start[a + 1] += 1;
        start[b + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    next.clear();
    next.extend_from_slice(start);
    adjacent.clear();
    adjacent.resize(start[n], 0);
    for &(a, b) in links.iter() {
        adjacent[next[a]] = b;
        next[a] += 1;
        adjacent[next[b]] = a;
        next[b] += 1;
    }
    reached.clear();
    reached.resize(n, false);
    reached_list.clear();
    stack.clear();
    let mut visit = |first: usize, reached: &mut Vec<bool>, list: &mut Vec<usize>| {
        stack.push(first);
        reached[first] = true;
        while let Some(r) = stack.pop() {
            list.push(r);
            for &s in &adjacent[start[r]..start[r + 1]] {
                if !reached[s] {
                    reached[s] = true;
                    stack.push(s);
                }
            }
        }
    };
    visit(0, reached, reached_list);
    for a in 1..n {
        if !reached[a] {
            let b = reached_list[rng.below_inlined(reached_list.len())];
            links.push((a, b));
            visit(a, reached, reached_list);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_reach_every_room_and_skip_repeated_pairs() {
        let mut rng = Rng::seeded(5);
        let mut scratch = LinkScratch::default();
        for n in 1..12 {
            for corridors in 0..4 {
                let mut links = Vec::new();
                choose_links(n, corridors, &mut rng, &mut scratch, &mut links);
                let mut pairs: Vec<_> = links.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
                assert!(links.iter().all(|&(a, b)| a != b && a < n && b < n));
                let len = pairs.len();
                pairs.sort_unstable();
                pairs.dedup();
                assert_eq!(pairs.len(), len, "a pair linked twice");
                let mut reached = vec![false; n];
                reached[0] = true;
                for _ in 0..n {
                    for &(a, b) in &links {
                        if reached[a] || reached[b] {
                            reached[a] = true;
                            reached[b] = true;
                        }
                    }
                }
                assert!(reached.iter().all(|&r| r), "{n} {links:?}");
            }
        }
    }
}
