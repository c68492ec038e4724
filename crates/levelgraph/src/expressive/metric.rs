//! The metrics of one level, each with its name (a CSV column), what it
//! counts and where the measure comes from.

/// Which stage of the pipeline a metric needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// The mission graph (and the play check, when the grammar has a
    /// `play` block).
    Mission,
    /// The room layout (`--layout`; a grammar with a `rooms` block).
    Layout,
    /// The tile map of the layout (`--tiles`).
    Tiles,
}

/// A metric of one level. Every value is a number; whole-number metrics
/// are counts. A metric that does not apply to a level (a distance
/// without an entrance, layout metrics of a level not laid out) has no
/// value, an empty CSV cell.
///
/// The graph metrics read the level as the player sees it (the `play`
/// block's reading, [`crate::play`]): a **room** is a *place*, a top-level
/// vertex whose tag the block does not `ignore` (keys and locks that are
/// vertices of their own are rooms too; stored vertices are in their
/// room); a **corridor** is a *passage*, a non-cosmetic edge between two
/// different rooms. Without a `play` block every top-level vertex is a
/// room. Distances count corridors, walked both ways, ignoring locks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    /// Vertices of the mission graph, stored ones included.
    Vertices,
    /// Rooms (places).
    Rooms,
    /// Corridors (passages); parallel corridors count each.
    Corridors,
    /// Independent cycles of the room graph, its cyclomatic number
    /// (circuit rank): corridors − rooms + connected components.
    Cycles,
    /// Keys (the `play` block's key statements).
    Keys,
    /// Locks: locked rooms and locked doors.
    Locks,
    /// Locks that gate something: with the lock shut, the goal or some
    /// room can no longer be reached.
    GatingLocks,
    /// Dead ends: rooms with exactly one corridor, other than the entrance
    /// and the goals.
    DeadEnds,
    /// Branching factor: the mean number of children of the rooms that
    /// have any, in the breadth-first tree of the room graph from the
    /// entrance (1 for a corridor of rooms).
    Branching,
    /// Corridors on a shortest way from the entrance to the goal (the
    /// farthest goal when there are several), ignoring locks.
    Distance,
    /// Playthrough length: rooms entered by a player who walks from the
    /// entrance straight to each key the play check's playthrough uses,
    /// in the order it picks them up, then to the goal, each leg a
    /// shortest way through what the keys held so far open; the entrance
    /// counts once.
    Playthrough,
    /// Backtracking: the entries of that walk into a room entered before
    /// (going back from a key to the lock it opens).
    Backtracking,
    /// Linearity: the share of the rooms that lie on the shortest way
    /// from the entrance to the goal, (distance + 1) / rooms, in (0, 1];
    /// 1 for a level that is one corridor of rooms.
    Linearity,
    /// Derivation steps: rule applications.
    Steps,
    /// Width of the layout's bounding box, in grid units.
    Width,
    /// Height of the layout's bounding box, in grid units.
    Height,
    /// Density: the area of the rooms and corridors over the area of the
    /// bounding box, in (0, 1].
    Density,
    /// Corridor rooms the layout placed (0 when the `rooms` block has no
    /// corridors).
    LayoutCorridors,
    /// Perturbations the layout's simulated annealing made.
    LayoutIterations,
    /// Passable cells over all cells of the tile map.
    FloorRatio,
    /// The longest shortest path between two passable cells of one
    /// region of the tile map, in steps (its largest region diameter).
    LongestPath,
}

impl Metric {
    /// Every metric, in column order.
    pub const ALL: [Metric; 21] = [
        Metric::Vertices,
        Metric::Rooms,
        Metric::Corridors,
        Metric::Cycles,
        Metric::Keys,
        Metric::Locks,
        Metric::GatingLocks,
        Metric::DeadEnds,
        Metric::Branching,
        Metric::Distance,
        Metric::Playthrough,
        Metric::Backtracking,
        Metric::Linearity,
        Metric::Steps,
        Metric::Width,
        Metric::Height,
        Metric::Density,
        Metric::LayoutCorridors,
        Metric::LayoutIterations,
        Metric::FloorRatio,
        Metric::LongestPath,
    ];

