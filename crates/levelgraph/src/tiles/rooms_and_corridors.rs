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

use super::map::{
    room_name, Outline, SmolStr, Tile, TileCorridor, TileDoor, TileMap, TileRect, TileRoom,
};
use super::TilesError;
use crate::rng::Rng;
use crate::union_find::UnionFind;

/// The largest `width` or `height` accepted, in cells.
pub const MAX_SIDE: u32 = 4096;
/// The most rooms accepted (placement costs up to
/// `rooms² × placement_tries` rectangle tests).
pub const MAX_ROOMS: u32 = 1024;
/// The most corridors sent from each room.
pub const MAX_CORRIDORS: u32 = 16;
/// The most placement tries per room.
pub const MAX_PLACEMENT_TRIES: u32 = 1000;
/// Wall cells kept between the floors of two rooms, along x or along y: the
/// room's wall ring, one cell for a corridor to pass, the other room's
/// ring. With less, a corridor between the two would graze one of them.
pub const ROOM_GAP: u32 = 3;
/// Random pairs of cells tried as an L's ends after the two centres.
pub const L_OFFSET_TRIES: usize = 4;
/// Paths of three legs (a Z or an S) between random cells of two rooms
/// tried after the Ls and before a search: each costs at most its length,
/// a search up to the whole map.
pub const Z_TRIES: usize = 8;
/// How far (cells) beyond two rooms' bounding box the first corridor search
/// looks before it searches the whole map.
pub const SEARCH_MARGIN: u32 = 8;
/// What a turn adds to a searched corridor's cost, in steps: a route may
/// be up to this much longer to save a bend.
pub const TURN_COST: usize = 2;
/// Cells per map cell a map's corridor searches may settle before the
/// links that only add loops stop searching: past
/// `LOOP_SEARCH_BUDGET × width × height` settled cells, a link whose rooms
/// are already connected is drawn only where an L or a Z fits. Links that connectivity needs are always searched. This keeps
/// the densest parameters (a thousand rooms, 16 corridors each) to seconds;
/// the default parameters use a few hundredths of it.
pub const LOOP_SEARCH_BUDGET: usize = 16;
/// The most cells a map's corridor searches may settle before loop links
/// stop searching, whatever its size: `LOOP_SEARCH_BUDGET × width ×
/// height` alone let a 4096 × 4096 map of 1,024 rooms with 16 corridors
/// each settle 268 million cells (19 s). Maps up to about 2 million cells
/// (1448 × 1448) are not affected.
pub const LOOP_SEARCH_CAP: usize = 1 << 25;

/// The cells the corridor searches of a `w × h` map may settle before
/// loop links stop searching.
fn loop_budget(w: usize, h: usize) -> usize {
    (LOOP_SEARCH_BUDGET * w * h).min(LOOP_SEARCH_CAP)
}
/// How many times a corridor search is run again, per window, with a cell
/// banned when its route broke the no-double-corridor rule further back than
/// the search can see.
pub const SEARCH_REROUTES: usize = 8;

/// The parameters of [`generate`], named as the CLI names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomsParams {
    /// Map columns (`w`), `5 × min_room_size ..= 4096`. Default 80.
    pub width: u32,
    /// Map rows (`h`), `5 × min_room_size ..= 4096`. Default 50.
    pub height: u32,
    /// Rooms to place (`roomN`), `1 ..= 1024`; a room that finds no
    /// place is skipped. Default 10.
    pub rooms: u32,
    /// Corridors sent from each room to random other rooms (`corridorN`),
    /// `0 ..= 16`; a pair already joined is not joined again.
    /// Default 1.
    pub corridors: u32,
    /// Random sizes and positions tried per room before it is skipped,
    /// `1 ..= 1000`. Default 100.
    pub placement_tries: u32,
    /// The smallest room side in cells, `1 ..=` `min(width, height) / 5`.
    /// Default 3.
    pub min_room_size: u32,
}

impl Default for RoomsParams {
    /// 80 × 50 cells, 10 rooms, 1 corridor per room, 100 tries, rooms of
    /// 3 × 3 to 16 × 10 cells.
    fn default() -> Self {
        RoomsParams {
            width: 80,
            height: 50,
            rooms: 10,
            corridors: 1,
            placement_tries: 100,
            min_room_size: 3,
        }
    }
}

impl RoomsParams {
    /// Checks every parameter against its range.
    ///
    /// # Errors
    ///
    /// [`TilesError::Parameter`] naming the first parameter out of range:
    /// `width`, `height` (above [`MAX_SIDE`], or too small for a room of
    /// `min_room_size` within `width/5 × height/5`), `min_room_size` (0),
    /// `rooms` (0 or above [`MAX_ROOMS`]), `corridors` (above
    /// [`MAX_CORRIDORS`]), `placement_tries` (0 or above
    /// [`MAX_PLACEMENT_TRIES`]).
    pub fn validate(&self) -> Result<(), TilesError> {
        if self.min_room_size == 0 || self.min_room_size > MAX_SIDE / 5 {
            return Err(TilesError::parameter(
                "min_room_size",
                format!(
                    "is {}; the smallest room side must be 1 to {} cells",
                    self.min_room_size,
                    MAX_SIDE / 5
                ),
            ));
        }
        let least = 5 * self.min_room_size;
        for (field, side) in [("width", self.width), ("height", self.height)] {
            if side > MAX_SIDE {
                return Err(TilesError::parameter(
                    field,
                    format!("is {side}; at most {MAX_SIDE} cells are accepted"),
                ));
            }
            if side < least {
                return Err(TilesError::parameter(
                    field,
                    format!(
                        "is {side}; rooms are at most {field}/5 cells across and at least \
                         min_room_size = {} cells, so {field} must be at least {least}",
                        self.min_room_size
                    ),
                ));
            }
        }
        if self.rooms == 0 || self.rooms > MAX_ROOMS {
            return Err(TilesError::parameter(
                "rooms",
                format!("is {}; 1 to {MAX_ROOMS} rooms are accepted", self.rooms),
            ));
        }
        if self.corridors > MAX_CORRIDORS {
            return Err(TilesError::parameter(
                "corridors",
                format!(
                    "is {}; 0 to {MAX_CORRIDORS} corridors per room are accepted",
                    self.corridors
                ),
            ));
        }
        if self.placement_tries == 0 || self.placement_tries > MAX_PLACEMENT_TRIES {
            return Err(TilesError::parameter(
                "placement_tries",
                format!(
                    "is {}; 1 to {MAX_PLACEMENT_TRIES} tries per room are accepted",
                    self.placement_tries
                ),
            ));
        }
        Ok(())
    }
}

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

/// [`place_rooms_in`] with a work buffer of its own.
#[cfg(test)]
fn place_rooms(params: &RoomsParams, rng: &mut Rng, rects: &mut Vec<TileRect>) {
    place_rooms_in(params, rng, rects, &mut Vec::new());
}

/// Step 1: each room draws a size and a position up to
/// `placement_tries` times and takes the first that keeps [`ROOM_GAP`] from
/// every room placed and one wall cell from the map's edge. Writes the
/// rooms to `rects`; `placed` is a work buffer.
fn place_rooms_in(
    params: &RoomsParams,
    rng: &mut Rng,
    rects: &mut Vec<TileRect>,
    placed: &mut Vec<EightRooms>,
) {
    let (w, h) = (params.width, params.height);
    let min = params.min_room_size;
    let (max_w, max_h) = (w / 5, h / 5);
    rects.clear();
    rects.reserve(params.rooms as usize);
    placed.clear();
    for _ in 0..params.rooms {
        for _ in 0..params.placement_tries {
            let rw = min + rng.below_inlined((max_w - min + 1) as usize) as u32;
            let rh = min + rng.below_inlined((max_h - min + 1) as usize) as u32;
            // Floor in columns 1..=w-2 and rows 1..=h-2 keeps the border wall.
            let x = 1 + rng.below_inlined((w - 1 - rw) as usize) as u32;
            let y = 1 + rng.below_inlined((h - 1 - rh) as usize) as u32;
            let rect = TileRect::new(x, y, rw, rh);
            // The placed rooms are tested eight at a time without branching
            // on each outcome (the outcomes are random, so a loop that stops
            // at the first clash mispredicts at about every try: 5 % of a map
            // at 80 x 25), stopping after the first eight with a clash: a
            // crowded map's failing tries would otherwise test every room
            // (1.7 times the time of a map at 300 x 300 with 1024 rooms and
            // 1000 tries).
            if placed.iter().all(|eight| eight.apart(&rect)) {
                // Room k sits in lane k % 8 of group k / 8.
                let lane = rects.len() % 8;
                if lane == 0 {
                    placed.push(EightRooms::EMPTY);
                }
                debug_assert_eq!(placed.len(), rects.len() / 8 + 1);
                if let Some(eight) = placed.last_mut() {
                    eight.set(lane, &rect);
                }
                rects.push(rect);
                break;
            }
        }
    }
}

/// Eight placed rooms as [`place_rooms_in`] tests them, one array per side so
/// that the eight tests are a few vector operations: each room's floor's
/// first column and row and its far sides plus [`ROOM_GAP`]. The sides are
/// at most 4096 + 3, so they compare as `i32` (a signed compare is one
/// instruction where an unsigned one is three).
#[derive(Clone, Copy)]
struct EightRooms {
    x: [i32; 8],
    y: [i32; 8],
    x_end: [i32; 8],
    y_end: [i32; 8],
}

impl EightRooms {
    /// No room: a lane whose `x_end` is 0 is apart from every rectangle.
    const EMPTY: Self = EightRooms {
        x: [0; 8],
        y: [0; 8],
        x_end: [0; 8],
        y_end: [0; 8],
    };

    /// Puts `r` in lane `lane`.
    fn set(&mut self, lane: usize, r: &TileRect) {
        debug_assert!(r.right() <= MAX_SIDE && r.bottom() <= MAX_SIDE);
        self.x[lane] = r.x as i32;
        self.y[lane] = r.y as i32;
        self.x_end[lane] = (r.right() + ROOM_GAP) as i32;
        self.y_end[lane] = (r.bottom() + ROOM_GAP) as i32;
    }

    /// Whether `r` keeps [`ROOM_GAP`] from each of the eight rooms along x
    /// or along y.
    #[inline(always)]
    fn apart(&self, r: &TileRect) -> bool {
        let (x, y) = (r.x as i32, r.y as i32);
        let (x_end, y_end) = (
            (r.right() + ROOM_GAP) as i32,
            (r.bottom() + ROOM_GAP) as i32,
        );
        let mut clash = 0;
        for i in 0..8 {
            let apart = (x >= self.x_end[i])
                | (self.x[i] >= x_end)
                | (y >= self.y_end[i])
                | (self.y[i] >= y_end);
            clash |= i32::from(!apart);
        }
        clash == 0
    }
}

/// Whether two rooms' floors keep [`ROOM_GAP`] cells between them along x
/// or along y (what [`EightRooms::apart`] tests for eight rooms at once).
#[cfg(test)]
fn apart(a: &TileRect, b: &TileRect) -> bool {
    (a.x >= b.right() + ROOM_GAP)
        | (b.x >= a.right() + ROOM_GAP)
        | (a.y >= b.bottom() + ROOM_GAP)
        | (b.y >= a.bottom() + ROOM_GAP)
}

/// The buffers [`choose_links`] works in, kept from one map to the next.
#[derive(Default)]
struct LinkScratch {
    /// Pairs already linked, one bit per unordered pair.
    seen: Vec<u64>,
    /// The links as adjacency lists in one array: room `r`'s neighbours
    /// are `adjacent[start[r]..start[r + 1]]`.
    start: Vec<usize>,
    next: Vec<usize>,
    adjacent: Vec<usize>,
    reached: Vec<bool>,
    reached_list: Vec<usize>,
    stack: Vec<usize>,
}

