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

use super::polygon::{GridPoint, Transform};
use super::template::{DoorRule, RepeatMode, RoomTemplate};
use super::{Layout, LayoutProblem, PlacedRoom};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A unit cell: the square `[x, x+1] × [y, y+1]` (wide integers, so that
/// no sum of coordinates can overflow).
type Cell = (i64, i64);

/// Largest bounding box (in cells) of an outline that is rasterised.
const MAX_BOX_CELLS: i64 = 4_000_000;

/// A room or a corridor of a layout, named for messages.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// A room.
    Room {
        /// Index into [`LayoutProblem::rooms`] and [`Layout::rooms`].
        index: usize,
        /// Its [`RoomSpec::name`](super::RoomSpec::name) (`#index` when the
        /// problem has no such room).
        name: String,
    },
    /// The corridor of an edge.
    Corridor {
        /// Index of the edge in [`LayoutProblem::edges`] (and of the
        /// corridor in [`Layout::corridors`]).
        edge: usize,
        /// The names of the edge's two rooms.
        ends: [String; 2],
    },
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Room { name, .. } => write!(f, "room `{name}`"),
            Part::Corridor { ends, .. } => {
                write!(f, "the corridor of `{}`–`{}`", ends[0], ends[1])
            }
        }
    }
}

/// An edge of the level graph, named for messages.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EdgeRef {
    /// Index into [`LayoutProblem::edges`].
    pub index: usize,
    /// The names of its two rooms.
    pub ends: [String; 2],
}

impl fmt::Display for EdgeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "edge `{}`–`{}`", self.ends[0], self.ends[1])
    }
}

/// A door of a layout, named for messages.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DoorRef {
    /// Index into [`Layout::doors`].
    pub index: usize,
    /// The room it opens from.
    pub from: Part,
    /// The room or corridor it opens into.
    pub into: Part,
    /// Its two ends, as in the layout.
    pub segment: [GridPoint; 2],
}

impl fmt::Display for DoorRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "door {} ({} → {}, {}–{})",
            self.index, self.from, self.into, self.segment[0], self.segment[1]
        )
    }
}

/// Why a template's door rule refuses a door (in the template's own
/// coordinates).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DoorRefusal {
    /// Specific positions: the door is none of them.
    NotListed,
    /// Overlap mode: the door has the wrong length.
    Length {
        /// The door's length.
        found: i64,
        /// The rule's door length.
        wanted: u32,
    },
    /// Overlap mode: the door does not lie on one side of the outline.
    NotOnSide,
    /// Overlap mode: the door is too near an end of its side.
    NearCorner {
        /// Its distance (along the side) to the nearer end of the side.
        distance: i64,
        /// The rule's corner distance.
        wanted: u32,
    },
}

impl fmt::Display for DoorRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DoorRefusal::NotListed => write!(f, "it is not one of the template's door positions"),
            DoorRefusal::Length { found, wanted } => write!(
                f,
                "it is {found} long, the template's doors are {wanted} long"
            ),
            DoorRefusal::NotOnSide => {
                write!(f, "it does not lie on one side of the template's outline")
            }
            DoorRefusal::NearCorner { distance, wanted } => write!(
                f,
                "it is {distance} from a corner of its side, less than the corner distance {wanted}"
            ),
        }
    }
}