    /// Its position in [`Metric::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its column name in `levels.csv` and key in `summary.json`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Vertices => "vertices",
            Metric::Rooms => "rooms",
            Metric::Corridors => "corridors",
            Metric::Cycles => "cycles",
            Metric::Keys => "keys",
            Metric::Locks => "locks",
            Metric::GatingLocks => "gating_locks",
            Metric::DeadEnds => "dead_ends",
            Metric::Branching => "branching",
            Metric::Distance => "distance",
            Metric::Playthrough => "playthrough",
            Metric::Backtracking => "backtracking",
            Metric::Linearity => "linearity",
            Metric::Steps => "steps",
            Metric::Width => "width",
            Metric::Height => "height",
            Metric::Density => "density",
            Metric::LayoutCorridors => "layout_corridors",
            Metric::LayoutIterations => "layout_iterations",
            Metric::FloorRatio => "floor_ratio",
            Metric::LongestPath => "longest_path",
        }
    }

    /// The metric of a column name.
    pub fn from_name(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    /// What it measures, in a few words, for axis labels.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Vertices => "vertices",
            Metric::Rooms => "rooms",
            Metric::Corridors => "corridors",
            Metric::Cycles => "cycles (cyclomatic number)",
            Metric::Keys => "keys",
            Metric::Locks => "locks",
            Metric::GatingLocks => "locks that gate something",
            Metric::DeadEnds => "dead ends",
            Metric::Branching => "branching factor",
            Metric::Distance => "entrance-goal distance (corridors)",
            Metric::Playthrough => "playthrough length (rooms entered)",
            Metric::Backtracking => "backtracking (rooms entered again)",
            Metric::Linearity => "linearity (share of rooms on the way)",
            Metric::Steps => "derivation steps",
            Metric::Width => "layout width (grid units)",
            Metric::Height => "layout height (grid units)",
            Metric::Density => "layout density",
            Metric::LayoutCorridors => "layout corridors",
            Metric::LayoutIterations => "layout iterations",
            Metric::FloorRatio => "floor ratio",
            Metric::LongestPath => "longest path (tiles)",
        }
    }

    /// How it is computed, in a sentence, for reports (the variant's
    /// documentation, in short).
    pub fn about(self) -> &'static str {
        match self {
            Metric::Vertices => "Vertices of the mission graph, stored ones included.",
            Metric::Rooms => "Places: top-level vertices whose tag the play block does not ignore (keys and locks that are vertices of their own count).",
            Metric::Corridors => "Passages: non-cosmetic edges between two different rooms.",
            Metric::Cycles => "Cyclomatic number of the room graph: corridors − rooms + connected components (independent loops).",
            Metric::Keys => "Keys, as the play block defines them.",
            Metric::Locks => "Locks: locked rooms and locked doors.",
            Metric::GatingLocks => "Locks that gate something: shut, the goal or some room can no longer be reached.",
            Metric::DeadEnds => "Rooms with exactly one corridor, other than the entrance and the goals.",
            Metric::Branching => "Mean number of children of the rooms that have any, in the breadth-first tree from the entrance (1: a corridor of rooms).",
            Metric::Distance => "Corridors on a shortest way from the entrance to the (farthest) goal, locks ignored.",
            Metric::Playthrough => "Rooms entered walking from the entrance straight to each key the playthrough uses, in its order, then to the goal; each leg a shortest way through what the keys held open.",
            Metric::Backtracking => "Entries of that walk into a room entered before (coming back from a key to its lock).",
            Metric::Linearity => "Share of the rooms on the shortest entrance-goal way: (distance + 1) / rooms; 1 for one corridor of rooms.",
            Metric::Steps => "Rule applications of the derivation.",
            Metric::Width => "Width of the layout's bounding box, in grid units.",
            Metric::Height => "Height of the layout's bounding box, in grid units.",
            Metric::Density => "Area of the rooms and corridors over the area of the layout's bounding box.",
            Metric::LayoutCorridors => "Corridor rooms the layout placed.",
            Metric::LayoutIterations => "Perturbations the layout's simulated annealing made.",
            Metric::FloorRatio => "Passable cells over all cells of the tile map.",
            Metric::LongestPath => "Longest shortest path between two passable cells of one region, in steps.",
        }
    }

    /// The stage it needs.
    pub fn stage(self) -> Stage {
        match self {
            Metric::Width
            | Metric::Height
            | Metric::Density
            | Metric::LayoutCorridors
            | Metric::LayoutIterations => Stage::Layout,
            Metric::FloorRatio | Metric::LongestPath => Stage::Tiles,
            _ => Stage::Mission,
        }
    }

    /// Whether its values are shares or means (else counts): written with
    /// four decimals, and binned by width in pictures.
    pub fn is_fraction(self) -> bool {
        matches!(
            self,
            Metric::Branching | Metric::Linearity | Metric::Density | Metric::FloorRatio
        )
    }
}

/// Rounds a fractional metric to the four decimals `levels.csv` keeps, so
/// that a value read back from the file is the value summarised: a merged
/// run equals one run to the byte.
pub(crate) fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found_again() {
        for (i, m) in Metric::ALL.into_iter().enumerate() {
            assert_eq!(m.index(), i);
            assert_eq!(Metric::from_name(m.name()), Some(m));
        }
        assert_eq!(Metric::from_name("nothing"), None);
    }
}
