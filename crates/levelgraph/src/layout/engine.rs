//! The incremental layout (Ma et al. 2014; Nepožitek's Edgar):
//! a stack of partial layouts; each step pops one and adds the next chain
//! by simulated annealing, pushing every sufficiently different valid
//! extension found; when a chain cannot be added the search backtracks to
//! the next layout on the stack.
//!
//! Energy of a layout (Ma et al. 2014): `E = exp(A / ω) · exp(D / ω) − 1` with
//! `A` the total overlap area of all pairs of parts (plus, beyond Ma et al., a
//! penalty for unjoined rooms nearer than the minimum distance and one room
//! area for each pair that breaks the repeat mode), `D` the sum of squared
//! centre distances of graph neighbours that are not in contact (their relative
//! position is outside their configuration space; at least 1 each, so a room in
//! another's notch with the same centre still counts), and `ω` the average room
//! area. A layout is valid when `E = 0` and every corridor could be placed.
//!
//! Annealing follows Edgar's schedule: the chance of accepting a worse
//! layout falls from 0.2 to 0.01 over the cycles, scaled by the mean
//! worsening accepted so far. The trials per cycle, the extensions kept per
//! chain and the early stop after the last new extension were set by
//! measurement on Edgar's example maps (BENCHMARKS.md).

use super::chains::decompose;
use super::config_space::{corridor_spaces, door_space, ConfigSpace, CorridorDoors, PointBox};
use super::planarity::{planar_embedding, Embedding};
use super::polygon::{GridPoint, Rect};
use super::template::{RepeatMode, Shape};
use super::{Door, Layout, LayoutProblem, PlacedRoom};
use crate::exact::{exp, ln};
use crate::rng::Rng;
use std::time::{Duration, Instant};

/// Limits and tuning of one layout run.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutSettings {
    /// Most perturbations (simulated annealing trials, greedy placements
    /// and the candidates and cuts of an exact fill, see
    /// [`LayoutSettings::exact_detours`], count one each) over the whole
    /// run; Edgar's benchmark protocol uses 1,000,000.
    pub max_iterations: u64,
    /// Wall-clock limit of [`Prepared::run`], if any (breaks determinism
    /// only when it stops a run). Checked every 1,024 iterations, so a run
    /// can overshoot it by that many; building the configuration spaces
    /// ([`Prepared::new`]) is not covered.
    pub time_limit: Option<Duration>,
    /// Annealing cycles per chain (the temperature falls each cycle).
    pub cycles: u32,
    /// Trials per cycle.
    pub trials_per_cycle: u32,
    /// Most valid extensions kept per chain (something to backtrack to).
    pub layouts_per_chain: usize,
    /// Chance that a perturbation changes a room's shape rather than its
    /// position.
    pub shape_change: f64,
    /// Once a chain has one valid extension, stop its annealing after this
    /// many trials in a row find no new one (Edgar's "iterations without
    /// success"): searching on costs more than backtracking does.
    pub trials_without_new: u32,
    /// Start again from nothing after this many failed chains since the
    /// last start, even with layouts left on the stack (0: only when the
    /// stack runs empty, as in Ma et al. 2014). The count allowed grows by half
    /// at each such restart, so a level that needs a long search still
    /// gets one. Not in Ma et al. 2014: on a level of many chains, an early
    /// chain can box in a room that only a much later chain needs, and the
    /// depth-first stack then retries every kept layout of the chains in
    /// between before it gets back there (a 200-room level of
    /// `tests/data/undirected-dungeon-rooms.lg` made 492 backtracks without ever
    /// reaching chain 14 again).
    pub backtracks_per_start: u32,
    /// Chance that a new position of a room (greedy placement or
    /// annealing) is an end of a segment of the intersection of its placed
    /// neighbours' configuration spaces, rather than a uniform point of it.
    /// The ends of a door-to-door segment are where the two rooms share the
    /// least wall, which leaves the corners beside their common wall free
    /// for other rooms: the only layout known of seed 92's level of
    /// `tests/data/undirected-dungeon-rooms.lg` has two rooms that meet at a corner, a
    /// pair of rooms in one inner corner and a loop of three around it. Not
    /// in Ma et al. 2014. Default 0.75, which measured best (BENCHMARKS.md:
    /// 14–35 % fewer iterations on Edgar's example2 maps, more hard levels
    /// laid out); 0 gives the uniform sampling of Ma et al. and draws no extra
    /// random numbers.
    pub contact_bias: f64,
    /// Lay out a chain that is a bare detour of one or two rooms (every
    /// neighbour of its rooms is placed already or in the chain, and one
    /// of them is placed) by exact enumeration instead of annealing: every
    /// shape and every position of the first room in the intersection of
    /// its placed neighbours' configuration spaces, and for each valid one
    /// the same for the second room (against its placed neighbours and the
    /// first room), keeping the first valid extension found. Positions
    /// that overlap a placed room are cut from the space as whole runs
    /// before the exact tests. Iterations: one per cut (a box of the space
    /// cut by a rectangle pair) and one per remaining candidate position
    /// tested. An empty result is then a proof that the partial layout
    /// cannot take the chain (not for a chain that wraps, whose fill is
    /// capped, see [`LayoutSettings::compact_detours`]), so the search
    /// backtracks at once instead of after a full annealing schedule. Not in Ma et al. 2014. Default on: the
    /// level of seed 92 of `tests/data/undirected-dungeon-rooms.lg` is laid out by 46 %
    /// of 300 layout seeds instead of 13 % of 100, Edgar's maps are
    /// unchanged (BENCHMARKS.md). The bare detour of a door with three
    /// detours may also carry the few dead-end rooms that hang off it
    /// (pendant rooms, see [`LayoutSettings::compact_detours`]): they are
    /// filled after its one or two rooms, in the same enumeration.
    pub exact_detours: bool,
    /// With [`LayoutSettings::exact_detours`]: a bare detour of a door
    /// whose rooms are also joined by three other room-disjoint paths is
    /// not given the first placement the exact fill finds but the most
    /// compact one, the smallest box around its rooms and their
    /// neighbours (best first, with branch and bound, over the same
    /// enumeration). One of the three paths is shut in by the others in
    /// any layout; a bare detour tucked into the corner beside the door
    /// leaves the walls beyond it free for the path that must wrap around
    /// it. Not in Ma et al. 2014. Default on: levels 157 and 401 of
    /// `tests/data/undirected-dungeon-rooms.lg` are laid out by 100 and 98 of 100
    /// layout seeds instead of 60 and 63 with the first placement found
    /// (BENCHMARKS.md); Edgar's maps have no such door and are unchanged.
    /// A detour counts as bare here when its rooms have two neighbours
    /// each once the dead ends hanging off the level's cycles are left
    /// out, with at most three such rooms hanging off it; those rooms then
    /// join its chain, so that the corner it is tucked into keeps room for
    /// them (grown level 283 of `tests/data/undirected-dungeon-rooms.lg` at 60 rooms: 0
    /// → 23 of 30 layout seeds; 200 rooms, level 23: failed → laid out).
    /// When the path that closes around the door last is itself a detour
    /// of up to three rooms (dead ends aside), the bare detour is laid out
    /// before it, as soon as the door's rooms are placed (the chain order
    /// does this whatever the settings), and with this setting that
    /// detour is then filled by the same enumeration around it (the first
    /// placement found, its dead ends left to later chains; the fill
    /// stops after `cycles × trials_per_cycle` iterations, what annealing
    /// the chain would get, and then counts as failed): annealed first, it
    /// left a pocket the bare detour fits only about once in a thousand
    /// placements (level 872: 9 → 20 of 20 layout seeds; levels 1670,
    /// 2791, 2796 and 2880 45–80 % → 100 %, 1399 and 2674 95 / 70 % → 100
    /// %; level 92 37 → 40 of 40).
    pub compact_detours: bool,
}

impl Default for LayoutSettings {
    fn default() -> Self {
        Self {
            max_iterations: 1_000_000,
            time_limit: None,
            cycles: 50,
            trials_per_cycle: 25,
            layouts_per_chain: 4,
            shape_change: 0.4,
            trials_without_new: 100,
            backtracks_per_start: 100,
            contact_bias: 0.75,
            exact_detours: true,
            compact_detours: true,
        }
    }
}

/// What a successful run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutStats {
    /// Perturbations made.
    pub iterations: u64,
    /// Times a chain could not be added and the search went back.
    pub backtracks: u64,
    /// Times the search started again from nothing: the stack ran empty,
    /// or [`LayoutSettings::backtracks_per_start`] chains failed since the
    /// last start.
    pub restarts: u64,
    /// Chains in the decomposition.
    pub chains: usize,
    /// Distinct shapes (template × transform) in play.
    pub shapes: usize,
}

/// Why no layout was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The problem itself is wrong.
    #[error("{0}")]
    Problem(String),
    /// The level graph has no planar embedding, so no layout of touching
    /// rooms exists: the planarity test's message (`the graph is not planar
    /// (…)`).
    #[error("{0}: rooms that touch can only make planar graphs")]
    NotPlanar(String),
    /// A limit stopped the search.
    #[error(
        "no layout within {limit}: {iterations} iterations, {backtracks} backtracks, {restarts} restarts; chain {chain} of {chains} ({chain_rooms}) failed most often ({failures} times){hints}"
    )]
    Limit {
        /// Which limit: `max_iterations N` or `time_limit S`.
        limit: String,
        /// Perturbations made.
        iterations: u64,
        /// Backtracks made.
        backtracks: u64,
        /// Fresh starts after the stack ran empty.
        restarts: u64,
        /// The chain that failed most often (1-based).
        chain: usize,
        /// Chains in all.
        chains: usize,
        /// Its rooms, by name.
        chain_rooms: String,
        /// How often it failed.
        failures: u64,
        /// Hints for the user, each on its own line.
        hints: String,
    },
}

/// The shapes, rooms' shape lists and configuration spaces of a problem:
/// built once per problem, reused by every run.
#[derive(Debug)]
pub struct Prepared<'p> {
    problem: &'p LayoutProblem,
    shapes: Vec<Shape>,
    /// Per room, its candidate shapes.
    room_shapes: Vec<Vec<u32>>,
    /// Corridor shapes (indices into `shapes`).
    corridor_shapes: Vec<u32>,
    /// `space[f * s + m]`: positions of shape m relative to shape f for a
    /// graph edge (door to door, or through a corridor).
    space: Vec<ConfigSpace>,
    /// With corridors: the door spaces between rooms and corridors.
    corridor_doors: CorridorDoors,
    neighbours: Vec<Vec<(usize, usize)>>,
    /// `adjacency[a * n + b]`: whether an edge joins `a` and `b`; kept for
    /// up to [`ADJACENCY_ROOMS`] rooms (the energy asks it for every pair).
    adjacency: Option<Vec<bool>>,
    chains: Vec<Vec<usize>>,
    /// Per chain: whether its rooms are a bare detour of a door with three
    /// detours (see [`LayoutSettings::compact_detours`]).
    nested: Vec<bool>,
    /// Per chain: whether it closes around a bare detour laid out before
    /// it (see [`enclosed_detours_later`]), so that it is filled around it
    /// (a detour of up to [`MOST_WRAPPING`] rooms, dead ends aside).
    wraps: Vec<bool>,
    /// Per room: whether it hangs off the level's cycles in a pendant tree
    /// ([`pendant_rooms`]).
    pendant: Vec<bool>,
    /// Average room area (ω).
    omega: f64,
    /// The problem's minimum distance between rooms no edge joins, in
    /// cells; one beyond `i32` (a problem built by hand: grammars refuse
    /// it) is `i32::MAX / 4`, never a wrapped negative.
    min_distance: i32,
    /// The side of a square of area ω, rounded up: the closeness penalty
    /// per unit of missing distance.
    side: i64,
}