/// One thing wrong with a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The layout places a different number of rooms than the problem has.
    RoomCount {
        /// The problem's rooms.
        expected: usize,
        /// The layout's rooms.
        found: usize,
    },
    /// The layout has a different number of corridors than it should: one
    /// per edge with corridors on, none without.
    CorridorCount {
        /// How many it should have.
        expected: usize,
        /// How many it has.
        found: usize,
    },
    /// A part uses a template index the problem does not have.
    UnknownTemplate {
        /// The part.
        part: Part,
        /// The template index it uses.
        template: usize,
    },
    /// A part uses a template not among those it may use.
    TemplateNotAllowed {
        /// The part.
        part: Part,
        /// The template's name.
        template: String,
    },
    /// A part is placed under a transform its template does not allow.
    TransformNotAllowed {
        /// The part.
        part: Part,
        /// The template's name.
        template: String,
        /// The transform used.
        transform: Transform,
    },
    /// A part's outline cannot be used as given.
    BadOutline {
        /// The part.
        part: Part,
        /// What is wrong.
        reason: String,
    },
    /// A part's outline is not its template's under its transform at its
    /// position (compared as cell sets).
    OutlineMismatch {
        /// The part.
        part: Part,
        /// The template's name.
        template: String,
        /// The transform used.
        transform: Transform,
        /// The position used.
        position: GridPoint,
        /// Cells of the expected outline the given one lacks.
        missing: usize,
        /// Cells of the given outline the expected one lacks.
        extra: usize,
    },
    /// Two parts share cells.
    Overlap {
        /// The two parts (rooms before corridors, lower index first).
        parts: [Part; 2],
        /// How many cells they share.
        cells: usize,
        /// The smallest shared cell (by x, then y).
        first: [i64; 2],
    },
    /// Two rooms that no edge joins are nearer than the minimum distance.
    TooClose {
        /// The two rooms (lower index first).
        rooms: [Part; 2],
        /// Their L∞ gap (0: touching).
        gap: i64,
        /// The problem's minimum distance.
        min_distance: u32,
    },
    /// A door names an edge the problem does not have.
    DoorEdgeUnknown {
        /// Index into [`Layout::doors`].
        door: usize,
        /// The edge index it names.
        edge: usize,
    },
    /// A door names an edge but the wrong room or corridor for it: without
    /// corridors a door must open from the edge's first room into its
    /// second (`corridor: None`); with corridors from either of the edge's
    /// rooms into the edge's own corridor.
    DoorMisattached {
        /// Index into [`Layout::doors`].
        door: usize,
        /// The edge it names.
        edge: EdgeRef,
        /// The room it opens from.
        from: Part,
        /// The corridor it opens into.
        corridor: Option<usize>,
    },
    /// An edge lacks a door.
    MissingDoor {
        /// The edge.
        edge: EdgeRef,
        /// The room the door should open from.
        from: Part,
        /// The room or corridor it should open into.
        into: Part,
    },
    /// An edge has more than one door where one is wanted.
    DuplicateDoor {
        /// The edge.
        edge: EdgeRef,
        /// The room the doors open from.
        from: Part,
        /// The room or corridor they open into.
        into: Part,
        /// How many there are.
        count: usize,
    },
    /// A door is not a horizontal or vertical segment of positive length.
    DoorNotStraight {
        /// The door.
        door: DoorRef,
    },
    /// Some unit segments of a door do not have a cell of one of its parts
    /// on one side and a cell of the other on the other side.
    DoorNotBetween {
        /// The door.
        door: DoorRef,
        /// The first such unit segment.
        first: [GridPoint; 2],
        /// How many there are.
        units: usize,
    },
    /// A door is not allowed by the door rule of one of its parts.
    DoorNotAllowed {
        /// The door.
        door: DoorRef,
        /// The part whose template refuses it.
        by: Part,
        /// That template's name.
        template: String,
        /// Why.
        reason: DoorRefusal,
    },
    /// Repeat mode `NoRepeat`: a template used by a second room.
    RepeatedTemplate {
        /// The template's name.
        template: String,
        /// The first room using it.
        first: Part,
        /// A later room using it too.
        again: Part,
    },
    /// Repeat mode `NoImmediate`: both rooms of an edge use one template.
    NeighboursShareTemplate {
        /// The edge.
        edge: EdgeRef,
        /// The template's name.
        template: String,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::RoomCount { expected, found } => write!(
                f,
                "the layout places {found} rooms, the problem has {expected}"
            ),
            Violation::CorridorCount { expected, found } => write!(
                f,
                "the layout has {found} corridors, expected {expected} (one per edge with \
                 corridors on, none without)"
            ),
            Violation::UnknownTemplate { part, template } => write!(
                f,
                "{part} uses template {template}, which the problem does not have"
            ),
            Violation::TemplateNotAllowed { part, template } => write!(
                f,
                "{part} uses template `{template}`, which is not among the templates it may use"
            ),
            Violation::TransformNotAllowed {
                part,
                template,
                transform,
            } => write!(
                f,
                "{part} is placed under {} (rotation {}), which template `{template}` does not \
                 allow",
                transform.name(),
                transform.rotation
            ),
            Violation::BadOutline { part, reason } => {
                write!(f, "the outline of {part} is unusable: {reason}")
            }
            Violation::OutlineMismatch {
                part,
                template,
                transform,
                position,
                missing,
                extra,
            } => write!(
                f,
                "the outline of {part} is not template `{template}` under {} at {position}: \
                 {missing} cells missing, {extra} extra",
                transform.name()
            ),
            Violation::Overlap {
                parts,
                cells,
                first,
            } => write!(
                f,
                "{} and {} overlap in {cells} cells, the first at cell [{}, {}]",
                parts[0], parts[1], first[0], first[1]
            ),
            Violation::TooClose {
                rooms,
                gap,
                min_distance,
            } => write!(
                f,
                "{} and {} are joined by no edge but only {gap} apart, less than the minimum \
                 distance {min_distance}",
                rooms[0], rooms[1]
            ),
            Violation::DoorEdgeUnknown { door, edge } => write!(
                f,
                "door {door} names edge {edge}, which the problem does not have"
            ),
            Violation::DoorMisattached {
                door,
                edge,
                from,
                corridor,
            } => {
                write!(f, "door {door} of {edge} opens from {from} into ")?;
                match corridor {
                    Some(k) => write!(f, "corridor {k}")?,
                    None => write!(f, "the edge's other room")?,
                }
                write!(
                    f,
                    "; it should open from the edge's first room into its second without \
                     corridors, from either room into corridor {} with them",
                    edge.index
                )
            }
            Violation::MissingDoor { edge, from, into } => {
                write!(f, "{edge} has no door from {from} into {into}")
            }
            Violation::DuplicateDoor {
                edge,
                from,
                into,
                count,
            } => write!(
                f,
                "{edge} has {count} doors from {from} into {into}, expected one"
            ),
            Violation::DoorNotStraight { door } => write!(
                f,
                "{door} is not a horizontal or vertical segment of positive length"
            ),
            Violation::DoorNotBetween { door, first, units } => write!(
                f,
                "{door} does not lie between its two parts: {units} of its unit segments, the \
                 first {}–{}, do not have a cell of one part on one side and of the other on \
                 the other",
                first[0], first[1]
            ),
            Violation::DoorNotAllowed {
                door,
                by,
                template,
                reason,
            } => write!(
                f,
                "{door} is not allowed by template `{template}` of {by}: {reason}"
            ),
            Violation::RepeatedTemplate {
                template,
                first,
                again,
            } => write!(
                f,
                "{again} uses template `{template}` that {first} already uses (repeat mode: no \
                 repeat)"
            ),
            Violation::NeighboursShareTemplate { edge, template } => write!(
                f,
                "both rooms of {edge} use template `{template}` (repeat mode: no immediate \
                 repeat)"
            ),
        }
    }
}

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
    let get = |id: Id| -> &Placed<'_> {
        match id {
            Id::Room(i) => &rooms[i],
            Id::Corridor(k) => &corridors[k],
        }
    };

    // 2. Overlaps: which parts own each cell.
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

    // 3. Distance between rooms that no edge joins.
    if problem.min_distance > 0 {
        too_close(problem, &rooms, &shared, &mut out);
    }

    // 4–6. Doors.
    check_doors(problem, layout, &rooms, &corridors, &mut out);

    // 7. Repeat mode (rooms only).
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
    out
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
    let reason = if given.len() < 4 {
        Some(format!("it has {} corners, fewer than 4", given.len()))
    } else {
        (0..given.len()).find_map(|i| {
            let (a, b) = (given[i], given[(i + 1) % given.len()]);
            (a.0 != b.0 && a.1 != b.1).then(|| {
                format!(
                    "its side [{}, {}]–[{}, {}] is neither horizontal nor vertical",
                    a.0, a.1, b.0, b.1
                )
            })
        })
    };
    let cells = match raster(&given) {
        Ok(cells) => cells,
        Err(e) => {
            out.push(Violation::BadOutline {
                part: part.clone(),
                reason: e,
            });
            BTreeSet::new()
        }
    };
    if let Some(reason) = reason {
        out.push(Violation::BadOutline {
            part: part.clone(),
            reason,
        });
    }
    if let Some(t) = template {
        // The template's outline under the transform, its bounding box
        // moved to (0, 0), then moved by the position.
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
                let missing = want.difference(&cells).count();
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
            Err(e) => out.push(Violation::BadOutline {
                part: part.clone(),
                reason: format!("its template `{}` cannot be rasterised: {e}", t.name),
            }),
        }
    }
    Placed {
        part,
        placed,
        template,
        cells,
    }
}

