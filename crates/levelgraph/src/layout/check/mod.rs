//! Independent layout validity checker: does a [`Layout`] solve its
//! [`LayoutProblem`]?
//!
//! Tests and benchmarks use it to verify the layout engine, so it shares
//! none of the engine's geometry (no shapes, door lines, rectangles or
//! configuration spaces). Everything is done with unit cells: a placed
//! outline is rasterised into the set of cells `(x, y)` (the square
//! `[x, x+1] × [y, y+1]`) whose centre it contains by the even-odd
//! crossing rule, and a door is a row of unit segments, each of which must
//! have a cell of one part on one side and a cell of the other part on the
//! other. Door rules are checked in the template's own coordinates, by
//! undoing the placement. Simple and slow on purpose: sets of cells, cell
//! by cell.
//!
//! Not checked: that the doors of one part keep apart from each other,
//! that outlines are listed counter-clockwise (outlines are compared as
//! cell sets), and distances involving corridors.
//!
//! The parts: this file checks counts, parts, overlaps, distances and the
//! repeat mode; `doors` the doors; `cells` rasterises outlines and walks
//! sides; `violation` holds what the checker reports.

mod cells;
mod doors;
mod violation;

pub use violation::{DoorRef, DoorRefusal, EdgeRef, OutlineFault, Part, Violation};

use super::template::{RepeatMode, RoomTemplate};
use super::{Layout, LayoutProblem, PlacedRoom};
use cells::{raster, Cell};
use doors::check_doors;
use std::collections::{BTreeMap, BTreeSet};

/// A part of the layout, for the overlap map: rooms order before corridors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Id {
    Room(usize),
    Corridor(usize),
}

/// What the checker knows of one placed part.
struct Placed<'a> {
    part: Part,
    placed: &'a PlacedRoom,
    /// The part's template, if its index is valid.
    template: Option<&'a RoomTemplate>,
    /// The cells of the placed outline (empty when it is unusable).
    cells: BTreeSet<Cell>,
}

/// The violations of `layout` as a solution of `problem`; empty when it is
/// valid. Checks, in this order: counts of rooms and corridors; every
/// part's template, transform and outline; overlaps; distances between
/// rooms that no edge joins; doors (count, attachment, geometry, and the
/// door rules of both parts); the repeat mode. The order is deterministic.
pub fn check_layout(problem: &LayoutProblem, layout: &Layout) -> Vec<Violation> {
    let mut out = Vec::new();

    // 1. Counts.
    if layout.rooms.len() != problem.rooms.len() {
        out.push(Violation::RoomCount {
            expected: problem.rooms.len(),
            found: layout.rooms.len(),
        });
    }
    let expected_corridors = if problem.corridors.is_some() {
        problem.edges.len()
    } else {
        0
    };
    if layout.corridors.len() != expected_corridors {
        out.push(Violation::CorridorCount {
            expected: expected_corridors,
            found: layout.corridors.len(),
        });
    }

    // 1. Every part's template, transform, outline. Parts beyond the
    // problem's counts are reported above and otherwise ignored.
    let n_rooms = layout.rooms.len().min(problem.rooms.len());
    let n_corridors = layout.corridors.len().min(expected_corridors);
    let mut rooms: Vec<Placed<'_>> = Vec::with_capacity(n_rooms);
    for (i, placed) in layout.rooms.iter().take(n_rooms).enumerate() {
        let allowed = &problem.rooms[i].templates;
        rooms.push(check_part(
            problem,
            room_part(problem, i),
            placed,
            allowed,
            &mut out,
        ));
    }
    let mut corridors: Vec<Placed<'_>> = Vec::with_capacity(n_corridors);
    let corridor_templates: &[usize] = problem
        .corridors
        .as_ref()
        .map_or(&[], |c| c.templates.as_slice());
    for (k, placed) in layout.corridors.iter().take(n_corridors).enumerate() {
        let part = corridor_part(problem, k);
        corridors.push(check_part(
            problem,
            part,
            placed,
            corridor_templates,
            &mut out,
        ));
    }
    // 2. Overlaps.
    let shared = overlaps(&rooms, &corridors, &mut out);

    // 3. Distance between rooms that no edge joins.
    if problem.min_distance > 0 {
        too_close(problem, &rooms, &shared, &mut out);
    }

    // 4–6. Doors.
    check_doors(problem, layout, &rooms, &corridors, &mut out);

    // 7. Repeat mode (rooms only).
    check_repeat(problem, &rooms, &mut out);
    out
}