/// Steps 2 and 3: `corridors` links from each room to random other
/// rooms (a pair already linked either way is skipped), then every room the
/// links do not reach from room 0 is linked to a random reached room.
/// Writes them to `links`.
fn choose_links(
    n: usize,
    corridors: usize,
    rng: &mut Rng,
    scratch: &mut LinkScratch,
    links: &mut Vec<(usize, usize)>,
) {
    links.clear();
    if n < 2 {
        return;
    }
    links.reserve(n * (corridors + 1));
    // Pairs already linked, one bit per unordered pair (a < b).
    let seen = &mut scratch.seen;
    seen.clear();
    seen.resize((n * n).div_ceil(64), 0);
    for a in 0..n {
        for _ in 0..corridors {
            let mut b = rng.below_inlined(n - 1);
            if b >= a {
                b += 1;
            }
            let bit = a.min(b) * n + a.max(b);
            if seen[bit / 64] & (1 << (bit % 64)) == 0 {
                seen[bit / 64] |= 1 << (bit % 64);
                links.push((a, b));
            }
        }
    }
    // The links as adjacency lists in one array (compressed rows).
    let LinkScratch {
        start,
        next,
        adjacent,
        reached,
        reached_list,
        stack,
        ..
    } = scratch;
    start.clear();
    start.resize(n + 1, 0);
    for &(a, b) in links.iter() {
        start[a + 1] += 1;
        start[b + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    next.clear();
    next.extend_from_slice(start);
    adjacent.clear();
    adjacent.resize(start[n], 0);
    for &(a, b) in links.iter() {
        adjacent[next[a]] = b;
        next[a] += 1;
        adjacent[next[b]] = a;
        next[b] += 1;
    }
    reached.clear();
    reached.resize(n, false);
    reached_list.clear();
    stack.clear();
    let mut visit = |first: usize, reached: &mut Vec<bool>, list: &mut Vec<usize>| {
        stack.push(first);
        reached[first] = true;
        while let Some(r) = stack.pop() {
            list.push(r);
            for &s in &adjacent[start[r]..start[r + 1]] {
                if !reached[s] {
                    reached[s] = true;
                    stack.push(s);
                }
            }
        }
    };
    visit(0, reached, reached_list);
    for a in 1..n {
        if !reached[a] {
            let b = reached_list[rng.below_inlined(reached_list.len())];
            links.push((a, b));
            visit(a, reached, reached_list);
        }
    }
}

fn limit(detail: String) -> TilesError {
    TilesError::Limit {
        generator: "rooms and corridors",
        limit: format!(
            "corridor searches of the whole map from every component \
             ({SEARCH_REROUTES} reroutes each)"
        ),
        detail,
    }
}

/// The buffers of one map kept for the next on the same thread: the grids
/// (at 200 × 200 cells the owner grid alone is 160 KB), the union-find, the
/// rooms, the links and the scratch of the path checks. A map made with them
/// allocates little besides what it returns (the rare corridor searches,
/// door candidates and joins of unreached rooms still allocate their own).
/// Measured 2026-11-28 against fresh buffers per map: 10–25 % of a map's
/// time at 80 × 25 to 100 × 100, 6.6× at 200 × 200.
#[derive(Default)]
struct Scratch {
    zone: Vec<u8>,
    owner: Vec<u32>,
    sets: UnionFind,
    rects: Vec<TileRect>,
    placed: Vec<EightRooms>,
    links: Vec<(usize, usize)>,
    deferred: Vec<(usize, usize)>,
    choose: LinkScratch,
    stretches: Vec<(usize, usize)>,
    meets: Vec<usize>,
    drawn: Vec<usize>,
}

thread_local! {
    /// The [`Scratch`] of the last map made on this thread, lent to the
    /// next.
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// The largest map (in cells: 4 MB of owner grid and 1 MB of zone grid)
/// whose buffers a thread keeps between maps: a larger map's are freed, so
/// one huge map does not hold its memory for the rest of the thread's
/// life.
const SCRATCH_KEEP_CELLS: usize = 1 << 20;

/// What each cell may become: corridors only ever go on `FREE` cells, doors
/// only on `RING` cells. The low bits of a [`Ctx::zone`] cell ([`KIND`]).
const FREE: u8 = 0;
/// The map's outer edge.
const BORDER: u8 = 1;
/// Room floor.
const FLOOR: u8 = 2;
/// A cell 4-adjacent to room floor (a room's wall ring without its corners),
/// not on the border.
const RING: u8 = 3;
/// A corner of a room's wall ring: kept wall so a corridor never touches a
/// room even diagonally, and a door's sides stay wall.
const CORNER: u8 = 4;
/// The bits of a zone cell that say its kind.
const KIND: u8 = 7;
/// Set in a zone cell that is corridor or door on the map, so the path
/// checks read one grid: a cell's kind and whether it is open come in one
/// byte.
const OPEN: u8 = 8;
/// No owner / no cell.
const NONE: u32 = u32::MAX;

/// A route search's queue entry: a cell reached at a cost, heading `heading`
/// (for a door it sets out from, the heading out of it).
struct Entry {
    g: usize,
    x: u16,
    y: u16,
    cost: u32,
    heading: u8,
    start: bool,
    /// Set when the cell ends the route.
    end: Option<End>,
}

/// Where a corridor ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// At a door of this room.
    Door(usize),
    /// On a corridor cell already connected to the target.
    Join,
}

/// The path [`Ctx::build_path`] set up, as geometry, so a cell's index,
/// column and row are found without a division and without listing the
/// cells: from `start` (cell index `first`), `legs[i]` steps of `steps[i]`
/// (`offsets[i]` added to the index, wrapping) for each leg in turn.
#[derive(Clone, Copy, Debug, Default)]
struct PathShape {
    start: [i64; 2],
    first: usize,
    steps: [[i64; 2]; 3],
    offsets: [usize; 3],
    legs: [usize; 3],
}

impl PathShape {
    /// The index of the path's last cell (its number of steps).
    fn last(&self) -> usize {
        self.legs[0] + self.legs[1] + self.legs[2]
    }

    /// The map index of the path's cell `k`.
    fn cell(&self, k: usize) -> usize {
        let mut c = self.first;
        let mut left = k;
        for (&offset, &len) in self.offsets.iter().zip(&self.legs) {
            let n = left.min(len);
            c = c.wrapping_add(offset.wrapping_mul(n));
            left -= n;
        }
        c
    }

    /// Whether `test` holds for the map index of every cell `first..=last`.
    fn all_cells(&self, first: usize, last: usize, mut test: impl FnMut(usize) -> bool) -> bool {
        let mut c = self.cell(first);
        if !test(c) {
            return false;
        }
        let (mut k, mut end) = (first, 0);
        for (&offset, &len) in self.offsets.iter().zip(&self.legs) {
            end += len;
            while k < last && k < end {
                k += 1;
                c = c.wrapping_add(offset);
                if !test(c) {
                    return false;
                }
            }
        }
        true
    }

    /// The column and row of the path's cell `k`.
    fn xy(&self, k: usize) -> [u32; 2] {
        let mut at = self.start;
        let mut left = k;
        for (step, &len) in self.steps.iter().zip(&self.legs) {
            let n = left.min(len);
            at[0] += n as i64 * step[0];
            at[1] += n as i64 * step[1];
            left -= n;
        }
        [at[0] as u32, at[1] as u32]
    }
}

/// A rectangle of cells a search may use: columns `x0..x1`, rows `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Window {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

/// The map being drawn, with what the corridor rules need beside it.
struct Ctx {
    map: TileMap,
    /// Columns, as `usize` for index arithmetic.
    w: usize,
    /// Per cell: its kind (`FREE`, `BORDER`, `FLOOR`, `RING` or `CORNER`,
    /// the [`KIND`] bits) and [`OPEN`] where the map has a corridor or a
    /// door.
    zone: Vec<u8>,
    /// Per door and corridor cell, and per floor cell beside its room's
    /// ring: the room (floor, door) or the union-find node of the corridor
    /// that opened it. Read only where this map has opened the cell, and
    /// of a room's floor only beside its ring, so the grid
    /// may hold another map's values elsewhere (inside rooms too): it is
    /// borrowed from the thread's last map and never cleared.
    owner: Vec<u32>,
    /// Union-find over the owners: two owners share a root exactly when
    /// their cells are connected.
    sets: UnionFind,
    rects: Vec<TileRect>,
    /// Cells the searches may still settle for links that only add loops.
    loop_budget: usize,
    /// Scratch, kept between tries so that trying an L allocates nothing:
    /// the path's geometry, its stretches outside rooms (index ranges), the
    /// open cells it meets, the cells a drawing opened.
    l_shape: PathShape,
    stretches: Vec<(usize, usize)>,
    meets: Vec<usize>,
    drawn: Vec<usize>,
}

impl Ctx {
    /// A map of wall with the floor of `scratch.rects` drawn and listed,
    /// working in the buffers of `scratch` (until [`Ctx::finish`] gives
    /// them back).
    fn new(width: u32, height: u32, scratch: &mut Scratch) -> Self {
        let rects = std::mem::take(&mut scratch.rects);
        let mut map = TileMap::filled(width, height, Tile::WALL);
        map.rooms.reserve_exact(rects.len());
        // The room list in a loop of its own, each room written as a
        // literal (what TileRoom::rect makes): assembled on the stack with
        // 4-byte stores (by TileRoom::rect when not inlined, or when pushed
        // from the loop that draws the rooms) and copied into the list with
        // wider loads, a room cost a store that could not be forwarded (a
        // stall).
        map.rooms.extend(rects.iter().enumerate().map(|(r, rect)| {
            let (x0, y0, x1, y1) = (rect.x, rect.y, rect.right(), rect.bottom());
            TileRoom {
                name: room_name(r),
                tag: SmolStr::default(),
                bounds: *rect,
                outline: Outline::from_buf([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]),
            }
        }));
        let (w, h) = (width as usize, height as usize);
        let mut zone = std::mem::take(&mut scratch.zone);
        zone.clear();
        zone.resize(w * h, FREE);
        let mut owner = std::mem::take(&mut scratch.owner);
        if owner.len() < w * h {
            owner.resize(w * h, 0);
        }
        let tiles = &mut map.cells;
        for (r, rect) in rects.iter().enumerate() {
            let (x0, y0) = (rect.x as usize, rect.y as usize);
            let (x1, y1) = (rect.right() as usize, rect.bottom() as usize);
            // The ring: rows above and below, columns left and right (with
            // the floor rows between), then the four corners. Rooms keep
            // ROOM_GAP apart, so no ring or corner lands on another room's
            // floor, ring or corner, and they can be written in any order;
            // only the border, written last, takes a ring cell back.
            debug_assert!(
                ring_cells(rect, w).all(|i| zone[i] == FREE),
                "room {r}'s ring meets another room"
            );
            fill_short(&mut zone[(y0 - 1) * w + x0..(y0 - 1) * w + x1], RING);
            fill_short(&mut zone[y1 * w + x0..y1 * w + x1], RING);
            for row in (y0..y1).map(|y| y * w) {
                fill_short(&mut tiles[row + x0..row + x1], Tile::FLOOR);
                fill_short(&mut zone[row + x0..row + x1], FLOOR);
                zone[row + x0 - 1] = RING;
                zone[row + x1] = RING;
                owner[row + x0] = r as u32;
                owner[row + x1 - 1] = r as u32;
            }
            // Of a room's floor only the cells beside its ring have their
            // owner read (the cell a door opens onto), so only the floor's
            // outer rows and columns are written.
            fill_short(&mut owner[y0 * w + x0..y0 * w + x1], r as u32);
            fill_short(&mut owner[(y1 - 1) * w + x0..(y1 - 1) * w + x1], r as u32);
            for (x, y) in [(x0 - 1, y0 - 1), (x1, y0 - 1), (x0 - 1, y1), (x1, y1)] {
                zone[y * w + x] = CORNER;
            }
        }
        zone[..w].fill(BORDER);
        zone[(h - 1) * w..].fill(BORDER);
        for y in 1..h - 1 {
            zone[y * w] = BORDER;
            zone[y * w + w - 1] = BORDER;
        }
        let mut sets = std::mem::take(&mut scratch.sets);
        sets.reset(rects.len());
        let mut stretches = std::mem::take(&mut scratch.stretches);
        let mut meets = std::mem::take(&mut scratch.meets);
        let mut drawn = std::mem::take(&mut scratch.drawn);
        stretches.clear();
        meets.clear();
        drawn.clear();
        Ctx {
            map,
            w,
            zone,
            owner,
            sets,
            rects,
            loop_budget: loop_budget(w, h),
            l_shape: PathShape::default(),
            stretches,
            meets,
            drawn,
        }
    }

    /// The map; the buffers go back to `scratch` for the next map.
    fn finish(self, scratch: &mut Scratch) -> TileMap {
        scratch.zone = self.zone;
        scratch.owner = self.owner;
        scratch.sets = self.sets;
        scratch.rects = self.rects;
        scratch.stretches = self.stretches;
        scratch.meets = self.meets;
        scratch.drawn = self.drawn;
        self.map
    }

    /// Room for what `links` links usually add (a corridor and two doors
    /// each, more where an L crosses rooms), so the lists grow rarely.
    fn reserve(&mut self, links: usize) {
        self.sets.reserve(2 * links);
        self.map.corridors.reserve(2 * links);
        self.map.doors.reserve(4 * links);
    }

    /// Cell `i`'s column and row.
    fn xy(&self, i: usize) -> [u32; 2] {
        [(i % self.w) as u32, (i / self.w) as u32]
    }

    /// Cell `i`'s kind, without the [`OPEN`] bit.
    fn kind(&self, i: usize) -> u8 {
        self.zone[i] & KIND
    }

    /// Whether cell `i` is corridor or door.
    fn is_open(&self, i: usize) -> bool {
        self.zone[i] & OPEN != 0
    }

    /// Makes cell `c` a door or corridor (`tile`) owned by `owner`.
    fn open(&mut self, c: usize, tile: Tile, owner: u32) {
        self.map.cells[c] = tile;
        self.zone[c] |= OPEN;
        self.owner[c] = owner;
    }

    /// Makes ring cell `c`, at column and row `at`, a door of `room` and
    /// lists it.
    fn open_door(&mut self, c: usize, at: [u32; 2], room: u32) {
        self.open(c, Tile::DOOR, room);
        self.map.doors.push(TileDoor {
            cells: TileRect::new(at[0], at[1], 1, 1),
            rooms: [Some(room as usize), None],
        });
    }

    /// Whether one of the four 2 × 2 blocks holding inner cell `c` would be
    /// all corridor and door, counting `extra` cells as open too.
    fn forms_block(&self, c: usize, extra: [usize; 3]) -> bool {
        let w = self.w;
        let open = |i: usize| self.is_open(i) || extra.contains(&i);
        // Every block holding `c` holds one of its neighbours above or
        // below and one beside it; a straight corridor has neither pair
        // open, so most cells are settled by four reads.
        let (up, down) = (open(c - w), open(c + w));
        if !(up || down) {
            return false;
        }
        let (left, right) = (open(c - 1), open(c + 1));
        (up && left && open(c - w - 1))
            || (up && right && open(c - w + 1))
            || (down && left && open(c + w - 1))
            || (down && right && open(c + w + 1))
    }

    /// The floor cell next to ring cell `c`; a ring cell that is not a
    /// corner has exactly one.
    fn ring_floor(&self, c: usize) -> usize {
        let w = self.w;
        [c - w, c + w, c - 1, c + 1]
            .into_iter()
            .find(|&n| self.zone[n] == FLOOR)
            .unwrap_or(c)
    }

    /// The cell a door at ring cell `c` opens onto, straight away from its
    /// room.
    fn outward(&self, c: usize) -> usize {
        2 * c - self.ring_floor(c)
    }

    fn room_of_ring(&self, c: usize) -> usize {
        self.owner[self.ring_floor(c)] as usize
    }

    /// The ring cells of `room` a door may take: not on the border and
    /// opening onto a cell a corridor may use.
    fn door_candidates(&self, room: usize) -> Vec<usize> {
        let r = self.rects[room];
        let w = self.w;
        let (x0, y0) = (r.x as usize, r.y as usize);
        let (x1, y1) = (r.right() as usize, r.bottom() as usize);
        (x0..x1)
            .flat_map(|x| [(y0 - 1) * w + x, y1 * w + x])
            .chain((y0..y1).flat_map(|y| [y * w + x0 - 1, y * w + x1]))
            .filter(|&c| self.kind(c) == RING && self.kind(self.outward(c)) == FREE)
            .collect()
    }

    /// Draws one link of the list of steps 2 and 3: an L if one keeps the
    /// rules, else a searched route. Returns `false` when the link was
    /// needed (its rooms not yet connected) and nothing was drawn; a link whose rooms
    /// are already connected is dropped when no route is found.
    fn link(&mut self, a: usize, b: usize, rng: &mut Rng) -> bool {
        let required = self.sets.find(a) != self.sets.find(b);
        if self.draw_l(a, b, rng) || (!required && self.loop_budget == 0) {
            return true;
        }
        self.draw_searched(a, b, required) || !required
    }

    /// The last resort for connectivity: while some room is not connected
    /// to room 0, a search from its component to the nearest cell of any
    /// other. Each success merges two components, so this ends after fewer
    /// rounds than there are rooms.
    ///
    /// # Errors
    ///
    /// [`TilesError::Limit`] when no component can reach another.
    fn join_components(&mut self) -> Result<(), TilesError> {
        let n = self.rects.len();
        for _ in 0..n {
            let first = self.sets.find(0);
            let mut tried = Vec::new();
            let mut joined = false;
            for a in 0..n {
                let root = self.sets.find(a);
                if root == first || tried.contains(&root) {
                    continue;
                }
                tried.push(root);
                let source: Vec<bool> = (0..self.sets.len())
                    .map(|node| self.sets.find(node) == root)
                    .collect();
                let target: Vec<bool> = source.iter().map(|&s| !s).collect();
                let whole = self.window(a, a, u32::MAX);
                if self.route(&source, &target, None, &[whole]) {
                    joined = true;
                    break;
                }
            }
            if !joined {
                break;
            }
        }
        let first = self.sets.find(0);
        match (1..n).find(|&r| self.sets.find(r) != first) {
            None => Ok(()),
            Some(lost) => Err(limit(format!("room {lost} is not connected to room 0"))),
        }
    }

    /// Step 4 with doors: Ls from the centres (both axis orders, the first
    /// chosen at random), then from random cell pairs, then [`Z_TRIES`]
    /// paths of three legs between random cells (the middle leg at a random
    /// place between them), cheaper than the search that comes after. The
    /// plain algorithm's L carves through whatever lies on its way; here it
    /// may cross another room too, through a door on each side (entering
    /// and leaving straight), and is drawn as one corridor per stretch
    /// between rooms.
    fn draw_l(&mut self, a: usize, b: usize, rng: &mut Rng) -> bool {
        let (ra, rb) = (self.rects[a], self.rects[b]);
        let horizontal_first = rng.below_inlined(2) == 0;
        for t in 0..=L_OFFSET_TRIES {
            let (pa, pb) = if t == 0 {
                (ra.center(), rb.center())
            } else {
                (random_cell(&ra, rng), random_cell(&rb, rng))
            };
            for horizontal in [horizontal_first, !horizontal_first] {
                let axis = usize::from(!horizontal);
                self.build_path(pa, pb, horizontal, pb[axis]);
                if self.check_path() {
                    self.draw_path();
                    return true;
                }
            }
        }
        for _ in 0..Z_TRIES {
            let (pa, pb) = (random_cell(&ra, rng), random_cell(&rb, rng));
            let horizontal = rng.below_inlined(2) == 0;
            let axis = usize::from(!horizontal);
            let (lo, hi) = (pa[axis].min(pb[axis]), pa[axis].max(pb[axis]));
            let middle = lo + rng.below_inlined((hi - lo + 1) as usize) as u32;
            self.build_path(pa, pb, horizontal, middle);
            if self.check_path() {
                self.draw_path();
                return true;
            }
        }
        false
    }

    /// Sets `l_shape` to the path from `pa` to `pb` (both ends included):
    /// along x when `horizontal_first` (else along y) to `middle` on that
    /// axis, along the other axis all the way, then along the first axis
    /// again to `pb`. With `middle` at `pb`'s coordinate this is the plain
    /// algorithm's L; with `middle` between the two ends (as every caller draws it) the
    /// path is monotone in both axes, so it enters and leaves each room at
    /// most once.
    #[inline]
    fn build_path(&mut self, pa: [u32; 2], pb: [u32; 2], horizontal_first: bool, middle: u32) {
        let w = self.w as i64;
        let axis = usize::from(!horizontal_first);
        let other = 1 - axis;
        let unit = |axis: usize, from: u32, to: u32| -> [i64; 2] {
            let sign = if to >= from { 1 } else { -1 };
            if axis == 0 {
                [sign, 0]
            } else {
                [0, sign]
            }
        };
        let steps = [
            unit(axis, pa[axis], middle),
            unit(other, pa[other], pb[other]),
            unit(axis, middle, pb[axis]),
        ];
        let legs = [
            pa[axis].abs_diff(middle) as usize,
            pa[other].abs_diff(pb[other]) as usize,
            middle.abs_diff(pb[axis]) as usize,
        ];
        self.l_shape = PathShape {
            start: [i64::from(pa[0]), i64::from(pa[1])],
            first: pa[1] as usize * self.w + pa[0] as usize,
            steps,
            offsets: steps.map(|s| (s[0] + s[1] * w) as usize),
            legs,
        };
    }

    /// Whether the path in `l_shape` keeps every rule: it runs on free
    /// cells and room floor only, passing each room's ring straight through
    /// a door cell, and closes no 2 × 2 block of corridor and door. Records
    /// in `stretches` the index ranges of the parts outside rooms, door to
    /// door, and in `meets` the open cells it crosses or touches. Stops at
    /// the first cell that breaks a rule, so a refused path costs only the
    /// cells up to its fault.
    ///
    /// Each cell off the floor reads its two neighbours off the path, and a
    /// block's diagonal only when both its sides are open; the neighbours
    /// on the path count as open unless they are floor (they will be
    /// opened). The cells of a monotone path in one block are consecutive,
    /// and every such block is seen at one of them: one cell (a turn) with
    /// its two neighbours off the path, two with the off-path cell beside
    /// either, three at the middle one, whose diagonal is the fourth. So
    /// cells already open are tested too: the middle one may be.
    ///
    /// The cells are walked leg by leg from the shape: inside a leg a cell
    /// is entered and left by the same step, so only the cells where two
    /// legs meet take the turn's tests.
    #[inline]
    fn check_path(&mut self) -> bool {
        self.stretches.clear();
        self.meets.clear();
        let shape = &self.l_shape;
        let mut check = PathCheck {
            zone: &self.zone,
            w: self.w,
            stretches: &mut self.stretches,
            meets: &mut self.meets,
            start: usize::MAX,
        };
        let last = shape.last();
        let mut c = shape.first;
        let mut k = 0;
        for leg in 0..3 {
            let (step, len) = (shape.offsets[leg], shape.legs[leg]);
            if len == 0 {
                continue;
            }
            // Every cell of the leg but its last is left by the same step.
            let mut straight = len - 1;
            while straight > 0 {
                let (skip, next_plain) = check.plain_cells(c, step, straight);
                if skip > 0 {
                    c = c.wrapping_add(step.wrapping_mul(skip));
                    k += skip;
                    straight -= skip;
                    // A run cut short ends at a cell that needs the full
                    // test: take it at once rather than read again.
                    if next_plain || straight == 0 {
                        continue;
                    }
                }
                c = c.wrapping_add(step);
                k += 1;
                straight -= 1;
                if !check.cell(c, step, step, k) {
                    return false;
                }
            }
            c = c.wrapping_add(step);
            k += 1;
            if k == last {
                break;
            }
            // The leg's last cell is left by the next non-empty leg's step.
            let next = (leg + 1..3)
                .find(|&l| shape.legs[l] > 0)
                .map_or(step, |l| shape.offsets[l]);
            if !check.cell(c, step, next, k) {
                return false;
            }
        }
        true
    }

    /// Draws the path [`Ctx::check_path`] accepted: one corridor per stretch
    /// (door to door) that opens a cell, all joined to the rooms at their
    /// ends and to the open cells the L met.
    fn draw_path(&mut self) {
        let node = self.sets.push();
        // The root of the path's component, kept here: each join then
        // finds only the other side's root.
        let mut root = node;
        let shape = self.l_shape;
        let stretches = std::mem::take(&mut self.stretches);
        for &(s, e) in &stretches {
            let from = self.owner[shape.cell(s - 1)];
            let to = self.owner[shape.cell(e + 1)];
            root = self.sets.union(root, from as usize);
            root = self.sets.union(root, to as usize);
            let first = shape.cell(s);
            if self.is_open(first) && shape.all_cells(s, e, |c| self.is_open(c)) {
                continue;
            }
            if !self.is_open(first) {
                self.open_door(first, shape.xy(s), from);
            }
            // One pass lists the stretch's cells and opens those between
            // its two doors, the ring cells at its ends (between them it
            // runs on free cells only, so a cell still `FREE` is one to
            // open). The index and the column and row step together, the
            // leg picked without a branch: one loop per stretch, not one
            // per leg, as the end of a loop over a run of random length is
            // a branch mispredicted.
            let ends = [shape.legs[0], shape.legs[0] + shape.legs[1]];
            let offsets = shape.offsets;
            let steps = shape.steps.map(|[dx, dy]| [dx as u32, dy as u32]);
            // Slices of one length, so one bounds test serves the three.
            let zone = &mut self.zone[..];
            let tiles = &mut self.map.cells[..zone.len()];
            let owner = &mut self.owner[..zone.len()];
            let (mut c, mut at) = (first, shape.xy(s));
            // Written in place rather than pushed: a push's length lives in
            // memory, a slot of a slice in a register.
            let mut cells = vec![at; e + 1 - s];
            for (slot, k) in cells[1..].iter_mut().zip(s + 1..e + 1) {
                let leg = usize::from(k > ends[0]) + usize::from(k > ends[1]);
                c = c.wrapping_add(offsets[leg]);
                at = [
                    at[0].wrapping_add(steps[leg][0]),
                    at[1].wrapping_add(steps[leg][1]),
                ];
                *slot = at;
                debug_assert!(
                    k == e || zone[c] & KIND == FREE,
                    "a stretch's inner cell is free"
                );
                if zone[c] == FREE {
                    tiles[c] = Tile::CORRIDOR;
                    zone[c] = FREE | OPEN;
                    owner[c] = node as u32;
                }
            }
            if !self.is_open(c) {
                self.open_door(c, at, to);
            }
            self.map.corridors.push(TileCorridor {
                cells,
                rooms: [Some(from as usize), Some(to as usize)],
            });
        }
        // Consecutive cells met often share an owner (a corridor crossed or
        // run beside): one union each is enough.
        let mut last = NONE;
        for i in 0..self.meets.len() {
            let met = self.owner[self.meets[i]];
            if met != last {
                root = self.sets.union(root, met as usize);
                last = met;
            }
        }
        self.stretches = stretches;
    }

    /// The plain algorithm has no fallback; this one searches for the shortest
    /// corridor that keeps the rules, in a window around the rooms and then
    /// over the map. When the link is `required` (its rooms not yet
    /// connected) it may start at a door of any room connected to `a` and
    /// end at any door or corridor cell connected to `b`; otherwise it runs
    /// from a door of `a` to a door of `b`.
    fn draw_searched(&mut self, a: usize, b: usize, required: bool) -> bool {
        let (root_a, root_b) = (self.sets.find(a), self.sets.find(b));
        let (source, target): (Vec<bool>, Vec<bool>) = (0..self.sets.len())
            .map(|node| {
                if required {
                    let root = self.sets.find(node);
                    (root == root_a, root == root_b)
                } else {
                    (node == a, node == b)
                }
            })
            .unzip();
        let goal = Some(self.rects[b]);
        let near = self.window(a, b, SEARCH_MARGIN);
        let whole = self.window(a, b, u32::MAX);
        if near == whole {
            self.route(&source, &target, goal, &[near])
        } else {
            self.route(&source, &target, goal, &[near, whole])
        }
    }

    /// Searches each window in turn for a route from a door of a room
    /// marked in `source` to a room door or corridor cell marked in
    /// `target` (owners), and draws the first that [`Ctx::commit`] accepts;
    /// a route refused for a 2 × 2 block is searched again without that
    /// cell, up to [`SEARCH_REROUTES`] times per window.
    fn route(
        &mut self,
        source: &[bool],
        target: &[bool],
        goal: Option<TileRect>,
        windows: &[Window],
    ) -> bool {
        let mut banned = Vec::new();
        for &win in windows {
            for _ in 0..=SEARCH_REROUTES {
                let (found, settled) = self.search(source, target, goal, win, &banned);
                self.loop_budget = self.loop_budget.saturating_sub(settled);
                let Some((path, end)) = found else {
                    break;
                };
                match self.commit(&path, end) {
                    Ok(()) => return true,
                    Err(Some(cell)) => banned.push(cell),
                    Err(None) => break,
                }
            }
        }
        false
    }

    /// The bounding box of rooms `a` and `b` grown by `margin` plus their
    /// rings and door steps, within the map's inner cells.
    fn window(&self, a: usize, b: usize, margin: u32) -> Window {
        let (ra, rb) = (self.rects[a], self.rects[b]);
        let grow = margin.saturating_add(2) as usize;
        let (w, h) = (self.map.width as usize, self.map.height as usize);
        Window {
            x0: (ra.x.min(rb.x) as usize).saturating_sub(grow).max(1),
            y0: (ra.y.min(rb.y) as usize).saturating_sub(grow).max(1),
            x1: (ra.right().max(rb.right()) as usize)
                .saturating_add(grow)
                .min(w - 1),
            y1: (ra.bottom().max(rb.bottom()) as usize)
                .saturating_add(grow)
                .min(h - 1),
        }
    }

    /// A cheap route in `win` from a door the rooms marked in `source` may
    /// take to a door of a room marked in `target` (entered straight from
    /// its outside) or to a corridor cell whose owner is marked. A step
    /// costs 1 and a turn [`TURN_COST`] more, so routes run straight where
    /// they can instead of in staircases. A step is refused where it would
    /// close a 2 × 2 block with the two cells before it; [`Ctx::commit`]
    /// checks the whole route. Returns the route's cells in walking order
    /// and how it ends, if found, and the number of cells settled.
    ///
    /// A* over cells with Dial's bucket queue (the costs are small
    /// integers), guided toward the ring of room `goal` when given; each
    /// cell is settled once, with the heading it was first reached by (so
    /// a route is cheapest up to that simplification of turn costs), and
    /// the work is O(window cells). A target away from `goal` (a connected
    /// corridor) is taken when the search meets it first.
    fn search(
        &self,
        source: &[bool],
        target: &[bool],
        goal: Option<TileRect>,
        win: Window,
        banned: &[usize],
    ) -> (Option<(Vec<usize>, End)>, usize) {
        // Per window cell: the heading it was reached by, START for a door
        // a route sets out from, UNSEEN before it is settled.
        const UNSEEN: u8 = u8::MAX;
        const START: u8 = 4;
        const BUCKETS: usize = TURN_COST + 3;
        let w = self.w;
        let ww = win.x1 - win.x0;
        let local = |x: usize, y: usize| (y - win.y0) * ww + (x - win.x0);
        let inside = |x: usize, y: usize| x >= win.x0 && x < win.x1 && y >= win.y0 && y < win.y1;
        // How a route may step onto a cell: not at all (None), walking on
        // (Some(None)), or ending there (Some(Some(end))).
        let enter = |g: usize, heading: usize| -> Option<Option<End>> {
            match self.kind(g) {
                FREE if banned.contains(&g) => None,
                FREE if self.map.cells[g] == Tile::CORRIDOR && target[self.owner[g] as usize] => {
                    Some(Some(End::Join))
                }
                FREE => Some(None),
                // Into a target room's door, heading for its floor.
                RING if self.zone[step(g, heading as u8, w)] == FLOOR
                    && target[self.owner[step(g, heading as u8, w)] as usize]
                    && !banned.contains(&g) =>
                {
                    Some(Some(End::Door(
                        self.owner[step(g, heading as u8, w)] as usize,
                    )))
                }
                _ => None,
            }
        };
        // Manhattan distance to the goal's ring: never more than the rest
        // of a route to one of its doors, and changing by at most 1 a step
        // (so an estimate grows by 0 to TURN_COST + 2 a step).
        let estimate = |x: usize, y: usize| {
            goal.map_or(0, |r| {
                let (x0, x1) = (r.x as usize - 1, r.right() as usize);
                let (y0, y1) = (r.y as usize - 1, r.bottom() as usize);
                x0.saturating_sub(x)
                    + x.saturating_sub(x1)
                    + y0.saturating_sub(y)
                    + y.saturating_sub(y1)
            })
        };
        let off_g = [w.wrapping_neg(), w, usize::MAX, 1];
        let off_x = [0, 0, usize::MAX, 1];
        let off_y = [usize::MAX, 1, 0, 0];
        let mut from = vec![UNSEEN; ww * (win.y1 - win.y0)];
        let mut buckets: [Vec<Entry>; BUCKETS] = Default::default();
        // The doors to set out from, by estimate: each joins the queue when
        // the search reaches its estimate, as the buckets span only
        // BUCKETS consecutive estimates.
        let mut starts = Vec::new();
        for room in (0..self.rects.len()).filter(|&r| source[r]) {
            for door in self.door_candidates(room) {
                let (x, y) = (door % w, door / w);
                if inside(x, y) && !banned.contains(&door) {
                    let out = self.outward(door);
                    let heading = (0..4).find(|&d| step(door, d, w) == out).unwrap_or(0);
                    starts.push((estimate(x, y), door, heading));
                }
            }
        }
        starts.sort_unstable();
        let mut next_start = 0;
        let mut pending = 0usize;
        let mut settled = 0;
        let mut f = 0;
        loop {
            while let Some(&(start_f, door, heading)) = starts.get(next_start) {
                if pending == 0 {
                    f = f.max(start_f);
                }
                if start_f != f {
                    break;
                }
                buckets[f % BUCKETS].push(Entry {
                    g: door,
                    x: (door % w) as u16,
                    y: (door / w) as u16,
                    cost: 0,
                    heading,
                    start: true,
                    end: None,
                });
                pending += 1;
                next_start += 1;
            }
            if pending == 0 {
                break;
            }
            while let Some(e) = buckets[f % BUCKETS].pop() {
                pending -= 1;
                let (x, y) = (e.x as usize, e.y as usize);
                let l = local(x, y);
                if from[l] != UNSEEN {
                    continue;
                }
                settled += 1;
                from[l] = if e.start { START } else { e.heading };
                if let Some(end) = e.end {
                    let (mut at, mut ax, mut ay) = (e.g, x, y);
                    let mut cells = vec![at];
                    while from[local(ax, ay)] != START {
                        let d = from[local(ax, ay)] as usize;
                        at = at.wrapping_sub(off_g[d]);
                        ax = ax.wrapping_sub(off_x[d]);
                        ay = ay.wrapping_sub(off_y[d]);
                        cells.push(at);
                    }
                    cells.reverse();
                    return (Some((cells, end)), settled);
                }
                let behind = if e.start {
                    NONE as usize
                } else {
                    e.g.wrapping_sub(off_g[e.heading as usize])
                };
                for nd in 0..4u8 {
                    // A door is left straight outward only; no step back.
                    if (e.start && nd != e.heading) || nd == e.heading ^ 1 {
                        continue;
                    }
                    let d = nd as usize;
                    let (nx, ny) = (x.wrapping_add(off_x[d]), y.wrapping_add(off_y[d]));
                    if !inside(nx, ny) || from[local(nx, ny)] != UNSEEN {
                        continue;
                    }
                    let n = e.g.wrapping_add(off_g[d]);
                    let Some(end) = enter(n, d) else {
                        continue;
                    };
                    if self.forms_block(n, [n, e.g, behind]) {
                        continue;
                    }
                    let cost = e.cost + 1 + if nd == e.heading { 0 } else { TURN_COST as u32 };
                    buckets[(cost as usize + estimate(nx, ny)) % BUCKETS].push(Entry {
                        g: n,
                        x: nx as u16,
                        y: ny as u16,
                        cost,
                        heading: nd,
                        start: false,
                        end,
                    });
                    pending += 1;
                }
            }
            f += 1;
        }
        (None, settled)
    }

    /// Draws `path` (walking order, from a door) if it keeps every rule: it
    /// starts at a room's ring cell and steps straight out,
    /// ends at a ring cell of the `end` room entered straight (or on a
    /// corridor cell for [`End::Join`]), runs on free cells between, and
    /// closes no 2 × 2 block of corridor and door. Otherwise leaves the map
    /// as it was and returns the first cell that closed a block, if that
    /// was the fault.
    fn commit(&mut self, path: &[usize], end: End) -> Result<(), Option<usize>> {
        let n = path.len();
        if n < 2 {
            return Err(None);
        }
        let first = path[0];
        if self.kind(first) != RING || self.outward(first) != path[1] {
            return Err(None);
        }
        let from = self.room_of_ring(first);
        let middle = match end {
            End::Door(room) => {
                let last = path[n - 1];
                if n < 3
                    || self.kind(last) != RING
                    || self.room_of_ring(last) != room
                    || self.outward(last) != path[n - 2]
                {
                    return Err(None);
                }
                &path[1..n - 1]
            }
            End::Join => {
                if self.map.cells[path[n - 1]] != Tile::CORRIDOR {
                    return Err(None);
                }
                &path[1..]
            }
        };
        if middle.iter().any(|&c| self.kind(c) != FREE) {
            return Err(None);
        }
        let mut sorted = path.to_vec();
        sorted.sort_unstable();
        if sorted.windows(2).any(|p| p[0] == p[1]) {
            return Err(None);
        }
        // Open the new cells, test the blocks they close, and undo on a
        // fault: a route may close a block with its own cells far apart.
        let mut opened = Vec::new();
        for &c in path {
            if !self.is_open(c) {
                self.zone[c] |= OPEN;
                opened.push(c);
            }
        }
        let bad = opened
            .iter()
            .copied()
            .find(|&c| self.forms_block(c, [c; 3]));
        for &c in &opened {
            self.zone[c] &= !OPEN;
        }
        if let Some(bad) = bad {
            return Err(Some(bad));
        }
        self.draw(path, from, end);
        Ok(())
    }

    /// Draws a corridor already checked: `path` in walking order from a
    /// door of room `from` to `end`. New cells become doors (on a ring) or
    /// corridor, are listed, and join the connectivity of everything they
    /// touch; a path that opens no new cell joins the connectivity only.
    fn draw(&mut self, path: &[usize], from: usize, end: End) {
        let node = self.sets.push();
        let w = self.w;
        let mut drawn = std::mem::take(&mut self.drawn);
        drawn.clear();
        for &c in path {
            if !self.is_open(c) {
                if self.kind(c) == RING {
                    let room = self.room_of_ring(c);
                    self.open(c, Tile::DOOR, room as u32);
                    let [x, y] = self.xy(c);
                    self.map.doors.push(TileDoor {
                        cells: TileRect::new(x, y, 1, 1),
                        rooms: [Some(room), None],
                    });
                } else {
                    self.open(c, Tile::CORRIDOR, node as u32);
                }
                drawn.push(c);
            }
        }
        // Cells this corridor opened are `node`'s own; only what it meets
        // (doors, crossed corridors, cells beside) can join components.
        for &c in path {
            let o = self.owner[c] as usize;
            if o != node {
                self.sets.union(node, o);
            }
        }
        for &c in &drawn {
            let o = self.owner[c] as usize;
            for nb in [c - w, c + w, c - 1, c + 1] {
                if self.map.cells[nb] != Tile::WALL {
                    let other = self.owner[nb] as usize;
                    if other != o {
                        self.sets.union(o, other);
                    }
                }
            }
        }
        if !drawn.is_empty() {
            self.map.corridors.push(TileCorridor {
                cells: walk_coordinates(path, w),
                rooms: [
                    Some(from),
                    match end {
                        End::Door(room) => Some(room),
                        End::Join => None,
                    },
                ],
            });
        }
        self.drawn = drawn;
    }
}

/// Sets every element of `row` to `v`, for the short rows of a room (at
/// most a fifth of the map across): with two overlapping writes of a fixed
/// size picked by the length, where `fill` calls memset, whose call and
/// dispatch on the length cost more than the writes (a room's rows are
/// some hundred calls a map). Rows longer than 64 are filled by `fill`.
#[inline(always)]
fn fill_short<T: Copy>(row: &mut [T], v: T) {
    /// Two writes of `N` elements, one at each end, cover `row` when
    /// `N <= row.len() <= 2 * N`.
    #[inline(always)]
    fn ends<T: Copy, const N: usize>(row: &mut [T], v: T) {
        let n = row.len();
        row[..N].copy_from_slice(&[v; N]);
        row[n - N..].copy_from_slice(&[v; N]);
    }
    match row.len() {
        0 => {}
        n @ 1..=3 => {
            row[0] = v;
            row[n / 2] = v;
            row[n - 1] = v;
        }
        4..=8 => ends::<T, 4>(row, v),
        9..=16 => ends::<T, 8>(row, v),
        17..=32 => ends::<T, 16>(row, v),
        33..=64 => ends::<T, 32>(row, v),
        _ => row.fill(v),
    }
}

/// The cells of `rect`'s wall ring on a map `w` cells wide, corners
/// included (for a debug check).
fn ring_cells(rect: &TileRect, w: usize) -> impl Iterator<Item = usize> {
    let (x0, y0) = (rect.x as usize - 1, rect.y as usize - 1);
    let (x1, y1) = (rect.right() as usize, rect.bottom() as usize);
    (x0..=x1)
        .flat_map(move |x| [y0 * w + x, y1 * w + x])
        .chain((y0..=y1).flat_map(move |y| [y * w + x0, y * w + x1]))
}

/// What [`Ctx::check_path`] works with, borrowed apart from the path's
/// shape so that nothing is copied per path.
struct PathCheck<'a> {
    zone: &'a [u8],
    w: usize,
    stretches: &'a mut Vec<(usize, usize)>,
    meets: &'a mut Vec<usize>,
    /// The path index of the door the current stretch began at
    /// (`usize::MAX` inside a room).
    start: usize,
}

impl PathCheck<'_> {
    /// How many of the next cells after `c` along `step` (at most `left`)
    /// are plain, read a few at a time: free wall, floor or corridor with
    /// nothing open across the path, so [`PathCheck::cell`] would pass them
    /// and record only the corridor cells as met (which this records, in
    /// walking order). 0 when the next cell needs the full test. Along a
    /// row, 8 cells and the 8 above and below come in three reads (a plain
    /// byte has no bit but [`FLOOR`]'s or [`OPEN`]'s, never both, and an
    /// open byte has [`OPEN`]), and the plain ones before the first that is
    /// not are counted; along a column, a cell and its two sides come in
    /// one. Reads that would leave the grid count as not plain. Also says
    /// whether the cell after those may be plain too (`false`: it is not).
    ///
    /// A path often runs on a corridor drawn before (out of the same door,
    /// say): its cells pass here, not one full test each.
    #[inline(always)]
    fn plain_cells(&mut self, c: usize, step: usize, left: usize) -> (usize, bool) {
        const NOT_PLAIN: u64 = !(FLOOR as u64 | OPEN as u64) & 0xFF;
        const OPEN_BYTE: u64 = OPEN as u64;
        const ONES: u64 = u64::from_le_bytes([1; 8]);
        let zone = self.zone;
        let word = |i: usize| -> u64 {
            zone.get(i..)
                .and_then(|rest| rest.first_chunk::<8>())
                .map_or(u64::MAX, |b| u64::from_le_bytes(*b))
        };
        let w = self.w;
        if step == 1 || step == usize::MAX {
            // The 8 cells after c, lowest address first: c+1.. rightward,
            // ..c-1 leftward.
            let lo = if step == 1 { c + 1 } else { c.wrapping_sub(8) };
            let (row, up, down) = (word(lo), word(lo.wrapping_sub(w)), word(lo.wrapping_add(w)));
            // A non-zero byte for each cell that is not plain.
            let bad = row & (NOT_PLAIN * ONES) | (up | down) & (OPEN_BYTE * ONES);
            let plain = if step == 1 {
                bad.trailing_zeros()
            } else {
                bad.leading_zeros()
            } as usize
                / 8;
            let n = plain.min(left);
            // The corridor cells among the n passed, in walking order: the
            // low bytes first rightward, the high bytes first leftward.
            let mut open = row & (OPEN_BYTE * ONES);
            if open != 0 && n > 0 {
                if step == 1 {
                    open &= u64::MAX >> (64 - 8 * n);
                    while open != 0 {
                        self.meets.push(lo + open.trailing_zeros() as usize / 8);
                        open &= open - 1;
                    }
                } else {
                    open &= u64::MAX << (64 - 8 * n);
                    while open != 0 {
                        let bit = 63 - open.leading_zeros();
                        self.meets.push(lo + bit as usize / 8);
                        open &= !(1 << bit);
                    }
                }
            }
            (n, plain == 8)
        } else {
            // The next cell and its left and right neighbours: bytes 0..3
            // of the word at its left neighbour.
            let next = c.wrapping_add(step);
            let v = word(next.wrapping_sub(1));
            let mask = OPEN_BYTE | NOT_PLAIN << 8 | OPEN_BYTE << 16;
            let plain = v & mask == 0;
            if plain && v & OPEN_BYTE << 8 != 0 {
                self.meets.push(next);
            }
            (usize::from(plain), plain)
        }
    }

    /// [`PathCheck::plain_cells`] one cell at a time, without the 8-byte
    /// reads: the plain reference the tuned version is held to (the
    /// proptest `plain_cells_agrees_with_a_cell_by_cell_reference`). Kept
    /// because the reads pay: without them a map took up to 16 % longer
    /// (tiles benchmark, 2026-11-28).
    #[cfg(test)]
    fn plain_cells_reference(&mut self, c: usize, step: usize, left: usize) -> (usize, bool) {
        let zone = self.zone;
        let w = self.w;
        // Whether the 8 bytes from `i` lie inside the grid (the tuned
        // reads count a read past its end as not plain).
        let readable = |i: usize| i.checked_add(8).is_some_and(|end| end <= zone.len());
        let plain_kind = |i: usize| zone[i] & !(FLOOR | OPEN) == 0;
        let open = |i: usize| zone[i] & OPEN != 0;
        if step == 1 || step == usize::MAX {
            let lo = if step == 1 { c + 1 } else { c.wrapping_sub(8) };
            if !(readable(lo) && readable(lo.wrapping_sub(w)) && readable(lo.wrapping_add(w))) {
                return (0, false);
            }
            // The k-th cell after c in walking order.
            let cell = |k: usize| if step == 1 { c + 1 + k } else { c - 1 - k };
            let plain = (0..8)
                .take_while(|&k| {
                    let x = cell(k);
                    plain_kind(x) && !open(x - w) && !open(x + w)
                })
                .count();
            let n = plain.min(left);
            for k in 0..n {
                if open(cell(k)) {
                    self.meets.push(cell(k));
                }
            }
            (n, plain == 8)
        } else {
            let next = c.wrapping_add(step);
            if !readable(next.wrapping_sub(1)) {
                return (0, false);
            }
            let plain = !open(next - 1) && plain_kind(next) && !open(next + 1);
            if plain && open(next) {
                self.meets.push(next);
            }
            (usize::from(plain), plain)
        }
    }

    /// [`Ctx::check_path`]'s tests at path cell `k`, map cell `c`, entered
    /// by index step `din` and left by `dout`.
    #[inline(always)]
    fn cell(&mut self, c: usize, din: usize, dout: usize, k: usize) -> bool {
        let zone = self.zone;
        let z = zone[c];
        if z == FLOOR {
            return true;
        }
        let open = |i: usize| zone[i] & OPEN != 0;
        let (p, n) = (c.wrapping_sub(din), c.wrapping_add(dout));
        match z & KIND {
            FREE => {}
            // A door is crossed straight, from floor to free or back.
            RING if din == dout => match (zone[p] & KIND, zone[n] & KIND) {
                (FLOOR, FREE) => self.start = k,
                (FREE, FLOOR) if self.start != usize::MAX => {
                    self.stretches.push((self.start, k));
                    self.start = usize::MAX;
                }
                _ => return false,
            },
            _ => return false,
        }
        if z & OPEN != 0 {
            self.meets.push(c);
        }
        let (s1, s2) = if din == dout {
            let across = if din == 1 || din == usize::MAX {
                self.w
            } else {
                1
            };
            (c + across, c - across)
        } else {
            (c.wrapping_add(din), c.wrapping_sub(dout))
        };
        let (o1, o2) = (open(s1), open(s2));
        if din == dout && !(o1 || o2) {
            // A straight cell with nothing open across the path closes
            // no block: every block holding it holds s1 or s2.
            return true;
        }
        if o1 {
            self.meets.push(s1);
        }
        if o2 {
            self.meets.push(s2);
        }
        let (p_open, n_open) = (zone[p] != FLOOR, zone[n] != FLOOR);
        // The fourth cell of the block of a, b and the path cell c.
        let diagonal = |a: usize, b: usize| open(a.wrapping_add(b).wrapping_sub(c));
        let block = if din == dout {
            // s1 and s2 lie across the path; each pairs with p and n.
            (o1 && ((p_open && diagonal(s1, p)) || (n_open && diagonal(s1, n))))
                || (o2 && ((p_open && diagonal(s2, p)) || (n_open && diagonal(s2, n))))
        } else {
            // At the turn s1 is straight on from p and s2 straight back
            // from n: the pairs are (p, n), (p, s2), (s1, n), (s1, s2).
            (p_open && n_open && diagonal(p, n))
                || (p_open && o2 && diagonal(p, s2))
                || (o1 && n_open && diagonal(s1, n))
                || (o1 && o2 && diagonal(s1, s2))
        };
        !block
    }
}

