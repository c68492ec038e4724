//! The prepared problem ([`Prepared`]): the problem checked (rooms,
//! templates, edges, connectivity, rooms that can meet, repeat mode,
//! planarity), its shapes, the configuration spaces of every pair, and the
//! chains in the order the run adds them.

use super::detours::{enclosed_detours_later, nested_detours, pendant_rooms};
use super::error::{LimitKind, ProblemError};
use super::run::{Partial, Run, NONE};
use super::{LayoutError, LayoutSettings, LayoutStats};
use crate::layout::chains::decompose;
use crate::layout::config_space::{
    corridor_spaces, door_space_within, ConfigSpace, CorridorDoors, OutOfWork, Work,
};
use crate::layout::planarity::{planar_embedding, Embedding};
use crate::layout::template::{RepeatMode, Shape};
use crate::layout::{Layout, LayoutProblem};

/// Most rooms for which the adjacency is kept as a matrix (16 MiB).
const ADJACENCY_ROOMS: usize = 4096;

/// The shapes, rooms' shape lists and configuration spaces of a problem:
/// built once per problem, reused by every run.
#[derive(Debug)]
pub struct Prepared<'p> {
    pub(super) problem: &'p LayoutProblem,
    pub(super) shapes: Vec<Shape>,
    /// Per room, its candidate shapes.
    pub(super) room_shapes: Vec<Vec<u32>>,
    /// Corridor shapes (indices into `shapes`).
    pub(super) corridor_shapes: Vec<u32>,
    /// `space[f * s + m]`: positions of shape m relative to shape f for a
    /// graph edge (door to door, or through a corridor).
    pub(super) space: Vec<ConfigSpace>,
    /// With corridors: the door spaces between rooms and corridors.
    pub(super) corridor_doors: CorridorDoors,
    pub(super) neighbours: Vec<Vec<(usize, usize)>>,
    /// `adjacency[a * n + b]`: whether an edge joins `a` and `b`; kept for
    /// up to [`ADJACENCY_ROOMS`] rooms (the energy asks it for every pair).
    pub(super) adjacency: Option<Vec<bool>>,
    pub(super) chains: Vec<Vec<usize>>,
    /// Per chain: whether its rooms are a bare detour of a door with three
    /// detours (see [`LayoutSettings::compact_detours`]).
    pub(super) nested: Vec<bool>,
    /// Per chain: whether it closes around a bare detour laid out before
    /// it (see [`enclosed_detours_later`]), so that it is filled around it
    /// (a detour of up to [`MOST_WRAPPING`](super::detours::MOST_WRAPPING) rooms, dead ends aside).
    pub(super) wraps: Vec<bool>,
    /// Per room: whether it hangs off the level's cycles in a pendant tree
    /// ([`pendant_rooms`]).
    pub(super) pendant: Vec<bool>,
    /// Average room area (ω).
    pub(super) omega: f64,
    /// The problem's minimum distance between rooms no edge joins, in
    /// cells; one beyond `i32` (a problem built by hand: grammars refuse
    /// it) is `i32::MAX / 4`, never a wrapped negative.
    pub(super) min_distance: i32,
    /// The side of a square of area ω, rounded up: the closeness penalty
    /// per unit of missing distance.
    pub(super) side: i64,
    /// The work units building the configuration spaces took (see
    /// [`LayoutSettings::max_work`]); each run starts its count there.
    pub(super) work: u64,
}

impl<'p> Prepared<'p> {
    /// Validates the problem, builds shapes, configuration spaces and
    /// chains, within the default work budget
    /// ([`LayoutSettings::DEFAULT_MAX_WORK`]).
    ///
    /// # Errors
    /// As [`Prepared::within`].
    pub fn new(problem: &'p LayoutProblem) -> Result<Self, LayoutError> {
        Self::within(problem, &LayoutSettings::default())
    }

