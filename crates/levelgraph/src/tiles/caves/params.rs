//! The cave generator's parameters: sizes and limits, the rule and
//! connectivity choices, [`CaveParams`] with its defaults and `validate`.

use std::fmt;
use std::str::FromStr;

use crate::tiles::TilesError;

/// The largest `width` and `height` [`CaveParams::validate`] accepts.
pub const MAX_SIDE: u32 = 2048;

/// The smallest `width` and `height`: a wall ring around one cell.
pub const MIN_SIDE: u32 = 3;

/// The smallest side on which floor can survive an iteration of either
/// rule: with a side of 3 the interior is one cell wide, every interior
/// cell's 3 × 3 block holds at least 6 cells of the wall ring (≥ 5 walls
/// makes wall), so the first iteration walls it all over.
/// [`CaveParams::validate`] asks for it when any iteration runs.
pub const MIN_SIDE_WITH_ITERATIONS: u32 = 4;

/// The smallest longer side on which floor can survive an iteration, when
/// the shorter is [`MIN_SIDE_WITH_ITERATIONS`]: a 4 × 4 map's interior is
/// 2 × 2 cells, each holding 5 ring cells in its 3 × 3 block. From 4 × 5
/// on, an interior cell away from the map's corners sees only 3.
pub const MIN_LONG_SIDE_WITH_ITERATIONS: u32 = 5;

/// Below this many cells on its shorter side, a map that kept no floor is
/// told it may be too small: with the default 4 + 3 iterations no fill of
/// maps up to 4 × 7, 5 × 7, 6 × 5 or 7 × 5 keeps any (an exhaustive check
/// of every fill of at most 16 interior cells, both rules), while 6 × 6
/// can.
pub(super) const SMALL_MAP_SIDE: u32 = 8;

/// The most iterations of either phase [`CaveParams::validate`] accepts;
/// the automaton settles within a handful.
pub const MAX_ITERATIONS: u32 = 100;

/// The most starts [`CaveParams::validate`] accepts.
pub const MAX_TRIES: u32 = 1000;

/// How much `floor_chance` rises for each new start (step 4).
pub const FLOOR_CHANCE_STEP: f64 = 0.01;

/// Which update rule the automaton runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum CaveRule {
    /// The default 3 × 3 / 4 × 4 / 3 × 3 rule set, a variant of the 4-5
    /// rule; the first rule that applies wins: the 3 × 3 block holds ≥ 5
    /// walls → wall; (while adding walls) the 4 × 4 block
    /// `x − 1 ..= x + 2, y − 1 ..= y + 2` holds ≤ 2 walls → wall; the 3 × 3
    /// block holds ≤ 2 walls → floor; else unchanged. Named `standard`
    /// (`seed004` is accepted too, its old name).
    #[default]
    Standard,
    /// Jim Babcock's classic rule (RogueBasin, "Cellular Automata Method
    /// for Generating Random Cave-Like Levels"): wall if the 3 × 3 block
    /// holds ≥ 5 walls or (while adding walls) the 5 × 5 block without its
    /// corners holds ≤ 2, else floor.
    RogueBasin,
}

impl CaveRule {
    /// The name the CLI uses: `standard` or `roguebasin`.
    pub fn name(self) -> &'static str {
        match self {
            CaveRule::Standard => "standard",
            CaveRule::RogueBasin => "roguebasin",
        }
    }
}

impl fmt::Display for CaveRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CaveRule {
    type Err = TilesError;

    /// Parses [`CaveRule::name`], or `seed004`, the old name of
    /// `standard`; a [`TilesError::Parameter`] on `rule` otherwise.
    fn from_str(s: &str) -> Result<Self, TilesError> {
        match s {
            "standard" | "seed004" => Ok(CaveRule::Standard),
            "roguebasin" => Ok(CaveRule::RogueBasin),
            _ => Err(TilesError::parameter(
                "rule",
                format!("unknown rule `{s}`: use standard or roguebasin"),
            )),
        }
    }
}