impl<'p> Prepared<'p> {
    /// Validates the problem, builds shapes, configuration spaces and
    /// chains.
    ///
    /// # Errors
    /// [`LayoutError::Problem`] for an empty or inconsistent problem, a
    /// disconnected graph or room pairs that can never meet;
    /// [`LayoutError::NotPlanar`].
    pub fn new(problem: &'p LayoutProblem) -> Result<Self, LayoutError> {
        let n = problem.rooms.len();
        let bad = |s: String| Err(LayoutError::Problem(s));
        if n == 0 {
            return bad("no rooms to lay out".into());
        }
        let t = problem.templates.len();
        for r in &problem.rooms {
            if r.templates.is_empty() {
                return bad(format!("room {} has no templates", r.name));
            }
            if let Some(&k) = r.templates.iter().find(|&&k| k >= t) {
                return bad(format!(
                    "room {} uses template {k}, but there are {t}",
                    r.name
                ));
            }
        }
        let mut neighbours = vec![Vec::new(); n];
        for (k, &[a, b]) in problem.edges.iter().enumerate() {
            if a >= n || b >= n || a == b {
                return bad(format!(
                    "edge {k} joins {a} and {b}: not two different rooms of 0..{n}"
                ));
            }
            neighbours[a].push((b, k));
            neighbours[b].push((a, k));
        }
        if !connected(n, &neighbours) {
            return bad(
                "the level graph is not connected: a layout is one connected set of rooms".into(),
            );
        }
        // Shapes: every allowed transform of every template, the same
        // outline-and-doors once.
        let mut shapes: Vec<Shape> = Vec::new();
        let mut of_template: Vec<Vec<u32>> = vec![Vec::new(); t];
        for (i, tpl) in problem.templates.iter().enumerate() {
            for &tr in &tpl.transforms {
                let s = Shape::new(i, tpl, tr);
                let same = shapes
                    .iter()
                    .position(|o| o.template == i && o.outline == s.outline && o.doors == s.doors);
                let k = match same {
                    Some(k) => k as u32,
                    None => {
                        shapes.push(s);
                        (shapes.len() - 1) as u32
                    }
                };
                if !of_template[i].contains(&k) {
                    of_template[i].push(k);
                }
            }
        }
        let room_shapes: Vec<Vec<u32>> = problem
            .rooms
            .iter()
            .map(|r| {
                r.templates
                    .iter()
                    .flat_map(|&k| of_template[k].iter().copied())
                    .collect()
            })
            .collect();
        let corridor_shapes: Vec<u32> = problem
            .corridors
            .as_ref()
            .map(|c| {
                c.templates
                    .iter()
                    .flat_map(|&k| of_template[k].iter().copied())
                    .collect()
            })
            .unwrap_or_default();
        if problem.corridors.is_some() && corridor_shapes.is_empty() {
            return bad("corridors are on but no corridor template is given".into());
        }
        let s = shapes.len();
        let mut in_rooms = vec![false; s];
        for list in &room_shapes {
            for &k in list {
                in_rooms[k as usize] = true;
            }
        }
        let corridors: Vec<Shape> = corridor_shapes
            .iter()
            .map(|&k| shapes[k as usize].clone())
            .collect();
        let (space, corridor_doors) = if problem.corridors.is_some() {
            corridor_spaces(&shapes, &in_rooms, &corridors)
        } else {
            let mut space = vec![ConfigSpace::default(); s * s];
            for f in 0..s {
                for m in 0..s {
                    if !in_rooms[f] || !in_rooms[m] {
                        continue;
                    }
                    space[f * s + m] = if m < f {
                        // The pair the other way round, already computed.
                        space[m * s + f].negated()
                    } else {
                        door_space(&shapes[f], &shapes[m], None)
                    };
                }
            }
            (space, CorridorDoors::default())
        };
        for (k, &[a, b]) in problem.edges.iter().enumerate() {
            let meet = room_shapes[a].iter().any(|&f| {
                room_shapes[b]
                    .iter()
                    .any(|&m| !space[f as usize * s + m as usize].is_empty())
            });
            if !meet {
                return bad(format!(
                    "rooms {} and {} (edge {k}) can never be joined: no door of one meets a door of the other{} (door lengths must be equal)",
                    problem.rooms[a].name,
                    problem.rooms[b].name,
                    if problem.corridors.is_some() { " through a corridor" } else { "" }
                ));
            }
        }
        repeat_feasible(problem)?;
        // A drawing gives the embedding only when it is plane (a
        // geometric derivation's is; a hand-edited one may not be).
        let embedding = match &problem.drawing {
            Some(points) if points.len() == n && plane(&problem.edges, points) => {
                Embedding::from_drawing(n, &problem.edges, points)
            }
            _ => planar_embedding(n, &problem.edges)
                .map_err(|e| LayoutError::NotPlanar(e.to_string()))?,
        };
        let chains = decompose(n, &problem.edges, &embedding);
        let pendant = pendant_rooms(&neighbours);
        let (chains, wraps) = enclosed_detours_later(chains, &problem.edges, &neighbours, &pendant);
        let nested = nested_detours(&chains, &problem.edges, &neighbours, &pendant);
        let omega = room_shapes
            .iter()
            .map(|l| {
                l.iter()
                    .map(|&k| shapes[k as usize].area as f64)
                    .sum::<f64>()
                    / l.len() as f64
            })
            .sum::<f64>()
            / n as f64;
        let adjacency = (n <= ADJACENCY_ROOMS).then(|| {
            let mut m = vec![false; n * n];
            for &[a, b] in &problem.edges {
                m[a * n + b] = true;
                m[b * n + a] = true;
            }
            m
        });
        Ok(Self {
            problem,
            shapes,
            adjacency,
            room_shapes,
            corridor_shapes,
            space,
            corridor_doors,
            neighbours,
            chains,
            nested,
            wraps,
            pendant,
            omega,
            min_distance: i32::try_from(problem.min_distance).unwrap_or(i32::MAX / 4),
            side: omega.sqrt().ceil() as i64,
        })
    }

    /// The chains, as room indices.
    pub fn chains(&self) -> &[Vec<usize>] {
        &self.chains
    }

    /// Runs the layout with `seed`.
    ///
    /// # Errors
    /// [`LayoutError::Limit`] naming the limit, the chain that failed most
    /// and hints.
    pub fn run(
        &self,
        seed: u64,
        settings: &LayoutSettings,
    ) -> Result<(Layout, LayoutStats), LayoutError> {
        Run::new(self, seed, settings).search()
    }

    /// Whether room `r` has a neighbour placed in `partial`.
    fn touches_placed(&self, partial: &Partial, r: usize) -> bool {
        self.neighbours[r]
            .iter()
            .any(|&(w, _)| partial.shape[w] != NONE)
    }

    /// Whether an edge joins rooms `a` and `b`.
    fn joined(&self, a: usize, b: usize) -> bool {
        match &self.adjacency {
            Some(m) => m[a * self.neighbours.len() + b],
            None => self.neighbours[a].iter().any(|&(x, _)| x == b),
        }
    }

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
    fn shut_in_hint(&self, u: usize, v: usize, k: usize) -> String {
        let n = self.neighbours.len();
        let name = |r: usize| self.problem.rooms[r].name.as_str();
        let paths = disjoint_path_rooms(&self.neighbours, u, v, k, 3);
        let smallest = |r: usize| {
            self.room_shapes[r]
                .iter()
                .map(|&s| self.shapes[s as usize].area)
                .min()
                .unwrap_or(0)
        };
        // The rooms reachable from `path`'s inner rooms without passing
        // `u`, `v` or the rooms of `wall` (a breadth-first search, each
        // room once).
        let brought = |path: &[usize], wall: &[usize]| -> Vec<usize> {
            let mut seen = vec![false; n];
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
        };
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
        let listed = paths
            .iter()
            .map(|p| p.iter().map(|&r| name(r)).collect::<Vec<_>>().join("–"))
            .collect::<Vec<_>>()
            .join(", ");
        let need = need
            .map(|a| format!(" (rooms of at least {a} square units with the smallest templates)"))
            .unwrap_or_default();
        let bare = if all_carry {
            ", or leave one of them bare (each has rooms hanging off it)"
        } else {
            ""
        };
        format!(
            "\nhint: rooms {} and {} share a door and are also joined by three other separate paths of rooms ({listed}); in any layout one of those paths is shut in by the door and another path, with every room hanging off it{need}, which these templates may allow rarely or never: join fewer paths around one door{bare}",
            name(u),
            name(v)
        )
    }

    fn space(&self, fixed: u32, moving: u32) -> &ConfigSpace {
        &self.space[fixed as usize * self.shapes.len() + moving as usize]
    }
}

/// Lays out `problem` with `seed`: [`Prepared::new`] then [`Prepared::run`].
///
/// # Errors
/// As those two.
pub fn layout(
    problem: &LayoutProblem,
    seed: u64,
    settings: &LayoutSettings,
) -> Result<(Layout, LayoutStats), LayoutError> {
    Prepared::new(problem)?.run(seed, settings)
}

/// Whether the repeat mode can hold at all: `NoRepeat` needs a different
/// template for every room (a matching of rooms to templates, found by
/// augmenting paths); `NoImmediate` fails when two joined rooms have the
/// same single template.
fn repeat_feasible(problem: &LayoutProblem) -> Result<(), LayoutError> {
    match problem.repeat {
        RepeatMode::Allow => Ok(()),
        RepeatMode::NoImmediate => {
            for &[a, b] in &problem.edges {
                let (ta, tb) = (&problem.rooms[a].templates, &problem.rooms[b].templates);
                if ta.len() == 1 && ta == tb {
                    return Err(LayoutError::Problem(format!(
                        "rooms {} and {} are joined and can only use template `{}`, but the repeat mode is no_immediate",
                        problem.rooms[a].name, problem.rooms[b].name, problem.templates[ta[0]].name
                    )));
                }
            }
            Ok(())
        }
        RepeatMode::NoRepeat => {
            let t = problem.templates.len();
            let mut owner: Vec<Option<usize>> = vec![None; t];
            for r in 0..problem.rooms.len() {
                let mut seen = vec![false; t];
                if !augment(problem, r, &mut owner, &mut seen) {
                    return Err(LayoutError::Problem(format!(
                        "the repeat mode is no_repeat, but the {} rooms cannot all get different templates (room {} is left without one)",
                        problem.rooms.len(),
                        problem.rooms[r].name
                    )));
                }
            }
            Ok(())
        }
    }
}

