//! Why no layout was made ([`LayoutError`]): a wrong problem, a graph that
//! is not planar, or a limit that stopped the search, with its hints.

use crate::layout::planarity::PlanarityError;
use std::fmt;
use std::time::Duration;

/// Why no layout was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LayoutError {
    /// The problem itself is wrong.
    #[error("{0}")]
    Problem(ProblemError),
    /// The level graph has no planar embedding, so no layout of touching
    /// rooms exists: the planarity test's error (`the graph is not planar
    /// (…)`).
    #[error("{0}: rooms that touch can only make planar graphs")]
    NotPlanar(PlanarityError),
    /// The work budget ([`LayoutSettings::max_work`](super::LayoutSettings::max_work))
    /// ran out while the configuration spaces of the shape pairs were
    /// built, before any search: the templates are too many or too large
    /// for it, whatever the seed.
    #[error(
        "no layout within {limit}: the configuration spaces of {shapes} shapes need more work than that (the largest template, `{largest}`, has {corners} corners); fewer or smaller templates need less"
    )]
    Preparation {
        /// The budget, [`LimitKind::MaxWork`].
        limit: LimitKind,
        /// Distinct shapes (template × transform), rooms' and corridors'.
        shapes: usize,
        /// The name of the template with the most corners.
        largest: String,
        /// Its corners.
        corners: usize,
    },
    /// A limit stopped the search.
    #[error(
        "no layout within {limit}: {iterations} iterations, {backtracks} backtracks, {restarts} restarts; chain {chain} of {chains} ({}) failed most often ({failures} times){}",
        .chain_rooms.join(", "),
        Hints(.hints)
    )]
    Limit {
        /// Which limit.
        limit: LimitKind,
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
        /// Its rooms, by name, in chain order (shown joined by `, `).
        chain_rooms: Vec<String>,
        /// How often it failed.
        failures: u64,
        /// Work units done (see
        /// [`LayoutSettings::max_work`](super::LayoutSettings::max_work));
        /// not shown.
        work: u64,
        /// Hints for the user, in order (each shown on its own line).
        hints: Vec<Hint>,
    },
}

/// What is wrong with a [`LayoutProblem`](super::super::LayoutProblem)
/// ([`LayoutError::Problem`]); rooms are named by their
/// [`RoomSpec::name`](super::super::RoomSpec::name).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemError {
    /// The problem has no rooms.
    #[error("no rooms to lay out")]
    NoRooms,
    /// A room's template list is empty.
    #[error("room {room} has no templates")]
    NoTemplates {
        /// The room.
        room: String,
    },
    /// A room names a template index beyond the problem's templates.
    #[error("room {room} uses template {template}, but there are {templates}")]
    UnknownTemplate {
        /// The room.
        room: String,
        /// The index it gives.
        template: usize,
        /// How many templates there are.
        templates: usize,
    },
    /// An edge is a self-loop or has an end beyond the rooms.
    #[error("edge {edge} joins {} and {}: not two different rooms of 0..{rooms}", .ends[0], .ends[1])]
    BadEdge {
        /// Its index in the edges.
        edge: usize,
        /// Its two ends as given (room indices).
        ends: [usize; 2],
        /// How many rooms there are.
        rooms: usize,
    },
    /// The level graph has more than one connected part.
    #[error("the level graph is not connected: a layout is one connected set of rooms")]
    NotConnected,
    /// Corridors are asked for, but none of their templates gives a shape.
    #[error("corridors are on but no corridor template is given")]
    NoCorridorTemplate,
    /// No shape of one room has a door that meets a door of a shape of the
    /// other (directly, or through a corridor shape).
    #[error(
        "rooms {} and {} (edge {edge}) can never be joined: no door of one meets a door of the other{} (door lengths must be equal)",
        .rooms[0],
        .rooms[1],
        if *.corridors { " through a corridor" } else { "" }
    )]
    NeverJoined {
        /// The edge's two rooms.
        rooms: [String; 2],
        /// The edge's index.
        edge: usize,
        /// Whether corridors are on.
        corridors: bool,
    },
    /// Repeat mode `NoImmediate`, and two joined rooms have the same single
    /// template.
    #[error(
        "rooms {} and {} are joined and can only use template `{template}`, but the repeat mode is no_immediate",
        .rooms[0],
        .rooms[1]
    )]
    SameTemplateJoined {
        /// The two rooms.
        rooms: [String; 2],
        /// The template's name.
        template: String,
    },
    /// Repeat mode `NoRepeat`, and the rooms cannot all get different
    /// templates.
    #[error("the repeat mode is no_repeat, but the {rooms} rooms cannot all get different templates (room {room} is left without one)")]
    TooFewTemplates {
        /// How many rooms there are.
        rooms: usize,
        /// The room left without a template of its own.
        room: String,
    },
}