/// How the caves are made one 4-connected region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Connectivity {
    /// Fill every region but the largest (the first of equal ones) with
    /// wall.
    Largest,
    /// Carve one-cell tunnels through wall joining every region to the
    /// largest, as few wall cells as possible for each
    /// ([`join_regions`](super::join_regions)).
    /// The default: it keeps every cell the automaton opened, so the cave
    /// is the automaton's output plus a few tunnel cells rather than its
    /// output minus its smaller caves.
    #[default]
    Join,
}

impl Connectivity {
    /// The name the CLI uses: `largest` or `join`.
    pub fn name(self) -> &'static str {
        match self {
            Connectivity::Largest => "largest",
            Connectivity::Join => "join",
        }
    }
}

impl fmt::Display for Connectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Connectivity {
    type Err = TilesError;

    /// Parses [`Connectivity::name`]; a [`TilesError::Parameter`] on
    /// `connect` otherwise.
    fn from_str(s: &str) -> Result<Self, TilesError> {
        match s {
            "largest" => Ok(Connectivity::Largest),
            "join" => Ok(Connectivity::Join),
            _ => Err(TilesError::parameter(
                "connect",
                format!("unknown connectivity `{s}`: use largest or join"),
            )),
        }
    }
}

/// The parameters of [`generate`](super::generate), in snake_case as the
/// CLI spells them (each field's doc also gives its camelCase name, as the
/// CLI's help does). [`CaveParams::default`] gives RogueBasin's iteration counts
/// (4 + 3) and documented choices for the rest; [`CaveParams::validate`]
/// checks the ranges given on each field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CaveParams {
    /// Columns, [`MIN_SIDE`] ..= [`MAX_SIDE`]; default 80. When any
    /// iteration runs, both sides must be at least
    /// [`MIN_SIDE_WITH_ITERATIONS`] (4) and one at least
    /// [`MIN_LONG_SIDE_WITH_ITERATIONS`] (5): smaller maps can hold no floor
    /// after the automaton's first iteration.
    pub width: u32,
    /// Rows, [`MIN_SIDE`] ..= [`MAX_SIDE`]; default 50; see `width`.
    pub height: u32,
    /// `floorChance`: the probability that an interior cell starts as
    /// floor, 0 ..= 1; default 0.65.
    pub floor_chance: f64,
    /// `floorRatio`: the least share of the map's cells that must be floor
    /// after the connectivity step for a start to be accepted, from 0 to the
    /// interior's share `(width − 2)(height − 2) / (width × height)`;
    /// default 0.2.
    ///
    /// Why 0.2: with the standard rule at the default chance a joined map's
    /// share averages 0.24 at 80 × 25 (5 % of starts below 0.204), 0.27 at 80 × 50 (all of 300 starts above 0.215) and
    /// 0.30 at 200 × 200, and raising the chance lifts it only to about
    /// 0.29–0.33. So 0.2 rejects only the thinnest starts (3 % of first
    /// starts at 80 × 25, none seen at 80 × 50 and larger) and keeps step
    /// 4's retry a safeguard rather than the usual path; values above about
    /// 0.3 end in [`TilesError::Limit`] under this rule. The RogueBasin rule
    /// opens about half the map, so it meets 0.2 always and takes values up
    /// to about 0.45. Small maps hold less floor (the wall ring and the
    /// walls the rules grow along it weigh more).
    pub floor_ratio: f64,
    /// `wallAddIts`: iterations with the wall-adding 4 × 4 (or 5 × 5) rule,
    /// 0 ..= [`MAX_ITERATIONS`]; default 4 (as RogueBasin).
    pub wall_add_iterations: u32,
    /// `noWallAddIts`: iterations without it, 0 ..= [`MAX_ITERATIONS`];
    /// default 3 (as RogueBasin).
    pub no_wall_add_iterations: u32,
    /// The update rule; default [`CaveRule::Standard`].
    pub rule: CaveRule,
    /// The most starts (step 4), 1 ..= [`MAX_TRIES`]; default 100.
    pub max_tries: u32,
    /// How the result is made one region; default [`Connectivity::Join`].
    pub connect: Connectivity,
}

