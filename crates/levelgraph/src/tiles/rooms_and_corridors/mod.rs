//! Rooms and corridors: the classic roguelike generator of random
//! rectangular rooms joined by L-shaped corridors (RogueBasin's "Complete
//! Roguelike Tutorial, using python+libtcod", part 3, joins each new room
//! to the one before by such an L), with two flaws of the plain algorithm
//! fixed.
//!
//! The steps (numbered as in docs/tiles.md):
//! 1. place `roomN` rooms, each of random size at most `w/5 × h/5` at a
//!    random position, redrawing size and position up to 100 times until
//!    the room fits;
//! 2. send `corridorN` corridors from each room to random other rooms;
//! 3. search from the first room (depth first) and link every unreached
//!    room to a random reached one;
//! 4. draw each corridor as an L: from one room's centre toward the other
//!    room along one axis until that axis brings it no closer, then along
//!    the other (the tunnels of that tutorial).
//!
//! Drawn plainly, such corridors sometimes graze a room (run along its
//! side, so they are logically part of it) and sometimes run side by side
//! as parallel double corridors. Here:
//! - rooms keep [`ROOM_GAP`] wall cells between their floors, so a corridor
//!   can pass between two rooms with a wall on either hand, and every room
//!   keeps its ring of wall cells;
//! - a corridor cell is never next to room floor, not even diagonally: a
//!   corridor enters a room only through a door ([`Tile::DOOR`]) in the
//!   room's wall ring, not at a corner, and leaves the door straight outward;
//! - no 2 × 2 block of cells is all corridor and door: corridors cross
//!   (making a plus) or join (making a T) but never run side by side (they
//!   may run parallel with a wall between), and no two doors are side by
//!   side;
//! - a pair of rooms joined in either direction is not joined twice.
//!
//! Drawing a link: the L between the two centres (the plain algorithm's
//! corridor; the axis order is drawn at random, then the other is tried),
//! then the Ls between [`L_OFFSET_TRIES`] random pairs of cells of the two
//! rooms. The plain algorithm's L carves through whatever lies on its way,
//! other rooms included; here too an L may cross another room, entering and leaving it straight
//! through a door on each side, so each part of an L outside the rooms is
//! one corridor, listed with the rooms at its two doors. When no L keeps
//! the rules, [`Z_TRIES`] paths of three legs (a Z: along one axis to a
//! random place between the two cells, across, and along again) are tried
//! the same way. (When Ls could not cross rooms, about one link in four
//! needed the search below; with crossing Ls one map in twenty-five at
//! 80 × 25, with the Zs one in a hundred.) When no path of these keeps the
//! rules, a search (A* with a cost per turn, so
//! searched corridors run straight rather than in staircases) finds a
//! corridor that does, first in a window around the two rooms, then over
//! the whole map. A link the map's connectivity needs may start at a door
//! of any room already connected to its first room and stop at any door
//! or corridor already connected to its second; if it still finds no way
//! (rooms that span a narrow map's height wall off the rest), it is tried
//! again after the other links, and components still apart at the end are
//! joined, each to the nearest other one. A link between rooms already
//! connected only adds a loop; it is dropped when no corridor is found,
//! and only tries Ls and Zs once the map has used its [`LOOP_SEARCH_BUDGET`]
//! (at most [`LOOP_SEARCH_CAP`]).
//!
//! Every map returned is connected: its passable cells form one 4-connected
//! region and every room is reachable from the first.
//!
//! The code, by step: `params.rs` the parameters and their limits,
//! `placement.rs` step 1, `links.rs` steps 2 and 3, `corridors.rs` the Ls
//! and Zs of step 4 with `path_check.rs` their test, `route.rs` and
//! `search.rs` the searched corridors, `ctx.rs` the map being drawn and
//! the buffers lent from map to map.
//!
//! [`Tile::DOOR`]: super::Tile::DOOR

mod corridors;
mod ctx;
mod links;
mod params;
mod path_check;
mod placement;
mod route;
mod search;
#[cfg(test)]
mod tests;

use self::ctx::{Ctx, Scratch, SCRATCH, SCRATCH_KEEP_CELLS};
use self::links::choose_links;
use self::placement::place_rooms_in;
use super::map::TileMap;
use super::TilesError;
use crate::rng::Rng;

pub use self::corridors::{L_OFFSET_TRIES, Z_TRIES};
pub use self::params::{RoomsParams, MAX_CORRIDORS, MAX_PLACEMENT_TRIES, MAX_ROOMS, MAX_SIDE};
pub use self::placement::ROOM_GAP;
pub use self::route::{LOOP_SEARCH_BUDGET, LOOP_SEARCH_CAP, SEARCH_MARGIN, SEARCH_REROUTES};
pub use self::search::TURN_COST;

