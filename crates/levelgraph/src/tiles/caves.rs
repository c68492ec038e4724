//! Cellular-automaton caves (the classic roguelike cave generator, after
//! RogueBasin's "Cellular Automata Method for Generating Random Cave-Like
//! Levels" and Johnson, Yannakakis & Togelius 2010): a variant of the "4-5
//! rule" with a 4 × 4 rule that adds walls in open areas, the classic
//! RogueBasin rule as a switch, reduced or joined to one 4-connected
//! region, and a masked form that fills one room of a rasterized level.
//!
//! # The algorithm
//!
//! The steps, and after them what this module chooses where they leave
//! room:
//!
//! 1. Fill the map at random, a cell being floor with probability
//!    `floor_chance`. Only the interior is filled: the outer ring of the
//!    map is wall from the start and never changes, so the map is closed.
//!    Cells are drawn in row-major order, one [`Rng::unit`] each.
//! 2. `wall_add_iterations` iterations of three rules, the first rule that
//!    applies winning (the [standard rule set](CaveRule::Standard)):
//!    - the 3 × 3 block centred on the cell (the cell included) holds ≥ 5
//!      walls → wall (the wall condition of the 4-5 rule);
//!    - the 4 × 4 block holds ≤ 2 walls → wall (meant to add wall in the
//!      middle of large open floor);
//!    - the 3 × 3 block holds ≤ 2 walls → floor;
//!    - otherwise (3 or 4 walls in the 3 × 3 block) the cell keeps its state.
//! 3. `no_wall_add_iterations` iterations of the same rules without the
//!    4 × 4 one.
//! 4. Compute the share of floor; if it is below `floor_ratio`, start over
//!    with `floor_chance` raised by 0.01, at most `max_tries` starts
//!    (default 100).
//!
//! Choices the rules leave open:
//!
//! - **The 4 × 4 block** has no centre cell. It covers columns
//!   `x − 1 ..= x + 2` and rows `y − 1 ..= y + 2`: the rule's 3 × 3 block
//!   grown by one column to the right and one row down, so it still
//!   contains every cell the other two rules look at. The cost is a bias:
//!   in an open rectangle spanning columns `L ..= R` the rule fires for `x`
//!   in `L + 1 ..= R − 2`, one cell from the left and top edges and two
//!   from the right and bottom, so the wall it adds sits half a cell up and
//!   left of the open area's centre.
//! - **Off-map cells and cells outside the mask count as wall**, as in
//!   RogueBasin. With the outer ring forced to wall this changes no count
//!   that could fire a rule; it matters in [`fill_mask`], where a room's
//!   outline acts like the map's border.
//! - **Updates are synchronous**: every cell of an iteration reads the
//!   previous iteration (a double buffer), as a cellular automaton does.
//!   So the 4 × 4 rule fires at once for every cell of an open area (all
//!   but its edge), walling the area over instead of planting a pillar in
//!   it, and the caves come out as winding passages: at the default
//!   `floor_chance` of 0.65 about a quarter of the map is floor (0.24 at
//!   80 × 25, 0.27 at 80 × 50, 0.30 at 200 × 200 after joining), in some
//!   twenty pockets per 80 × 50 map before joining. Implemented otherwise —
//!   cells updated in place, so that a cell walled by the rule stops its
//!   neighbours from firing (a single pillar), and a 5 × 5 block of radius
//!   2 counted as the "4 × 4" one — the same rules give a floor share that
//!   rises with `floor_chance` up to 0.92. This module keeps to the rules as
//!   stated: synchronous updates and a true 4 × 4 block.
//! - **Acceptance** is `floor ratio ≥ floor_ratio` (step 4 restarts on
//!   `<`), with at least one floor cell. The ratio is floor cells over all
//!   `width × height` cells (the outer ring included, as
//!   [`Metrics::floor_ratio`](super::metrics::Metrics::floor_ratio)
//!   measures it), taken **after** the connectivity step: "enough floor"
//!   means enough floor in the level one walks, not in pockets that were
//!   then filled.
//! - **`floor_chance` is capped at 1.** A start at chance 1 is an all-floor
//!   fill, the same map every time, so the search stops after the first
//!   such start fails. Nor does chance 1 surely pass, as one might expect:
//!   in all-floor ground the 4 × 4 rule walls every cell it can, and the
//!   next iterations wall nearly all the rest (0.056 of an 80 × 50 map is
//!   left, below the default `floor_ratio`). The floor share peaks near
//!   chance 0.7 (about 0.29 of an 80 × 50 map) and falls beyond, so
//!   raising the chance helps only a few steps (see
//!   [`CaveParams::floor_ratio`]).
//!
//! # The RogueBasin rule
//!
//! [`CaveRule::RogueBasin`] is Jim Babcock's rule from RogueBasin's
//! "Cellular Automata Method for Generating Random Cave-Like Levels":
//! a cell is wall if `R1 ≥ 5` or `R2 ≤ 2`, else floor, for the first
//! iterations, then wall if `R1 ≥ 5`, else floor. `R1` counts walls in the
//! 3 × 3 block, `R2` within two steps: the article's code counts the 5 × 5
//! block without its four corners (21 cells), and so does this module. The
//! article runs 4 + 3 iterations (the defaults here) from 40 % wall
//! (`floor_chance` 0.6; the default here stays 0.65). At 0.65 it
//! opens about half the map (0.47 at 80 × 25, 0.49 at 80 × 50, 0.51 at
//! 200 × 200).
//!
//! # Connectivity
//!
//! The rules alone leave the caves in pockets. [`Connectivity::Join`] (the
//! default) carves the fewest wall cells that join every region to the
//! largest one ([`join_regions`]); [`Connectivity::Largest`] fills every
//! region but the largest with wall. Join keeps every cell the rules opened: at 80 × 50
//! with the defaults it carves about 64 cells, where Largest would fill
//! about 690 (the largest pocket holds only a third of the floor), and with
//! the RogueBasin rule 10 against 360. Under the standard rule, Largest
//! rarely reaches any useful `floor_ratio`.
//!
//! # Cost
//!
//! Each iteration counts blocks with running sums: per row, the walls of
//! each column over the block's rows, then the sums of neighbouring columns,
//! in straight byte loops the compiler vectorizes. A start costs
//! O((`wall_add_iterations` + `no_wall_add_iterations` + 2) × cells), the
//! random fill (one draw per cell) and the joining being most of it; a map
//! costs at most `max_tries` starts.

use std::fmt;
use std::str::FromStr;

use super::map::{Tile, TileMap};
use super::TilesError;
use crate::rng::Rng;

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
const SMALL_MAP_SIDE: u32 = 8;

/// The most iterations of either phase [`CaveParams::validate`] accepts;
/// the automaton settles within a handful.
pub const MAX_ITERATIONS: u32 = 100;

/// The most starts [`CaveParams::validate`] accepts.
pub const MAX_TRIES: u32 = 1000;

/// How much `floor_chance` rises for each new start (step 4).
pub const FLOOR_CHANCE_STEP: f64 = 0.01;

