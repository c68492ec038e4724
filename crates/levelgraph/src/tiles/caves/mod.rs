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

mod automaton;
mod join;
mod params;
#[cfg(test)]
mod tests;
mod window;

use super::map::{Tile, TileMap};
use super::TilesError;
use crate::rng::Rng;
use automaton::{Automaton, Steps};
pub use join::join_regions;
use join::keep_largest;
use params::SMALL_MAP_SIDE;
pub use params::{
    CaveParams, CaveRule, Connectivity, FLOOR_CHANCE_STEP, MAX_ITERATIONS, MAX_SIDE, MAX_TRIES,
    MIN_LONG_SIDE_WITH_ITERATIONS, MIN_SIDE, MIN_SIDE_WITH_ITERATIONS,
};

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
