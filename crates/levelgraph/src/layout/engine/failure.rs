//! What a failed run says: the chain that failed most and the hints for
//! it, among them a door whose rooms three other paths join (one of them
//! is shut in).

use super::error::{Hint, LimitKind};
use super::paths::{disjoint_path_rooms, has_three_detours};
use super::run::Run;
use super::{LayoutError, Prepared};

impl Run<'_, '_> {
    /// The error of a run that its limits stopped: the counts, the chain
    /// that failed most and the hints for it.
    pub(super) fn failure(&self) -> LayoutError {
        let prep = self.prep;
        let (worst, &failures) = self
            .failures
            .iter()
            .enumerate()
            .max_by_key(|&(i, f)| (*f, usize::MAX - i))
            .expect("at least one chain");
        let names: Vec<String> = prep.chains[worst]
            .iter()
            .map(|&r| prep.problem.rooms[r].name.clone())
            .collect();
        let mut hints = Vec::new();
        let n = prep.problem.rooms.len();
        if n > 60 {
            hints.push(Hint::ManyRooms { rooms: n });
        }
        // A detour with its dead ends ([`nested_detours`]) is no cycle.
        let odd = prep.chains[worst].len() % 2 == 1
            && prep.chains[worst].len() <= 5
            && !prep.nested[worst];
        if odd {
            hints.push(Hint::ShortOddCycle);
        }
        if let Some((u, v, k)) = self.door_with_three_detours(worst) {
            hints.push(prep.shut_in_hint(u, v, k));
        }
        if failures > 0 {
            hints.push(Hint::MeetMoreEasily);
        }
        LayoutError::Limit {
            limit: self.stopped.unwrap_or(LimitKind::Unnamed),
            // The trial that found the limit was not made.
            iterations: self.iterations.min(self.settings.max_iterations),
            backtracks: self.backtracks,
            restarts: self.restarts,
            chain: worst + 1,
            chains: prep.chains.len(),
            chain_rooms: names,
            failures,
            work: self.work.get(),
            hints,
        }
    }

    /// A door `(u, v)` next to chain `c` (one of its rooms is `u` or a
    /// neighbour of `u`) whose rooms are joined by at least three other
    /// paths with no room in common, if any: around the door's wall only
    /// two of the paths can reach the outside, so the third is enclosed,
    /// the case of the level of seed 92 of `tests/data/undirected-dungeon-rooms.lg`
    /// (BENCHMARKS.md). Only asked when a run fails.
    pub(super) fn door_with_three_detours(&self, c: usize) -> Option<(usize, usize, usize)> {
        let prep = self.prep;
        for &r in &prep.chains[c] {
            let near = std::iter::once(r).chain(prep.neighbours[r].iter().map(|&(w, _)| w));
            for u in near {
                for &(v, k) in &prep.neighbours[u] {
                    if has_three_detours(&prep.neighbours, u, v, k) {
                        return Some((u.min(v), u.max(v), k));
                    }
                }
            }
        }
        None
    }
}

impl Prepared<'_> {
    /// The hint for door `k` between rooms `u` and `v`, whose rooms are
    /// also joined by three other paths with no room in common
    /// ([`has_three_detours`]): the paths by name, and the least area the
    /// path that is shut in brings with it. In any layout, the rooms'
    /// doors and centres drawn as a plane graph, one path lies inside the
    /// closed curve of the door and another path `X`, so its rooms, and
    /// every room joined to them other than `u`, `v` and `X`'s, lie in a
    /// hole of the union of `u`, `v` and `X`'s rooms
    /// (`crates/levelgraph/examples/shut_in.rs` proves by enumerating those rings that the
    /// levels of seeds 682 and 685 of `tests/data/undirected-dungeon-rooms.lg` have no
    /// layout). The area is the least, over the choices of `X` and the
    /// path shut in, of the smallest templates' areas of what it brings.
    pub(super) fn shut_in_hint(&self, u: usize, v: usize, k: usize) -> Hint {
        let name = |r: usize| self.problem.rooms[r].name.clone();
        let paths = disjoint_path_rooms(&self.neighbours, u, v, k, 3);
        let smallest = |r: usize| {
            self.room_shapes[r]
                .iter()
                .map(|&s| self.shapes[s as usize].area)
                .min()
                .unwrap_or(0)
        };
        let brought = |path: &[usize], wall: &[usize]| self.brought(u, v, path, wall);
        let mut need: Option<i64> = None;
        let mut all_carry = paths.len() == 3;
        for (i, wall) in paths.iter().enumerate() {
            for (j, path) in paths.iter().enumerate() {
                if i == j {
                    continue;
                }
                let rooms = brought(path, &wall[1..wall.len() - 1]);
                let area: i64 = rooms.iter().map(|&r| smallest(r)).sum();
                need = Some(need.map_or(area, |a| a.min(area)));
            }
        }
        for (i, path) in paths.iter().enumerate() {
            // What hangs off a path when the other two close around it.
            let others: Vec<usize> = paths
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .flat_map(|(_, p)| p[1..p.len() - 1].iter().copied())
                .collect();
            if brought(path, &others).len() <= path.len() - 2 {
                all_carry = false;
            }
        }
        Hint::ShutIn {
            door: [name(u), name(v)],
            paths: paths
                .iter()
                .map(|p| p.iter().map(|&r| name(r)).collect())
                .collect(),
            least_area: need,
            all_carry,
        }
    }

    /// The rooms reachable from `path`'s inner rooms without passing `u`,
    /// `v` or the rooms of `wall` (a breadth-first search, each room
    /// once): what the path brings with it when it is shut in.
    fn brought(&self, u: usize, v: usize, path: &[usize], wall: &[usize]) -> Vec<usize> {
        let mut seen = vec![false; self.neighbours.len()];
        seen[u] = true;
        seen[v] = true;
        for &w in wall {
            seen[w] = true;
        }
        let inner = &path[1..path.len() - 1];
        let mut out: Vec<usize> = Vec::new();
        for &x in inner {
            if !seen[x] {
                seen[x] = true;
                out.push(x);
            }
        }
        let mut i = 0;
        while i < out.len() {
            let x = out[i];
            i += 1;
            for &(w, _) in &self.neighbours[x] {
                if !seen[w] {
                    seen[w] = true;
                    out.push(w);
                }
            }
        }
        out
    }
}