/// Which update rule the automaton runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
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
pub enum Connectivity {
    /// Fill every region but the largest (the first of equal ones) with
    /// wall.
    Largest,
    /// Carve one-cell tunnels through wall joining every region to the
    /// largest, as few wall cells as possible for each ([`join_regions`]).
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

/// The parameters of [`generate`], in snake_case as the CLI spells them
/// (each field's doc also gives its camelCase name, as the CLI's help
/// does). [`CaveParams::default`] gives RogueBasin's iteration counts
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

/// A cellular-automaton cave map (see the [module docs](self)):
/// a `width × height` map of [`Tile::WALL`] and [`Tile::FLOOR`] whose
/// floor is one 4-connected region holding at least one cell and at least
/// `floor_ratio` of all cells, with the outer ring wall. The map lists no
/// rooms, doors, corridors or objects (caves are not divided into
/// rooms). Same parameters and seed, same map.
///
/// Start `k` (from 0) fills at `min(floor_chance + 0.01 k, 1)`; all starts
/// draw from one [`Rng::seeded`]`(seed)`.
///
/// # Errors
///
/// - [`TilesError::Parameter`] when [`CaveParams::validate`] fails.
/// - [`TilesError::Limit`] when `max_tries` starts (or the starts up to
///   the first at chance 1, after which every start is the same map) all
///   fall short of `floor_ratio`; it reports the best share reached.
///
/// # Example
///
/// ```
/// use levelgraph::tiles::caves::{generate, CaveParams};
/// use levelgraph::tiles::metrics::Metrics;
///
/// let params = CaveParams { width: 60, height: 30, ..CaveParams::default() };
/// let map = generate(&params, 7)?;
/// let metrics = Metrics::of(&map);
/// assert_eq!(metrics.regions, 1);
/// assert!(metrics.floor_ratio >= params.floor_ratio);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate(params: &CaveParams, seed: u64) -> Result<TileMap, TilesError> {
    params.validate()?;
    let (w, h) = (params.width as usize, params.height as usize);
    let mask: Vec<bool> = (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            x > 0 && y > 0 && x + 1 < w && y + 1 < h
        })
        .collect();
    let mut automaton = Automaton::new(&mask, w)
        .ok_or_else(|| TilesError::parameter("width", "the map has no interior"))?;
    let steps = Steps {
        wall_add: params.wall_add_iterations,
        no_wall_add: params.no_wall_add_iterations,
    };
    let mut rng = Rng::seeded(seed);
    let mut floor = vec![false; w * h];
    let mut best = 0.0f64;
    let mut chance = params.floor_chance;
    let mut starts = 0;
    for k in 0..params.max_tries {
        chance = (params.floor_chance + FLOOR_CHANCE_STEP * f64::from(k)).min(1.0);
        starts += 1;
        automaton.run(params.rule, steps, chance, &mut rng);
        automaton.write_floor(&mut floor);
        match params.connect {
            Connectivity::Largest => keep_largest(&mut floor, w),
            Connectivity::Join => {
                join_regions(&mut floor, &mask, params.width, params.height, &[])?
            }
        }
        let open = floor.iter().filter(|&&f| f).count();
        let ratio = open as f64 / (w * h) as f64;
        if open > 0 && ratio >= params.floor_ratio {
            let mut map = TileMap::filled(params.width, params.height, Tile::WALL);
            for (cell, &f) in map.cells.iter_mut().zip(&floor) {
                if f {
                    *cell = Tile::FLOOR;
                }
            }
            return Ok(map);
        }
        best = best.max(ratio);
        if chance >= 1.0 {
            break;
        }
    }
    Err(limit_error(params, starts, best, chance))
}

/// The [`TilesError::Limit`] of [`generate`] after `starts` starts that
/// all failed, the best reaching floor share `best`, the last filled at
/// `chance`: which limit stopped the search (`max_tries`, or `floor_chance`
/// reaching 1 before it), how many starts ran, and why they failed (too
/// little floor, or none at all).
fn limit_error(params: &CaveParams, starts: u32, best: f64, chance: f64) -> TilesError {
    let limit = if starts < params.max_tries {
        format!(
            "floor_chance 1 (after {starts} of max_tries {} starts)",
            params.max_tries
        )
    } else {
        let word = if params.max_tries == 1 {
            "start"
        } else {
            "starts"
        };
        format!("{} {word} (max_tries)", params.max_tries)
    };
    let starts_ran = if starts == 1 {
        "the only start".to_owned()
    } else {
        format!("all {starts} starts")
    };
    // Small maps lose all floor to the rules' wall ring, not to bad luck
    // (with 4 + 3 iterations no fill of a 4 x 7 or 7 x 5 map keeps floor):
    // say so where that can be the cause. It cannot be without iterations
    // (the fill is the map), nor when every start was filled at
    // floor_chance 0 (`chance` is the last start's, and it only rises).
    let iterations = params.wall_add_iterations + params.no_wall_add_iterations;
    let small = if best == 0.0
        && iterations > 0
        && chance > 0.0
        && params.width.min(params.height) < SMALL_MAP_SIDE
    {
        format!(
            "; a {} × {} map may be too small to keep floor through {iterations} iterations",
            params.width, params.height,
        )
    } else {
        String::new()
    };
    let why = if best == 0.0 {
        format!("no floor cell survived in {starts_ran}")
    } else {
        format!(
            "the best floor ratio in {starts_ran} was {best:.4}, below floor_ratio {}",
            params.floor_ratio
        )
    };
    let chance_note = if starts == 1 {
        format!("floor_chance {}", params.floor_chance)
    } else {
        format!(
            "floor_chance rose from {} to {chance:.2}",
            params.floor_chance
        )
    };
    let skipped = if starts < params.max_tries {
        "; at floor_chance 1 every start is the same all-floor fill, so the later \
         starts were skipped"
    } else {
        ""
    };
    TilesError::Limit {
        generator: "caves",
        limit,
        detail: format!("{why} ({chance_note}){skipped}{small}"),
    }
}

/// Runs steps 1–4 of the algorithm on the cells of `mask` only, for a cave room
/// inside a level: cells outside the mask count as wall and stay wall. Returns
/// the floor cells, a subset of the mask, row-major on the `width × height`
/// grid (`mask.len()` entries). The result is not connected; join it to the
/// room's doors with [`join_regions`].
///
/// Step 4 measures floor over mask cells, before any joining: starts are
/// repeated, raising `floor_chance` by 0.01 each time, until the floor
/// share of the mask reaches `floor_ratio` (and is not empty); if
/// `max_tries` starts do not, the start with the most floor is returned.
/// `params.width`, `params.height` and `params.connect` are not used.
///
/// Never panics: `params` should pass [`CaveParams::validate`], and values
/// out of range are clamped (iterations to [`MAX_ITERATIONS`], `max_tries`
/// to `1 ..= MAX_TRIES`, probabilities to `0 ..= 1`, NaN to 0); a mask
/// shorter or longer than `width × height` has its cells past either end
/// treated as outside; `width` 0 gives no floor.
///
/// Draws from `rng` only, in row-major order of the mask's cells.
/// O(starts × iterations × the mask's bounding box).
pub fn fill_mask(
    mask: &[bool],
    width: u32,
    height: u32,
    params: &CaveParams,
    rng: &mut Rng,
) -> Vec<bool> {
    let mut floor = vec![false; mask.len()];
    let w = width as usize;
    if w == 0 {
        return floor;
    }
    let n = mask.len().min(w.saturating_mul(height as usize));
    let Some(mut automaton) = Automaton::new(&mask[..n], w) else {
        return floor;
    };
    let unit = |p: f64| if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
    let (floor_chance, floor_ratio) = (unit(params.floor_chance), unit(params.floor_ratio));
    let steps = Steps {
        wall_add: params.wall_add_iterations.min(MAX_ITERATIONS),
        no_wall_add: params.no_wall_add_iterations.min(MAX_ITERATIONS),
    };
    let cells = automaton.cells as f64;
    let mut best: Option<(usize, Vec<u8>)> = None;
    for k in 0..params.max_tries.clamp(1, MAX_TRIES) {
        let chance = (floor_chance + FLOOR_CHANCE_STEP * f64::from(k)).min(1.0);
        automaton.run(params.rule, steps, chance, rng);
        let open = automaton.floor_count();
        if open > 0 && open as f64 >= floor_ratio * cells {
            automaton.write_floor(&mut floor[..n]);
            return floor;
        }
        if best.as_ref().is_none_or(|(b, _)| open > *b) {
            best = Some((open, automaton.wall.clone()));
        }
        if chance >= 1.0 {
            break;
        }
    }
    if let Some((_, wall)) = best {
        automaton.wall = wall;
        automaton.write_floor(&mut floor[..n]);
    }
    floor
}