/// The limit that stopped a run ([`LayoutError::Limit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LimitKind {
    /// [`LayoutSettings::max_iterations`](super::LayoutSettings::max_iterations),
    /// with its value; shown as `max_iterations N`.
    MaxIterations(u64),
    /// [`LayoutSettings::time_limit`](super::LayoutSettings::time_limit),
    /// with its value; shown as `time_limit S s` (seconds, three decimals).
    TimeLimit(Duration),
    /// [`LayoutSettings::max_work`](super::LayoutSettings::max_work), with
    /// its value; shown as `max_work N`.
    MaxWork(u64),
    /// No limit was recorded (a run stops only at one); shown as
    /// `its limits`.
    Unnamed,
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitKind::MaxIterations(n) => write!(f, "max_iterations {n}"),
            LimitKind::TimeLimit(limit) => write!(f, "time_limit {:.3} s", limit.as_secs_f64()),
            LimitKind::MaxWork(n) => write!(f, "max_work {n}"),
            LimitKind::Unnamed => f.write_str("its limits"),
        }
    }
}

/// A hint of a failed run ([`LayoutError::Limit`]); shown as one line
/// starting `hint: `.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Hint {
    /// The level has more than 60 rooms.
    ManyRooms {
        /// How many.
        rooms: usize,
    },
    /// The chain that failed most is a short odd cycle (at most 5 rooms).
    ShortOddCycle,
    /// A door near the chain that failed most whose rooms are also joined
    /// by three other room-disjoint paths: one of them is shut in by the
    /// door and another.
    ShutIn {
        /// The door's two rooms, by name.
        door: [String; 2],
        /// The three paths, each as its rooms by name from one door room to
        /// the other, ends included.
        paths: Vec<Vec<String>>,
        /// The least area (square grid units, with the smallest templates)
        /// the path that is shut in brings with it, if any pair of paths
        /// was there to measure.
        least_area: Option<i64>,
        /// Whether every path has rooms hanging off it (then leaving one
        /// bare is suggested too).
        all_carry: bool,
    },
    /// Some chain failed: rooms meet more easily with more templates,
    /// longer sides or equal door lengths.
    MeetMoreEasily,
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::ManyRooms { rooms } => write!(
                f,
                "hint: {rooms} rooms is many for one layout; try fewer or smaller rooms"
            ),
            Hint::ShortOddCycle => f.write_str("hint: short odd cycles are hard with rectangular rooms: add room shapes (L, T) or more door positions"),
            Hint::ShutIn {
                door,
                paths,
                least_area,
                all_carry,
            } => {
                let listed = paths
                    .iter()
                    .map(|p| p.join("–"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let need = least_area
                    .map(|a| {
                        format!(" (rooms of at least {a} square units with the smallest templates)")
                    })
                    .unwrap_or_default();
                let bare = if *all_carry {
                    ", or leave one of them bare (each has rooms hanging off it)"
                } else {
                    ""
                };
                write!(
                    f,
                    "hint: rooms {} and {} share a door and are also joined by three other separate paths of rooms ({listed}); in any layout one of those paths is shut in by the door and another path, with every room hanging off it{need}, which these templates may allow rarely or never: join fewer paths around one door{bare}",
                    door[0], door[1]
                )
            }
            Hint::MeetMoreEasily => f.write_str("hint: more templates, longer sides (more door positions) or equal door lengths make rooms meet more easily"),
        }
    }
}

/// Hints as [`LayoutError::Limit`] shows them: each on a line of its own,
/// after the message.
struct Hints<'a>(&'a [Hint]);

impl fmt::Display for Hints<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for hint in self.0 {
            write!(f, "\n{hint}")?;
        }
        Ok(())
    }
}