/// Kuhn's augmenting path from room `r` (depth at most the number of
/// templates, each visited once).
fn augment(
    problem: &LayoutProblem,
    r: usize,
    owner: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for &k in &problem.rooms[r].templates {
        if seen[k] {
            continue;
        }
        seen[k] = true;
        let free = match owner[k] {
            None => true,
            Some(other) => augment(problem, other, owner, seen),
        };
        if free {
            owner[k] = Some(r);
            return true;
        }
    }
    false
}

/// Whether the straight-line drawing `points` of `edges` has no two edges
/// without a common end that meet (O(m²); level graphs are small). Points
/// that are not finite make it not plane.
fn plane(edges: &[[usize; 2]], points: &[[f64; 2]]) -> bool {
    if points.iter().flatten().any(|c| !c.is_finite()) {
        return false;
    }
    for (i, &[a, b]) in edges.iter().enumerate() {
        for &[c, d] in &edges[i + 1..] {
            if a == c || a == d || b == c || b == d {
                continue;
            }
            if crate::plane::segments_cross(points[a], points[b], points[c], points[d]) {
                return false;
            }
        }
    }
    true
}

/// How many paths from room `u` to room `v` that share no room but their
/// ends exist without edge `skip` and through rooms `allowed` (all when
/// `None`), counted up to `most` (augmenting paths of unit room capacity:
/// each room is split into an entry and an exit).
fn disjoint_paths(
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
fn disjoint_path_rooms(
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
fn disjoint_flow(
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
/// by the others. Asked by the chain order ([`enclosed_detours_later`])
/// and by a failed run's hints.
fn has_three_detours(neighbours: &[Vec<(usize, usize)>], u: usize, v: usize, k: usize) -> bool {
    neighbours[u].len() >= 4
        && neighbours[v].len() >= 4
        && disjoint_paths(neighbours, None, u, v, k, 3) >= 3
}

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
/// the second result ("wraps"): with [`LayoutSettings::compact_detours`]
/// the bare detour is tucked into the corner beside the door and the
/// closing chain filled around it ([`Run::add_chain`]), where annealing it
/// first would leave a pocket of the bare detour's size only by chance
/// (level 872 of `tests/data/undirected-dungeon-rooms.lg`: about one placement in a
/// thousand).
fn enclosed_detours_later(
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
        // After the first chain at which u and v are joined by two more
        // paths of placed rooms (not through the detour), else last.
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
            if placed[u] && placed[v] && disjoint_paths(neighbours, Some(&placed), u, v, k, 2) >= 2
            {
                at = i + 1;
                closing = Some(i).filter(|_| door_before);
                break;
            }
        }
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
    let mut placed = vec![false; n];
    for (i, chain) in chains.iter().enumerate() {
        let touches = chain
            .iter()
            .any(|&x| neighbours[x].iter().any(|&(w, _)| placed[w]));
        if i > 0 && !touches {
            let none = vec![false; original.len()];
            return (original, none);
        }
        for &x in chain {
            placed[x] = true;
        }
    }
    (chains, wraps)
}

/// Per chain, whether all its rooms lie on bare detours of doors with three
/// detours ([`has_three_detours`]) or hang off one, and every pendant room
/// next to them is in the chain too: the detours one of which is shut in by
/// the others in any layout. A bare detour whose dead ends come in later
/// chains is not: its most compact placement would leave them no room
/// (level 872 of `tests/data/undirected-dungeon-rooms.lg`, before its closing detour
/// wrapped, b22827c: 9 of 20 layout seeds otherwise, 0 so).
fn nested_detours(
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
fn bare_detours(
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
const MOST_HANGING: usize = 3;

/// Most rooms (dead ends aside) of a detour that closes around a bare one
/// and is filled around it ([`enclosed_detours_later`]'s wraps):
/// levels 1399 and 2674 of `tests/data/undirected-dungeon-rooms.lg`, whose closing
/// detours have three rooms, go from 95 / 70 % to 100 / 100 % of 20
/// layout seeds with their fills capped at an annealing's iterations.
const MOST_WRAPPING: usize = 3;

/// How many pendant rooms hang off the rooms of `path`.
fn hanging(neighbours: &[Vec<(usize, usize)>], pendant: &[bool], path: &[usize]) -> usize {
    hanging_rooms(neighbours, pendant, path).len()
}

/// The pendant rooms that hang off the rooms of `path`, breadth first (a
/// search through pendant rooms only, each visited once), so that each
/// touches `path` or a room before it.
fn hanging_rooms(
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
fn pendant_rooms(neighbours: &[Vec<(usize, usize)>]) -> Vec<bool> {
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

fn connected(n: usize, neighbours: &[Vec<(usize, usize)>]) -> bool {
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(v) = stack.pop() {
        for &(w, _) in &neighbours[v] {
            if !seen[w] {
                seen[w] = true;
                stack.push(w);
            }
        }
    }
    seen.iter().all(|&s| s)
}

const NONE: u32 = u32::MAX;

/// The smallest box holding `a` and the box `b` moved by `p`.
fn hull(a: PointBox, b: Rect, p: GridPoint) -> PointBox {
    PointBox {
        x0: a.x0.min(b.x0 + p.x),
        y0: a.y0.min(b.y0 + p.y),
        x1: a.x1.max(b.x1 + p.x),
        y1: a.y1.max(b.y1 + p.y),
    }
}

/// The area of a box of `hull`s (0 when empty).
fn area(b: PointBox) -> i64 {
    if b.x0 > b.x1 || b.y0 > b.y1 {
        return 0;
    }
    i64::from(b.x1 - b.x0) * i64::from(b.y1 - b.y0)
}

/// A limit ([`LayoutSettings::max_iterations`], [`LayoutSettings::time_limit`])
/// stopped the run.
struct Stopped;

/// Free positions of a room and the placed rooms near enough to matter.
type Positions = Option<(ConfigSpace, Vec<usize>)>;

/// The free positions of the rooms of one exact fill against the rooms
/// placed before it, per room and shape, each computed when first asked
/// ([`Run::base_positions`]): the second room's would otherwise be cut
/// again for every valid position of the first.
struct FillCache {
    /// The layout before the fill.
    before: Partial,
    /// Per room with a placed neighbour: the room, and per shape (in the
    /// order of its shape list) its positions once computed.
    rooms: Vec<(usize, Vec<Option<Positions>>)>,
    /// Beside each of `rooms`: the room, then the fill's first other room
    /// if any, whose reach prunes it whichever goes first (the two must
    /// touch).
    pairs: Vec<([usize; 2], usize)>,
}

impl FillCache {
    fn new(before: &Partial, order: &[usize], prep: &Prepared) -> Self {
        let mut rooms = Vec::new();
        let mut pairs = Vec::new();
        for &r in order {
            if !prep.touches_placed(before, r) {
                continue;
            }
            rooms.push((r, vec![None; prep.room_shapes[r].len()]));
            match order.iter().copied().find(|&x| x != r) {
                Some(next) => pairs.push(([r, next], 2)),
                None => pairs.push(([r, r], 1)),
            }
        }
        Self {
            before: before.clone(),
            rooms,
            pairs,
        }
    }
}

/// Most rooms for which the adjacency is kept as a matrix (16 MiB).
const ADJACENCY_ROOMS: usize = 4096;

/// The energy terms of Ma et al. 2014: overlap area `A` and four times the
/// squared distance `D` (centres are kept doubled, as integers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Terms {
    area: i64,
    distance4: i64,
}

impl Terms {
    fn add(&mut self, o: Terms) {
        self.area += o.area;
        self.distance4 += o.distance4;
    }

    fn sub(&mut self, o: Terms) {
        self.area -= o.area;
        self.distance4 -= o.distance4;
    }
}

/// A partial layout: rooms placed so far (shape NONE: not yet), corridors
/// of the edges whose rooms are both placed, and how many chains it has.
#[derive(Clone, Debug)]
struct Partial {
    shape: Vec<u32>,
    pos: Vec<GridPoint>,
    corridor: Vec<Option<(u32, GridPoint)>>,
    chains_done: usize,
}

struct Run<'a, 'p> {
    prep: &'a Prepared<'p>,
    settings: &'a LayoutSettings,
    rng: Rng,
    iterations: u64,
    backtracks: u64,
    restarts: u64,
    failures: Vec<u64>,
    compact: bool,
    best_score: Option<i64>,
    started: Instant,
    stopped: Option<String>,
    /// The iteration count at which the current wrapping fill stops
    /// (`u64::MAX`: none).
    fill_cap: u64,
}

impl<'a, 'p> Run<'a, 'p> {
    fn new(prep: &'a Prepared<'p>, seed: u64, settings: &'a LayoutSettings) -> Self {
        Self {
            prep,
            settings,
            rng: Rng::seeded(seed),
            iterations: 0,
            backtracks: 0,
            restarts: 0,
            failures: vec![0; prep.chains.len()],
            compact: false,
            best_score: None,
            started: Instant::now(),
            stopped: None,
            fill_cap: u64::MAX,
        }
    }

    fn search(mut self) -> Result<(Layout, LayoutStats), LayoutError> {
        let n = self.prep.problem.rooms.len();
        let empty = Partial {
            shape: vec![NONE; n],
            pos: vec![GridPoint::default(); n],
            corridor: vec![None; self.prep.problem.edges.len()],
            chains_done: 0,
        };
        let mut stack = vec![empty.clone()];
        // Failed chains since the last start, and how many are allowed
        // before the next (see `LayoutSettings::backtracks_per_start`).
        let mut failed_since_start = 0u64;
        let mut allowed = u64::from(self.settings.backtracks_per_start);
        loop {
            if self.stopped.is_some() {
                break;
            }
            if allowed > 0 && failed_since_start >= allowed {
                stack.clear();
                allowed += allowed / 2;
            }
            // Nothing left to backtrack to: start again from nothing (the
            // generator has moved on, so the next try differs).
            let partial = match stack.pop() {
                Some(p) => p,
                None => {
                    self.restarts += 1;
                    failed_since_start = 0;
                    empty.clone()
                }
            };
            let chain = partial.chains_done;
            let mut found = self.add_chain(&partial, chain);
            if found.is_empty() {
                self.failures[chain] += 1;
                self.backtracks += 1;
                failed_since_start += 1;
                continue;
            }
            if chain + 1 == self.prep.chains.len() {
                let best = found.swap_remove(0);
                let stats = LayoutStats {
                    iterations: self.iterations,
                    backtracks: self.backtracks,
                    restarts: self.restarts,
                    chains: self.prep.chains.len(),
                    shapes: self.prep.shapes.len(),
                };
                return Ok((self.finish(&best), stats));
            }
            // The first found is tried first.
            found.reverse();
            stack.extend(found);
        }
        Err(self.failure())
    }

    fn failure(&self) -> LayoutError {
        let prep = self.prep;
        let (worst, &failures) = self
            .failures
            .iter()
            .enumerate()
            .max_by_key(|&(i, f)| (*f, usize::MAX - i))
            .expect("at least one chain");
        let names: Vec<&str> = prep.chains[worst]
            .iter()
            .map(|&r| prep.problem.rooms[r].name.as_str())
            .collect();
        let mut hints = String::new();
        let n = prep.problem.rooms.len();
        if n > 60 {
            hints.push_str(&format!(
                "\nhint: {n} rooms is many for one layout; try fewer or smaller rooms"
            ));
        }
        // A detour with its dead ends ([`nested_detours`]) is no cycle.
        let odd = prep.chains[worst].len() % 2 == 1
            && prep.chains[worst].len() <= 5
            && !prep.nested[worst];
        if odd {
            hints.push_str("\nhint: short odd cycles are hard with rectangular rooms: add room shapes (L, T) or more door positions");
        }
        if let Some((u, v, k)) = self.door_with_three_detours(worst) {
            hints.push_str(&prep.shut_in_hint(u, v, k));
        }
        if failures > 0 {
            hints.push_str("\nhint: more templates, longer sides (more door positions) or equal door lengths make rooms meet more easily");
        }
        LayoutError::Limit {
            limit: self.stopped.clone().unwrap_or_else(|| "its limits".into()),
            // The trial that found the limit was not made.
            iterations: self.iterations.min(self.settings.max_iterations),
            backtracks: self.backtracks,
            restarts: self.restarts,
            chain: worst + 1,
            chains: prep.chains.len(),
            chain_rooms: names.join(", "),
            failures,
            hints,
        }
    }

    /// A door `(u, v)` next to chain `c` (one of its rooms is `u` or a
    /// neighbour of `u`) whose rooms are joined by at least three other
    /// paths with no room in common, if any: around the door's wall only
    /// two of the paths can reach the outside, so the third is enclosed,
    /// the case of the level of seed 92 of `tests/data/undirected-dungeon-rooms.lg`
    /// (BENCHMARKS.md). Only asked when a run fails.
    fn door_with_three_detours(&self, c: usize) -> Option<(usize, usize, usize)> {
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

    /// Counts one iteration; false when a limit says stop.
    fn tick(&mut self) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        self.iterations += 1;
        if self.iterations > self.settings.max_iterations {
            self.stopped = Some(format!("max_iterations {}", self.settings.max_iterations));
            return false;
        }
        if let Some(limit) = self.settings.time_limit {
            if self.iterations % 1024 == 0 && self.started.elapsed() > limit {
                self.stopped = Some(format!("time_limit {:.3} s", limit.as_secs_f64()));
                return false;
            }
        }
        true
    }

    /// [`Run::tick`] for a candidate of an exact fill, which also stops
    /// (without stopping the run) at a wrapping fill's cap, `fill_cap`.
    fn fill_tick(&mut self) -> bool {
        self.tick() && self.iterations <= self.fill_cap
    }

    /// Valid extensions of `partial` by chain `c`, most found first.
    fn add_chain(&mut self, partial: &Partial, c: usize) -> Vec<Partial> {
        let prep = self.prep;
        let chain = &prep.chains[c];
        let mut current = partial.clone();
        current.chains_done = c + 1;
        if self.settings.exact_detours {
            let wraps = self.settings.compact_detours && prep.wraps[c];
            if let Some(order) = self.bare_detour(partial, chain, prep.nested[c], wraps) {
                // One extension: a bare detour's rooms have no neighbours
                // beyond it, so other placements of them matter to later
                // chains only as room taken, and the stack would otherwise
                // retry them all before going back to the chains that box
                // the detour in (grown level 82: 11 % -> 26 % of 300 layout
                // seeds laid out, against 4 kept). A chain that wraps has
                // dead ends in later chains, which its placement does
                // matter to; a failed later chain backtracks to a fill
                // drawn afresh.
                self.compact = self.settings.compact_detours && prep.nested[c];
                self.best_score = None;
                if wraps {
                    // Not a proof wanted here, a placement: a fill of three
                    // rooms can take far longer than annealing the chain,
                    // so it gets the iterations annealing would have.
                    let budget = u64::from(self.settings.cycles.max(1))
                        * u64::from(self.settings.trials_per_cycle);
                    self.fill_cap = self.iterations.saturating_add(budget);
                }
                let out = self.exact_fill(current, chain, &order, 1);
                self.fill_cap = u64::MAX;
                self.compact = false;
                return out;
            }
        }
        self.greedy(&mut current, chain);
        // Every chain room's terms against every placed room, so that a
        // trial computes only the moved room's new terms, not its old ones.
        // The chain's energy terms count each pair with a chain room once:
        // a pair of two chain rooms from its lower room's row.
        let n = current.shape.len();
        let mut slot = vec![usize::MAX; n];
        for (i, &r) in chain.iter().enumerate() {
            slot[r] = i;
        }
        let mut pair = vec![Terms::default(); chain.len() * n];
        let mut own: Vec<Terms> = Vec::with_capacity(chain.len());
        let mut terms = Terms::default();
        for (i, &r) in chain.iter().enumerate() {
            let mut sum = self.corridor_term(&current, r);
            terms.add(sum);
            for w in 0..n {
                if current.shape[w] != NONE && w != r {
                    let t = self.pair_term(&current, r, w);
                    pair[i * n + w] = t;
                    sum.add(t);
                    if slot[w] == usize::MAX || r < w {
                        terms.add(t);
                    }
                }
            }
            own.push(sum);
        }
        let mut row = vec![Terms::default(); n];
        let mut energy = self.energy_of(terms);
        let mut found: Vec<Partial> = Vec::new();
        // Platform-independent ln and exp: a last bit can flip an
        // acceptance, and layouts must be the same bytes everywhere.
        let t0 = -1.0 / ln(0.2);
        let t1 = -1.0 / ln(0.01);
        let cycles = self.settings.cycles.max(1);
        let ratio = exp(ln(t1 / t0) / f64::from(cycles.max(2) - 1));
        let mut temperature = t0;
        let mut delta_average = 0.0f64;
        let mut accepted_worse = 0u64;
        let mut since_new = 0u32;
        'cycles: for _ in 0..cycles {
            for _ in 0..self.settings.trials_per_cycle {
                if found.len() >= self.settings.layouts_per_chain
                    || (!found.is_empty() && since_new >= self.settings.trials_without_new)
                    || !self.tick()
                {
                    break 'cycles;
                }
                since_new = since_new.saturating_add(1);
                // Perturb one room in place: only its pairs change, each
                // counted once in the chain's terms.
                let i = self.rng.below(chain.len());
                let r = chain[i];
                let before = (current.shape[r], current.pos[r]);
                self.perturb(&mut current, r);
                let mut new = self.corridor_term(&current, r);
                for (w, t) in row.iter_mut().enumerate() {
                    if current.shape[w] != NONE && w != r {
                        *t = self.pair_term(&current, r, w);
                        new.add(*t);
                    }
                }
                let mut next_terms = terms;
                next_terms.sub(own[i]);
                next_terms.add(new);
                let e = self.energy_of(next_terms);
                if e == 0.0 {
                    if let Some(done) = self.with_corridors(&current) {
                        if self.different_enough(&done, &found, chain) {
                            found.push(done);
                            since_new = 0;
                        }
                    }
                }
                let delta = e - energy;
                let accept = if delta <= 0.0 {
                    true
                } else {
                    if accepted_worse == 0 {
                        delta_average = delta;
                    }
                    let p = exp(-delta / (delta_average * temperature));
                    self.rng.unit() < p
                };
                if accept {
                    if delta > 0.0 {
                        accepted_worse += 1;
                        delta_average += (delta - delta_average) / accepted_worse as f64;
                    }
                    terms = next_terms;
                    energy = e;
                    // The moved room's row, and its column in the other
                    // chain rooms' rows.
                    own[i] = new;
                    for w in 0..n {
                        if current.shape[w] == NONE || w == r {
                            continue;
                        }
                        pair[i * n + w] = row[w];
                        if slot[w] != usize::MAX {
                            let j = slot[w];
                            own[j].sub(pair[j * n + r]);
                            own[j].add(row[w]);
                            pair[j * n + r] = row[w];
                        }
                    }
                } else {
                    (current.shape[r], current.pos[r]) = before;
                }
            }
            temperature *= ratio;
        }
        found
    }

    /// The chain's rooms in the order [`Run::exact_fill`] places them, when
    /// the chain is a bare detour: one or two rooms, every neighbour of
    /// which is placed or in the chain, the first with a placed neighbour
    /// (and each next one with a placed neighbour or the one before).
    /// With `nested` (the chain is a bare detour of a door with three
    /// detours, [`nested_detours`], which holds every pendant room
    /// ([`pendant_rooms`]) hanging off it), the chain's pendant rooms are
    /// placed after its one or two cycle rooms. With `wraps` (the chain
    /// closes around a bare detour laid out before it,
    /// [`enclosed_detours_later`]), the same, and pendant rooms next to it
    /// may also come in later chains, and it may have up to
    /// [`MOST_WRAPPING`] rooms: the chain is filled around the bare detour
    /// (capped, see [`LayoutSettings::compact_detours`]), and its dead ends
    /// are placed after it.
    fn bare_detour(
        &self,
        partial: &Partial,
        chain: &[usize],
        nested: bool,
        wraps: bool,
    ) -> Option<Vec<usize>> {
        let prep = self.prep;
        // With `nested` or `wraps`, the chain's pendant rooms are placed
        // after its cycle rooms, in chain order (each touches one before
        // it).
        let (core, hung): (Vec<usize>, Vec<usize>) = if nested || wraps {
            chain.iter().partition(|&&r| !prep.pendant[r])
        } else {
            (chain.to_vec(), Vec::new())
        };
        let most = if wraps { MOST_WRAPPING } else { 2 };
        if core.is_empty() || core.len() > most || hung.len() > MOST_HANGING {
            return None;
        }
        let placed = |w: usize| partial.shape[w] != NONE;
        let bare = chain.iter().all(|&r| {
            prep.neighbours[r]
                .iter()
                .all(|&(w, _)| placed(w) || chain.contains(&w) || (wraps && prep.pendant[w]))
        });
        if !bare {
            return None;
        }
        let touches = |r: usize| prep.touches_placed(partial, r);
        let mut order = core;
        if !touches(order[0]) {
            order.reverse();
        }
        if !touches(order[0]) {
            return None;
        }
        for w in order.windows(2) {
            if !touches(w[1]) && !prep.joined(w[0], w[1]) {
                return None;
            }
        }
        for r in hung {
            if !order.iter().any(|&x| prep.joined(x, r)) {
                return None;
            }
            order.push(r);
        }
        Some(order)
    }

    /// Valid extensions of `current` by the bare detour `order` (see
    /// [`LayoutSettings::exact_detours`]), up to `want` sufficiently
    /// different ones:
    /// an exact search, so an empty result means none exists (unless a
    /// limit or a wrapping fill's cap stopped it). Iterations: one per cut
    /// of a room's space by a placed room (see
    /// [`ConfigSpace::without_overlaps`]) and one per candidate position
    /// then tested, for each of its shapes; each later room's once per
    /// valid placement of the rooms before it. Each room's space is cut by
    /// the rooms placed before the fill once per shape ([`FillCache`]);
    /// a later room's is then only intersected with the spaces of the
    /// fill's rooms it is joined to and cut by the fill's rooms. Of two rooms that both touch
    /// placed ones, the one with fewer free positions goes first. Shapes
    /// and starting points are drawn from the run's generator, so that the
    /// extensions kept are not always the same corner of the space. In a
    /// compact fill ([`LayoutSettings::compact_detours`]) the one kept is
    /// the most compact instead, found best first
    /// ([`Run::fill_best_first`]).
    fn exact_fill(
        &mut self,
        mut current: Partial,
        chain: &[usize],
        order: &[usize],
        want: usize,
    ) -> Vec<Partial> {
        let mut found: Vec<Partial> = Vec::new();
        let mut order = order.to_vec();
        let mut cache = FillCache::new(&current, &order, self.prep);
        if let [a, b, ..] = order[..] {
            // The room with fewer free positions first: the second is
            // enumerated once per valid position of the first.
            if self.prep.touches_placed(&current, b) {
                let count = |run: &mut Self, first: &[usize], cache: &mut FillCache| -> u64 {
                    let shapes = run.prep.room_shapes[first[0]].clone();
                    let mut sum = 0;
                    for s in shapes {
                        if let Some((sp, _)) = run.free_positions(&current, first, 0, s, cache) {
                            sum += sp.weight();
                        }
                    }
                    sum
                };
                if count(self, &[b, a], &mut cache) < count(self, &[a, b], &mut cache) {
                    order.swap(0, 1);
                }
            }
        }
        let order = &order[..];
        self.fill_from(&mut current, chain, order, 0, want, &mut found, &mut cache);
        found
    }

    /// [`Run::fill_from`] for a compact fill: the candidates of room
    /// `order[i]` over all its shapes in order of the box they give
    /// (ties in the order of the shuffled shapes and a random start),
    /// tested only while that box can still beat the best placement found:
    /// the box only grows with the rooms still to place, so the rest
    /// cannot (best first, branch and bound).
    #[allow(clippy::too_many_arguments)]
    fn fill_best_first(
        &mut self,
        layout: &mut Partial,
        chain: &[usize],
        order: &[usize],
        i: usize,
        want: usize,
        found: &mut Vec<Partial>,
        cache: &mut FillCache,
        shapes: &[u32],
    ) -> bool {
        let prep = self.prep;
        let r = order[i];
        // The box of everything but this room: each candidate's bound is
        // its hull with the room's box there.
        let others = self.spread_box(layout, chain);
        // Per shape with free positions: the shape and the rooms near it.
        let mut spaces: Vec<(u32, Vec<usize>)> = Vec::new();
        // (bound, index in `spaces`, rank after the random start, the
        // position); the first three are unique, so they fix the order.
        let mut candidates: Vec<(i64, usize, u64, GridPoint)> = Vec::new();
        for &s in shapes {
            let (space, near, start) = match self.shape_positions(layout, order, i, s, cache) {
                Ok(Some(found)) => found,
                Ok(None) => continue,
                Err(Stopped) => return false,
            };
            let w = space.weight();
            let bounds = prep.shapes[s as usize].bounds;
            // The positions in `nth` order, box by box (not `nth` for each:
            // that walks the boxes every time).
            let points = space
                .boxes
                .iter()
                .flat_map(|b| (0..b.count()).map(move |q| b.nth(q)));
            for (j, p) in (0..w).zip(points) {
                let bound = area(hull(others, bounds, p));
                candidates.push((bound, spaces.len(), (j + w - start) % w, p));
            }
            spaces.push((s, near));
        }
        candidates.sort_unstable_by_key(|&(bound, k, rank, _)| (bound, k, rank));
        for (bound, k, _, p) in candidates {
            if self.best_score.is_some_and(|b| bound >= b) {
                break;
            }
            if !self.fill_tick() {
                layout.shape[r] = NONE;
                return false;
            }
            let (s, near) = &spaces[k];
            layout.shape[r] = *s;
            layout.pos[r] = p;
            if !self.fits_here(layout, r, near) {
                continue;
            }
            if !self.fill_from(layout, chain, order, i + 1, want, found, cache) {
                layout.shape[r] = NONE;
                return false;
            }
        }
        layout.shape[r] = NONE;
        true
    }

    /// The area of the box around the rooms of `chain` and their
    /// neighbours placed in `layout`.
    fn spread(&self, layout: &Partial, chain: &[usize]) -> i64 {
        area(self.spread_box(layout, chain))
    }

    /// The box around the rooms of `chain` and their neighbours placed in
    /// `layout` (empty: `x0 > x1`).
    fn spread_box(&self, layout: &Partial, chain: &[usize]) -> PointBox {
        let prep = self.prep;
        let mut out = PointBox {
            x0: i32::MAX,
            y0: i32::MAX,
            x1: i32::MIN,
            y1: i32::MIN,
        };
        for &r in chain {
            let near = std::iter::once(r).chain(prep.neighbours[r].iter().map(|&(w, _)| w));
            for w in near {
                if layout.shape[w] == NONE {
                    continue;
                }
                let (b, p) = (prep.shapes[layout.shape[w] as usize].bounds, layout.pos[w]);
                out = hull(out, b, p);
            }
        }
        out
    }

    /// Places `order[i..]` in every valid way (depth first), pushing the
    /// complete ones to `found`; false once enough are found or a limit
    /// stopped the run, or a wrapping fill's cap (`fill_cap`) was reached
    /// (at most [`MOST_WRAPPING`] + [`MOST_HANGING`] levels deep, each loop
    /// over a room's finite shapes and positions).
    #[allow(clippy::too_many_arguments)]
    fn fill_from(
        &mut self,
        layout: &mut Partial,
        chain: &[usize],
        order: &[usize],
        i: usize,
        want: usize,
        found: &mut Vec<Partial>,
        cache: &mut FillCache,
    ) -> bool {
        let prep = self.prep;
        if i == order.len() {
            if let Some(done) = self.with_corridors(layout) {
                if self.compact {
                    // Keep the most compact placement: the smallest box
                    // around the detour's rooms and their placed neighbours.
                    let score = self.spread(&done, chain);
                    if self.best_score.is_none_or(|b| score < b) {
                        self.best_score = Some(score);
                        found.clear();
                        found.push(done);
                    }
                    return true;
                }
                if self.different_enough(&done, found, chain) {
                    found.push(done);
                }
            }
            return found.len() < want;
        }
        let r = order[i];
        let mut shapes = prep.room_shapes[r].clone();
        for k in (1..shapes.len()).rev() {
            let j = self.rng.below(k + 1);
            shapes.swap(k, j);
        }
        if self.compact {
            return self.fill_best_first(layout, chain, order, i, want, found, cache, &shapes);
        }
        for s in shapes {
            let (space, near, start) = match self.shape_positions(layout, order, i, s, cache) {
                Ok(Some(found)) => found,
                Ok(None) => continue,
                Err(Stopped) => return false,
            };
            let w = space.weight();
            layout.shape[r] = s;
            for j in 0..w {
                if !self.fill_tick() {
                    layout.shape[r] = NONE;
                    return false;
                }
                let p = space.nth((start + j) % w);
                layout.pos[r] = p;
                if !self.fits_here(layout, r, &near) {
                    continue;
                }
                if !self.fill_from(layout, chain, order, i + 1, want, found, cache) {
                    layout.shape[r] = NONE;
                    return false;
                }
            }
            layout.shape[r] = NONE;
        }
        true
    }

    /// [`Run::free_positions`] of room `order[i]` with shape `s`, with a
    /// random starting index into them (so that the placements kept are
    /// not always the same corner of the space); `Ok(None)` when there are
    /// none, `Err(Stopped)` when a limit stopped the run.
    fn shape_positions(
        &mut self,
        layout: &Partial,
        order: &[usize],
        i: usize,
        s: u32,
        cache: &mut FillCache,
    ) -> Result<Option<(ConfigSpace, Vec<usize>, u64)>, Stopped> {
        let Some((space, near)) = self.free_positions(layout, order, i, s, cache) else {
            return if self.stopped.is_some() {
                Err(Stopped)
            } else {
                Ok(None)
            };
        };
        let w = space.weight();
        let start = if w > 1 {
            self.rng.below(w as usize) as u64
        } else {
            0
        };
        Ok(Some((space, near, start)))
    }

    /// Whether room `r`, where `layout` puts it, overlaps nothing and keeps
    /// every distance and contact: the nearby rooms `near` first, then the
    /// exact test against everything (corridors, far rooms), for the few
    /// positions that get that far.
    fn fits_here(&self, layout: &Partial, r: usize, near: &[usize]) -> bool {
        !near
            .iter()
            .any(|&x| self.pair_term(layout, r, x) != Terms::default())
            && self.room_terms(layout, r) == Terms::default()
    }

    /// The positions of room `order[i]` with shape `s` in the intersection
    /// of all its placed neighbours' spaces (a position that misses one is
    /// not valid) that overlap no placed room, with the placed rooms near
    /// enough to matter; None when there are none (or the shape breaks the
    /// repeat mode, or a limit stopped the run). Each cut of the space by a
    /// placed room counts as an iteration.
    fn free_positions(
        &mut self,
        layout: &Partial,
        order: &[usize],
        i: usize,
        s: u32,
        cache: &mut FillCache,
    ) -> Option<(ConfigSpace, Vec<usize>)> {
        let prep = self.prep;
        let r = order[i];
        if !self.repeat_allows(layout, r, s) {
            return None;
        }
        let k = prep.room_shapes[r].iter().position(|&t| t == s)?;
        let Some(at) = cache.rooms.iter().position(|(x, _)| *x == r) else {
            // No placed neighbour before the fill: the fill's rooms only,
            // nothing to cache.
            return self.base_positions(layout, &order[i..], s);
        };
        if cache.rooms[at].1[k].is_none() {
            let (pair, len) = cache.pairs[at];
            let base = self.base_positions(&cache.before, &pair[..len], s);
            if self.stopped.is_some() {
                return None;
            }
            cache.rooms[at].1[k] = Some(base);
        }
        // Against the rooms placed before the fill the space is cut
        // already; only the fill's rooms placed since are left to apply.
        let fresh: Vec<usize> = order[..i]
            .iter()
            .copied()
            .filter(|&w| layout.shape[w] != NONE)
            .collect();
        let mut space: Option<ConfigSpace> = None;
        {
            let (base, _) = cache.rooms[at].1[k].as_ref()?.as_ref()?;
            for &w in &fresh {
                if prep.joined(r, w) {
                    let sp = prep.space(layout.shape[w], s).shifted(layout.pos[w]);
                    space = Some(match space {
                        None => base.intersect(&sp),
                        Some(acc) => acc.intersect(&sp),
                    });
                }
            }
            if space.is_none() {
                space = Some(base.clone());
            }
        }
        let mut space = space?;
        if let Some(near_next) = self.reach_of_next(layout, order, i, s) {
            space = space.intersect(&near_next);
        }
        if space.is_empty() {
            return None;
        }
        let (space, mut close) = self.cut_free(layout, r, s, space, Some(&fresh))?;
        if let Some(Some((_, near))) = &cache.rooms[at].1[k] {
            close.extend(near.iter().copied());
        }
        Some((space, close))
    }

    /// The positions of room `pair[0]` with shape `s` in the intersection
    /// of its placed neighbours' spaces, within reach of `pair[1]` if any
    /// (see [`Run::reach_of_next`]), that overlap no room placed in
    /// `layout`, with the placed rooms near enough to matter; the repeat
    /// mode is not asked (it depends on the fill's other room).
    fn base_positions(
        &mut self,
        layout: &Partial,
        pair: &[usize],
        s: u32,
    ) -> Option<(ConfigSpace, Vec<usize>)> {
        let prep = self.prep;
        let r = pair[0];
        let mut space: Option<ConfigSpace> = None;
        for &(w, _) in &prep.neighbours[r] {
            if layout.shape[w] == NONE || w == r {
                continue;
            }
            let sp = prep.space(layout.shape[w], s).shifted(layout.pos[w]);
            space = Some(match space {
                None => sp,
                Some(acc) => acc.intersect(&sp),
            });
        }
        let mut space = space?;
        if let Some(near_next) = self.reach_of_next(layout, pair, 0, s) {
            space = space.intersect(&near_next);
        }
        self.cut_free(layout, r, s, space, None)
    }

    /// `space` without the positions at which room `r` with shape `s`
    /// overlaps a placed room (of `only`, when given), with the rooms near
    /// enough to matter; None when nothing is left or a limit stopped the
    /// run. Each cut counts as an iteration.
    fn cut_free(
        &mut self,
        layout: &Partial,
        r: usize,
        s: u32,
        space: ConfigSpace,
        only: Option<&[usize]>,
    ) -> Option<(ConfigSpace, Vec<usize>)> {
        let prep = self.prep;
        let reach = space.bounds()?;
        // Rooms that can overlap (or come nearer than the minimum
        // distance to) the room anywhere in the space: their boxes meet
        // the space's box grown by the shape's box. Only these are tested
        // point by point.
        let min = prep.min_distance;
        let shape = &prep.shapes[s as usize];
        let (lo_x, lo_y) = (
            reach.x0 + shape.bounds.x0 - min,
            reach.y0 + shape.bounds.y0 - min,
        );
        let (hi_x, hi_y) = (
            reach.x1 + shape.bounds.x1 + min,
            reach.y1 + shape.bounds.y1 + min,
        );
        let all: Vec<usize>;
        let candidates: &[usize] = match only {
            Some(list) => list,
            None => {
                all = (0..layout.shape.len()).collect();
                &all
            }
        };
        let near: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&w| {
                if w == r || layout.shape[w] == NONE {
                    return false;
                }
                let (b, p) = (prep.shapes[layout.shape[w] as usize].bounds, layout.pos[w]);
                b.x0 + p.x < hi_x && lo_x < b.x1 + p.x && b.y0 + p.y < hi_y && lo_y < b.y1 + p.y
            })
            .collect();
        // The positions that overlap a nearby room go in whole runs (each
        // cut counted as an iteration), so that a room's long walls
        // against placed rooms are not tried point by point.
        let blocking: Vec<(&Shape, GridPoint)> = near
            .iter()
            .map(|&x| (&prep.shapes[layout.shape[x] as usize], layout.pos[x]))
            .collect();
        let (space, cuts) = space.without_overlaps(shape, &blocking);
        for _ in 0..cuts {
            if !self.tick() {
                return None;
            }
        }
        (!space.is_empty()).then_some((space, near))
    }

    /// Where room `order[i]` with shape `s` can be so that the next room
    /// of the fill, when it must touch this one, can also touch its own
    /// placed neighbours: the next room's box (at most `W` wide and `H`
    /// high over its shapes) meets both boxes, so this room's box is at
    /// most `W` across and `H` up or down from each such neighbour's box.
    /// A necessary condition, as one box of positions; None when there is
    /// nothing to prune by (no such neighbour, or corridors, through
    /// which joined rooms do not touch).
    fn reach_of_next(
        &self,
        layout: &Partial,
        order: &[usize],
        i: usize,
        s: u32,
    ) -> Option<ConfigSpace> {
        let prep = self.prep;
        let (r, &next) = (order[i], order.get(i + 1)?);
        // Rooms joined through a corridor do not touch: no prune then.
        if !prep.joined(r, next) || prep.problem.corridors.is_some() {
            return None;
        }
        let (mut wide, mut high) = (0, 0);
        for &t in &prep.room_shapes[next] {
            let b = prep.shapes[t as usize].bounds;
            wide = wide.max(b.x1 - b.x0);
            high = high.max(b.y1 - b.y0);
        }
        let own = prep.shapes[s as usize].bounds;
        let mut area = PointBox {
            x0: i32::MIN / 4,
            y0: i32::MIN / 4,
            x1: i32::MAX / 4,
            y1: i32::MAX / 4,
        };
        let mut any = false;
        for &(w, _) in &prep.neighbours[next] {
            if w == r || layout.shape[w] == NONE {
                continue;
            }
            any = true;
            let (b, p) = (prep.shapes[layout.shape[w] as usize].bounds, layout.pos[w]);
            area = PointBox {
                x0: area.x0.max(b.x0 + p.x - wide - own.x1),
                y0: area.y0.max(b.y0 + p.y - high - own.y1),
                x1: area.x1.min(b.x1 + p.x + wide - own.x0),
                y1: area.y1.min(b.y1 + p.y + high - own.y0),
            };
        }
        if !any {
            return None;
        }
        let boxes = if area.x0 <= area.x1 && area.y0 <= area.y1 {
            vec![area]
        } else {
            Vec::new()
        };
        Some(ConfigSpace { boxes })
    }

    /// Places the chain's rooms one by one in breadth-first order from the
    /// placed rooms, each at the best of a few positions from the maximum
    /// intersection of its placed neighbours' spaces, over its shapes.
    fn greedy(&mut self, layout: &mut Partial, chain: &[usize]) {
        let prep = self.prep;
        let mut order: Vec<usize> = Vec::with_capacity(chain.len());
        let mut queued = vec![false; prep.problem.rooms.len()];
        // Rooms next to placed ones first, then breadth-first.
        for &r in chain {
            if prep.neighbours[r]
                .iter()
                .any(|&(w, _)| layout.shape[w] != NONE)
            {
                order.push(r);
                queued[r] = true;
            }
        }
        if order.is_empty() {
            order.push(chain[0]);
            queued[chain[0]] = true;
        }
        let mut k = 0;
        while k < order.len() {
            let v = order[k];
            for &(w, _) in &prep.neighbours[v] {
                if !queued[w] && chain.contains(&w) {
                    queued[w] = true;
                    order.push(w);
                }
            }
            k += 1;
        }
        for &r in chain {
            if !queued[r] {
                order.push(r);
            }
        }
        for &r in &order {
            let mut best: Option<(f64, u32, GridPoint)> = None;
            let shapes = prep.room_shapes[r].clone();
            for &s in &shapes {
                if !self.repeat_allows(layout, r, s) {
                    continue;
                }
                for _ in 0..4 {
                    if !self.tick() {
                        break;
                    }
                    let Some(p) = self.sample_position(layout, r, s) else {
                        break;
                    };
                    layout.shape[r] = s;
                    layout.pos[r] = p;
                    let e = self.room_energy(layout, r);
                    if !matches!(best, Some((b, _, _)) if b <= e) {
                        best = Some((e, s, p));
                    }
                }
            }
            let (s, p) = match best {
                Some((_, s, p)) => (s, p),
                None => (shapes[self.rng.below(shapes.len())], GridPoint::default()),
            };
            layout.shape[r] = s;
            layout.pos[r] = p;
        }
    }

    /// A position for room `r` with shape `s`: a random point of the largest
    /// non-empty intersection of its placed neighbours' spaces, or with
    /// chance [`LayoutSettings::contact_bias`] an end of that point's
    /// segment (None when it has no placed neighbour: then the origin, or
    /// when every space is empty).
    fn sample_position(&mut self, layout: &Partial, r: usize, s: u32) -> Option<GridPoint> {
        let prep = self.prep;
        let spaces: Vec<ConfigSpace> = prep.neighbours[r]
            .iter()
            .filter(|&&(w, _)| layout.shape[w] != NONE && w != r)
            .map(|&(w, _)| prep.space(layout.shape[w], s).shifted(layout.pos[w]))
            .filter(|sp| !sp.is_empty())
            .collect();
        if spaces.is_empty() {
            let placed_any = prep.neighbours[r]
                .iter()
                .any(|&(w, _)| layout.shape[w] != NONE);
            return (!placed_any).then_some(GridPoint::default());
        }
        let space = self.maximum_intersection(&spaces);
        let w = space.weight();
        if w == 0 {
            return None;
        }
        let k = ((self.rng.unit() * w as f64) as u64).min(w - 1);
        // The segment of a uniform point, so that long segments are still
        // chosen more often; then one of its ends (see `contact_bias`).
        let bias = self.settings.contact_bias;
        if bias > 0.0 && self.rng.unit() < bias {
            return Some(space.end_of_nth(k, self.rng.below(2) == 1));
        }
        Some(space.nth(k))
    }

    /// The intersection of as many of `spaces` as possible (largest subsets
    /// first; among subsets of one size, a random one that is not empty).
    fn maximum_intersection(&mut self, spaces: &[ConfigSpace]) -> ConfigSpace {
        let k = spaces.len();
        if k == 1 {
            return spaces[0].clone();
        }
        let all = spaces[1..]
            .iter()
            .fold(spaces[0].clone(), |acc, s| acc.intersect(s));
        if !all.is_empty() || k > 6 {
            if all.is_empty() {
                return spaces[self.rng.below(k)].clone();
            }
            return all;
        }
        for size in (1..k).rev() {
            let mut options: Vec<ConfigSpace> = Vec::new();
            for mask in 1u32..(1 << k) {
                if mask.count_ones() as usize != size {
                    continue;
                }
                let mut acc: Option<ConfigSpace> = None;
                for (i, s) in spaces.iter().enumerate() {
                    if mask & (1 << i) != 0 {
                        acc = Some(match acc {
                            None => s.clone(),
                            Some(a) => a.intersect(s),
                        });
                    }
                }
                if let Some(a) = acc.filter(|a| !a.is_empty()) {
                    options.push(a);
                }
            }
            if !options.is_empty() {
                let i = self.rng.below(options.len());
                return options.swap_remove(i);
            }
        }
        ConfigSpace::default()
    }

    /// Whether shapes `a` and `b` of two rooms (joined by an edge or not)
    /// break the repeat mode.
    fn repeats(&self, a: u32, b: u32, joined: bool) -> bool {
        let prep = self.prep;
        let same = prep.shapes[a as usize].template == prep.shapes[b as usize].template;
        match prep.problem.repeat {
            RepeatMode::Allow => false,
            RepeatMode::NoImmediate => same && joined,
            RepeatMode::NoRepeat => same,
        }
    }

    fn repeat_allows(&self, layout: &Partial, r: usize, s: u32) -> bool {
        let prep = self.prep;
        let template = prep.shapes[s as usize].template;
        let same = |w: usize| {
            layout.shape[w] != NONE && prep.shapes[layout.shape[w] as usize].template == template
        };
        match prep.problem.repeat {
            RepeatMode::Allow => true,
            RepeatMode::NoImmediate => !prep.neighbours[r].iter().any(|&(w, _)| same(w)),
            RepeatMode::NoRepeat => !(0..layout.shape.len()).any(|w| w != r && same(w)),
        }
    }

    /// Changes room `r`: its shape (keeping its position), or its
    /// position (from its neighbours' spaces).
    fn perturb(&mut self, layout: &mut Partial, r: usize) {
        let prep = self.prep;
        let shapes = &prep.room_shapes[r];
        if shapes.len() > 1 && self.rng.unit() < self.settings.shape_change {
            let s = shapes[self.rng.below(shapes.len())];
            if self.repeat_allows(layout, r, s) {
                layout.shape[r] = s;
                return;
            }
        }
        if let Some(p) = self.sample_position(layout, r, layout.shape[r]) {
            layout.pos[r] = p;
        }
    }

    /// `exp(A / ω) · exp(D / ω) − 1`, exactly 0 when both terms are.
    fn energy_of(&self, t: Terms) -> f64 {
        if t.area == 0 && t.distance4 == 0 {
            return 0.0;
        }
        // exp(A/ω)·exp(D/ω) as one exponential.
        let omega = self.prep.omega;
        exp((t.area as f64 + t.distance4 as f64 / 4.0) / omega) - 1.0
    }

    /// The energy of room `r` against every other placed part.
    fn room_energy(&self, layout: &Partial, r: usize) -> f64 {
        self.energy_of(self.room_terms(layout, r))
    }

    /// The terms of room `r` against every other placed room and against
    /// placed corridors of edges not at `r` (see [`Run::pair_term`] and
    /// [`Run::corridor_term`]). Integers, so that adding and taking away a
    /// room's terms is exact.
    fn room_terms(&self, layout: &Partial, r: usize) -> Terms {
        let mut t = self.corridor_term(layout, r);
        for w in 0..layout.shape.len() {
            if layout.shape[w] != NONE && w != r {
                t.add(self.pair_term(layout, r, w));
            }
        }
        t
    }

    /// The terms of placed rooms `r` and `w` (symmetric): overlap area,
    /// plus for unjoined rooms nearer than the minimum distance the
    /// shortfall times a room side, plus a room's area for a template the
    /// repeat mode forbids; and for joined rooms not in contact four times
    /// their squared centre distance (plus 4).
    fn pair_term(&self, layout: &Partial, r: usize, w: usize) -> Terms {
        let prep = self.prep;
        let (sr, pr) = (layout.shape[r], layout.pos[r]);
        let (sw, pw) = (layout.shape[w], layout.pos[w]);
        let (shape, other_shape) = (&prep.shapes[sr as usize], &prep.shapes[sw as usize]);
        let min = prep.min_distance;
        let joined = prep.joined(r, w);
        let overlap = shape.overlap(pr, other_shape, pw);
        let mut t = Terms {
            area: overlap,
            distance4: 0,
        };
        if self.repeats(sr, sw, joined) {
            // Not a term of Ma et al. 2014: makes the annealing change the
            // shape of a room that repeats a template where the repeat mode
            // forbids it.
            t.area += prep.side * prep.side;
        }
        if joined {
            if !prep.space(sw, sr).contains(pr - pw) {
                let c1 = shape.centre2 + pr + pr;
                let c2 = other_shape.centre2 + pw + pw;
                let (dx, dy) = (i64::from(c1.x - c2.x), i64::from(c1.y - c2.y));
                // +4 (one unit of D): two rooms out of contact with the same
                // centre (one in the other's notch) still count.
                t.distance4 = dx * dx + dy * dy + 4;
            }
        } else if min > 0 && overlap == 0 {
            let gap = shape.gap(pr, other_shape, pw);
            if gap < min {
                t.area += i64::from(min - gap) * prep.side;
            }
        }
        t
    }

    /// The overlap of room `r` with the placed corridors of edges not at
    /// `r`.
    fn corridor_term(&self, layout: &Partial, r: usize) -> Terms {
        let prep = self.prep;
        let shape = &prep.shapes[layout.shape[r] as usize];
        let mut t = Terms::default();
        for (k, c) in layout.corridor.iter().enumerate() {
            let Some((cs, cp)) = *c else { continue };
            let [a, b] = prep.problem.edges[k];
            if a != r && b != r {
                t.area += shape.overlap(layout.pos[r], &prep.shapes[cs as usize], cp);
            }
        }
        t
    }

    /// The layout with a corridor placed greedily for every edge whose rooms
    /// are both placed and that has none yet; None when one cannot be
    /// placed. Without corridors, the layout itself.
    fn with_corridors(&mut self, layout: &Partial) -> Option<Partial> {
        let prep = self.prep;
        if prep.problem.corridors.is_none() {
            return Some(layout.clone());
        }
        let mut out = layout.clone();
        for (k, &[a, b]) in prep.problem.edges.iter().enumerate() {
            if out.corridor[k].is_some() || out.shape[a] == NONE || out.shape[b] == NONE {
                continue;
            }
            let placed = self.place_corridor(&out, k)?;
            out.corridor[k] = Some(placed);
        }
        Some(out)
    }

    /// A corridor for edge `k`: some corridor shape and position whose two
    /// doors meet the two rooms and that overlaps no room or corridor.
    fn place_corridor(&self, layout: &Partial, k: usize) -> Option<(u32, GridPoint)> {
        let prep = self.prep;
        let [a, b] = prep.problem.edges[k];
        let (sa, pa, sb, pb) = (
            layout.shape[a],
            layout.pos[a],
            layout.shape[b],
            layout.pos[b],
        );
        for (ci, &c) in prep.corridor_shapes.iter().enumerate() {
            let cshape = &prep.shapes[c as usize];
            for i in 0..cshape.doors.len() {
                let near = prep.corridor_doors.near(sa as usize, ci, i).shifted(pa);
                for j in 0..cshape.doors.len() {
                    if j == i {
                        continue;
                    }
                    // b relative to the corridor by its door j; corridor
                    // positions are then pb − that.
                    let far = prep
                        .corridor_doors
                        .far(ci, j, sb as usize)
                        .negated()
                        .shifted(pb);
                    let both = near.intersect(&far);
                    for q in 0..both.weight() {
                        let p = both.nth(q);
                        if self.corridor_fits(layout, cshape, p) {
                            return Some((c, p));
                        }
                    }
                }
            }
        }
        None
    }

    fn corridor_fits(&self, layout: &Partial, cshape: &Shape, p: GridPoint) -> bool {
        let prep = self.prep;
        for w in 0..layout.shape.len() {
            let sw = layout.shape[w];
            if sw != NONE && cshape.overlap(p, &prep.shapes[sw as usize], layout.pos[w]) > 0 {
                return false;
            }
        }
        layout
            .corridor
            .iter()
            .flatten()
            .all(|&(cs, cp)| cshape.overlap(p, &prep.shapes[cs as usize], cp) == 0)
    }

    /// Whether `layout` differs from every one in `found` by more than a
    /// fraction of a room's size on average over the chain.
    fn different_enough(&self, layout: &Partial, found: &[Partial], chain: &[usize]) -> bool {
        let side = self.prep.omega.sqrt();
        found.iter().all(|f| {
            let mut sum = 0.0;
            for &r in chain {
                let d = layout.pos[r] - f.pos[r];
                sum += f64::from(d.x.abs() + d.y.abs());
                if layout.shape[r] != f.shape[r] {
                    sum += side;
                }
            }
            sum / chain.len() as f64 > 0.4 * side
        })
    }

    /// The finished layout's output form.
    fn finish(&self, best: &Partial) -> Layout {
        let prep = self.prep;
        let placed = |s: u32, p: GridPoint| {
            let shape = &prep.shapes[s as usize];
            PlacedRoom {
                template: shape.template,
                transform: shape.transform,
                position: p,
                outline: shape.outline.points().iter().map(|&q| q + p).collect(),
            }
        };
        let rooms: Vec<PlacedRoom> = (0..best.shape.len())
            .map(|r| placed(best.shape[r], best.pos[r]))
            .collect();
        let mut doors = Vec::new();
        let mut corridors = Vec::new();
        for (k, &[a, b]) in prep.problem.edges.iter().enumerate() {
            let (sa, pa, sb, pb) = (best.shape[a], best.pos[a], best.shape[b], best.pos[b]);
            match best.corridor[k] {
                None => {
                    if let Some(segment) =
                        door_between(&prep.shapes[sa as usize], pa, &prep.shapes[sb as usize], pb)
                    {
                        doors.push(Door {
                            edge: k,
                            room: a,
                            corridor: None,
                            segment,
                        });
                    }
                }
                Some((c, pc)) => {
                    let cshape = &prep.shapes[c as usize];
                    for (room, s, p) in [(a, sa, pa), (b, sb, pb)] {
                        if let Some(segment) = door_between(&prep.shapes[s as usize], p, cshape, pc)
                        {
                            doors.push(Door {
                                edge: k,
                                room,
                                corridor: Some(corridors.len()),
                                segment,
                            });
                        }
                    }
                    corridors.push(placed(c, pc));
                }
            }
        }
        Layout {
            rooms,
            doors,
            corridors,
        }
    }
}

/// A door segment shared by shape `a` at `pa` and shape `b` at `pb`: the
/// middle one of the positions both door lines allow.
fn door_between(a: &Shape, pa: GridPoint, b: &Shape, pb: GridPoint) -> Option<[GridPoint; 2]> {
    let mut options: Vec<[GridPoint; 2]> = Vec::new();
    for da in &a.doors {
        for db in &b.doors {
            if da.normal.x != -db.normal.x || da.normal.y != -db.normal.y || da.length != db.length
            {
                continue;
            }
            let sa = da.start + pa;
            let sb = db.start + pb;
            let axis = da.axis;
            // Same line across the axis?
            let across = |p: GridPoint| p.x * axis.y + p.y * axis.x;
            if across(sa) != across(sb) {
                continue;
            }
            let along = |p: GridPoint| p.x * axis.x + p.y * axis.y;
            let lo = along(sa).max(along(sb));
            let hi = (along(sa) + da.extra as i32).min(along(sb) + db.extra as i32);
            if lo > hi {
                continue;
            }
            let mid = lo + (hi - lo) / 2;
            let at = |t: i32| {
                GridPoint::new(
                    if axis.x != 0 { t } else { sa.x },
                    if axis.y != 0 { t } else { sa.y },
                )
            };
            options.push([at(mid), at(mid + da.length as i32)]);
        }
    }
    options.sort();
    options.into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::template::{DoorRule, RoomTemplate};
    use crate::layout::RoomSpec;

    /// Rooms A, B, E placed on a grid of 2 × 2 squares whose doors are
    /// whole sides (so joined rooms share a whole side), and the bare
    /// detour A–C–D–B to fill: `b` and `e` are B's and E's cells.
    fn detour(b: (i32, i32), e: (i32, i32)) -> LayoutProblem {
        let square = RoomTemplate::new(
            "square",
            &[
                GridPoint::new(0, 0),
                GridPoint::new(2, 0),
                GridPoint::new(2, 2),
                GridPoint::new(0, 2),
            ],
            DoorRule::Overlap {
                length: 2,
                corner_distance: 0,
            },
            Vec::new(),
        )
        .expect("a square");
        let room = |name: &str| RoomSpec {
            name: name.into(),
            tag: "room".into(),
            templates: vec![0],
        };
        // A = 0, B = 1, C = 2, D = 3, E = 4; E hangs off B. A drawing
        // keeps the graph plane whatever the cells.
        let cell = |(x, y): (i32, i32)| [f64::from(x), f64::from(y)];
        LayoutProblem {
            rooms: ["A", "B", "C", "D", "E"].iter().map(|n| room(n)).collect(),
            edges: vec![[0, 2], [2, 3], [3, 1], [1, 4]],
            templates: vec![square],
            corridors: None,
            min_distance: 0,
            repeat: RepeatMode::Allow,
            drawing: Some(vec![
                cell((0, 0)),
                cell(b),
                cell((1, -1)),
                cell((2, -1)),
                cell(e),
            ]),
        }
    }

    /// The partial layout with A at cell (0, 0), B at `b`, E at `e`.
    fn placed(n: usize, b: (i32, i32), e: (i32, i32)) -> Partial {
        let mut p = Partial {
            shape: vec![NONE; n],
            pos: vec![GridPoint::default(); n],
            corridor: vec![None; 4],
            chains_done: 0,
        };
        for (r, (x, y)) in [(0, (0, 0)), (1, b), (4, e)] {
            p.shape[r] = 0;
            p.pos[r] = GridPoint::new(2 * x, 2 * y);
        }
        p
    }

    /// Runs `test` on a run with `seed` over [`detour`]`(b, e)` with A, B
    /// and E placed, the chain of C and D, and its bare-detour order.
    fn with_bare_detour(
        b: (i32, i32),
        e: (i32, i32),
        seed: u64,
        test: impl FnOnce(&mut Run<'_, '_>, Partial, &[usize], &[usize]),
    ) {
        let problem = detour(b, e);
        let prep = Prepared::new(&problem).expect("prepared");
        let settings = LayoutSettings::default();
        let mut run = Run::new(&prep, seed, &settings);
        let partial = placed(5, b, e);
        let chain = [2, 3];
        let order = run
            .bare_detour(&partial, &chain, false, false)
            .expect("a bare detour");
        test(&mut run, partial, &chain, &order);
    }

    #[test]
    fn exact_fill_finds_the_only_placement_of_a_two_room_detour() {
        // B two cells right and one up from A; E fills the cell (1, 1),
        // so of the three paths of three steps from A to B only
        // right, right, up is free: C at (1, 0), D at (2, 0).
        let (b, e) = ((2, 1), (1, 1));
        let mut first = None;
        for _ in 0..2 {
            with_bare_detour(b, e, 7, |run, partial, chain, order| {
                assert_eq!(order[0], 2, "C touches a placed room, so it can go first");
                let found = run.exact_fill(partial, chain, order, 4);
                assert_eq!(found.len(), 1, "exactly one valid placement");
                assert_eq!(found[0].pos[2], GridPoint::new(2, 0));
                assert_eq!(found[0].pos[3], GridPoint::new(4, 0));
                // Every candidate counted, and far fewer than an
                // annealing schedule's trials.
                assert!(
                    run.iterations > 0 && run.iterations < 200,
                    "{}",
                    run.iterations
                );
                // The same seed makes the same search.
                let pos = found[0].pos.clone();
                assert_eq!(*first.get_or_insert_with(|| pos.clone()), pos);
            });
        }
    }

    #[test]
    fn exact_fill_reports_a_detour_that_cannot_fit_at_once() {
        // B diagonal to A: every path of three side steps between them
        // changes the parity of x + y three times, so none ends at B.
        with_bare_detour((1, 1), (2, 1), 3, |run, partial, chain, order| {
            assert!(run.exact_fill(partial.clone(), chain, order, 4).is_empty());
            // At once: far fewer iterations than the 1,250 trials an
            // annealing schedule would spend before giving up.
            assert!(run.iterations < 200, "{}", run.iterations);
            // A chain with a room whose neighbour is not placed is no
            // bare detour.
            let mut fewer = partial;
            fewer.shape[1] = NONE;
            assert!(run.bare_detour(&fewer, chain, false, false).is_none());
        });
    }

    #[test]
    fn a_wrapping_fills_cap_stops_the_fill_not_the_run() {
        // The fill of the only placement above, with a cap reached before
        // its first candidate: nothing found, and the run goes on (the
        // chain counts as failed and the search backtracks).
        with_bare_detour((2, 1), (1, 1), 7, |run, partial, chain, order| {
            run.fill_cap = 0;
            assert!(run.exact_fill(partial.clone(), chain, order, 4).is_empty());
            assert!(run.stopped.is_none());
            assert!(run.tick(), "the run's own limits are untouched");
            // The compact (best-first) fill keeps the cap too.
            run.compact = true;
            assert!(run.exact_fill(partial.clone(), chain, order, 1).is_empty());
            run.compact = false;
            run.fill_cap = u64::MAX;
            assert_eq!(run.exact_fill(partial, chain, order, 4).len(), 1);
        });
    }

    /// Level 682's door of `tests/data/undirected-dungeon-rooms.lg`, relabelled: door
    /// 0-1, detours 2-3 (the rest of the level, here a loop 2-8-9-3),
    /// 4-5 with leaf 6 off 4, and 7-10 with leaf 11 off 10.
    fn three_detours_with_leaves() -> Vec<Vec<(usize, usize)>> {
        let edges = [
            [0, 1],
            [0, 2],
            [2, 3],
            [3, 1],
            [0, 4],
            [4, 5],
            [5, 1],
            [4, 6],
            [0, 7],
            [7, 10],
            [10, 1],
            [10, 11],
            [2, 8],
            [8, 9],
            [9, 3],
        ];
        let mut neighbours = vec![Vec::new(); 12];
        for (k, &[a, b]) in edges.iter().enumerate() {
            neighbours[a].push((b, k));
            neighbours[b].push((a, k));
        }
        neighbours
    }

    #[test]
    fn dead_ends_are_pendant_and_a_detour_with_one_is_still_bare() {
        let neighbours = three_detours_with_leaves();
        let pendant = pendant_rooms(&neighbours);
        let hung: Vec<usize> = (0..12).filter(|&x| pendant[x]).collect();
        assert_eq!(hung, [6, 11]);
        assert!(has_three_detours(&neighbours, 0, 1, 0));
        let late = vec![false; 12];
        // 2-3 has two more neighbours on a cycle (8, 9): not bare.
        let paths = bare_detours(&neighbours, &pendant, 0, 1, 0, &late);
        assert_eq!(paths, [vec![4, 5], vec![7, 10]]);
        assert_eq!(hanging_rooms(&neighbours, &pendant, &[4, 5]), [6]);
        // Without the pendant rule neither is: 4 and 10 have three
        // neighbours.
        let none = vec![false; 12];
        assert!(bare_detours(&neighbours, &none, 0, 1, 0, &late).is_empty());
        // A chain of the door's face, then 2-3 and 8-9, then the detours
        // and the leaves: the first bare detour takes its leaf along, and
        // is the only chain a compact fill gets (the other's leaf comes
        // later).
        let chains = vec![
            vec![0, 1, 2, 3],
            vec![8, 9],
            vec![4, 5],
            vec![7, 10],
            vec![6, 11],
        ];
        let edges: Vec<[usize; 2]> = {
            let mut e = Vec::new();
            for (a, list) in neighbours.iter().enumerate() {
                for &(b, k) in list {
                    if a < b {
                        e.push((k, [a, b]));
                    }
                }
            }
            e.sort_unstable();
            e.into_iter().map(|(_, x)| x).collect()
        };
        let (later, wraps) = enclosed_detours_later(chains, &edges, &neighbours, &pendant);
        // 7-10 closes the third path round the door, and is a detour of
        // two rooms (its leaf 11 aside): the bare detour goes right after
        // the door's chain, and 7-10 wraps around it.
        assert_eq!(
            later,
            [
                vec![0, 1, 2, 3],
                vec![4, 5, 6],
                vec![8, 9],
                vec![7, 10],
                vec![11]
            ]
        );
        assert_eq!(wraps, [false, false, false, true, false]);
        let nested = nested_detours(&later, &edges, &neighbours, &pendant);
        let marked: Vec<&Vec<usize>> = later
            .iter()
            .zip(&nested)
            .filter(|(_, &n)| n)
            .map(|(c, _)| c)
            .collect();
        assert_eq!(marked, [&vec![4, 5, 6]]);
    }
}