/// Generates a rooms-and-corridors map (random rooms joined by L-shaped
/// corridors; see the module docs for the steps and the fixes).
///
/// The map is `width × height` cells; its outer border is wall. Rooms are
/// rectangles of [`Tile::FLOOR`] listed in [`TileMap::rooms`] as `room 0`,
/// `room 1`, … in the order they were placed (rooms that found no place
/// after `placement_tries` tries are skipped, so there may be fewer than
/// `rooms`; the first always fits). Corridor cells are
/// [`Tile::CORRIDOR`]; each corridor drawn is listed in
/// [`TileMap::corridors`] with its cells in walking order from the first
/// room's door, doors included: `rooms` is `[Some(from), Some(to)]` when it
/// ends at a door of room `to`, `[Some(from), None]` when it ends on a
/// corridor already connected to its target (its last cell is that
/// corridor's). An L that crosses a room is listed as one corridor per
/// part between rooms, and a part that opens no new cell (it runs on
/// corridors and doors already drawn) is not listed again. Cells shared at
/// a crossing appear in both corridors. Each
/// door cell is a [`Tile::DOOR`] in the ring around a room, listed once in
/// [`TileMap::doors`] as a 1 × 1 rectangle with `rooms: [Some(room), None]`.
///
/// Guarantees: the passable cells form one 4-connected region; a door
/// touches the floor of its own room only and a corridor cell no floor, not
/// even diagonally; no 2 × 2 block is all corridor and door; rooms are
/// `min_room_size ..= width/5` by `min_room_size ..= height/5` cells and
/// keep [`ROOM_GAP`] cells apart; the border is wall. Same parameters and
/// seed, same map (on every platform).
///
/// # Errors
///
/// [`TilesError::Parameter`] from [`RoomsParams::validate`].
/// [`TilesError::Limit`] when some room cannot be connected: every
/// component's search of the whole map found no corridor to another (not
/// seen in testing, over a few hundred thousand random parameter sets).
///
/// # Complexity
///
/// Placement O(rooms² × placement_tries); drawing O(width + height) per L
/// tried, and O(width × height) per corridor search (a few maps in a
/// hundred need one). A map of 30 placement tries takes about 3.3 µs at
/// 80 × 25 and 16 µs at 200 × 200 (BENCHMARKS.md, "Tile maps").
///
/// [`Tile::FLOOR`]: super::Tile::FLOOR
/// [`Tile::CORRIDOR`]: super::Tile::CORRIDOR
/// [`Tile::DOOR`]: super::Tile::DOOR
pub fn generate(params: &RoomsParams, seed: u64) -> Result<TileMap, TilesError> {
    params.validate()?;
    let lent = SCRATCH.try_with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            let made = generate_in(params, seed, &mut scratch);
            if params.width as usize * params.height as usize > SCRATCH_KEEP_CELLS {
                *scratch = Scratch::default();
            }
            Some(made)
        }
        Err(_) => None,
    });
    match lent {
        Ok(Some(made)) => made,
        // The buffers are lent already (a map made inside a map, which
        // nothing here does) or gone (a map made from a thread-local
        // destructor): a map needs no lent buffers to be made.
        _ => generate_in(params, seed, &mut Scratch::default()),
    }
}

/// [`generate`] with valid parameters, in the buffers of `scratch`.
fn generate_in(
    params: &RoomsParams,
    seed: u64,
    scratch: &mut Scratch,
) -> Result<TileMap, TilesError> {
    let mut rng = Rng::seeded(seed);
    place_rooms_in(params, &mut rng, &mut scratch.rects, &mut scratch.placed);
    choose_links(
        scratch.rects.len(),
        params.corridors as usize,
        &mut rng,
        &mut scratch.choose,
        &mut scratch.links,
    );
    scratch.deferred.clear();
    let mut ctx = Ctx::new(params.width, params.height, scratch);
    ctx.reserve(scratch.links.len());
    for &(a, b) in &scratch.links {
        if !ctx.link(a, b, &mut rng) {
            scratch.deferred.push((a, b));
        }
    }
    // A needed link can be walled off by rooms between its two ends when
    // rooms span the map's narrow side; the corridors drawn since may open
    // a way.
    for &(a, b) in &scratch.deferred {
        ctx.link(a, b, &mut rng);
    }
    let joined = ctx.join_components();
    let map = ctx.finish(scratch);
    joined.map(|()| map)
}