    /// Validates the problem, builds shapes, configuration spaces and
    /// chains, within `settings`' work budget
    /// ([`LayoutSettings::max_work`]; the other settings are the run's).
    /// A run of the result counts the work done here against the budget
    /// too.
    ///
    /// # Errors
    /// [`LayoutError::Problem`] for an empty or inconsistent problem, a
    /// disconnected graph or room pairs that can never meet;
    /// [`LayoutError::Preparation`] when the configuration spaces need
    /// more work than the budget allows; [`LayoutError::NotPlanar`].
    pub fn within(
        problem: &'p LayoutProblem,
        settings: &LayoutSettings,
    ) -> Result<Self, LayoutError> {
        let neighbours = checked_graph(problem).map_err(LayoutError::Problem)?;
        let n = problem.rooms.len();
        let (shapes, of_template) = distinct_shapes(problem);
        let shapes_of = |templates: &[usize]| -> Vec<u32> {
            templates
                .iter()
                .flat_map(|&k| of_template[k].iter().copied())
                .collect()
        };
        let room_shapes: Vec<Vec<u32>> = problem
            .rooms
            .iter()
            .map(|r| shapes_of(&r.templates))
            .collect();
        let corridor_shapes: Vec<u32> = problem
            .corridors
            .as_ref()
            .map(|c| shapes_of(&c.templates))
            .unwrap_or_default();
        if problem.corridors.is_some() && corridor_shapes.is_empty() {
            return Err(LayoutError::Problem(ProblemError::NoCorridorTemplate));
        }
        let mut work = Work::budget(settings.max_work);
        let (space, corridor_doors) =
            pair_spaces(problem, &shapes, &room_shapes, &corridor_shapes, &mut work)
                .map_err(|OutOfWork| out_of_work(problem, shapes.len(), settings.max_work))?;
        check_rooms_meet(problem, &room_shapes, &space, shapes.len())
            .map_err(LayoutError::Problem)?;
        repeat_feasible(problem).map_err(LayoutError::Problem)?;
        // A drawing gives the embedding only when it is plane (a
        // geometric derivation's is; a hand-edited one may not be).
        let embedding = match &problem.drawing {
            Some(points) if points.len() == n && plane(&problem.edges, points) => {
                Embedding::from_drawing(n, &problem.edges, points)
            }
            _ => planar_embedding(n, &problem.edges).map_err(LayoutError::NotPlanar)?,
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
            work: work.spent,
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
    pub(super) fn touches_placed(&self, partial: &Partial, r: usize) -> bool {
        self.neighbours[r]
            .iter()
            .any(|&(w, _)| partial.shape[w] != NONE)
    }

    /// Whether an edge joins rooms `a` and `b`.
    pub(super) fn joined(&self, a: usize, b: usize) -> bool {
        match &self.adjacency {
            Some(m) => m[a * self.neighbours.len() + b],
            None => self.neighbours[a].iter().any(|&(x, _)| x == b),
        }
    }

    pub(super) fn space(&self, fixed: u32, moving: u32) -> &ConfigSpace {
        &self.space[fixed as usize * self.shapes.len() + moving as usize]
    }
}

/// The rooms' neighbours (`(room, edge)` per room, in edge order), once
/// the rooms, their template indices and the edges are checked and the
/// graph is found connected; else the first thing wrong, in that order.
fn checked_graph(problem: &LayoutProblem) -> Result<Vec<Vec<(usize, usize)>>, ProblemError> {
    let n = problem.rooms.len();
    if n == 0 {
        return Err(ProblemError::NoRooms);
    }
    let t = problem.templates.len();
    for r in &problem.rooms {
        if r.templates.is_empty() {
            return Err(ProblemError::NoTemplates {
                room: r.name.clone(),
            });
        }
        if let Some(&k) = r.templates.iter().find(|&&k| k >= t) {
            return Err(ProblemError::UnknownTemplate {
                room: r.name.clone(),
                template: k,
                templates: t,
            });
        }
    }
    let mut neighbours = vec![Vec::new(); n];
    for (k, &[a, b]) in problem.edges.iter().enumerate() {
        if a >= n || b >= n || a == b {
            return Err(ProblemError::BadEdge {
                edge: k,
                ends: [a, b],
                rooms: n,
            });
        }
        neighbours[a].push((b, k));
        neighbours[b].push((a, k));
    }
    if !connected(n, &neighbours) {
        return Err(ProblemError::NotConnected);
    }
    Ok(neighbours)
}

/// Every allowed transform of every template as a shape, the same
/// outline-and-doors of one template once; with, per template, its shapes
/// (indices into the first).
fn distinct_shapes(problem: &LayoutProblem) -> (Vec<Shape>, Vec<Vec<u32>>) {
    let mut shapes: Vec<Shape> = Vec::new();
    let mut of_template: Vec<Vec<u32>> = vec![Vec::new(); problem.templates.len()];
    for (i, tpl) in problem.templates.iter().enumerate() {
        for &tr in &tpl.transforms {
            let s = Shape::new(i, tpl, tr);
            // Only the template's own shapes can be the same (and they are
            // in index order): not a scan of every shape per shape.
            let same = of_template[i].iter().copied().find(|&k| {
                let o = &shapes[k as usize];
                o.outline == s.outline && o.doors == s.doors
            });
            let k = match same {
                Some(k) => k,
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
    (shapes, of_template)
}

/// The configuration spaces of every pair of room shapes (`space[f * s +
/// m]`, s shapes; empty for a shape no room uses), door to door or, with
/// corridors, through one (then with the corridors' door spaces); each
/// charged to `work` before it is built.
fn pair_spaces(
    problem: &LayoutProblem,
    shapes: &[Shape],
    room_shapes: &[Vec<u32>],
    corridor_shapes: &[u32],
    work: &mut Work,
) -> Result<(Vec<ConfigSpace>, CorridorDoors), OutOfWork> {
    let s = shapes.len();
    let mut in_rooms = vec![false; s];
    for list in room_shapes {
        for &k in list {
            in_rooms[k as usize] = true;
        }
    }
    if problem.corridors.is_some() {
        let corridors: Vec<Shape> = corridor_shapes
            .iter()
            .map(|&k| shapes[k as usize].clone())
            .collect();
        return corridor_spaces(shapes, &in_rooms, &corridors, work);
    }
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
                door_space_within(&shapes[f], &shapes[m], None, work)?
            };
        }
    }
    Ok((space, CorridorDoors::default()))
}

/// [`LayoutError::Preparation`] for `problem`, whose `shapes` shapes'
/// spaces needed more than `max_work` units.
fn out_of_work(problem: &LayoutProblem, shapes: usize, max_work: u64) -> LayoutError {
    // The first template with the most corners (`max_by_key` keeps the last).
    let largest = problem
        .templates
        .iter()
        .rev()
        .max_by_key(|t| t.outline.points().len());
    LayoutError::Preparation {
        limit: LimitKind::MaxWork(max_work),
        shapes,
        largest: largest.map_or_else(String::new, |t| t.name.clone()),
        corners: largest.map_or(0, |t| t.outline.points().len()),
    }
}

/// Refuses the first edge whose rooms have no pair of shapes with a
/// non-empty configuration space (`s` shapes in all).
fn check_rooms_meet(
    problem: &LayoutProblem,
    room_shapes: &[Vec<u32>],
    space: &[ConfigSpace],
    s: usize,
) -> Result<(), ProblemError> {
    for (k, &[a, b]) in problem.edges.iter().enumerate() {
        let meet = room_shapes[a].iter().any(|&f| {
            room_shapes[b]
                .iter()
                .any(|&m| !space[f as usize * s + m as usize].is_empty())
        });
        if !meet {
            return Err(ProblemError::NeverJoined {
                rooms: [problem.rooms[a].name.clone(), problem.rooms[b].name.clone()],
                edge: k,
                corridors: problem.corridors.is_some(),
            });
        }
    }
    Ok(())
}

/// Whether the repeat mode can hold at all: `NoRepeat` needs a different
/// template for every room (a matching of rooms to templates, found by
/// augmenting paths); `NoImmediate` fails when two joined rooms have the
/// same single template.
fn repeat_feasible(problem: &LayoutProblem) -> Result<(), ProblemError> {
    match problem.repeat {
        RepeatMode::Allow => Ok(()),
        RepeatMode::NoImmediate => {
            for &[a, b] in &problem.edges {
                let (ta, tb) = (&problem.rooms[a].templates, &problem.rooms[b].templates);
                if ta.len() == 1 && ta == tb {
                    return Err(ProblemError::SameTemplateJoined {
                        rooms: [problem.rooms[a].name.clone(), problem.rooms[b].name.clone()],
                        template: problem.templates[ta[0]].name.clone(),
                    });
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
                    return Err(ProblemError::TooFewTemplates {
                        rooms: problem.rooms.len(),
                        room: problem.rooms[r].name.clone(),
                    });
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

/// Whether every room can be reached from room 0 (`n` ≥ 1 rooms).
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
