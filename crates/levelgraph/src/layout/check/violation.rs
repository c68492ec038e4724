//! What the checker reports: [`Violation`]s, naming parts, edges and doors
//! ([`Part`], [`EdgeRef`], [`DoorRef`]) and why a door rule or an outline
//! refuses ([`DoorRefusal`], [`OutlineFault`]).

use crate::layout::polygon::{GridPoint, Transform};
use std::fmt;

/// A room or a corridor of a layout, named for messages.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Part {
    /// A room.
    Room {
        /// Index into [`LayoutProblem::rooms`](crate::layout::LayoutProblem::rooms) and [`Layout::rooms`](crate::layout::Layout::rooms).
        index: usize,
        /// Its [`RoomSpec::name`](crate::layout::RoomSpec::name) (`#index` when the
        /// problem has no such room).
        name: String,
    },
    /// The corridor of an edge.
    Corridor {
        /// Index of the edge in [`LayoutProblem::edges`](crate::layout::LayoutProblem::edges) (and of the
        /// corridor in [`Layout::corridors`](crate::layout::Layout::corridors)).
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
    /// Index into [`LayoutProblem::edges`](crate::layout::LayoutProblem::edges).
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
    /// Index into [`Layout::doors`](crate::layout::Layout::doors).
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
#[non_exhaustive]
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
#[non_exhaustive]
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
        reason: OutlineFault,
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
        /// Index into [`Layout::doors`](crate::layout::Layout::doors).
        door: usize,
        /// The edge index it names.
        edge: usize,
    },
    /// A door names an edge but the wrong room or corridor for it: without
    /// corridors a door must open from the edge's first room into its
    /// second (`corridor: None`); with corridors from either of the edge's
    /// rooms into the edge's own corridor.
    DoorMisattached {
        /// Index into [`Layout::doors`](crate::layout::Layout::doors).
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

/// Why a part's outline cannot be used ([`Violation::BadOutline`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutlineFault {
    /// Fewer than 4 corners.
    FewCorners {
        /// How many it has.
        corners: usize,
    },
    /// A side that is neither horizontal nor vertical (the first such).
    Slanted {
        /// Its start (grid units).
        from: [i64; 2],
        /// Its end.
        to: [i64; 2],
    },
    /// The bounding box holds more cells than the checker rasterises
    /// (4,000,000).
    TooLarge {
        /// Its width (grid units).
        width: i64,
        /// Its height.
        height: i64,
    },
    /// The part's template outline under its transform cannot be
    /// rasterised.
    Template {
        /// The template's name.
        template: String,
        /// Why.
        fault: Box<OutlineFault>,
    },
}

impl fmt::Display for OutlineFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutlineFault::FewCorners { corners } => {
                write!(f, "it has {corners} corners, fewer than 4")
            }
            OutlineFault::Slanted { from, to } => write!(
                f,
                "its side [{}, {}]–[{}, {}] is neither horizontal nor vertical",
                from[0], from[1], to[0], to[1]
            ),
            OutlineFault::TooLarge { width, height } => write!(
                f,
                "its bounding box of {width} × {height} is too large to check"
            ),
            OutlineFault::Template { template, fault } => {
                write!(f, "its template `{template}` cannot be rasterised: {fault}")
            }
        }
    }
}