impl Default for CaveParams {
    fn default() -> Self {
        CaveParams {
            width: 80,
            height: 50,
            floor_chance: 0.65,
            floor_ratio: 0.2,
            wall_add_iterations: 4,
            no_wall_add_iterations: 3,
            rule: CaveRule::Standard,
            max_tries: 100,
            connect: Connectivity::Join,
        }
    }
}

impl CaveParams {
    /// Checks every parameter against the ranges on its field.
    ///
    /// # Errors
    ///
    /// [`TilesError::Parameter`] naming the first field out of range (NaN
    /// and infinities included) and what is accepted.
    pub fn validate(&self) -> Result<(), TilesError> {
        for (field, side) in [("width", self.width), ("height", self.height)] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
                return Err(TilesError::parameter(
                    field,
                    format!(
                        "{side} is out of range: a cave map has {MIN_SIDE} to {MAX_SIDE} \
                         cells a side (its outer ring is wall)"
                    ),
                ));
            }
        }
        if self.wall_add_iterations > 0 || self.no_wall_add_iterations > 0 {
            for (field, side) in [("width", self.width), ("height", self.height)] {
                if side < MIN_SIDE_WITH_ITERATIONS {
                    return Err(TilesError::parameter(
                        field,
                        format!(
                            "{side} is too small for the automaton: the interior is one cell \
                             wide, so every interior cell sees at least 6 cells of the wall ring \
                             in its 3×3 block and the first iteration walls it over; use at \
                             least {MIN_SIDE_WITH_ITERATIONS} (or 0 iterations)"
                        ),
                    ));
                }
            }
            if self.width.max(self.height) < MIN_LONG_SIDE_WITH_ITERATIONS {
                return Err(TilesError::parameter(
                    "width",
                    format!(
                        "a {}×{} map is too small for the automaton: each interior cell \
                         touches a corner and sees 5 cells of the wall ring in its 3×3 block, \
                         so the first iteration walls it over; make width or height at least \
                         {MIN_LONG_SIDE_WITH_ITERATIONS} (or use 0 iterations)",
                        self.width, self.height
                    ),
                ));
            }
        }
        if !(self.floor_chance.is_finite() && (0.0..=1.0).contains(&self.floor_chance)) {
            return Err(TilesError::parameter(
                "floor_chance",
                format!(
                    "{} is not a probability: use a number from 0 to 1",
                    self.floor_chance
                ),
            ));
        }
        let interior = interior_share(self.width, self.height);
        if !(self.floor_ratio.is_finite() && (0.0..=interior).contains(&self.floor_ratio)) {
            return Err(TilesError::parameter(
                "floor_ratio",
                format!(
                    "{} is out of range: the share of floor a {}×{} map must reach is \
                     0 to {interior:.4}, its interior's share (the outer ring is wall)",
                    self.floor_ratio, self.width, self.height
                ),
            ));
        }
        for (field, its) in [
            ("wall_add_iterations", self.wall_add_iterations),
            ("no_wall_add_iterations", self.no_wall_add_iterations),
        ] {
            if its > MAX_ITERATIONS {
                return Err(TilesError::parameter(
                    field,
                    format!("{its} is out of range: use 0 to {MAX_ITERATIONS} iterations"),
                ));
            }
        }
        if !(1..=MAX_TRIES).contains(&self.max_tries) {
            return Err(TilesError::parameter(
                "max_tries",
                format!(
                    "{} is out of range: use 1 to {MAX_TRIES} starts",
                    self.max_tries
                ),
            ));
        }
        Ok(())
    }
}

/// The interior's share of a `width × height` map's cells: the most floor
/// a map with a wall ring can hold.
pub(super) fn interior_share(width: u32, height: u32) -> f64 {
    let inner = f64::from(width.saturating_sub(2)) * f64::from(height.saturating_sub(2));
    inner / (f64::from(width) * f64::from(height)).max(1.0)
}