/// Step 2: every pair of parts that share cells (rooms before corridors,
/// lower index first), with the count of shared cells and the smallest.
fn overlaps(
    rooms: &[Placed<'_>],
    corridors: &[Placed<'_>],
    out: &mut Vec<Violation>,
) -> BTreeMap<(Id, Id), (usize, Cell)> {
    let get = |id: Id| -> &Placed<'_> {
        match id {
            Id::Room(i) => &rooms[i],
            Id::Corridor(k) => &corridors[k],
        }
    };
    // Which parts own each cell.
    let mut owners: BTreeMap<Cell, Vec<Id>> = BTreeMap::new();
    let ids = (0..rooms.len())
        .map(Id::Room)
        .chain((0..corridors.len()).map(Id::Corridor));
    for id in ids {
        for &c in &get(id).cells {
            owners.entry(c).or_default().push(id);
        }
    }
    let mut shared: BTreeMap<(Id, Id), (usize, Cell)> = BTreeMap::new();
    for (&c, here) in &owners {
        for (n, &a) in here.iter().enumerate() {
            for &b in &here[n + 1..] {
                // Cells come in increasing order, so the first one
                // recorded is the smallest.
                shared.entry((a, b)).or_insert((0, c)).0 += 1;
            }
        }
    }
    for (&(a, b), &(cells, first)) in &shared {
        out.push(Violation::Overlap {
            parts: [get(a).part.clone(), get(b).part.clone()],
            cells,
            first: [first.0, first.1],
        });
    }
    shared
}

/// Step 7: the repeat mode, over the rooms (corridors are not asked).
fn check_repeat(problem: &LayoutProblem, rooms: &[Placed<'_>], out: &mut Vec<Violation>) {
    match problem.repeat {
        RepeatMode::Allow => {}
        RepeatMode::NoRepeat => {
            let mut first_user: BTreeMap<usize, usize> = BTreeMap::new();
            for (i, r) in rooms.iter().enumerate() {
                let t = r.placed.template;
                match first_user.get(&t) {
                    Some(&j) => out.push(Violation::RepeatedTemplate {
                        template: template_name(problem, t),
                        first: rooms[j].part.clone(),
                        again: r.part.clone(),
                    }),
                    None => {
                        first_user.insert(t, i);
                    }
                }
            }
        }
        RepeatMode::NoImmediate => {
            for (e, &[a, b]) in problem.edges.iter().enumerate() {
                if let (Some(ra), Some(rb)) = (rooms.get(a), rooms.get(b)) {
                    if ra.placed.template == rb.placed.template {
                        out.push(Violation::NeighboursShareTemplate {
                            edge: edge_ref(problem, e),
                            template: template_name(problem, ra.placed.template),
                        });
                    }
                }
            }
        }
    }
}

/// Checks one part's template, transform and outline, and rasterises it.
fn check_part<'a>(
    problem: &'a LayoutProblem,
    part: Part,
    placed: &'a PlacedRoom,
    allowed: &[usize],
    out: &mut Vec<Violation>,
) -> Placed<'a> {
    let template = problem.templates.get(placed.template);
    match template {
        None => out.push(Violation::UnknownTemplate {
            part: part.clone(),
            template: placed.template,
        }),
        Some(t) => {
            if !allowed.contains(&placed.template) {
                out.push(Violation::TemplateNotAllowed {
                    part: part.clone(),
                    template: t.name.clone(),
                });
            }
            if !t.transforms.contains(&placed.transform) {
                out.push(Violation::TransformNotAllowed {
                    part: part.clone(),
                    template: t.name.clone(),
                    transform: placed.transform,
                });
            }
        }
    }
    let given: Vec<Cell> = placed
        .outline
        .iter()
        .map(|p| (i64::from(p.x), i64::from(p.y)))
        .collect();
    let fault = outline_fault(&given);
    let cells = match raster(&given) {
        Ok(cells) => cells,
        Err(fault) => {
            out.push(Violation::BadOutline {
                part: part.clone(),
                reason: fault,
            });
            BTreeSet::new()
        }
    };
    if let Some(reason) = fault {
        out.push(Violation::BadOutline {
            part: part.clone(),
            reason,
        });
    }
    if let Some(t) = template {
        compare_with_template(t, placed, &cells, &part, out);
    }
    Placed {
        part,
        placed,
        template,
        cells,
    }
}

/// What makes the outline `given` no orthogonal polygon, if anything:
/// fewer than 4 corners, or the first side that is neither horizontal
/// nor vertical.
fn outline_fault(given: &[Cell]) -> Option<OutlineFault> {
    if given.len() < 4 {
        return Some(OutlineFault::FewCorners {
            corners: given.len(),
        });
    }
    (0..given.len()).find_map(|i| {
        let (a, b) = (given[i], given[(i + 1) % given.len()]);
        (a.0 != b.0 && a.1 != b.1).then_some(OutlineFault::Slanted {
            from: [a.0, a.1],
            to: [b.0, b.1],
        })
    })
}