/// The cells whose centre lies inside the closed polyline `points` by the
/// even-odd rule (a ray from the centre towards +x; any polygon, not only
/// orthogonal ones).
fn raster(points: &[Cell]) -> Result<BTreeSet<Cell>, String> {
    let mut cells = BTreeSet::new();
    let (Some(x0), Some(x1), Some(y0), Some(y1)) = (
        points.iter().map(|p| p.0).min(),
        points.iter().map(|p| p.0).max(),
        points.iter().map(|p| p.1).min(),
        points.iter().map(|p| p.1).max(),
    ) else {
        return Ok(cells);
    };
    if (x1 - x0).saturating_mul(y1 - y0) > MAX_BOX_CELLS {
        return Err(format!(
            "its bounding box of {} × {} is too large to check",
            x1 - x0,
            y1 - y0
        ));
    }
    for x in x0..x1 {
        for y in y0..y1 {
            if inside(points, 2 * x + 1, 2 * y + 1) {
                cells.insert((x, y));
            }
        }
    }
    Ok(cells)
}

/// Whether the point `(cx, cy) / 2` is inside `points` by the even-odd
/// rule. Doubled coordinates keep everything integral; a cell centre is
/// never at the height of a corner, so every crossing is proper.
fn inside(points: &[Cell], cx: i64, cy: i64) -> bool {
    let n = points.len();
    let mut odd = false;
    for i in 0..n {
        let (ax, ay) = (2 * points[i].0, 2 * points[i].1);
        let (bx, by) = (2 * points[(i + 1) % n].0, 2 * points[(i + 1) % n].1);
        if (ay > cy) != (by > cy) {
            // The side crosses the line y = cy at x = ax + (cy − ay)(bx −
            // ax)/(by − ay); it is right of cx iff num / (by − ay) > 0.
            let num = i128::from(ax - cx) * i128::from(by - ay)
                + i128::from(cy - ay) * i128::from(bx - ax);
            if num != 0 && (num > 0) == (by > ay) {
                odd = !odd;
            }
        }
    }
    odd
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

/// Steps 4–6: every edge has its doors, every door lies between its two
/// parts and is allowed by both parts' templates.
fn check_doors(
    problem: &LayoutProblem,
    layout: &Layout,
    rooms: &[Placed<'_>],
    corridors: &[Placed<'_>],
    out: &mut Vec<Violation>,
) {
    let with_corridors = problem.corridors.is_some();
    // The doors that name an edge and the right room and corridor for it,
    // by (edge, room they open from).
    let mut slots: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (i, door) in layout.doors.iter().enumerate() {
        let Some(&[a, b]) = problem.edges.get(door.edge) else {
            out.push(Violation::DoorEdgeUnknown {
                door: i,
                edge: door.edge,
            });
            continue;
        };
        let fits = if with_corridors {
            (door.room == a || door.room == b) && door.corridor == Some(door.edge)
        } else {
            door.room == a && door.corridor.is_none()
        };
        if fits {
            slots.entry((door.edge, door.room)).or_default().push(i);
        } else {
            out.push(Violation::DoorMisattached {
                door: i,
                edge: edge_ref(problem, door.edge),
                from: room_part(problem, door.room),
                corridor: door.corridor,
            });
        }
    }
    // The part a door of edge `e` from room `from` opens into.
    let into_of = |e: usize, from: usize| -> Id {
        if with_corridors {
            Id::Corridor(e)
        } else {
            let [a, b] = problem.edges[e];
            Id::Room(if from == a { b } else { a })
        }
    };
    let part_of = |id: Id| match id {
        Id::Room(i) => room_part(problem, i),
        Id::Corridor(k) => corridor_part(problem, k),
    };
    for (e, &[a, b]) in problem.edges.iter().enumerate() {
        let froms: &[usize] = if with_corridors { &[a, b] } else { &[a] };
        for &from in froms {
            let count = slots.get(&(e, from)).map_or(0, Vec::len);
            if count == 1 {
                continue;
            }
            let (edge, from_part, into) = (
                edge_ref(problem, e),
                room_part(problem, from),
                part_of(into_of(e, from)),
            );
            out.push(if count == 0 {
                Violation::MissingDoor {
                    edge,
                    from: from_part,
                    into,
                }
            } else {
                Violation::DuplicateDoor {
                    edge,
                    from: from_part,
                    into,
                    count,
                }
            });
        }
    }
    let placed = |id: Id| -> Option<&Placed<'_>> {
        match id {
            Id::Room(i) => rooms.get(i),
            Id::Corridor(k) => corridors.get(k),
        }
    };
    let mut attached: Vec<usize> = slots.values().flatten().copied().collect();
    attached.sort_unstable();
    for i in attached {
        let door = &layout.doors[i];
        let into_id = into_of(door.edge, door.room);
        let r = DoorRef {
            index: i,
            from: room_part(problem, door.room),
            into: part_of(into_id),
            segment: door.segment,
        };
        // Parts missing from the layout are reported by the counts.
        let (Some(p), Some(q)) = (placed(Id::Room(door.room)), placed(into_id)) else {
            continue;
        };
        let [s, t] = door.segment;
        if s == t || (s.x != t.x && s.y != t.y) {
            out.push(Violation::DoorNotStraight { door: r });
            continue;
        }
        let units = units_of(door.segment);
        let bad: Vec<&(Cell, Cell, [GridPoint; 2])> = units
            .iter()
            .filter(|(plus, minus, _)| {
                let across = |x: &Placed<'_>, y: &Placed<'_>| {
                    x.cells.contains(plus) && y.cells.contains(minus)
                };
                !(across(p, q) || across(q, p))
            })
            .collect();
        if let Some(&&(_, _, first)) = bad.first() {
            out.push(Violation::DoorNotBetween {
                door: r.clone(),
                first,
                units: bad.len(),
            });
        }
        for side in [p, q] {
            let Some(template) = side.template else {
                continue;
            };
            if let Some(reason) = door_refusal(template, side.placed, door.segment) {
                out.push(Violation::DoorNotAllowed {
                    door: r.clone(),
                    by: side.part.clone(),
                    template: template.name.clone(),
                    reason,
                });
            }
        }
    }
}

/// The unit segments of a straight segment of positive length, from its
/// lower-left end: each as (the cell on its upper or right side, the cell
/// on its lower or left side, its two ends).
fn units_of(segment: [GridPoint; 2]) -> Vec<(Cell, Cell, [GridPoint; 2])> {
    let [s, t] = segment;
    let (lo, hi) = if (s.x, s.y) <= (t.x, t.y) {
        (s, t)
    } else {
        (t, s)
    };
    let horizontal = lo.y == hi.y;
    let len = (hi.x - lo.x) + (hi.y - lo.y);
    (0..len)
        .map(|k| {
            let (a, b) = if horizontal {
                (
                    GridPoint::new(lo.x + k, lo.y),
                    GridPoint::new(lo.x + k + 1, lo.y),
                )
            } else {
                (
                    GridPoint::new(lo.x, lo.y + k),
                    GridPoint::new(lo.x, lo.y + k + 1),
                )
            };
            let (x, y) = (i64::from(a.x), i64::from(a.y));
            let minus = if horizontal { (x, y - 1) } else { (x - 1, y) };
            ((x, y), minus, [a, b])
        })
        .collect()
}

/// The transform undoing `t`: the one of the 8 whose composition with `t`
/// fixes both unit vectors (hence every point, as all 8 are linear).
fn inverse(t: Transform) -> Transform {
    let basis = [GridPoint::new(1, 0), GridPoint::new(0, 1)];
    Transform::all(true)
        .find(|u| basis.iter().all(|&p| u.apply(t.apply(p)) == p))
        .expect("the 8 symmetries of the square form a group")
}

/// Why `template`'s door rule refuses the door `segment` of the part
/// `placed`, if it does: the segment is mapped back into the template's
/// coordinates and checked there.
fn door_refusal(
    template: &RoomTemplate,
    placed: &PlacedRoom,
    segment: [GridPoint; 2],
) -> Option<DoorRefusal> {
    // Placement: p ↦ transform(p) − min(transform(outline)) + position.
    let t = placed.transform;
    let turned: Vec<GridPoint> = template
        .outline
        .points()
        .iter()
        .map(|&p| t.apply(p))
        .collect();
    let min_x = turned.iter().map(|p| i64::from(p.x)).min().unwrap_or(0);
    let min_y = turned.iter().map(|p| i64::from(p.y)).min().unwrap_or(0);
    let back = inverse(t);
    let undo = |p: GridPoint| -> Option<GridPoint> {
        let x = i64::from(p.x) - i64::from(placed.position.x) + min_x;
        let y = i64::from(p.y) - i64::from(placed.position.y) + min_y;
        let q = GridPoint::new(i32::try_from(x).ok()?, i32::try_from(y).ok()?);
        Some(back.apply(q))
    };
    let (Some(u), Some(v)) = (undo(segment[0]), undo(segment[1])) else {
        return Some(match template.doors {
            DoorRule::Specific(_) => DoorRefusal::NotListed,
            DoorRule::Overlap { .. } => DoorRefusal::NotOnSide,
        });
    };
    match &template.doors {
        DoorRule::Specific(list) => {
            let listed = list
                .iter()
                .any(|&[a, b]| (a, b) == (u, v) || (b, a) == (u, v));
            (!listed).then_some(DoorRefusal::NotListed)
        }
        DoorRule::Overlap {
            length,
            corner_distance,
        } => {
            let found =
                (i64::from(u.x) - i64::from(v.x)).abs() + (i64::from(u.y) - i64::from(v.y)).abs();
            if found != i64::from(*length) {
                return Some(DoorRefusal::Length {
                    found,
                    wanted: *length,
                });
            }
            let points: Vec<Cell> = template
                .outline
                .points()
                .iter()
                .map(|p| (i64::from(p.x), i64::from(p.y)))
                .collect();
            let Ok(cells) = raster(&points) else {
                return Some(DoorRefusal::NotOnSide);
            };
            side_distance(&cells, [u, v]).map_or(Some(DoorRefusal::NotOnSide), |(before, after)| {
                let distance = before.min(after);
                (distance < i64::from(*corner_distance)).then_some(DoorRefusal::NearCorner {
                    distance,
                    wanted: *corner_distance,
                })
            })
        }
    }
}

/// Whether the straight segment lies on one side of the region `cells`
/// (every unit segment of it on the boundary, with the inside on the same
/// hand); if so, how far the side runs on past each end of it.
fn side_distance(cells: &BTreeSet<Cell>, segment: [GridPoint; 2]) -> Option<(i64, i64)> {
    let [s, t] = segment;
    if s == t || (s.x != t.x && s.y != t.y) {
        return None;
    }
    // Which side of the unit segment from `start` along the segment's
    // axis the inside is on (`Some(true)`: above or right), if it is a
    // boundary segment at all.
    let horizontal = s.y == t.y;
    let hand = |start: Cell| -> Option<bool> {
        let minus = if horizontal {
            (start.0, start.1 - 1)
        } else {
            (start.0 - 1, start.1)
        };
        match (cells.contains(&start), cells.contains(&minus)) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        }
    };
    let step = |c: Cell, k: i64| -> Cell {
        if horizontal {
            (c.0 + k, c.1)
        } else {
            (c.0, c.1 + k)
        }
    };
    let units = units_of(segment);
    let lo = units.first()?.0;
    let hi_start = units.last()?.0;
    let inside_hand = hand(lo)?;
    if units.iter().any(|u| hand(u.0) != Some(inside_hand)) {
        return None;
    }
    // Walk along the side past each end until it turns (the region is
    // finite, so both walks end).
    let mut before = 0;
    while hand(step(lo, -(before + 1))) == Some(inside_hand) {
        before += 1;
    }
    let mut after = 0;
    while hand(step(hi_start, after + 1)) == Some(inside_hand) {
        after += 1;
    }
    Some((before, after))
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
mod tests {
    use super::*;
    use crate::layout::polygon::Rect;
    use crate::layout::{CorridorSpec, Door, RoomSpec};

    fn pt(x: i32, y: i32) -> GridPoint {
        GridPoint::new(x, y)
    }

    fn pts(p: &[(i32, i32)]) -> Vec<GridPoint> {
        p.iter().map(|&(x, y)| pt(x, y)).collect()
    }

    const R0: Transform = Transform::IDENTITY;
    const R90: Transform = Transform {
        rotation: 1,
        mirror: false,
    };

    /// Edgar's thesis_basic default door mode.
    fn overlap_2_1() -> DoorRule {
        DoorRule::Overlap {
            length: 2,
            corner_distance: 1,
        }
    }

    fn rectangle(name: &str, w: i32, h: i32, transforms: Vec<Transform>) -> RoomTemplate {
        RoomTemplate::new(
            name,
            &pts(&[(0, 0), (0, h), (w, h), (w, 0)]),
            overlap_2_1(),
            transforms,
        )
        .unwrap()
    }

    const SQ8: usize = 0;
    const SQ12: usize = 1;
    const RECT12X18: usize = 2;
    const L: usize = 3;
    const CORRIDOR: usize = 4;

    /// thesis_basic, an L and thesis_corridors' 2-square.
    fn templates() -> Vec<RoomTemplate> {
        vec![
            rectangle("8-square", 8, 8, vec![]),
            rectangle("12-square", 12, 12, vec![]),
            rectangle("12-18-rectangle", 12, 18, vec![]),
            RoomTemplate::new(
                "L",
                &pts(&[(0, 0), (0, 8), (4, 8), (4, 4), (8, 4), (8, 0)]),
                overlap_2_1(),
                Transform::all(false).collect(),
            )
            .unwrap(),
            RoomTemplate::new(
                "2-square",
                &pts(&[(0, 0), (0, 2), (2, 2), (2, 0)]),
                DoorRule::Specific(vec![[pt(0, 0), pt(2, 0)], [pt(0, 2), pt(2, 2)]]),
                Transform::all(false).collect(),
            )
            .unwrap(),
        ]
    }

    fn problem(rooms: &[(&str, Vec<usize>)], edges: &[[usize; 2]]) -> LayoutProblem {
        LayoutProblem {
            rooms: rooms
                .iter()
                .map(|(name, templates)| RoomSpec {
                    name: (*name).to_owned(),
                    tag: "room".into(),
                    templates: templates.clone(),
                })
                .collect(),
            edges: edges.to_vec(),
            templates: templates(),
            corridors: None,
            min_distance: 0,
            repeat: RepeatMode::Allow,
            drawing: None,
        }
    }

    /// A placed template, its outline made with the polygon module's own
    /// `transformed` (not the checker's code).
    fn place(problem: &LayoutProblem, template: usize, t: Transform, at: (i32, i32)) -> PlacedRoom {
        PlacedRoom {
            template,
            transform: t,
            position: pt(at.0, at.1),
            outline: problem.templates[template]
                .outline
                .transformed(t)
                .translated(pt(at.0, at.1))
                .points()
                .to_vec(),
        }
    }

    fn door(
        edge: usize,
        room: usize,
        corridor: Option<usize>,
        a: (i32, i32),
        b: (i32, i32),
    ) -> Door {
        Door {
            edge,
            room,
            corridor,
            segment: [pt(a.0, a.1), pt(b.0, b.1)],
        }
    }

    fn room(index: usize, name: &str) -> Part {
        Part::Room {
            index,
            name: name.into(),
        }
    }

    fn kinds(v: &[Violation]) -> Vec<&'static str> {
        v.iter()
            .map(|v| match v {
                Violation::RoomCount { .. } => "RoomCount",
                Violation::CorridorCount { .. } => "CorridorCount",
                Violation::UnknownTemplate { .. } => "UnknownTemplate",
                Violation::TemplateNotAllowed { .. } => "TemplateNotAllowed",
                Violation::TransformNotAllowed { .. } => "TransformNotAllowed",
                Violation::BadOutline { .. } => "BadOutline",
                Violation::OutlineMismatch { .. } => "OutlineMismatch",
                Violation::Overlap { .. } => "Overlap",
                Violation::TooClose { .. } => "TooClose",
                Violation::DoorEdgeUnknown { .. } => "DoorEdgeUnknown",
                Violation::DoorMisattached { .. } => "DoorMisattached",
                Violation::MissingDoor { .. } => "MissingDoor",
                Violation::DuplicateDoor { .. } => "DuplicateDoor",
                Violation::DoorNotStraight { .. } => "DoorNotStraight",
                Violation::DoorNotBetween { .. } => "DoorNotBetween",
                Violation::DoorNotAllowed { .. } => "DoorNotAllowed",
                Violation::RepeatedTemplate { .. } => "RepeatedTemplate",
                Violation::NeighboursShareTemplate { .. } => "NeighboursShareTemplate",
            })
            .collect()
    }

    /// Two 8-squares `a` at the origin and `b` at `b_at`, joined by one
    /// edge with the door `seg`.
    fn squares(b_at: (i32, i32), seg: [(i32, i32); 2]) -> (LayoutProblem, Layout) {
        let p = problem(&[("a", vec![SQ8]), ("b", vec![SQ8])], &[[0, 1]]);
        let layout = Layout {
            rooms: vec![place(&p, SQ8, R0, (0, 0)), place(&p, SQ8, R0, b_at)],
            doors: vec![door(0, 0, None, seg[0], seg[1])],
            corridors: vec![],
        };
        (p, layout)
    }

    fn refusals(v: &[Violation]) -> Vec<(String, DoorRefusal)> {
        v.iter()
            .filter_map(|v| match v {
                Violation::DoorNotAllowed { by, reason, .. } => {
                    Some((by.to_string(), reason.clone()))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn two_squares_side_by_side_with_a_door_are_valid() {
        let (p, l) = squares((8, 0), [(8, 1), (8, 3)]);
        assert_eq!(check_layout(&p, &l), vec![]);
        // Either end order, anywhere on the shared side off the corners.
        let (p, l) = squares((8, 0), [(8, 7), (8, 5)]);
        assert_eq!(check_layout(&p, &l), vec![]);
        // Stacked vertically.
        let (p, l) = squares((0, 8), [(3, 8), (5, 8)]);
        assert_eq!(check_layout(&p, &l), vec![]);
    }

    #[test]
    fn a_door_at_a_corner_is_refused_by_both_rooms() {
        let (p, l) = squares((8, 0), [(8, 0), (8, 2)]);
        let v = check_layout(&p, &l);
        let near = DoorRefusal::NearCorner {
            distance: 0,
            wanted: 1,
        };
        assert_eq!(
            refusals(&v),
            vec![("room `a`".into(), near.clone()), ("room `b`".into(), near)]
        );
        assert_eq!(kinds(&v), ["DoorNotAllowed", "DoorNotAllowed"]);
        let msg = v[0].to_string();
        assert!(
            msg.contains("room `a`") && msg.contains("[8, 0]–[8, 2]"),
            "{msg}"
        );
        assert!(
            msg.contains("8-square") && msg.contains("corner distance 1"),
            "{msg}"
        );
    }

    #[test]
    fn a_door_of_the_wrong_length_is_refused() {
        let (p, l) = squares((8, 0), [(8, 1), (8, 4)]);
        let v = check_layout(&p, &l);
        let long = DoorRefusal::Length {
            found: 3,
            wanted: 2,
        };
        assert_eq!(
            refusals(&v),
            vec![("room `a`".into(), long.clone()), ("room `b`".into(), long)]
        );
        assert_eq!(v.len(), 2);
    }

    #[test]
    fn overlapping_rooms_are_reported() {
        let (p, l) = squares((7, 7), [(8, 1), (8, 3)]);
        let v = check_layout(&p, &l);
        assert!(
            v.contains(&Violation::Overlap {
                parts: [room(0, "a"), room(1, "b")],
                cells: 1,
                first: [7, 7],
            }),
            "{v:?}"
        );
        // A whole column.
        let (p, l) = squares((7, 0), [(8, 1), (8, 3)]);
        let v = check_layout(&p, &l);
        assert!(v
            .iter()
            .any(|v| matches!(v, Violation::Overlap { cells: 8, .. })));
    }

    #[test]
    fn a_door_between_rooms_apart_is_reported() {
        let (p, l) = squares((10, 0), [(8, 1), (8, 3)]);
        let v = check_layout(&p, &l);
        assert_eq!(kinds(&v), ["DoorNotBetween", "DoorNotAllowed"]);
        assert!(matches!(
            &v[0],
            Violation::DoorNotBetween { units: 2, first, .. } if *first == [pt(8, 1), pt(8, 2)]
        ));
        assert_eq!(
            refusals(&v),
            vec![("room `b`".into(), DoorRefusal::NotOnSide)]
        );
    }

    #[test]
    fn a_door_must_lie_where_both_rooms_touch() {
        // b is raised by 4: the rooms share x = 8 for 4 ≤ y ≤ 8 only.
        let (p, l) = squares((8, 4), [(8, 5), (8, 7)]);
        assert_eq!(check_layout(&p, &l), vec![]);
        let (p, l) = squares((8, 4), [(8, 1), (8, 3)]);
        let v = check_layout(&p, &l);
        assert_eq!(kinds(&v), ["DoorNotBetween", "DoorNotAllowed"]);
        // Half on the shared part.
        let (p, l) = squares((8, 4), [(8, 3), (8, 5)]);
        let v = check_layout(&p, &l);
        assert!(matches!(
            &v[0],
            Violation::DoorNotBetween { units: 1, first, .. } if *first == [pt(8, 3), pt(8, 4)]
        ));
        assert_eq!(
            refusals(&v),
            vec![("room `b`".into(), DoorRefusal::NotOnSide)]
        );
    }

    #[test]
    fn doors_must_be_straight_and_attached_to_their_edge() {
        let (p, mut l) = squares((8, 0), [(8, 1), (9, 3)]);
        assert_eq!(kinds(&check_layout(&p, &l)), ["DoorNotStraight"]);
        l.doors[0].segment = [pt(8, 1), pt(8, 1)];
        assert_eq!(kinds(&check_layout(&p, &l)), ["DoorNotStraight"]);
        // From the wrong room: misattached, so the edge has no door.
        l.doors[0] = door(0, 1, None, (8, 1), (8, 3));
        assert_eq!(
            kinds(&check_layout(&p, &l)),
            ["DoorMisattached", "MissingDoor"]
        );
        l.doors[0] = door(3, 0, None, (8, 1), (8, 3));
        assert_eq!(
            kinds(&check_layout(&p, &l)),
            ["DoorEdgeUnknown", "MissingDoor"]
        );
        l.doors = vec![
            door(0, 0, None, (8, 1), (8, 3)),
            door(0, 0, None, (8, 5), (8, 7)),
        ];
        let v = check_layout(&p, &l);
        assert_eq!(kinds(&v), ["DuplicateDoor"]);
        assert_eq!(
            v[0].to_string(),
            "edge `a`–`b` has 2 doors from room `a` into room `b`, expected one"
        );
    }

    #[test]
    fn templates_transforms_and_outlines_are_checked() {
        // a uses the 12-square, which it may not.
        let p = problem(&[("a", vec![SQ8]), ("b", vec![SQ8])], &[[0, 1]]);
        let l = Layout {
            rooms: vec![place(&p, SQ12, R0, (0, 0)), place(&p, SQ8, R0, (12, 0))],
            doors: vec![door(0, 0, None, (12, 1), (12, 3))],
            corridors: vec![],
        };
        let v = check_layout(&p, &l);
        assert_eq!(
            v,
            vec![Violation::TemplateNotAllowed {
                part: room(0, "a"),
                template: "12-square".into()
            }]
        );

        // The 12 × 18 rectangle turned, which its template does not allow
        // (the outline and door are consistent with the turn).
        let p = problem(&[("a", vec![RECT12X18]), ("b", vec![SQ8])], &[[0, 1]]);
        let l = Layout {
            rooms: vec![
                place(&p, RECT12X18, R90, (0, 0)),
                place(&p, SQ8, R0, (18, 0)),
            ],
            doors: vec![door(0, 0, None, (18, 1), (18, 3))],
            corridors: vec![],
        };
        assert_eq!(kinds(&check_layout(&p, &l)), ["TransformNotAllowed"]);
        // Unturned, the outline is 12 wide: the given outline no longer
        // matches, and the door is off its side.
        let mut l2 = l.clone();
        l2.rooms[0].transform = R0;
        let v = check_layout(&p, &l2);
        assert!(matches!(
            v[0],
            Violation::OutlineMismatch {
                missing: 72,
                extra: 72,
                ..
            }
        ));

        // An 8 × 9 outline for an 8-square.
        let (p, mut l) = squares((8, 0), [(8, 1), (8, 3)]);
        l.rooms[0].outline = pts(&[(0, 0), (8, 0), (8, 9), (0, 9)]);
        let v = check_layout(&p, &l);
        assert_eq!(kinds(&v), ["OutlineMismatch"]);
        assert!(v[0].to_string().contains("0 cells missing, 8 extra"));
        // Same cells, other start and orientation: fine.
        l.rooms[0].outline = pts(&[(8, 8), (8, 0), (0, 0), (0, 8)]);
        assert_eq!(check_layout(&p, &l), vec![]);
        // A diagonal side through the corner cell's centre: the same cells
        // by the crossing rule, but not an orthogonal outline.
        l.rooms[0].outline = pts(&[(0, 0), (8, 0), (8, 8), (1, 8), (0, 7)]);
        assert_eq!(kinds(&check_layout(&p, &l)), ["BadOutline"]);
        // A longer one cuts off the corner cell.
        l.rooms[0].outline = pts(&[(0, 0), (8, 0), (8, 8), (2, 8), (0, 6)]);
        let v = check_layout(&p, &l);
        assert_eq!(kinds(&v), ["BadOutline", "OutlineMismatch"]);
        assert!(v[1].to_string().contains("1 cells missing, 0 extra"));
        // An unknown template.
        l.rooms[0] = place(&p, SQ8, R0, (0, 0));
        l.rooms[0].template = 99;
        assert_eq!(kinds(&check_layout(&p, &l)), ["UnknownTemplate"]);
    }

    #[test]
    fn counts_are_checked() {
        let (p, mut l) = squares((8, 0), [(8, 1), (8, 3)]);
        l.rooms.pop();
        assert_eq!(kinds(&check_layout(&p, &l)), ["RoomCount"]);
        let (p, mut l) = squares((8, 0), [(8, 1), (8, 3)]);
        l.corridors.push(place(&p, CORRIDOR, R0, (20, 20)));
        assert_eq!(kinds(&check_layout(&p, &l)), ["CorridorCount"]);
    }

    /// The L turned a quarter: its bottom row is 8 × 4 and its upper part
    /// x 4..8, y 4..8; an 8-square at (−4, 4) sits in its inner corner.
    fn l_and_square(seg: [(i32, i32); 2]) -> (LayoutProblem, Layout) {
        let p = problem(&[("l", vec![L]), ("s", vec![SQ8])], &[[0, 1]]);
        let l = Layout {
            rooms: vec![place(&p, L, R90, (0, 0)), place(&p, SQ8, R0, (-4, 4))],
            doors: vec![door(0, 0, None, seg[0], seg[1])],
            corridors: vec![],
        };
        (p, l)
    }

    #[test]
    fn a_turned_l_takes_doors_on_its_inner_corner_sides() {
        let (p, l) = l_and_square([(1, 4), (3, 4)]);
        assert_eq!(
            l.rooms[0].outline,
            pts(&[(0, 0), (8, 0), (8, 8), (4, 8), (4, 4), (0, 4)])
        );
        assert_eq!(check_layout(&p, &l), vec![]);
        let (p, l) = l_and_square([(4, 5), (4, 7)]);
        assert_eq!(check_layout(&p, &l), vec![]);
        // At the L's outer corner (0, 4): refused by the L only.
        let (p, l) = l_and_square([(0, 4), (2, 4)]);
        assert_eq!(
            refusals(&check_layout(&p, &l)),
            vec![(
                "room `l`".into(),
                DoorRefusal::NearCorner {
                    distance: 0,
                    wanted: 1
                }
            )]
        );
        // At the inner corner (4, 4), which is also the square's corner.
        let (p, l) = l_and_square([(2, 4), (4, 4)]);
        let near = DoorRefusal::NearCorner {
            distance: 0,
            wanted: 1,
        };
        assert_eq!(
            refusals(&check_layout(&p, &l)),
            vec![("room `l`".into(), near.clone()), ("room `s`".into(), near)]
        );
    }

    /// Rooms `a` at the origin and `b` at `b_at`, a corridor at `c_at`
    /// under `t`, with doors `da` (from a) and `db` (from b).
    fn corridor_layout(
        b_at: (i32, i32),
        c_at: (i32, i32),
        t: Transform,
        da: [(i32, i32); 2],
        db: [(i32, i32); 2],
    ) -> (LayoutProblem, Layout) {
        let mut p = problem(&[("a", vec![SQ8]), ("b", vec![SQ8])], &[[0, 1]]);
        p.corridors = Some(CorridorSpec {
            offsets: vec![2],
            templates: vec![CORRIDOR],
        });
        let l = Layout {
            rooms: vec![place(&p, SQ8, R0, (0, 0)), place(&p, SQ8, R0, b_at)],
            doors: vec![
                door(0, 0, Some(0), da[0], da[1]),
                door(0, 1, Some(0), db[0], db[1]),
            ],
            corridors: vec![place(&p, CORRIDOR, t, c_at)],
        };
        (p, l)
    }

    #[test]
    fn corridors_with_specific_doors() {
        // b two above a, the 2-square between them.
        let (p, l) = corridor_layout((0, 10), (3, 8), R0, [(3, 8), (5, 8)], [(5, 10), (3, 10)]);
        assert_eq!(check_layout(&p, &l), vec![]);

        // Missing b's door.
        let mut l2 = l.clone();
        l2.doors.pop();
        let v = check_layout(&p, &l2);
        assert_eq!(kinds(&v), ["MissingDoor"]);
        assert_eq!(
            v[0].to_string(),
            "edge `a`–`b` has no door from room `b` into the corridor of `a`–`b`"
        );

        // A door into no corridor when corridors are on.
        let mut l3 = l.clone();
        l3.doors[1].corridor = None;
        assert_eq!(
            kinds(&check_layout(&p, &l3)),
            ["DoorMisattached", "MissingDoor"]
        );

        // The corridor one lower overlaps a.
        let (p, l) = corridor_layout((0, 10), (3, 7), R0, [(3, 8), (5, 8)], [(3, 10), (5, 10)]);
        let v = check_layout(&p, &l);
        let corridor = Part::Corridor {
            edge: 0,
            ends: ["a".into(), "b".into()],
        };
        assert!(v.contains(&Violation::Overlap {
            parts: [room(0, "a"), corridor.clone()],
            cells: 2,
            first: [3, 7],
        }));
        assert!(refusals(&v).contains(&(corridor.to_string(), DoorRefusal::NotListed)));

        // Side by side with the corridor's doors on its left and right:
        // refused unturned, fine turned a quarter.
        let (p, l) = corridor_layout((10, 0), (8, 3), R0, [(8, 3), (8, 5)], [(10, 3), (10, 5)]);
        assert_eq!(
            refusals(&check_layout(&p, &l)),
            vec![
                (corridor.to_string(), DoorRefusal::NotListed),
                (corridor.to_string(), DoorRefusal::NotListed)
            ]
        );
        let (p, l) = corridor_layout((10, 0), (8, 3), R90, [(8, 3), (8, 5)], [(10, 3), (10, 5)]);
        assert_eq!(check_layout(&p, &l), vec![]);

        // Corridor templates must be corridor templates.
        let (p, mut l) = corridor_layout((0, 10), (3, 8), R0, [(3, 8), (5, 8)], [(5, 10), (3, 10)]);
        l.corridors[0].template = SQ8;
        let v = check_layout(&p, &l);
        assert_eq!(kinds(&v)[0], "TemplateNotAllowed");
    }

    /// Two unconnected 8-squares, `b` at `b_at`.
    fn apart(b_at: (i32, i32), min_distance: u32) -> Vec<Violation> {
        let mut p = problem(&[("a", vec![SQ8]), ("b", vec![SQ8])], &[]);
        p.min_distance = min_distance;
        let l = Layout {
            rooms: vec![place(&p, SQ8, R0, (0, 0)), place(&p, SQ8, R0, b_at)],
            doors: vec![],
            corridors: vec![],
        };
        check_layout(&p, &l)
    }

    #[test]
    fn unconnected_rooms_keep_the_minimum_distance() {
        let touching = Violation::TooClose {
            rooms: [room(0, "a"), room(1, "b")],
            gap: 0,
            min_distance: 1,
        };
        assert_eq!(apart((8, 0), 1), vec![touching.clone()]);
        assert!(touching.to_string().contains("only 0 apart"));
        assert_eq!(apart((8, 8), 1), vec![touching]); // corners touch
        assert_eq!(apart((9, 0), 1), vec![]);
        assert_eq!(apart((9, 9), 1), vec![]);
        assert_eq!(apart((8, 0), 0), vec![]);
        assert!(matches!(
            apart((9, -9), 2)[..],
            [Violation::TooClose { gap: 1, .. }]
        ));
        assert!(matches!(
            apart((-12, 3), 5)[..],
            [Violation::TooClose { gap: 4, .. }]
        ));
        // Overlap is reported as such, not as a distance.
        assert_eq!(kinds(&apart((4, 4), 1)), ["Overlap"]);
        // Rooms an edge joins may touch whatever the minimum distance.
        let (mut p, l) = squares((8, 0), [(8, 1), (8, 3)]);
        p.min_distance = 3;
        assert_eq!(check_layout(&p, &l), vec![]);
    }

    #[test]
    fn repeat_modes() {
        // a, b: 8-squares, c: a 12-square; edges a–b, b–c.
        let mut p = problem(
            &[
                ("a", vec![SQ8, SQ12]),
                ("b", vec![SQ8, SQ12]),
                ("c", vec![SQ8, SQ12]),
            ],
            &[[0, 1], [1, 2]],
        );
        let l = Layout {
            rooms: vec![
                place(&p, SQ8, R0, (0, 0)),
                place(&p, SQ8, R0, (8, 0)),
                place(&p, SQ12, R0, (16, 0)),
            ],
            doors: vec![
                door(0, 0, None, (8, 1), (8, 3)),
                door(1, 1, None, (16, 1), (16, 3)),
            ],
            corridors: vec![],
        };
        assert_eq!(check_layout(&p, &l), vec![]);
        p.repeat = RepeatMode::NoRepeat;
        assert_eq!(
            check_layout(&p, &l),
            vec![Violation::RepeatedTemplate {
                template: "8-square".into(),
                first: room(0, "a"),
                again: room(1, "b"),
            }]
        );
        p.repeat = RepeatMode::NoImmediate;
        let v = check_layout(&p, &l);
        assert_eq!(kinds(&v), ["NeighboursShareTemplate"]);
        assert!(v[0].to_string().contains("edge `a`–`b`"));
    }

    #[test]
    fn rasterised_outlines_and_inverse_transforms() {
        let l = &templates()[L];
        for t in Transform::all(true) {
            let u = inverse(t);
            for p in [pt(2, 1), pt(-3, 5)] {
                assert_eq!(u.apply(t.apply(p)), p);
                assert_eq!(t.apply(u.apply(p)), p);
            }
            let turned: Vec<Cell> = l
                .outline
                .points()
                .iter()
                .map(|&p| {
                    let q = t.apply(p);
                    (i64::from(q.x), i64::from(q.y))
                })
                .collect();
            assert_eq!(raster(&turned).unwrap().len(), 48);
        }
        assert_eq!(inverse(R90).rotation, 3);
        // A triangle by the even-odd rule: the cells whose centre is below
        // its slope y = x / 2.
        let tri = raster(&[(0, 0), (4, 0), (4, 2)]).unwrap();
        assert_eq!(
            tri.into_iter().collect::<Vec<_>>(),
            [(1, 0), (2, 0), (3, 0), (3, 1)]
        );
    }

    proptest::proptest! {
        /// Cross-check against the polygon module's rectangle arithmetic:
        /// two unconnected rectangles overlap in `Rect::overlap` cells or
        /// are `Rect::gap` apart.
        #[test]
        fn rectangles_agree_with_rect_arithmetic(
            w1 in 1i32..7, h1 in 1i32..7, w2 in 1i32..7, h2 in 1i32..7,
            dx in -10i32..10, dy in -10i32..10, d in 1u32..4,
        ) {
            let mut p = problem(&[("a", vec![0]), ("b", vec![1])], &[]);
            p.templates = vec![
                RoomTemplate::new("r1", &pts(&[(0, 0), (w1, 0), (w1, h1), (0, h1)]),
                    DoorRule::Overlap { length: 1, corner_distance: 0 }, vec![]).unwrap(),
                RoomTemplate::new("r2", &pts(&[(0, 0), (w2, 0), (w2, h2), (0, h2)]),
                    DoorRule::Overlap { length: 1, corner_distance: 0 }, vec![]).unwrap(),
            ];
            p.min_distance = d;
            let l = Layout {
                rooms: vec![place(&p, 0, R0, (0, 0)), place(&p, 1, R0, (dx, dy))],
                doors: vec![],
                corridors: vec![],
            };
            let r1 = Rect { x0: 0, y0: 0, x1: w1, y1: h1 };
            let r2 = Rect { x0: 0, y0: 0, x1: w2, y1: h2 };
            let overlap = r1.overlap(&r2, pt(dx, dy));
            let gap = r1.gap(&r2, pt(dx, dy));
            let v = check_layout(&p, &l);
            let ok = if overlap > 0 {
                matches!(v[..], [Violation::Overlap { cells, .. }] if cells as i64 == overlap)
            } else if i64::from(gap) < i64::from(d) {
                matches!(v[..], [Violation::TooClose { gap: g, .. }] if g == i64::from(gap))
            } else {
                v.is_empty()
            };
            proptest::prop_assert!(ok, "overlap {}, gap {}: {:?}", overlap, gap, v);
        }
    }
}