/// Joins the floor of a `width × height` grid into one 4-connected region
/// by carving floor inside `mask` only: afterwards every floor cell and
/// every `must_join` cell (row-major indices, e.g. the cells just inside a
/// room's doors; they are made floor) are one region. Nothing changes when
/// they already are.
///
/// The region with the most cells (the first of equal ones) is the root.
/// One 0-1 breadth-first search from the root through the mask, where
/// entering a floor cell is free and a wall cell costs one, finds for every
/// region the tunnel that carves the fewest wall cells to reach the root
/// (crossing other regions on the way for free); the tunnels are carved
/// along the search's tree, so tunnels to neighbouring regions share their
/// cells. Tunnels are one cell wide and 4-connected. O(cells).
///
/// # Errors
///
/// [`TilesError::Parameter`], and `floor` unchanged, when
/// - `mask` or `floor` does not have `width × height` cells (`mask`,
///   `floor`);
/// - a `must_join` cell is off the grid or outside the mask (`must_join`);
/// - a floor cell lies outside the mask (`floor`);
/// - some floor or `must_join` cell lies in a part of the mask that is not
///   4-connected to the root's, so no tunnel inside the mask can join it
///   (`mask`).
pub fn join_regions(
    floor: &mut [bool],
    mask: &[bool],
    width: u32,
    height: u32,
    must_join: &[usize],
) -> Result<(), TilesError> {
    let (w, h) = (width as usize, height as usize);
    let n = w
        .checked_mul(h)
        .ok_or_else(|| TilesError::parameter("width", "width × height overflows"))?;
    for (field, len) in [("mask", mask.len()), ("floor", floor.len())] {
        if len != n {
            return Err(TilesError::parameter(
                field,
                format!("has {len} cells; a {width}×{height} grid has {n}"),
            ));
        }
    }
    let at = |i: usize| format!("({}, {})", i % w, i / w);
    for &i in must_join {
        if i >= n {
            return Err(TilesError::parameter(
                "must_join",
                format!("cell index {i} is off the {width}×{height} grid"),
            ));
        }
        if !mask[i] {
            return Err(TilesError::parameter(
                "must_join",
                format!("cell {} lies outside the mask", at(i)),
            ));
        }
    }
    if let Some(i) = (0..n).find(|&i| floor[i] && !mask[i]) {
        return Err(TilesError::parameter(
            "floor",
            format!("cell {} is floor outside the mask", at(i)),
        ));
    }
    // With no mask cell there is no floor and no must_join cell either.
    let Some(window) = Window::of(mask, w, 1) else {
        return Ok(());
    };
    let inside = window.gather(mask);
    let mut open = window.gather(floor);
    for &i in must_join {
        open[window.local(i)] = true;
    }
    let regions = LocalRegions::of(&open, window.w);
    let Some(root) = regions.largest() else {
        return Ok(());
    };
    let mut tunnels = Vec::new();
    if regions.sizes.len() > 1 {
        let (parent, entry) = tunnel_tree(&open, &inside, window.w, &regions, root);
        if let Some(r) = entry.iter().position(|&e| e == NO_CELL) {
            return Err(TilesError::parameter(
                "mask",
                format!(
                    "cell {} lies in a part of the mask not 4-connected to the largest \
                     floor region at {}: no tunnel inside the mask can join them",
                    at(window.global(regions.first[r])),
                    at(window.global(regions.first[root as usize]))
                ),
            ));
        }
        // Every cell already walked has its whole path to the root carved,
        // so a walk stops at the first one; each cell is walked once.
        let mut walked = vec![false; open.len()];
        for &start in &entry {
            let mut i = start;
            while i != NO_CELL && !walked[i as usize] {
                walked[i as usize] = true;
                if !open[i as usize] {
                    tunnels.push(window.global(i as usize));
                }
                i = parent[i as usize];
            }
        }
    }
    for &i in must_join.iter().chain(&tunnels) {
        floor[i] = true;
    }
    Ok(())
}

/// No cell: the parent of a search's sources.
const NO_CELL: u32 = u32::MAX;

/// The tunnels of [`join_regions`]: a 0-1 breadth-first search from the
/// root region through the cells of `inside`, where entering an `open` cell
/// is free and any other costs one, so every cell is reached along a path
/// from the root with the fewest closed cells. Returns each cell's parent
/// on that path ([`NO_CELL`] for the root's cells and cells not reached)
/// and, per region, the first cell reached (the root's first cell for the
/// root, [`NO_CELL`] for regions no path reaches).
///
/// Costs are settled level by level (Dial's buckets with two levels): open
/// cells reached at cost `c` join the current level, closed ones the next.
/// A cell's first cost is final, since every level below has been spent,
/// so a cell is visited once; the search stops when every region is
/// reached.
fn tunnel_tree(
    open: &[bool],
    inside: &[bool],
    w: usize,
    regions: &LocalRegions,
    root: u32,
) -> (Vec<u32>, Vec<u32>) {
    const SEEN: u8 = 0;
    const CLOSED: u8 = 1;
    // One byte per cell, so a neighbour costs one load: SEEN also stands
    // for cells outside the mask, OPEN (2) for open cells not yet seen.
    let mut state: Vec<u8> = open
        .iter()
        .zip(inside)
        .map(|(&o, &m)| u8::from(m) + u8::from(o))
        .collect();
    let mut parent = vec![NO_CELL; open.len()];
    let mut entry = vec![NO_CELL; regions.sizes.len()];
    entry[root as usize] = regions.first[root as usize] as u32;
    let mut current = Vec::new();
    for (i, &l) in regions.label.iter().enumerate() {
        if l == root {
            state[i] = SEEN;
            current.push(i);
        }
    }
    let mut missing = regions.sizes.len() - 1;
    let mut next = Vec::new();
    while !current.is_empty() {
        while let Some(i) = current.pop() {
            // Inside cells are never on the window's closed ring, so all
            // four neighbours exist.
            for j in [i - w, i + w, i - 1, i + 1] {
                let s = state[j];
                if s == SEEN {
                    continue;
                }
                state[j] = SEEN;
                parent[j] = i as u32;
                if s == CLOSED {
                    next.push(j);
                    continue;
                }
                current.push(j);
                let r = regions.label[j] as usize;
                if entry[r] == NO_CELL {
                    entry[r] = j as u32;
                    missing -= 1;
                    if missing == 0 {
                        return (parent, entry);
                    }
                }
            }
        }
        std::mem::swap(&mut current, &mut next);
    }
    (parent, entry)
}

/// The bounding box of a mask's cells on a `grid_w`-column grid, grown by
/// `pad` closed cells on every side: the working grid of [`Automaton`] and
/// [`join_regions`], where neighbours need no bounds checks.
#[derive(Clone, Copy, Debug)]
struct Window {
    /// Columns of the window.
    w: usize,
    /// Rows of the window.
    h: usize,
    /// Columns of the caller's grid.
    grid_w: usize,
    /// The caller's column and row of window cell `(pad, pad)`.
    x0: usize,
    y0: usize,
    /// Closed cells on every side.
    pad: usize,
}

impl Window {
    /// The window of the `true` cells of `mask` (row-major, `grid_w`
    /// columns); `None` when none is or the grid has no columns.
    fn of(mask: &[bool], grid_w: usize, pad: usize) -> Option<Self> {
        if grid_w == 0 {
            return None;
        }
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for (y, row) in mask.chunks(grid_w).enumerate() {
            if let (Some(a), Some(b)) = (row.iter().position(|&m| m), row.iter().rposition(|&m| m))
            {
                (x0, x1) = (x0.min(a), x1.max(b));
                (y0, y1) = (y0.min(y), y1.max(y));
            }
        }
        (x0 != usize::MAX).then(|| Window {
            w: x1 - x0 + 1 + 2 * pad,
            h: y1 - y0 + 1 + 2 * pad,
            grid_w,
            x0,
            y0,
            pad,
        })
    }

    /// The window index of caller's cell `i` (inside the box).
    fn local(&self, i: usize) -> usize {
        let (x, y) = (i % self.grid_w, i / self.grid_w);
        (y + self.pad - self.y0) * self.w + x + self.pad - self.x0
    }

    /// The caller's index of window cell `i` (not on the padding).
    fn global(&self, i: usize) -> usize {
        let (x, y) = (i % self.w, i / self.w);
        (y + self.y0 - self.pad) * self.grid_w + x + self.x0 - self.pad
    }

    /// The caller's cells copied into the window, the padding `false`.
    fn gather(&self, cells: &[bool]) -> Vec<bool> {
        let mut out = vec![false; self.w * self.h];
        let inner = self.w - 2 * self.pad;
        for y in self.pad..self.h - self.pad {
            let from = (y + self.y0 - self.pad) * self.grid_w + self.x0;
            let to = y * self.w + self.pad;
            let end = (from + inner).min(cells.len());
            if from < end {
                out[to..to + end - from].copy_from_slice(&cells[from..end]);
            }
        }
        out
    }
}