/// Compares the cells of a placed part with those of its template `t`'s
/// outline under the part's transform (its bounding box moved to (0, 0),
/// then by the position).
fn compare_with_template(
    t: &RoomTemplate,
    placed: &PlacedRoom,
    cells: &BTreeSet<Cell>,
    part: &Part,
    out: &mut Vec<Violation>,
) {
    let turned: Vec<Cell> = t
        .outline
        .points()
        .iter()
        .map(|&p| {
            let q = placed.transform.apply(p);
            (i64::from(q.x), i64::from(q.y))
        })
        .collect();
    let min_x = turned.iter().map(|c| c.0).min().unwrap_or(0);
    let min_y = turned.iter().map(|c| c.1).min().unwrap_or(0);
    let (px, py) = (i64::from(placed.position.x), i64::from(placed.position.y));
    let expected: Vec<Cell> = turned
        .iter()
        .map(|&(x, y)| (x - min_x + px, y - min_y + py))
        .collect();
    match raster(&expected) {
        Ok(want) => {
            let missing = want.difference(cells).count();
            let extra = cells.difference(&want).count();
            if missing + extra > 0 {
                out.push(Violation::OutlineMismatch {
                    part: part.clone(),
                    template: t.name.clone(),
                    transform: placed.transform,
                    position: placed.position,
                    missing,
                    extra,
                });
            }
        }
        Err(fault) => out.push(Violation::BadOutline {
            part: part.clone(),
            reason: OutlineFault::Template {
                template: t.name.clone(),
                fault: Box::new(fault),
            },
        }),
    }
}

/// Step 3: rooms that no edge joins and that are nearer than the minimum
/// distance. For every cell of a room, every cell within L∞ distance
/// `min_distance` is looked at; a cell of another room there means a gap
/// below `min_distance`, and the least such gap is the rooms' gap.
fn too_close(
    problem: &LayoutProblem,
    rooms: &[Placed<'_>],
    shared: &BTreeMap<(Id, Id), (usize, Cell)>,
    out: &mut Vec<Violation>,
) {
    let d = i64::from(problem.min_distance);
    let joined: BTreeSet<(usize, usize)> = problem
        .edges
        .iter()
        .map(|&[a, b]| (a.min(b), a.max(b)))
        .collect();
    let mut owner: BTreeMap<Cell, Vec<usize>> = BTreeMap::new();
    for (i, r) in rooms.iter().enumerate() {
        for &c in &r.cells {
            owner.entry(c).or_default().push(i);
        }
    }
    // No two cells of the layout are farther apart than `span` in either
    // axis, so a window of radius `span` already sees every cell.
    let extent = |coord: fn(&Cell) -> i64| {
        let lo = owner.keys().map(coord).min().unwrap_or(0);
        let hi = owner.keys().map(coord).max().unwrap_or(0);
        hi - lo
    };
    let span = extent(|c| c.0).max(extent(|c| c.1));
    let r = d.min(span + 1);
    let mut gaps: BTreeMap<(usize, usize), i64> = BTreeMap::new();
    for (i, room) in rooms.iter().enumerate() {
        for &(x, y) in &room.cells {
            for dx in -r..=r {
                for dy in -r..=r {
                    let Some(there) = owner.get(&(x + dx, y + dy)) else {
                        continue;
                    };
                    for &j in there {
                        if j <= i
                            || joined.contains(&(i, j))
                            || shared.contains_key(&(Id::Room(i), Id::Room(j)))
                        {
                            continue;
                        }
                        let gap = dx.abs().max(dy.abs()) - 1;
                        let best = gaps.entry((i, j)).or_insert(gap);
                        *best = (*best).min(gap);
                    }
                }
            }
        }
    }
    for (&(i, j), &gap) in &gaps {
        if gap < d {
            out.push(Violation::TooClose {
                rooms: [rooms[i].part.clone(), rooms[j].part.clone()],
                gap,
                min_distance: problem.min_distance,
            });
        }
    }
}

/// The name of room `i` (`#i` when the problem has no such room).
fn room_name(problem: &LayoutProblem, i: usize) -> String {
    problem
        .rooms
        .get(i)
        .map_or_else(|| format!("#{i}"), |r| r.name.clone())
}

/// Room `i` as a [`Part`].
fn room_part(problem: &LayoutProblem, i: usize) -> Part {
    Part::Room {
        index: i,
        name: room_name(problem, i),
    }
}

/// The names of the two rooms of edge `e`.
fn edge_ends(problem: &LayoutProblem, e: usize) -> [String; 2] {
    match problem.edges.get(e) {
        Some(&[a, b]) => [room_name(problem, a), room_name(problem, b)],
        None => [format!("edge #{e}"), format!("edge #{e}")],
    }
}

/// Edge `e` as an [`EdgeRef`].
fn edge_ref(problem: &LayoutProblem, e: usize) -> EdgeRef {
    EdgeRef {
        index: e,
        ends: edge_ends(problem, e),
    }
}

/// The corridor of edge `e` as a [`Part`].
fn corridor_part(problem: &LayoutProblem, e: usize) -> Part {
    Part::Corridor {
        edge: e,
        ends: edge_ends(problem, e),
    }
}

/// The name of template `t` (`#t` when the problem has no such template).
fn template_name(problem: &LayoutProblem, t: usize) -> String {
    problem
        .templates
        .get(t)
        .map_or_else(|| format!("#{t}"), |x| x.name.clone())
}

#[cfg(test)]
mod tests;
