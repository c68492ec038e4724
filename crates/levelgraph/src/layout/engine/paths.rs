//! Room-disjoint paths between the two rooms of a door (a unit-capacity
//! flow), and the doors whose rooms three other such paths join.

/// How many paths from room `u` to room `v` that share no room but their
/// ends exist without edge `skip` and through rooms `allowed` (all when
/// `None`), counted up to `most` (augmenting paths of unit room capacity:
/// each room is split into an entry and an exit).
pub(super) fn disjoint_paths(
    neighbours: &[Vec<(usize, usize)>],
    allowed: Option<&[bool]>,
    u: usize,
    v: usize,
    skip: usize,
    most: usize,
) -> usize {
    disjoint_flow(neighbours, allowed, u, v, skip, most).0
}

/// The paths [`disjoint_paths`] counts (up to `most`, without edge
/// `skip`), each as its rooms from `u` to `v`, ends included, in the
/// order of `u`'s neighbours.
pub(super) fn disjoint_path_rooms(
    neighbours: &[Vec<(usize, usize)>],
    u: usize,
    v: usize,
    skip: usize,
    most: usize,
) -> Vec<Vec<usize>> {
    let n = neighbours.len();
    let (_, along) = disjoint_flow(neighbours, None, u, v, skip, most);
    let flows = |a: usize, b: usize| along.get(&(a, b)).copied().unwrap_or(0) > 0;
    let mut out = Vec::new();
    for &(first, k) in &neighbours[u] {
        if k == skip || !flows(u, first) {
            continue;
        }
        let mut path = vec![u, first];
        let mut at = first;
        // A room carries one unit of flow, so it has one way on; at most n
        // steps.
        while at != v && path.len() <= n {
            match neighbours[at]
                .iter()
                .find(|&&(w, k)| k != skip && flows(at, w))
            {
                Some(&(w, _)) => {
                    path.push(w);
                    at = w;
                }
                None => break,
            }
        }
        if at == v {
            out.push(path);
        }
    }
    out
}

/// [`disjoint_paths`]' count and its flow along edges (`(a, b)` → units
/// from `a` to `b`).
pub(super) fn disjoint_flow(
    neighbours: &[Vec<(usize, usize)>],
    allowed: Option<&[bool]>,
    u: usize,
    v: usize,
    skip: usize,
    most: usize,
) -> (usize, std::collections::BTreeMap<(usize, usize), i32>) {
    let n = neighbours.len();
    let ok = |w: usize| w == v || allowed.is_none_or(|a| a[w]);
    // Node 2x is room x's entry, 2x + 1 its exit; flow[(a, b)] on the arcs
    // entry→exit (capacity 1, unlimited at u and v) and exit(a)→entry(b).
    let mut through = vec![0i32; n];
    let mut along: std::collections::BTreeMap<(usize, usize), i32> = Default::default();
    let mut count = 0;
    while count < most {
        // Breadth-first search in the residual graph from exit(u).
        let mut came: Vec<Option<usize>> = vec![None; 2 * n];
        let start = 2 * u + 1;
        came[start] = Some(start);
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(x) = queue.pop_front() {
            let room = x / 2;
            let mut next: Vec<usize> = Vec::new();
            if x % 2 == 1 {
                // From an exit: along an edge to another room's entry, or
                // back through its own room against the flow.
                for &(w, k) in &neighbours[room] {
                    if k != skip && ok(w) && along.get(&(room, w)).copied().unwrap_or(0) < 1 {
                        next.push(2 * w);
                    }
                }
                if room != u && through[room] > 0 {
                    next.push(2 * room);
                }
            } else {
                // From an entry: through the room, or back along an edge
                // that carries flow into it.
                if room == v || through[room] < 1 {
                    next.push(2 * room + 1);
                }
                for &(w, k) in &neighbours[room] {
                    if k != skip && along.get(&(w, room)).copied().unwrap_or(0) > 0 {
                        next.push(2 * w + 1);
                    }
                }
            }
            for y in next {
                if came[y].is_none() {
                    came[y] = Some(x);
                    queue.push_back(y);
                }
            }
        }
        if came[2 * v].is_none() {
            break;
        }
        // Push one unit back from entry(v) to exit(u).
        let mut y = 2 * v;
        while y != start {
            let x = came[y].expect("on the path");
            let (a, b) = (x / 2, y / 2);
            if a == b {
                // Through a room: forward (entry→exit) or back.
                through[a] += if x % 2 == 0 { 1 } else { -1 };
            } else if x % 2 == 1 {
                // exit(a) → entry(b): more flow a→b, or less b→a.
                match along.get_mut(&(b, a)) {
                    Some(f) if *f > 0 => *f -= 1,
                    _ => *along.entry((a, b)).or_insert(0) += 1,
                }
            } else {
                // entry(a) → exit(b): undoing flow b→a.
                *along.entry((b, a)).or_insert(0) -= 1;
            }
            y = x;
        }
        count += 1;
    }
    (count, along)
}

/// Whether the door `k` between rooms `u` and `v` (both of four or more
/// neighbours) is one whose rooms are also joined by three other paths
/// with no room in common: in any layout one of those paths is shut in
/// by the others. Asked by the chain order ([`enclosed_detours_later`](super::detours::enclosed_detours_later))
/// and by a failed run's hints.
pub(super) fn has_three_detours(
    neighbours: &[Vec<(usize, usize)>],
    u: usize,
    v: usize,
    k: usize,
) -> bool {
    neighbours[u].len() >= 4
        && neighbours[v].len() >= 4
        && disjoint_paths(neighbours, None, u, v, k, 3) >= 3
}