/// The 4-connected regions of the open cells of a `w`-column grid whose
/// outer ring is closed, numbered in row-major order of their first cell
/// (as [`Regions`](super::regions::Regions) numbers them).
struct LocalRegions {
    /// Per cell, the region, or [`NO_CELL`] for a closed cell.
    label: Vec<u32>,
    /// Cells per region.
    sizes: Vec<u32>,
    /// Each region's first cell.
    first: Vec<usize>,
}

impl LocalRegions {
    fn of(open: &[bool], w: usize) -> Self {
        let mut label = vec![NO_CELL; open.len()];
        // Open cells not yet labelled.
        let mut todo = open.to_vec();
        let (mut sizes, mut first, mut stack) = (Vec::new(), Vec::new(), Vec::new());
        for start in 0..open.len() {
            if !todo[start] {
                continue;
            }
            let id = sizes.len() as u32;
            label[start] = id;
            todo[start] = false;
            stack.push(start);
            let mut size = 0;
            while let Some(i) = stack.pop() {
                size += 1;
                // Open cells are never on the closed ring.
                for j in [i - w, i + w, i - 1, i + 1] {
                    if todo[j] {
                        todo[j] = false;
                        label[j] = id;
                        stack.push(j);
                    }
                }
            }
            sizes.push(size);
            first.push(start);
        }
        LocalRegions {
            label,
            sizes,
            first,
        }
    }

    /// The region with the most cells, the first of equal ones.
    fn largest(&self) -> Option<u32> {
        let mut best: Option<u32> = None;
        for (r, &size) in self.sizes.iter().enumerate() {
            if best.is_none_or(|b| size > self.sizes[b as usize]) {
                best = Some(r as u32);
            }
        }
        best
    }
}

/// The interior's share of a `width × height` map's cells: the most floor
/// a map with a wall ring can hold.
fn interior_share(width: u32, height: u32) -> f64 {
    let inner = f64::from(width.saturating_sub(2)) * f64::from(height.saturating_sub(2));
    inner / (f64::from(width) * f64::from(height)).max(1.0)
}

/// Fills every floor region but the largest with wall, on a
/// `width`-column map whose outer ring is wall.
fn keep_largest(floor: &mut [bool], width: usize) {
    let regions = LocalRegions::of(floor, width);
    if let Some(keep) = regions.largest() {
        for (f, &label) in floor.iter_mut().zip(&regions.label) {
            *f = label == keep;
        }
    }
}

/// The iterations of steps 2 and 3.
#[derive(Clone, Copy, Debug)]
struct Steps {
    wall_add: u32,
    no_wall_add: u32,
}

/// Wall cells of padding around the mask's bounding box: the widest window
/// (5 × 5) reaches two cells from its centre.
const PAD: usize = 2;

/// The automaton's grid: the mask's bounding box with [`PAD`] cells of wall
/// on every side, so every window of a masked cell lies on the grid and
/// cells off the map or outside the mask read as wall with no bounds check.
/// Cells are 1 for wall, 0 for floor, so a block's sum is its wall count.
#[derive(Clone, Debug)]
struct Automaton {
    /// Columns of the padded grid.
    w: usize,
    /// Where the padded grid lies on the caller's.
    window: Window,
    /// Masked cells as runs within a row: `(row, first column, one past the
    /// last)`, padded coordinates, row-major.
    runs: Vec<(usize, usize, usize)>,
    /// How many cells are masked.
    cells: usize,
    /// The current state.
    wall: Vec<u8>,
    /// The next state; cells outside the mask stay 1 in both buffers.
    next: Vec<u8>,
    /// Per column, the walls in the 3 rows around the current row.
    col3: Vec<u8>,
    /// Per column, the walls in the rows of the larger block.
    col_big: Vec<u8>,
    /// Per column, the walls in the 3 × 3 block centred there.
    r1: Vec<u8>,
    /// Per column, the walls in the larger block (4 × 4 or 5 × 5 without
    /// corners).
    r_big: Vec<u8>,
}

// Block counts stay below 26, so bytes never overflow.
fn sum2(out: &mut [u8], a: &[u8], b: &[u8]) {
    for ((o, &a), &b) in out.iter_mut().zip(a).zip(b) {
        *o = a + b;
    }
}

fn sum3(out: &mut [u8], a: &[u8], b: &[u8], c: &[u8]) {
    for (((o, &a), &b), &c) in out.iter_mut().zip(a).zip(b).zip(c) {
        *o = a + b + c;
    }
}

fn sum4(out: &mut [u8], a: &[u8], b: &[u8], c: &[u8], d: &[u8]) {
    for ((((o, &a), &b), &c), &d) in out.iter_mut().zip(a).zip(b).zip(c).zip(d) {
        *o = a + b + c + d;
    }
}

fn sum5(out: &mut [u8], a: &[u8], b: &[u8], c: &[u8], d: &[u8], e: &[u8]) {
    for (((((o, &a), &b), &c), &d), &e) in out.iter_mut().zip(a).zip(b).zip(c).zip(d).zip(e) {
        *o = a + b + c + d + e;
    }
}

impl Automaton {
    /// The grid for the `true` cells of `mask` (row-major, `grid_w`
    /// columns); `None` when none is.
    fn new(mask: &[bool], grid_w: usize) -> Option<Self> {
        let window = Window::of(mask, grid_w, PAD)?;
        let (w, h) = (window.w, window.h);
        let inside = window.gather(mask);
        let mut runs = Vec::new();
        let mut cells = 0;
        for (y, row) in inside.chunks(w).enumerate() {
            let mut x = 0;
            while x < w {
                if !row[x] {
                    x += 1;
                    continue;
                }
                let start = x;
                while row[x] {
                    x += 1;
                }
                runs.push((y, start, x));
                cells += x - start;
            }
        }
        Some(Automaton {
            w,
            window,
            runs,
            cells,
            wall: vec![1; w * h],
            next: vec![1; w * h],
            col3: vec![0; w],
            col_big: vec![0; w],
            r1: vec![0; w],
            r_big: vec![0; w],
        })
    }

    /// One start: the random fill at `chance`, then both phases.
    fn run(&mut self, rule: CaveRule, steps: Steps, chance: f64, rng: &mut Rng) {
        let w = self.w;
        for &(y, a, b) in &self.runs {
            for cell in &mut self.wall[y * w + a..y * w + b] {
                *cell = u8::from(rng.unit() >= chance);
            }
        }
        for _ in 0..steps.wall_add {
            self.step(rule, true);
        }
        for _ in 0..steps.no_wall_add {
            self.step(rule, false);
        }
    }

    /// One synchronous iteration over the masked cells. Block counts come
    /// from running sums: per row, the column sums of the 3 (4, 5) rows
    /// around it, then sums of 3 (4, 5) neighbouring column sums, all
    /// straight-line loops over bytes that the compiler vectorizes.
    fn step(&mut self, rule: CaveRule, add_walls: bool) {
        let Automaton {
            w,
            runs,
            wall,
            next,
            col3,
            col_big,
            r1,
            r_big,
            ..
        } = self;
        let w = *w;
        let mut summed_row = usize::MAX;
        for &(y, a, b) in runs.iter() {
            if y != summed_row {
                summed_row = y;
                // Row `y + d - 2`: every masked row has PAD rows above and below.
                let row = |d: usize| &wall[(y + d - 2) * w..(y + d - 1) * w];
                sum3(col3, row(1), row(2), row(3));
                sum3(&mut r1[1..w - 1], col3, &col3[1..], &col3[2..]);
                if add_walls {
                    match rule {
                        CaveRule::Standard => {
                            // Rows y − 1 ..= y + 2, columns x − 1 ..= x + 2.
                            sum2(col_big, col3, row(4));
                            let c = &col_big[..];
                            sum4(&mut r_big[1..w - 2], c, &c[1..], &c[2..], &c[3..]);
                        }
                        CaveRule::RogueBasin => {
                            // Five rows in the middle three columns, three in
                            // the outer two: the 5 × 5 block without corners.
                            sum3(col_big, col3, row(0), row(4));
                            let (c, b) = (&col3[..], &col_big[..]);
                            sum5(&mut r_big[2..w - 2], c, &b[1..], &b[2..], &b[3..], &c[4..]);
                        }
                    }
                }
            }
            let cur = &wall[y * w + a..y * w + b];
            let out = &mut next[y * w + a..y * w + b];
            let (r1, rb) = (&r1[a..b], &r_big[a..b]);
            match (rule, add_walls) {
                // First rule wins: ≥ 5 → wall; 4 × 4 ≤ 2 → wall; ≤ 2 → floor;
                // else (3 or 4) unchanged.
                (CaveRule::Standard, true) => {
                    for (((o, &c), &s), &t) in out.iter_mut().zip(cur).zip(r1).zip(rb) {
                        *o = u8::from(s >= 5) | u8::from(t <= 2) | (u8::from(s >= 3) & c);
                    }
                }
                (CaveRule::Standard, false) => {
                    for ((o, &c), &s) in out.iter_mut().zip(cur).zip(r1) {
                        *o = u8::from(s >= 5) | (u8::from(s >= 3) & c);
                    }
                }
                (CaveRule::RogueBasin, true) => {
                    for ((o, &s), &t) in out.iter_mut().zip(r1).zip(rb) {
                        *o = u8::from(s >= 5) | u8::from(t <= 2);
                    }
                }
                (CaveRule::RogueBasin, false) => {
                    for (o, &s) in out.iter_mut().zip(r1) {
                        *o = u8::from(s >= 5);
                    }
                }
            }
        }
        std::mem::swap(wall, next);
    }