/// The neighbour of cell `i` in heading `d`: 0 up, 1 down, 2 left, 3
/// right (so `d ^ 1` is the opposite). The caller keeps `i` off the border.
fn step(i: usize, d: u8, w: usize) -> usize {
    match d {
        0 => i - w,
        1 => i + w,
        2 => i - 1,
        _ => i + 1,
    }
}

/// The column and row of each cell of a 4-connected walk over a map `w`
/// cells wide, found from the steps rather than by a division per cell.
fn walk_coordinates(path: &[usize], w: usize) -> Vec<[u32; 2]> {
    let Some(&first) = path.first() else {
        return Vec::new();
    };
    let mut at = [(first % w) as u32, (first / w) as u32];
    let mut cells = Vec::with_capacity(path.len());
    cells.push(at);
    for pair in path.windows(2) {
        match pair[1].wrapping_sub(pair[0]) {
            1 => at[0] += 1,
            d if d == usize::MAX => at[0] -= 1,
            d if d == w => at[1] += 1,
            _ => at[1] -= 1,
        }
        cells.push(at);
    }
    cells
}

fn random_cell(r: &TileRect, rng: &mut Rng) -> [u32; 2] {
    [
        r.x + rng.below_inlined(r.width as usize) as u32,
        r.y + rng.below_inlined(r.height as usize) as u32,
    ]
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rng::Rng;
    use crate::tiles::regions::Regions;

    /// The loop links' search budget grows with the map up to a fixed cap:
    /// 16 × 4096 × 4096 settled cells took 19 s
    /// (`tiles rooms --rooms 1024 --width 4096 --height 4096
    /// --placement-tries 1000 --corridors 16`).
    #[test]
    fn loop_search_budget_is_capped() {
        assert_eq!(loop_budget(80, 50), LOOP_SEARCH_BUDGET * 80 * 50);
        assert_eq!(loop_budget(1024, 1024), LOOP_SEARCH_BUDGET * 1024 * 1024);
        assert_eq!(loop_budget(4096, 4096), LOOP_SEARCH_CAP);
    }

    /// Every guarantee of [`generate`], checked on one map.
    fn check_map(map: &TileMap, params: &RoomsParams) {
        let (w, h) = (map.width, map.height);
        assert_eq!((w, h), (params.width, params.height));
        assert!(!map.rooms.is_empty() && map.rooms.len() <= params.rooms as usize);
        // `Ctx::new` writes each room as a literal of what `TileRoom::rect`
        // makes.
        for (r, room) in map.rooms.iter().enumerate() {
            assert_eq!(*room, TileRoom::rect(room_name(r), "", room.bounds));
        }
        let at = |x: u32, y: u32| map.cells[(y * w + x) as usize];
        for x in 0..w {
            assert_eq!(at(x, 0), Tile::WALL);
            assert_eq!(at(x, h - 1), Tile::WALL);
        }
        for y in 0..h {
            assert_eq!(at(0, y), Tile::WALL);
            assert_eq!(at(w - 1, y), Tile::WALL);
        }
        // Rooms: sizes within the `w/5 × h/5` bound, apart, and the only floor.
        let mut room_at = vec![None; map.cells.len()];
        for (i, room) in map.rooms.iter().enumerate() {
            let r = room.bounds;
            assert_eq!(room.name, format!("room {i}"));
            assert!((params.min_room_size..=w / 5).contains(&r.width), "{r:?}");
            assert!((params.min_room_size..=h / 5).contains(&r.height), "{r:?}");
            for other in &map.rooms[..i] {
                assert!(apart(&r, &other.bounds), "{r:?} {:?}", other.bounds);
            }
            for y in r.y..r.bottom() {
                for x in r.x..r.right() {
                    room_at[(y * w + x) as usize] = Some(i);
                }
            }
        }
        for (i, &t) in map.cells.iter().enumerate() {
            assert_eq!(t == Tile::FLOOR, room_at[i].is_some(), "cell {i}");
        }
        // Doors: every door tile listed once, with its room.
        let mut door_room = vec![None; map.cells.len()];
        for door in &map.doors {
            let c = door.cells;
            assert_eq!((c.width, c.height), (1, 1));
            let i = (c.y * w + c.x) as usize;
            assert_eq!(map.cells[i], Tile::DOOR);
            assert!(door_room[i].is_none(), "door listed twice");
            door_room[i] = door.rooms[0];
            assert_eq!(door.rooms[1], None);
        }
        let doors = map.cells.iter().filter(|&&t| t == Tile::DOOR).count();
        assert_eq!(doors, map.doors.len());
        // No grazing: open cells next to floor are doors of that room.
        for y in 1..h - 1 {
            for x in 1..w - 1 {
                let i = (y * w + x) as usize;
                let t = map.cells[i];
                if !t.is_passable() || t == Tile::FLOOR {
                    continue;
                }
                for j in [i - 1, i + 1, i - w as usize, i + w as usize] {
                    if let Some(r) = room_at[j] {
                        assert_eq!(t, Tile::DOOR, "corridor ({x}, {y}) grazes room {r}");
                        assert_eq!(door_room[i], Some(r), "door ({x}, {y})");
                    }
                }
                let w = w as usize;
                let diagonal = [i - w - 1, i - w + 1, i + w - 1, i + w + 1];
                if t == Tile::CORRIDOR && diagonal.iter().any(|&j| room_at[j].is_some()) {
                    panic!("corridor ({x}, {y}) touches a room's corner");
                }
            }
        }
        // No double corridors: no 2 × 2 block of corridor and door.
        let open = |x: u32, y: u32| matches!(at(x, y), Tile::CORRIDOR | Tile::DOOR);
        for y in 0..h - 1 {
            for x in 0..w - 1 {
                assert!(
                    !(open(x, y) && open(x + 1, y) && open(x, y + 1) && open(x + 1, y + 1)),
                    "2x2 corridor block at ({x}, {y})\n{}",
                    ascii(map)
                );
            }
        }
        // Corridors: walkable in order, from a room's door.
        for c in &map.corridors {
            assert!(c.cells.len() >= 2);
            assert!(c.rooms[0].is_some());
            let first = c.cells[0];
            assert_eq!(at(first[0], first[1]), Tile::DOOR);
            for pair in c.cells.windows(2) {
                let d = pair[0][0].abs_diff(pair[1][0]) + pair[0][1].abs_diff(pair[1][1]);
                assert_eq!(d, 1, "{:?}", c.cells);
            }
            for &[x, y] in &c.cells {
                assert!(matches!(at(x, y), Tile::CORRIDOR | Tile::DOOR));
            }
        }
        // One region holding every room.
        let regions = Regions::of(map);
        assert_eq!(regions.count(), 1, "\n{}", ascii(map));
    }

    fn ascii(map: &TileMap) -> String {
        let mut s = String::new();
        for row in map.cells.chunks(map.width as usize) {
            for &t in row {
                s.push(match t {
                    Tile::WALL => '#',
                    Tile::FLOOR => '.',
                    Tile::DOOR => '+',
                    _ => ',',
                });
            }
            s.push('\n');
        }
        s
    }

    fn params_strategy() -> impl Strategy<Value = RoomsParams> {
        (1u32..=4)
            .prop_flat_map(|min| {
                (
                    5 * min..=100,
                    5 * min..=70,
                    1u32..=30,
                    0u32..=4,
                    1u32..=120,
                    Just(min),
                )
            })
            .prop_map(
                |(width, height, rooms, corridors, placement_tries, min_room_size)| RoomsParams {
                    width,
                    height,
                    rooms,
                    corridors,
                    placement_tries,
                    min_room_size,
                },
            )
    }

    /// A zone cell as the path checks see it: mostly free wall and floor,
    /// some of it open, and the kinds a path may not cross.
    fn zone_byte() -> impl Strategy<Value = u8> {
        prop_oneof![
            4 => Just(FREE),
            3 => Just(FLOOR),
            3 => Just(FREE | OPEN),
            1 => Just(FLOOR | OPEN),
            1 => Just(BORDER),
            1 => Just(RING),
            1 => Just(RING | OPEN),
            1 => Just(CORNER),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The 8-byte reads of [`PathCheck::plain_cells`] give the count,
        /// the flag and the corridor cells met of the cell-by-cell
        /// reference, in every direction, at the grid's edges too.
        #[test]
        fn plain_cells_agrees_with_a_cell_by_cell_reference(
            (w, zone) in (2usize..40, 1usize..30)
                .prop_flat_map(|(w, h)| (Just(w), prop::collection::vec(zone_byte(), w * h))),
            at in any::<prop::sample::Index>(),
            direction in 0..4usize,
            left in 0usize..12,
        ) {
            let c = at.index(zone.len());
            let step = [1, usize::MAX, w, w.wrapping_neg()][direction];
            let (mut meets, mut reference_meets) = (Vec::new(), Vec::new());
            let tuned = PathCheck {
                zone: &zone,
                w,
                stretches: &mut Vec::new(),
                meets: &mut meets,
                start: usize::MAX,
            }
            .plain_cells(c, step, left);
            let reference = PathCheck {
                zone: &zone,
                w,
                stretches: &mut Vec::new(),
                meets: &mut reference_meets,
                start: usize::MAX,
            }
            .plain_cells_reference(c, step, left);
            prop_assert_eq!(tuned, reference);
            prop_assert_eq!(meets, reference_meets);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Connectivity, no grazing, no double corridors, rooms in bounds
        /// and apart, solid border, and determinism over random parameters.
        #[test]
        fn every_map_keeps_the_guarantees(params in params_strategy(), seed in any::<u64>()) {
            let map = generate(&params, seed).unwrap();
            check_map(&map, &params);
            prop_assert_eq!(generate(&params, seed).unwrap(), map);
        }

        /// Any parameters at all: an error naming a field, or a map; never
        /// a panic.
        #[test]
        fn any_parameters_give_a_map_or_a_named_error(
            width in prop_oneof![0u32..200, any::<u32>()],
            height in prop_oneof![0u32..200, any::<u32>()],
            rooms in prop_oneof![0u32..40, any::<u32>()],
            corridors in prop_oneof![0u32..20, any::<u32>()],
            placement_tries in prop_oneof![0u32..200, any::<u32>()],
            min_room_size in prop_oneof![0u32..10, any::<u32>()],
            seed in any::<u64>(),
        ) {
            let params = RoomsParams { width, height, rooms, corridors, placement_tries, min_room_size };
            match (params.validate(), generate(&params, seed)) {
                (Ok(()), Ok(map)) => check_map(&map, &params),
                (Err(e), Err(f)) => {
                    prop_assert_eq!(&e, &f);
                    let TilesError::Parameter { field, .. } = e else {
                        panic!("{e:?}");
                    };
                    prop_assert!([
                        "width", "height", "rooms", "corridors", "placement_tries", "min_room_size"
                    ].contains(&field));
                }
                (v, g) => panic!("validate {v:?}, generate {g:?}"),
            }
        }
    }

    #[test]
    fn defaults_are_valid_and_many_corridors_still_keep_the_rules() {
        let params = RoomsParams::default();
        check_map(&generate(&params, 1).unwrap(), &params);
        for (corridors, rooms) in [(16, 20), (4, 60)] {
            let params = RoomsParams {
                corridors,
                rooms,
                ..RoomsParams::default()
            };
            for seed in 0..20 {
                let map = generate(&params, seed).unwrap();
                check_map(&map, &params);
            }
        }
    }

    #[test]
    fn bad_parameters_name_their_field() {
        let field = |p: RoomsParams| match p.validate() {
            Err(TilesError::Parameter { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        let d = RoomsParams::default;
        assert_eq!(field(RoomsParams { width: 0, ..d() }), "width");
        assert_eq!(field(RoomsParams { width: 14, ..d() }), "width");
        assert_eq!(field(RoomsParams { width: 4097, ..d() }), "width");
        assert_eq!(field(RoomsParams { height: 0, ..d() }), "height");
        assert_eq!(
            field(RoomsParams {
                height: u32::MAX,
                ..d()
            }),
            "height"
        );
        assert_eq!(
            field(RoomsParams {
                min_room_size: 0,
                ..d()
            }),
            "min_room_size"
        );
        assert_eq!(
            field(RoomsParams {
                min_room_size: u32::MAX,
                ..d()
            }),
            "min_room_size"
        );
        assert_eq!(field(RoomsParams { rooms: 0, ..d() }), "rooms");
        assert_eq!(field(RoomsParams { rooms: 1025, ..d() }), "rooms");
        assert_eq!(
            field(RoomsParams {
                corridors: 17,
                ..d()
            }),
            "corridors"
        );
        assert_eq!(
            field(RoomsParams {
                placement_tries: 0,
                ..d()
            }),
            "placement_tries"
        );
        assert!(RoomsParams {
            width: 15,
            height: 15,
            ..d()
        }
        .validate()
        .is_ok());
        assert!(RoomsParams {
            width: 4096,
            height: 4096,
            ..d()
        }
        .validate()
        .is_ok());
    }

    /// A context with fresh buffers.
    fn ctx_of(width: u32, height: u32, rects: Vec<TileRect>) -> Ctx {
        let mut scratch = Scratch {
            rects,
            ..Scratch::default()
        };
        Ctx::new(width, height, &mut scratch)
    }

    fn cells(ctx: &Ctx, k: usize) -> Vec<[u32; 2]> {
        ctx.map.corridors[k].cells.clone()
    }

    #[test]
    fn rooms_level_with_each_other_get_a_straight_corridor_through_two_doors() {
        // Centres (3, 3) and (11, 3): the plain L is a straight line; its
        // part outside the rooms runs from door (5, 3) to door (9, 3).
        let mut ctx = ctx_of(
            16,
            8,
            vec![TileRect::new(2, 2, 3, 3), TileRect::new(10, 2, 3, 3)],
        );
        let mut rng = Rng::seeded(0);
        assert!(ctx.draw_l(0, 1, &mut rng));
        assert_eq!(cells(&ctx, 0), [[5, 3], [6, 3], [7, 3], [8, 3], [9, 3]]);
        assert_eq!(ctx.map.doors.len(), 2);
        assert_eq!(ctx.map.corridors[0].rooms, [Some(0), Some(1)]);
        assert_eq!(ctx.sets.find(1), ctx.sets.find(0));
    }

    /// Builds the L from `pa` to `pb` and checks it.
    fn try_l(ctx: &mut Ctx, pa: [u32; 2], pb: [u32; 2], horizontal_first: bool) -> bool {
        let axis = usize::from(!horizontal_first);
        ctx.build_path(pa, pb, horizontal_first, pb[axis]);
        ctx.check_path()
    }

    /// Opens `cells` as corridor of a new union-find node.
    fn open_cells(ctx: &mut Ctx, cells: &[[usize; 2]]) {
        let node = ctx.sets.push() as u32;
        for &[x, y] in cells {
            ctx.open(y * ctx.w + x, Tile::CORRIDOR, node);
        }
    }

    #[test]
    fn a_block_around_an_open_turn_is_refused_and_a_z_goes_round() {
        // Room 0 floor x 2..5, y 2..5; room 1 floor x 8..11, y 8..11. The
        // L from (4, 3) along row 3 and down column 8 turns at (8, 3).
        // Cells (8, 3) and (7, 4) are opened by hand: with the L's (7, 3)
        // and (8, 4) they would close a 2 × 2 block that only the open turn
        // cell sees (its neighbours on the path, and the diagonal (7, 4)).
        let mut ctx = ctx_of(
            14,
            14,
            vec![TileRect::new(2, 2, 3, 3), TileRect::new(8, 8, 3, 3)],
        );
        open_cells(&mut ctx, &[[8, 3]]);
        open_cells(&mut ctx, &[[7, 4]]);
        assert!(!try_l(&mut ctx, [4, 3], [8, 8], true));
        // The Z along row 3 to x = 6, down column 6 beside (7, 4) (a wall
        // between it and nothing else open), then along row 9 into room 1
        // by its side door (7, 9).
        ctx.build_path([4, 3], [9, 9], true, 6);
        assert!(ctx.check_path());
        assert_eq!(ctx.stretches, [(1, 9)]);
        ctx.draw_path();
        let drawn = cells(&ctx, 0);
        assert_eq!(drawn.len(), 9);
        assert_eq!((drawn[0], drawn[1], drawn[8]), ([5, 3], [6, 3], [7, 9]));
        assert_eq!(ctx.map.corridors[0].rooms, [Some(0), Some(1)]);
        // Joined to the room at each end and to the open cell it touched.
        let root = ctx.sets.find(0);
        assert_eq!((ctx.sets.find(1), ctx.sets.find(3)), (root, root));
    }

    #[test]
    fn an_l_is_cut_to_its_doors_and_a_sideways_or_grazing_route_is_refused() {
        // Room 0 covers x 2..5, y 2..5; room 1 x 8..11, y 8..11. The L from
        // (4, 4) along row 4 to x = 8, then down column 8, leaves room 0 by
        // door (5, 4) and enters room 1 by door (8, 7).
        let mut ctx = ctx_of(
            14,
            14,
            vec![TileRect::new(2, 2, 3, 3), TileRect::new(8, 8, 3, 3)],
        );
        let w = ctx.w;
        assert!(try_l(&mut ctx, [4, 4], [8, 8], true));
        assert_eq!(ctx.stretches, [(1, 7)]);
        ctx.draw_path();
        assert_eq!(
            cells(&ctx, 0),
            [[5, 4], [6, 4], [7, 4], [8, 4], [8, 5], [8, 6], [8, 7]]
        );
        assert_eq!(ctx.map.corridors[0].rooms, [Some(0), Some(1)]);
        assert_eq!(ctx.map.cells[7 * w + 8], Tile::DOOR);
        // From (4, 3) to (9, 8) along x first, the L leaves room 0 by door
        // (5, 3), beside the first corridor's door (5, 4) and cell (6, 4):
        // with its next cell (6, 3) a 2 × 2 block, refused. Along y first
        // it leaves by (4, 5), turns at (4, 8) and enters room 1 by the
        // side door (7, 8): accepted.
        assert!(!try_l(&mut ctx, [4, 3], [9, 8], true));
        assert!(try_l(&mut ctx, [4, 3], [9, 8], false));
        assert_eq!(ctx.stretches, [(2, 8)]);
        // Leaving door (5, 2) sideways into the ring's corner: refused, the
        // step after a door must be straight out.
        let sideways = [2 * w + 5, w + 5, w + 6];
        assert_eq!(ctx.commit(&sideways, End::Join), Err(None));
        // Down column 7 beside room 1's floor (its ring), in at door
        // (8, 11) from the side: refused.
        let grazing: Vec<usize> = [[5, 4], [6, 4], [7, 4], [7, 5], [7, 6], [7, 7]]
            .into_iter()
            .chain((8..=11).map(|y| [7, y]))
            .chain([[8, 11]])
            .map(|[x, y]| y * w + x)
            .collect();
        assert_eq!(ctx.commit(&grazing, End::Door(1)), Err(None));
        assert_eq!(ctx.map.corridors.len(), 1);
    }

    #[test]
    fn an_l_may_cross_a_room_through_two_doors_and_is_listed_per_stretch() {
        // Rooms 0, 2 and 1 in a row (floors x 2..5, 9..12, 16..19; y 2..5):
        // the L between the centres of rooms 0 and 1 runs along row 3
        // through room 2, in by door (8, 3) and out by door (12, 3).
        let mut ctx = ctx_of(
            22,
            15,
            vec![
                TileRect::new(2, 2, 3, 3),
                TileRect::new(16, 2, 3, 3),
                TileRect::new(9, 2, 3, 3),
            ],
        );
        assert!(try_l(&mut ctx, [3, 3], [17, 3], true));
        assert_eq!(ctx.stretches, [(2, 5), (9, 12)]);
        ctx.draw_path();
        assert_eq!(cells(&ctx, 0), [[5, 3], [6, 3], [7, 3], [8, 3]]);
        assert_eq!(ctx.map.corridors[0].rooms, [Some(0), Some(2)]);
        assert_eq!(cells(&ctx, 1), [[12, 3], [13, 3], [14, 3], [15, 3]]);
        assert_eq!(ctx.map.corridors[1].rooms, [Some(2), Some(1)]);
        assert_eq!(ctx.map.doors.len(), 4);
        assert_eq!(
            (ctx.sets.find(1), ctx.sets.find(2)),
            (ctx.sets.find(0), ctx.sets.find(0))
        );
        // The same L again opens nothing new: nothing more is listed.
        assert!(try_l(&mut ctx, [3, 3], [17, 3], true));
        ctx.draw_path();
        assert_eq!(ctx.map.corridors.len(), 2);
        // Along row 2, the L would leave room 0 by (5, 2) beside door
        // (5, 3) and cell (6, 3): refused.
        assert!(!try_l(&mut ctx, [3, 2], [17, 2], true));
        let params = RoomsParams {
            width: 22,
            height: 15,
            rooms: 3,
            min_room_size: 1,
            ..RoomsParams::default()
        };
        check_map(&ctx.map, &params);
    }

    #[test]
    fn a_corridor_beside_another_is_refused_and_a_search_reuses_the_first() {
        // Rooms 0 (left) and 1 (right) level with each other, joined by a
        // straight corridor on row 4. A second corridor from room 0's door
        // (5, 3) along row 3 would run beside it.
        let mut ctx = ctx_of(
            20,
            15,
            vec![TileRect::new(2, 3, 3, 3), TileRect::new(14, 3, 3, 3)],
        );
        let w = ctx.w;
        let row = |y: usize, xs: std::ops::Range<usize>| xs.map(move |x| y * w + x);
        let first: Vec<usize> = row(4, 5..14).collect();
        ctx.commit(&first, End::Door(1)).unwrap();
        let beside: Vec<usize> = row(3, 5..14).collect();
        assert_eq!(ctx.commit(&beside, End::Door(1)), Err(Some(3 * w + 5)));
        assert_eq!(ctx.map.cells[3 * w + 5], Tile::WALL, "rolled back");
        // The search for a route (rooms already joined: to a door of room
        // 1 only) finds the first corridor, the cheapest that keeps every
        // rule; it opens no cell, so nothing is listed twice.
        let before = ctx.map.cells.clone();
        assert!(ctx.draw_searched(0, 1, false));
        assert_eq!(ctx.map.cells, before);
        assert_eq!(ctx.map.corridors.len(), 1);
        let params = RoomsParams {
            width: 20,
            height: 15,
            rooms: 2,
            min_room_size: 1,
            ..RoomsParams::default()
        };
        check_map(&ctx.map, &params);
    }

    #[test]
    fn a_needed_corridor_may_stop_on_a_connected_corridor() {
        // Rooms 0 and 1 are joined along row 4; room 2 lies below that
        // corridor, so the search from room 2 to room 1 stops on it.
        let mut ctx = ctx_of(
            24,
            16,
            vec![
                TileRect::new(2, 3, 3, 3),
                TileRect::new(18, 3, 3, 3),
                TileRect::new(9, 9, 3, 3),
            ],
        );
        let w = ctx.w;
        let first: Vec<usize> = (5..18).map(|x| 4 * w + x).collect();
        ctx.commit(&first, End::Door(1)).unwrap();
        assert!(ctx.draw_searched(2, 1, true));
        let joined = &ctx.map.corridors[1];
        assert_eq!(joined.rooms, [Some(2), None]);
        // From door (11, 8) above room 2 (one of three equally short
        // routes) straight up to the corridor cell (11, 4): a T, not a
        // block.
        assert_eq!(joined.cells, [[11, 8], [11, 7], [11, 6], [11, 5], [11, 4]]);
        assert_eq!(ctx.sets.find(2), ctx.sets.find(0));
    }

    #[test]
    fn rooms_across_a_narrow_map_are_still_connected() {
        // Three inner rows and rooms one cell high: a room in the middle
        // row walls off the map with its ring, so a corridor can only join
        // neighbours; links to far rooms wait, or give way to joining the
        // nearest component.
        let params = RoomsParams {
            width: 90,
            height: 5,
            rooms: 30,
            corridors: 1,
            placement_tries: 100,
            min_room_size: 1,
        };
        for seed in 0..40 {
            let map = generate(&params, seed).unwrap();
            assert!(map.rooms.len() >= 4);
            check_map(&map, &params);
        }
    }

    #[test]
    fn a_room_with_no_door_left_is_a_limit_error() {
        // Closer than ROOM_GAP (only a hand-built map can be): room 0's one
        // possible door (2, 1) opens onto room 1's ring, and room 1's onto
        // room 0's, so nothing joins them.
        let mut ctx = ctx_of(
            9,
            3,
            vec![TileRect::new(1, 1, 1, 1), TileRect::new(4, 1, 1, 1)],
        );
        assert!(!ctx.link(1, 0, &mut Rng::seeded(0)));
        let err = ctx.join_components().unwrap_err();
        assert!(
            matches!(&err, TilesError::Limit { detail, .. } if detail.contains("room 1")),
            "{err}"
        );
    }

    #[test]
    fn a_small_map_is_pinned() {
        // A change to the random draws or to the drawing shows up here.
        let params = RoomsParams {
            width: 40,
            height: 20,
            rooms: 6,
            corridors: 1,
            ..RoomsParams::default()
        };
        let map = generate(&params, 7).unwrap();
        check_map(&map, &params);
        assert_eq!(ascii(&map), PINNED, "\n{}", ascii(&map));
    }

    const PINNED: &str = "\
        ########################################\n\
        #################....###################\n\
        #####,,,,,,,,,,,+....+,,,,,,,,,+....####\n\
        #####,##,########....###########....####\n\
        #####,##,#######################....####\n\
        #####,##+########################+######\n\
        #####,#.....#####################,######\n\
        #####,#.....+,,,,,,,,,,,,,,,,,,,,,######\n\
        #####,#.....############################\n\
        #####,#.....###......###################\n\
        #####,##+######......+,,,,,,############\n\
        #####,##,######......######+############\n\
        #####,##,#################...###########\n\
        #####+##+#################...###########\n\
        ###......#################...###########\n\
        ###......#################+#############\n\
        ###......+,,,,,,,,,,,,,,,,,#############\n\
        ########################################\n\
        ########################################\n\
        ########################################\n";

    /// The path check of 5bb437c: cell by cell over the listed path,
    /// reading whether a cell is open from the map's tiles (not the zone's
    /// OPEN bit). Returns its verdict, stretches and meets.
    fn check_path_reference(ctx: &Ctx) -> (bool, Vec<(usize, usize)>, Vec<usize>) {
        let shape = ctx.l_shape;
        let path: Vec<usize> = (0..=shape.last()).map(|k| shape.cell(k)).collect();
        let (cells, w) = (&ctx.map.cells, ctx.w);
        let zone = |i: usize| ctx.zone[i] & KIND;
        let open = |i: usize| matches!(cells[i], Tile::CORRIDOR | Tile::DOOR);
        let diagonal = |a: usize, b: usize, c: usize| open(a.wrapping_add(b).wrapping_sub(c));
        let (mut stretches, mut meets) = (Vec::new(), Vec::new());
        let mut start = usize::MAX;
        for k in 1..path.len().saturating_sub(1) {
            let c = path[k];
            let z = zone(c);
            if z == FLOOR {
                continue;
            }
            let (p, n) = (path[k - 1], path[k + 1]);
            let (din, dout) = (c.wrapping_sub(p), n.wrapping_sub(c));
            match z {
                FREE => {}
                RING if din == dout => match (zone(p), zone(n)) {
                    (FLOOR, FREE) => start = k,
                    (FREE, FLOOR) if start != usize::MAX => {
                        stretches.push((start, k));
                        start = usize::MAX;
                    }
                    _ => return (false, stretches, meets),
                },
                _ => return (false, stretches, meets),
            }
            if cells[c] != Tile::WALL {
                meets.push(c);
            }
            let (s1, s2) = if din == dout {
                let across = if din == 1 || din == usize::MAX { w } else { 1 };
                (c + across, c - across)
            } else {
                (c.wrapping_add(din), c.wrapping_sub(dout))
            };
            let (o1, o2) = (open(s1), open(s2));
            if din == dout && !(o1 || o2) {
                continue;
            }
            if o1 {
                meets.push(s1);
            }
            if o2 {
                meets.push(s2);
            }
            let (p_open, n_open) = (zone(p) != FLOOR, zone(n) != FLOOR);
            let block = if din == dout {
                (o1 && ((p_open && diagonal(s1, p, c)) || (n_open && diagonal(s1, n, c))))
                    || (o2 && ((p_open && diagonal(s2, p, c)) || (n_open && diagonal(s2, n, c))))
            } else {
                (p_open && n_open && diagonal(p, n, c))
                    || (p_open && o2 && diagonal(p, s2, c))
                    || (o1 && n_open && diagonal(s1, n, c))
                    || (o1 && o2 && diagonal(s1, s2, c))
            };
            if block {
                return (false, stretches, meets);
            }
        }
        (true, stretches, meets)
    }

    /// Whether the zone's OPEN bit is set exactly on corridor and door tiles.
    fn open_bit_mirrors_the_tiles(ctx: &Ctx) -> bool {
        ctx.map
            .cells
            .iter()
            .zip(&ctx.zone)
            .all(|(&t, &z)| (z & OPEN != 0) == matches!(t, Tile::CORRIDOR | Tile::DOOR))
    }

    /// The leg-by-leg path check with batched reads agrees with the cell by
    /// cell check it replaced (verdict, stretches and meets), over random
    /// Ls and Zs on maps filling up with corridors, odd widths included so
    /// that rows start anywhere in an 8-byte read.
    #[test]
    fn the_path_check_agrees_with_a_cell_by_cell_reference() {
        let mut rng = Rng::seeded(11);
        let (mut tried, mut accepted) = (0, 0);
        for (w, h, rooms) in [
            (15, 15, 6),
            (40, 20, 8),
            (80, 50, 30),
            (23, 61, 20),
            (121, 37, 60),
            (9, 90, 12),
        ] {
            for map_seed in 0..30 {
                let params = RoomsParams {
                    width: w,
                    height: h,
                    rooms,
                    corridors: 1,
                    placement_tries: 100,
                    min_room_size: 1,
                };
                let mut scratch = Scratch::default();
                place_rooms(&params, &mut Rng::seeded(map_seed), &mut scratch.rects);
                let n = scratch.rects.len();
                let mut ctx = Ctx::new(w, h, &mut scratch);
                if n < 2 {
                    continue;
                }
                for _ in 0..200 {
                    let (a, b) = (rng.below(n), rng.below(n));
                    if a == b {
                        continue;
                    }
                    let pa = random_cell(&ctx.rects[a], &mut rng);
                    let pb = random_cell(&ctx.rects[b], &mut rng);
                    let horizontal = rng.below(2) == 0;
                    let axis = usize::from(!horizontal);
                    let (lo, hi) = (pa[axis].min(pb[axis]), pa[axis].max(pb[axis]));
                    let middle = if rng.below(2) == 0 {
                        pb[axis]
                    } else {
                        lo + rng.below((hi - lo + 1) as usize) as u32
                    };
                    ctx.build_path(pa, pb, horizontal, middle);
                    let fast = ctx.check_path();
                    let reference = check_path_reference(&ctx);
                    assert_eq!(
                        (fast, ctx.stretches.clone(), ctx.meets.clone()),
                        reference,
                        "{w}x{h} map {map_seed}: {pa:?} -> {pb:?} h {horizontal} middle {middle}"
                    );
                    tried += 1;
                    if fast {
                        accepted += 1;
                        ctx.draw_path();
                        assert!(open_bit_mirrors_the_tiles(&ctx));
                    } else if rng.below(4) == 0 {
                        // Searched corridors too, for shapes no L makes.
                        ctx.draw_searched(a, b, false);
                        assert!(open_bit_mirrors_the_tiles(&ctx));
                    }
                }
            }
        }
        assert!(
            accepted > 500 && tried > 5 * accepted / 4,
            "{accepted} of {tried}"
        );
    }

    /// Eight parameter sets that reach every path of the generator: Ls,
    /// Zs, crossings, searches, narrow, crowded and odd sizes (the order is
    /// part of [`many_maps_are_pinned`]'s hash).
    fn sample_sets() -> [RoomsParams; 8] {
        [
            RoomsParams::default(),
            RoomsParams {
                width: 80,
                height: 25,
                ..RoomsParams::default()
            },
            RoomsParams {
                width: 15,
                height: 15,
                ..RoomsParams::default()
            },
            RoomsParams {
                width: 90,
                height: 5,
                rooms: 30,
                min_room_size: 1,
                ..RoomsParams::default()
            },
            RoomsParams {
                width: 97,
                height: 31,
                rooms: 25,
                corridors: 3,
                min_room_size: 1,
                ..RoomsParams::default()
            },
            RoomsParams {
                width: 200,
                height: 200,
                rooms: 30,
                placement_tries: 1,
                min_room_size: 6,
                ..RoomsParams::default()
            },
            RoomsParams {
                width: 60,
                height: 40,
                rooms: 200,
                corridors: 16,
                placement_tries: 1000,
                min_room_size: 1,
            },
            RoomsParams {
                width: 7,
                height: 120,
                rooms: 40,
                corridors: 2,
                min_room_size: 1,
                ..RoomsParams::default()
            },
        ]
    }

    /// A map does not depend on the maps made before it on the same thread
    /// (the lent buffers hold their cells): each map made after others of
    /// larger, smaller and other-width maps equals the map made on a fresh
    /// thread.
    #[test]
    fn maps_do_not_depend_on_the_maps_made_before_them() {
        // Every sample set, each with a seed of its own.
        let sets: Vec<(RoomsParams, u64)> = sample_sets().into_iter().zip(1..).collect();
        let fresh: Vec<TileMap> = sets
            .iter()
            .map(|(p, s)| {
                let (p, s) = (p.clone(), *s);
                std::thread::spawn(move || generate(&p, s).unwrap())
                    .join()
                    .unwrap()
            })
            .collect();
        for order in [
            [0, 1, 2, 3, 4, 5, 6, 7],
            [7, 6, 5, 4, 3, 2, 1, 0],
            [5, 2, 0, 7, 4, 1, 6, 3],
        ] {
            for i in order {
                let (p, s) = &sets[i];
                assert_eq!(
                    generate(p, *s).unwrap(),
                    fresh[i],
                    "set {i} after {order:?}"
                );
            }
        }
    }

    /// A map made while the thread's buffers are borrowed (a map made
    /// inside a map) is made in fresh buffers, not a double-borrow panic,
    /// and is the same map.
    #[test]
    fn a_map_made_while_the_buffers_are_lent_is_the_same_map() {
        let params = RoomsParams::default();
        let before = generate(&params, 5).unwrap();
        let during = SCRATCH.with(|scratch| {
            let _lent = scratch.borrow_mut();
            generate(&params, 5).unwrap()
        });
        assert_eq!(during, before);
    }

    /// A thread keeps the buffers of a map of up to [`SCRATCH_KEEP_CELLS`]
    /// cells and frees those of a larger one.
    #[test]
    fn a_thread_keeps_the_buffers_of_small_maps_only() {
        std::thread::spawn(|| {
            let sized = |width, height| RoomsParams {
                width,
                height,
                ..RoomsParams::default()
            };
            let kept =
                || SCRATCH.with(|s| s.borrow().owner.capacity() + s.borrow().zone.capacity());
            generate(&sized(1024, 1024), 1).unwrap();
            assert!(kept() >= 2 * SCRATCH_KEEP_CELLS);
            generate(&sized(1025, 1024), 1).unwrap();
            assert_eq!(kept(), 0);
        })
        .join()
        .unwrap();
    }

    /// Pins the bytes of 240 maps of eight parameter sets (Ls, Zs,
    /// crossings, searches, narrow and odd sizes): an FNV-1a hash of each
    /// map's JSON, folded. Computed on 5bb437c.
    #[test]
    fn many_maps_are_pinned() {
        let fnv = |h: u64, bytes: &[u8]| {
            bytes
                .iter()
                .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
        };
        let sets = sample_sets();
        let mut h = 0xcbf2_9ce4_8422_2325;
        for p in &sets {
            for seed in 0..30 {
                let map = generate(p, seed).unwrap();
                h = fnv(h, &serde_json::to_vec(&map).unwrap());
            }
        }
        assert_eq!(h, 0x10ad_e03c_ca6b_de10, "pinned hash {h:#018x}");
    }

    #[test]
    fn links_reach_every_room_and_skip_repeated_pairs() {
        let mut rng = Rng::seeded(5);
        let mut scratch = LinkScratch::default();
        for n in 1..12 {
            for corridors in 0..4 {
                let mut links = Vec::new();
                choose_links(n, corridors, &mut rng, &mut scratch, &mut links);
                let mut pairs: Vec<_> = links.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
                assert!(links.iter().all(|&(a, b)| a != b && a < n && b < n));
                let len = pairs.len();
                pairs.sort_unstable();
                pairs.dedup();
                assert_eq!(pairs.len(), len, "a pair linked twice");
                let mut reached = vec![false; n];
                reached[0] = true;
                for _ in 0..n {
                    for &(a, b) in &links {
                        if reached[a] || reached[b] {
                            reached[a] = true;
                            reached[b] = true;
                        }
                    }
                }
                assert!(reached.iter().all(|&r| r), "{n} {links:?}");
            }
        }
    }

    #[test]
    fn fill_short_writes_exactly_its_row() {
        // Every length up to and past the 64 of the fixed-size writes,
        // with cells on either side that must stay as they were.
        for len in 0..=300usize {
            for pad in [0usize, 1, 7] {
                let mut wide = vec![0u32; len + 2 * pad];
                fill_short(&mut wide[pad..pad + len], 7);
                let mut bytes = vec![0u8; len + 2 * pad];
                fill_short(&mut bytes[pad..pad + len], 3);
                for i in 0..len + 2 * pad {
                    let inside = (pad..pad + len).contains(&i);
                    assert_eq!(
                        wide[i],
                        if inside { 7 } else { 0 },
                        "len {len} pad {pad} at {i}"
                    );
                    assert_eq!(
                        bytes[i],
                        if inside { 3 } else { 0 },
                        "len {len} pad {pad} at {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_map_of_rooms_wider_than_64_keeps_the_rules() {
        // Rooms of 65 cells and more are filled past `fill_short`'s
        // fixed-size writes.
        let params = RoomsParams {
            width: 400,
            height: 400,
            rooms: 12,
            corridors: 2,
            placement_tries: 100,
            min_room_size: 66,
        };
        for seed in 0..3 {
            let map = generate(&params, seed).unwrap();
            assert!(map.rooms.iter().any(|r| r.bounds.width > 64));
            check_map(&map, &params);
        }
    }

    #[test]
    fn eight_rooms_at_once_agree_with_one_at_a_time() {
        // `EightRooms::apart` against `apart` over every number of filled
        // lanes, on maps from 5 to 4096 cells across, and at the far edge
        // of the largest map (its sides as `i32`).
        let mut rng = Rng::seeded(99);
        let rect = |rng: &mut Rng, side: u32| {
            let w = 1 + rng.below((side / 5).max(1) as usize) as u32;
            let h = 1 + rng.below((side / 5).max(1) as usize) as u32;
            let x = 1 + rng.below((side - 1 - w) as usize) as u32;
            let y = 1 + rng.below((side - 1 - h) as usize) as u32;
            TileRect::new(x, y, w, h)
        };
        let mut clashes = 0;
        for side in [5u32, 12, 40, 300, MAX_SIDE] {
            for _ in 0..400 {
                let rooms: Vec<TileRect> =
                    (0..rng.below(9)).map(|_| rect(&mut rng, side)).collect();
                let mut eight = EightRooms::EMPTY;
                for (lane, r) in rooms.iter().enumerate() {
                    eight.set(lane, r);
                }
                for _ in 0..50 {
                    let r = rect(&mut rng, side);
                    let want = rooms.iter().all(|o| apart(&r, o));
                    assert_eq!(eight.apart(&r), want, "{r:?} {rooms:?}");
                    clashes += usize::from(!want);
                }
            }
        }
        assert!(clashes > 1000, "too few clashes to tell: {clashes}");
        let far = TileRect::new(MAX_SIDE - 1 - 819, MAX_SIDE - 1 - 819, 819, 819);
        let near = TileRect::new(1, 1, 819, 819);
        for lane in [0, 7] {
            let mut eight = EightRooms::EMPTY;
            eight.set(lane, &far);
            assert_eq!(eight.apart(&near), apart(&near, &far));
            assert!(!eight.apart(&far));
        }
    }
}