    /// Floor cells among the masked ones.
    fn floor_count(&self) -> usize {
        let w = self.w;
        self.runs
            .iter()
            .map(|&(y, a, b)| {
                self.wall[y * w + a..y * w + b]
                    .iter()
                    .filter(|&&c| c == 0)
                    .count()
            })
            .sum()
    }

    /// Writes the masked cells' state into `floor` (the caller's grid);
    /// other cells are left alone.
    fn write_floor(&self, floor: &mut [bool]) {
        let w = self.w;
        for &(y, a, b) in &self.runs {
            let to = self.window.global(y * w + a);
            for (f, &c) in floor[to..to + b - a]
                .iter_mut()
                .zip(&self.wall[y * w + a..y * w + b])
            {
                *f = c == 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    // Named, as proptest's prelude has a trait of the same name.
    use crate::rng::Rng;
    use crate::tiles::metrics::Metrics;
    use crate::tiles::regions::Regions;

    fn interior(w: usize, h: usize) -> Vec<bool> {
        (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                x > 0 && y > 0 && x + 1 < w && y + 1 < h
            })
            .collect()
    }

    fn render(floor: &[bool], w: usize) -> Vec<String> {
        floor
            .chunks(w)
            .map(|row| row.iter().map(|&f| if f { '.' } else { '#' }).collect())
            .collect()
    }

    /// One iteration of `rule` on a map drawn as rows of `#` (wall) and `.`
    /// (floor) whose outer ring is wall.
    fn one_step(rows: &[&str], rule: CaveRule, add_walls: bool) -> Vec<String> {
        let (w, h) = (rows[0].len(), rows.len());
        let mask = interior(w, h);
        let mut automaton = Automaton::new(&mask, w).unwrap();
        for i in (0..w * h).filter(|&i| mask[i]) {
            let wall = rows[i / w].as_bytes()[i % w] == b'#';
            let j = automaton.window.local(i);
            automaton.wall[j] = u8::from(wall);
        }
        automaton.step(rule, add_walls);
        let mut floor = vec![false; w * h];
        automaton.write_floor(&mut floor);
        render(&floor, w)
    }

    // x runs right, y down. The wall counts the rules read at some cells
    // (3×3: columns x−1..=x+1, rows y−1..=y+1; 4×4: columns x−1..=x+2,
    // rows y−1..=y+2; R2: the 5×5 block without its corners):
    //
    //   (1,1) 3×3 = 5: the corner's five ring cells.       → wall (rule 1)
    //   (2,2) 3×3 = 0; 4×4 = 1: only (4,3).                 → wall (rule 2)
    //   (4,2) 3×3 = 1; 4×4 = 1.                             → wall (rule 2)
    //   (5,2) 3×3 = 1; 4×4 = 5: (4,3) and column 7.         → floor (rule 3)
    //   (4,3) 3×3 = 1; 4×4 = 2: (4,3), (3,5).               → stays wall by
    //         rule 2, which comes before rule 3; without rule 2 → floor.
    //         R2 = 2: (4,3), (3,5); (2,5) is a corner.      → wall (RogueBasin)
    //   (1,2) 3×3 = 3: (0,1), (0,2), (0,3).                 → unchanged floor
    //   (1,4) 3×3 = 4: (0,3), (0,4), (0,5), (2,5).          → unchanged floor
    //   (3,5) 3×3 = 3: (2,5), (3,5), (2,6).                 → unchanged wall;
    //         RogueBasin has no "unchanged": floor
    //   (4,5) 3×3 = 2: (3,5), (5,6); 4×4 = 7.               → floor (rule 3)
    //   (5,6) 3×3 = 4: (5,6) and row 7.                     → unchanged wall;
    //         RogueBasin: floor
    //   (4,6) 3×3 = 5: (3,5), (5,6), row 7.                 → wall (rule 1)
    const HAND: [&str; 8] = [
        "########", // y0
        "#......#", // y1
        "#......#", // y2
        "#...#..#", // y3
        "#......#", // y4
        "#.##...#", // y5
        "#.#..#.#", // y6
        "########", // y7
    ];

    #[test]
    fn standard_rules_match_the_hand_worked_grid() {
        let adding = [
            "########", //
            "##....##", // (1,1), (6,1): 3×3 = 5
            "#.###..#", // (2..=4,2): 4×4 ≤ 2; (1,2), (6,2): 3×3 = 3, kept
            "#...#..#", // (4,3): 4×4 = 2 wins over 3×3 = 1
            "#......#", //
            "####...#", // (1,5): 3×3 = 5; (2,5), (3,5): 3×3 = 3, kept
            "########", // (5,6): 3×3 = 4, kept; the rest 3×3 ≥ 5
            "########",
        ];
        assert_eq!(one_step(&HAND, CaveRule::Standard, true), adding);
        let smoothing = [
            "########", //
            "##....##", //
            "#......#", // no 4×4 rule: 3×3 ≤ 2 → floor
            "#......#", // (4,3): 3×3 = 1 → floor
            "#......#", //
            "####...#", //
            "########", //
            "########",
        ];
        assert_eq!(one_step(&HAND, CaveRule::Standard, false), smoothing);
    }

    #[test]
    fn roguebasin_rules_match_the_hand_worked_grid() {
        let adding = [
            "########", //
            "##....##", // 3×3 ≥ 5
            "#......#", // (2,2): 3×3 = 0 but R2 = 7 → floor
            "#...#..#", // (4,3): R2 = 2 → wall
            "#......#", //
            "##.....#", // (2,5), (3,5): 3×3 = 3, 3 → floor
            "#####.##", // (5,6): 3×3 = 4 → floor
            "########",
        ];
        assert_eq!(one_step(&HAND, CaveRule::RogueBasin, true), adding);
        let smoothing = [
            "########", //
            "##....##", //
            "#......#", //
            "#......#", // (4,3): 3×3 = 1 → floor
            "#......#", //
            "##.....#", //
            "#####.##", //
            "########",
        ];
        assert_eq!(one_step(&HAND, CaveRule::RogueBasin, false), smoothing);
    }

    /// The rules by their definition, one cell at a time: cells off the
    /// grid or outside the mask are wall and stay wall.
    fn naive_step(
        wall: &[bool],
        mask: &[bool],
        w: usize,
        rule: CaveRule,
        add_walls: bool,
    ) -> Vec<bool> {
        let h = wall.len() / w;
        let at = |x: i64, y: i64| {
            if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
                return 1;
            }
            let i = y as usize * w + x as usize;
            u32::from(!mask[i] || wall[i])
        };
        let count = |x: i64, y: i64, lo: i64, hi: i64, corners: bool| {
            let mut n = 0;
            for dy in lo..=hi {
                for dx in lo..=hi {
                    if corners || dx.abs() != 2 || dy.abs() != 2 {
                        n += at(x + dx, y + dy);
                    }
                }
            }
            n
        };
        (0..wall.len())
            .map(|i| {
                if !mask[i] {
                    return true;
                }
                let (x, y) = ((i % w) as i64, (i / w) as i64);
                let r1 = count(x, y, -1, 1, true);
                match rule {
                    CaveRule::Standard => {
                        if r1 >= 5 || (add_walls && count(x, y, -1, 2, true) <= 2) {
                            true
                        } else if r1 <= 2 {
                            false
                        } else {
                            wall[i]
                        }
                    }
                    CaveRule::RogueBasin => {
                        r1 >= 5 || (add_walls && count(x, y, -2, 2, false) <= 2)
                    }
                }
            })
            .collect()
    }

    /// A grid with a mask and a wall state per cell.
    fn grid() -> impl Strategy<Value = (usize, Vec<(bool, bool)>)> {
        (1usize..14, 1usize..14).prop_flat_map(|(w, h)| {
            (
                Just(w),
                prop::collection::vec((prop::bool::weighted(0.8), any::<bool>()), w * h),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn running_sums_match_the_rules_cell_by_cell(
            (w, cells) in grid(),
            rb in any::<bool>(),
            add_walls in any::<bool>(),
        ) {
            let rule = if rb { CaveRule::RogueBasin } else { CaveRule::Standard };
            let mask: Vec<bool> = cells.iter().map(|c| c.0).collect();
            let wall: Vec<bool> = cells.iter().map(|c| c.1).collect();
            let expected = naive_step(&wall, &mask, w, rule, add_walls);
            let mut got = vec![false; mask.len()];
            if let Some(mut automaton) = Automaton::new(&mask, w) {
                for i in (0..mask.len()).filter(|&i| mask[i]) {
                    let j = automaton.window.local(i);
                    automaton.wall[j] = u8::from(wall[i]);
                }
                automaton.step(rule, add_walls);
                automaton.write_floor(&mut got);
            }
            let got_wall: Vec<bool> = got.iter().map(|&f| !f).collect();
            prop_assert_eq!(got_wall, expected);
        }

        #[test]
        fn a_start_is_the_fill_then_the_rules(
            (w, cells) in grid(),
            rb in any::<bool>(),
            seed in any::<u64>(),
            chance in 0.3f64..0.9,
        ) {
            let rule = if rb { CaveRule::RogueBasin } else { CaveRule::Standard };
            let mask: Vec<bool> = cells.iter().map(|c| c.0).collect();
            let params = CaveParams {
                rule,
                floor_chance: chance,
                floor_ratio: 0.0,
                max_tries: 1,
                ..CaveParams::default()
            };
            let h = mask.len() / w;
            let got = fill_mask(&mask, w as u32, h as u32, &params, &mut Rng::seeded(seed));
            // One draw per mask cell in row-major order, then 4 + 3 steps.
            let mut rng = Rng::seeded(seed);
            let mut wall: Vec<bool> =
                mask.iter().map(|&m| !m || rng.unit() >= chance).collect();
            for k in 0..7 {
                wall = naive_step(&wall, &mask, w, rule, k < 4);
            }
            let expected: Vec<bool> = wall.iter().map(|&x| !x).collect();
            prop_assert_eq!(got, expected);
        }

        #[test]
        fn generated_caves_are_one_closed_region_with_enough_floor(
            seed in any::<u64>(),
            w in 8u32..48,
            h in 8u32..32,
            rb in any::<bool>(),
            largest in any::<bool>(),
            floor_ratio in 0.0f64..0.25,
        ) {
            let params = CaveParams {
                width: w,
                height: h,
                floor_ratio,
                rule: if rb { CaveRule::RogueBasin } else { CaveRule::Standard },
                connect: if largest { Connectivity::Largest } else { Connectivity::Join },
                max_tries: 40,
                ..CaveParams::default()
            };
            match generate(&params, seed) {
                Ok(map) => {
                    let metrics = Metrics::of(&map);
                    prop_assert_eq!(metrics.regions, 1);
                    prop_assert!(metrics.floor_ratio >= floor_ratio);
                    for (i, &t) in map.cells.iter().enumerate() {
                        let (x, y) = (i as u32 % w, i as u32 / w);
                        let ring = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                        prop_assert!(t == Tile::WALL || (t == Tile::FLOOR && !ring));
                    }
                    prop_assert_eq!(generate(&params, seed), Ok(map));
                }
                Err(TilesError::Limit { generator, .. }) => {
                    prop_assert_eq!(generator, "caves");
                    // Joined maps this large and this undemanding always
                    // pass (measured: every one of 500 seeds, 20 × 15).
                    let easy = if rb { 0.2 } else { 0.1 };
                    prop_assert!(
                        largest || w < 20 || h < 15 || floor_ratio > easy,
                        "an easy map failed"
                    );
                }
                Err(e) => prop_assert!(false, "{e}"),
            }
        }

        #[test]
        fn fill_mask_stays_inside_the_mask(
            (w, cells) in grid(),
            extra in 0usize..20,
            short in any::<bool>(),
            seed in any::<u64>(),
            floor_ratio in 0.0f64..1.0,
        ) {
            let mut mask: Vec<bool> = cells.iter().map(|c| c.0).collect();
            let h = mask.len() / w;
            // A mask longer or shorter than the grid is read as far as both go.
            if short {
                mask.truncate(mask.len().saturating_sub(extra));
            } else {
                mask.extend(std::iter::repeat_n(true, extra));
            }
            let params = CaveParams { floor_ratio, max_tries: 5, ..CaveParams::default() };
            let floor = fill_mask(&mask, w as u32, h as u32, &params, &mut Rng::seeded(seed));
            prop_assert_eq!(floor.len(), mask.len());
            for (i, (&f, &m)) in floor.iter().zip(&mask).enumerate() {
                prop_assert!(!f || (m && i < w * h));
            }
        }

        #[test]
        fn join_regions_joins_floor_and_door_cells_inside_the_mask(
            (w, cells) in grid(),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 0..4),
        ) {
            // The mask: a rectangle one cell in from the grid's edge (all
            // of it for thin grids), so it is 4-connected.
            let h = cells.len() / w;
            let inset = |x: usize, n: usize| n < 3 || (x > 0 && x + 1 < n);
            let mask: Vec<bool> =
                (0..w * h).map(|i| inset(i % w, w) && inset(i / w, h)).collect();
            let before: Vec<bool> =
                cells.iter().zip(&mask).map(|(c, &m)| m && c.1).collect();
            let inside: Vec<usize> = (0..w * h).filter(|&i| mask[i]).collect();
            let must: Vec<usize> = if inside.is_empty() {
                Vec::new()
            } else {
                picks.iter().map(|p| inside[p.index(inside.len())]).collect()
            };
            let mut floor = before.clone();
            prop_assert_eq!(join_regions(&mut floor, &mask, w as u32, h as u32, &must), Ok(()));
            let regions = Regions::of_cells(w as u32, h as u32, |i| floor[i]);
            prop_assert!(regions.count() <= 1);
            for i in 0..w * h {
                prop_assert!(!before[i] || floor[i], "floor was lost");
                prop_assert!(!floor[i] || mask[i], "carved outside the mask");
            }
            for &i in &must {
                prop_assert!(floor[i]);
            }
        }

        #[test]
        fn any_parameters_give_a_map_or_an_error_never_a_panic(
            width in prop::sample::select(vec![0u32, 1, 2, 3, 4, 9, 24, 2049, u32::MAX]),
            height in prop::sample::select(vec![0u32, 2, 3, 5, 17, 5000]),
            floor_chance in prop::num::f64::ANY,
            floor_ratio in prop::num::f64::ANY,
            wall_add_iterations in prop::sample::select(vec![0u32, 1, 4, 101, u32::MAX]),
            no_wall_add_iterations in prop::sample::select(vec![0u32, 3, 100, 101]),
            max_tries in prop::sample::select(vec![0u32, 1, 3, 1001, u32::MAX]),
            seed in any::<u64>(),
        ) {
            let params = CaveParams {
                width,
                height,
                floor_chance,
                floor_ratio,
                wall_add_iterations,
                no_wall_add_iterations,
                max_tries,
                ..CaveParams::default()
            };
            match (params.validate(), generate(&params, seed)) {
                (Ok(()), Ok(_) | Err(TilesError::Limit { .. })) => {}
                (Err(e), Err(f)) => prop_assert_eq!(e, f),
                (v, g) => prop_assert!(false, "validate {v:?}, generate {g:?}"),
            }
            // The masked form takes anything.
            let n = (width.min(12) * height.min(12)) as usize;
            let floor = fill_mask(&vec![true; n], width, height, &params, &mut Rng::seeded(seed));
            prop_assert_eq!(floor.len(), n);
        }
    }

    #[test]
    fn defaults_make_caves_at_the_benchmark_sizes() {
        assert_eq!(CaveParams::default().validate(), Ok(()));
        for (width, height) in [(80, 25), (80, 50), (100, 100)] {
            for rule in [CaveRule::Standard, CaveRule::RogueBasin] {
                let params = CaveParams {
                    width,
                    height,
                    rule,
                    ..CaveParams::default()
                };
                for seed in 0..4 {
                    let map = generate(&params, seed).unwrap();
                    let metrics = Metrics::of(&map);
                    assert_eq!(metrics.regions, 1);
                    assert!(metrics.floor_ratio >= 0.2, "{metrics:?}");
                }
            }
        }
        let params = CaveParams::default();
        assert_ne!(generate(&params, 1), generate(&params, 2));
    }

    #[test]
    fn largest_keeps_one_region_and_join_keeps_every_open_cell() {
        let params = CaveParams {
            floor_ratio: 0.0,
            max_tries: 1,
            ..CaveParams::default()
        };
        let join = generate(&params, 5).unwrap();
        let largest = generate(
            &CaveParams {
                connect: Connectivity::Largest,
                ..params
            },
            5,
        )
        .unwrap();
        // Same draws, so Largest's cave is one of the pockets Join joined.
        for (l, j) in largest.cells.iter().zip(&join.cells) {
            assert!(*l == Tile::WALL || *j == Tile::FLOOR);
        }
        assert!(Metrics::of(&largest).floor_ratio < Metrics::of(&join).floor_ratio);
        assert_eq!(Metrics::of(&largest).regions, 1);
    }

    #[test]
    fn an_unreachable_floor_ratio_stops_at_the_limit() {
        // The standard rule opens about 0.3 of a map at best.
        let params = CaveParams {
            width: 40,
            height: 30,
            floor_ratio: 0.6,
            ..CaveParams::default()
        };
        match generate(&params, 3) {
            Err(TilesError::Limit {
                generator,
                limit,
                detail,
            }) => {
                assert_eq!(generator, "caves");
                // Chance 0.65 + 0.01 × 35 = 1 is the 36th start; after it
                // every start would be the same, so chance 1 stopped it,
                // not max_tries.
                assert_eq!(limit, "floor_chance 1 (after 36 of max_tries 100 starts)");
                assert!(
                    detail.starts_with("the best floor ratio in all 36 starts was 0."),
                    "{detail}"
                );
                assert!(
                    detail.ends_with(
                        ", below floor_ratio 0.6 (floor_chance rose from 0.65 to 1.00); \
                         at floor_chance 1 every start is the same all-floor fill, so the \
                         later starts were skipped"
                    ),
                    "{detail}"
                );
            }
            other => panic!("expected a limit error, got {other:?}"),
        }
        let few = CaveParams {
            max_tries: 3,
            ..params
        };
        let Err(TilesError::Limit { limit, detail, .. }) = generate(&few, 3) else {
            panic!("expected a limit error");
        };
        assert_eq!(limit, "3 starts (max_tries)");
        assert!(detail.contains("in all 3 starts was 0."), "{detail}");
        assert!(
            detail.ends_with("(floor_chance rose from 0.65 to 0.67)"),
            "{detail}"
        );
    }

    /// A start with no floor at all is said to be one, not a ratio "below"
    /// a floor_ratio of 0; one start is not "starts".
    #[test]
    fn a_limit_without_any_floor_says_so() {
        // Chance 1 fills the interior with floor, which the 4 × 4 rule
        // walls over but for a few cells: one start, then the same.
        let all_floor = CaveParams {
            floor_chance: 1.0,
            ..CaveParams::default()
        };
        let e = generate(&all_floor, 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "caves: floor_chance 1 (after 1 of max_tries 100 starts) reached without success: \
             the best floor ratio in the only start was 0.0558, below floor_ratio 0.2 \
             (floor_chance 1); at floor_chance 1 every start is the same all-floor fill, so the \
             later starts were skipped"
        );
        let no_floor = CaveParams {
            floor_chance: 0.0,
            floor_ratio: 0.0,
            max_tries: 1,
            ..CaveParams::default()
        };
        assert_eq!(
            generate(&no_floor, 0).unwrap_err().to_string(),
            "caves: 1 start (max_tries) reached without success: no floor cell survived in \
             the only start (floor_chance 0)"
        );
        let small = CaveParams {
            width: 4,
            height: 5,
            ..CaveParams::default()
        };
        assert!(generate(&small, 0).unwrap_err().to_string().ends_with(
            "starts were skipped; a 4 × 5 map may be too small to keep floor through 7 iterations"
        ),);
        // Not when the size cannot be the cause: every start filled at
        // floor_chance 0, or no iteration to wall the fill over.
        let small_no_floor = CaveParams {
            width: 5,
            height: 5,
            ..no_floor
        };
        assert_eq!(
            generate(&small_no_floor, 0).unwrap_err().to_string(),
            "caves: 1 start (max_tries) reached without success: no floor cell survived in \
             the only start (floor_chance 0)"
        );
        let small_no_iterations = CaveParams {
            wall_add_iterations: 0,
            no_wall_add_iterations: 0,
            max_tries: 2,
            ..small_no_floor
        };
        assert_eq!(
            generate(&small_no_iterations, 0).unwrap_err().to_string(),
            "caves: 2 starts (max_tries) reached without success: no floor cell survived in \
             all 2 starts (floor_chance rose from 0 to 0.01)"
        );
        let two = CaveParams {
            max_tries: 2,
            ..no_floor
        };
        assert_eq!(
            generate(&two, 0).unwrap_err().to_string(),
            "caves: 2 starts (max_tries) reached without success: no floor cell survived in \
             all 2 starts (floor_chance rose from 0 to 0.01)"
        );
    }

    /// Below 4 cells a side, or at 4 × 4, no floor survives an iteration
    /// of either rule, whatever the fill: such maps are refused when any
    /// iteration runs, and allowed without iterations.
    #[test]
    fn maps_too_small_to_hold_floor_are_refused() {
        for rule in [CaveRule::Standard, CaveRule::RogueBasin] {
            for (w, h) in [(3usize, 3usize), (3, 40), (40, 3), (4, 4)] {
                for seed in 0..20 {
                    for chance in [0.3, 0.65, 0.9, 1.0] {
                        for steps in [(1, 0), (0, 1), (4, 3)] {
                            let mut rng = Rng::seeded(seed);
                            let params = CaveParams {
                                floor_chance: chance,
                                floor_ratio: 0.0,
                                wall_add_iterations: steps.0,
                                no_wall_add_iterations: steps.1,
                                max_tries: 1,
                                rule,
                                ..CaveParams::default()
                            };
                            let floor =
                                fill_mask(&interior(w, h), w as u32, h as u32, &params, &mut rng);
                            assert!(!floor.contains(&true), "{w}×{h} {rule} {chance} {steps:?}");
                        }
                    }
                }
            }
        }
        let small = |width, height| CaveParams {
            width,
            height,
            floor_ratio: 0.0,
            ..CaveParams::default()
        };
        let message = |p: CaveParams| match p.validate() {
            Err(TilesError::Parameter { field, message }) => format!("{field}: {message}"),
            other => panic!("{p:?}: {other:?}"),
        };
        assert_eq!(
            message(small(3, 3)),
            "width: 3 is too small for the automaton: the interior is one cell wide, so every \
             interior cell sees at least 6 cells of the wall ring in its 3×3 block and the first \
             iteration walls it over; use at least 4 (or 0 iterations)"
        );
        assert!(message(small(80, 3)).starts_with("height: 3 is too small"));
        assert_eq!(
            message(small(4, 4)),
            "width: a 4×4 map is too small for the automaton: each interior cell touches a \
             corner and sees 5 cells of the wall ring in its 3×3 block, so the first iteration \
             walls it over; make width or height at least 5 (or use 0 iterations)"
        );
        // Without iterations the random fill is the map.
        let still = CaveParams {
            wall_add_iterations: 0,
            no_wall_add_iterations: 0,
            floor_chance: 1.0,
            ..small(3, 3)
        };
        let map = generate(&still, 0).unwrap();
        assert_eq!(map.cells[4], Tile::FLOOR);
        // 4 × 5 and 5 × 4 can hold floor after an iteration: the
        // all-floor fill keeps the interior cells away from the corners.
        for (w, h) in [(4, 5), (5, 4), (4, 80)] {
            let p = CaveParams {
                floor_chance: 1.0,
                wall_add_iterations: 1,
                no_wall_add_iterations: 0,
                ..small(w, h)
            };
            let map = generate(&p, 0).unwrap_or_else(|e| panic!("{w}×{h}: {e}"));
            assert!(map.cells.contains(&Tile::FLOOR), "{w}×{h}");
        }
    }

    #[test]
    fn bad_parameters_name_their_field() {
        let ok = CaveParams::default();
        let cases: [(CaveParams, &str); 17] = [
            (CaveParams { width: 0, ..ok }, "width"),
            (CaveParams { width: 2, ..ok }, "width"),
            (CaveParams { width: 3, ..ok }, "width"),
            (CaveParams { height: 3, ..ok }, "height"),
            (
                CaveParams {
                    width: 4,
                    height: 4,
                    floor_ratio: 0.0,
                    ..ok
                },
                "width",
            ),
            (
                CaveParams {
                    height: MAX_SIDE + 1,
                    ..ok
                },
                "height",
            ),
            (
                CaveParams {
                    floor_chance: f64::NAN,
                    ..ok
                },
                "floor_chance",
            ),
            (
                CaveParams {
                    floor_chance: 1.01,
                    ..ok
                },
                "floor_chance",
            ),
            (
                CaveParams {
                    floor_chance: -0.1,
                    ..ok
                },
                "floor_chance",
            ),
            (
                CaveParams {
                    floor_ratio: f64::INFINITY,
                    ..ok
                },
                "floor_ratio",
            ),
            (
                CaveParams {
                    floor_ratio: -0.5,
                    ..ok
                },
                "floor_ratio",
            ),
            // 80 × 50 has 78 × 48 interior cells: 0.936 of the map.
            (
                CaveParams {
                    floor_ratio: 0.99,
                    ..ok
                },
                "floor_ratio",
            ),
            (
                CaveParams {
                    wall_add_iterations: 101,
                    ..ok
                },
                "wall_add_iterations",
            ),
            (
                CaveParams {
                    no_wall_add_iterations: u32::MAX,
                    ..ok
                },
                "no_wall_add_iterations",
            ),
            (CaveParams { max_tries: 0, ..ok }, "max_tries"),
            (
                CaveParams {
                    max_tries: MAX_TRIES + 1,
                    ..ok
                },
                "max_tries",
            ),
            (
                CaveParams {
                    width: u32::MAX,
                    height: u32::MAX,
                    ..ok
                },
                "width",
            ),
        ];
        for (params, field) in cases {
            match generate(&params, 0) {
                Err(TilesError::Parameter { field: f, message }) => {
                    assert_eq!(f, field, "{message}");
                }
                other => panic!("{params:?}: expected a parameter error, got {other:?}"),
            }
        }
        let full = CaveParams {
            floor_ratio: interior_share(80, 50),
            ..ok
        };
        assert_eq!(full.validate(), Ok(()));
    }

    #[test]
    fn join_regions_carves_the_fewest_walls_and_shares_tunnels() {
        let rows = [
            "#########", //
            "#..#..#.#", // three pockets in a row, one wall apart
            "#########",
        ];
        let (w, h) = (9, 3);
        let mut floor: Vec<bool> = rows.concat().bytes().map(|b| b == b'.').collect();
        let mask = interior(w, h);
        join_regions(&mut floor, &mask, w as u32, h as u32, &[]).unwrap();
        assert_eq!(render(&floor, w), ["#########", "#.......#", "#########"]);

        // A door cell far from the floor: one straight tunnel of 3 walls.
        let rows = [
            "#######", //
            "#..####", //
            "#######", //
            "#######", //
        ];
        let (w, h) = (7, 4);
        let mut floor: Vec<bool> = rows.concat().bytes().map(|b| b == b'.').collect();
        let mask = vec![true; w * h];
        join_regions(&mut floor, &mask, w as u32, h as u32, &[w + 6]).unwrap();
        assert_eq!(
            render(&floor, w),
            ["#######", "#......", "#######", "#######"]
        );
    }

    #[test]
    fn join_regions_refuses_what_the_mask_cannot_join() {
        let (w, h) = (5u32, 3u32);
        // Two mask parts, columns 0–1 and 3–4, with floor in each.
        let mask: Vec<bool> = (0..15).map(|i| i % 5 != 2).collect();
        let before: Vec<bool> = (0..15).map(|i| i == 0 || i == 4).collect();
        let mut floor = before.clone();
        let err = join_regions(&mut floor, &mask, w, h, &[]).unwrap_err();
        assert!(
            matches!(err, TilesError::Parameter { field: "mask", .. }),
            "{err}"
        );
        assert_eq!(floor, before, "left unchanged");

        let mut floor = vec![false; 15];
        let field = |r: Result<(), TilesError>| match r {
            Err(TilesError::Parameter { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            field(join_regions(&mut floor, &mask, w, h, &[15])),
            "must_join"
        );
        assert_eq!(
            field(join_regions(&mut floor, &mask, w, h, &[2])),
            "must_join"
        );
        assert_eq!(
            field(join_regions(&mut floor, &mask[1..], w, h, &[])),
            "mask"
        );
        assert_eq!(
            field(join_regions(&mut floor[1..], &mask, w, h, &[])),
            "floor"
        );
        floor[7] = true;
        assert_eq!(field(join_regions(&mut floor, &mask, w, h, &[])), "floor");
        // Empty grids and masks have nothing to join.
        assert_eq!(join_regions(&mut [], &[], 0, 7, &[]), Ok(()));
        assert_eq!(
            join_regions(&mut [false; 4], &[false; 4], 2, 2, &[]),
            Ok(())
        );
    }

    #[test]
    fn fill_mask_returns_the_best_start_when_none_passes() {
        let (w, h) = (24usize, 16usize);
        let mask = interior(w, h);
        let params = CaveParams {
            floor_ratio: 1.0,
            max_tries: 1,
            ..CaveParams::default()
        };
        let count = |f: &[bool]| f.iter().filter(|&&x| x).count();
        let one = fill_mask(&mask, w as u32, h as u32, &params, &mut Rng::seeded(9));
        let many = CaveParams {
            max_tries: 8,
            ..params
        };
        let best = fill_mask(&mask, w as u32, h as u32, &many, &mut Rng::seeded(9));
        // The first of the eight starts is the single start.
        assert!(count(&best) >= count(&one));
        assert!(count(&one) > 0);
        assert_eq!(
            fill_mask(&mask, 0, 5, &params, &mut Rng::seeded(9)),
            vec![false; w * h]
        );
    }

    #[test]
    fn rule_and_connectivity_names_round_trip() {
        for rule in [CaveRule::Standard, CaveRule::RogueBasin] {
            assert_eq!(rule.to_string().parse::<CaveRule>(), Ok(rule));
        }
        assert_eq!(CaveRule::Standard.to_string(), "standard");
        // The old name is still read.
        assert_eq!("seed004".parse::<CaveRule>(), Ok(CaveRule::Standard));
        for connect in [Connectivity::Largest, Connectivity::Join] {
            assert_eq!(connect.to_string().parse::<Connectivity>(), Ok(connect));
        }
        assert!(matches!(
            "5x5".parse::<CaveRule>(),
            Err(TilesError::Parameter { field: "rule", .. })
        ));
        assert!(matches!(
            "all".parse::<Connectivity>(),
            Err(TilesError::Parameter {
                field: "connect",
                ..
            })
        ));
    }
}
