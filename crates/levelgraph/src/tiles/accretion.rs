//! **Accretion**, a classic roguelike generator: a dungeon grown from one
//! room by adding rooms and straight corridors, each dug out from a wall
//! cell next to open space, then pruned of dead-end corridors.
//!
//! This is Mike Anderson's "Dungeon-Building Algorithm" (RogueBasin, written
//! for Tyrant: "pick a wall of any room, decide upon a new feature, see if
//! there is room to add it through the chosen wall"), with two additions:
//! corridors are lengthened by up to `connect_distance` cells when that
//! joins them to open space, and dead-end corridors are removed at the end.
//!
//! # The steps
//!
//! 1. A room of random size at a random place (inside the border).
//! 2. `steps` times: pick a wall cell next to open space; the open
//!    neighbour (its *origin*) gives the direction outward. If the origin
//!    is room floor, try a corridor; otherwise a room with probability
//!    `room_chance`, else a corridor.
//!    - A corridor: a length in `min_corridor_length..=max_corridor_length`,
//!      cells in a straight line from the picked cell outward. Its cells and
//!      the cells beside them must be wall, else nothing happens. If the
//!      cell after its end is open, or lengthening it by `k ≤
//!      connect_distance` cells (each with wall beside it) reaches open
//!      space, it is lengthened to join; it is drawn either way.
//!    - A room: a size in the room bounds, placed beyond the picked cell at
//!      a random offset along the wall so that the picked cell lies on the
//!      room's side (possibly next to a corner). It fits if its area and the
//!      one-cell ring around it are wall (the picked cell is in the ring and
//!      is wall); then it is drawn and the picked cell becomes its door.
//! 3. Corridor and door cells with at most one passable 4-neighbour become
//!    wall, repeatedly, until none is left.
//!
//! # What is done differently from the plain algorithm, and why
//!
//! - **Picking.** The plain algorithm tries random cells until one is wall
//!   next to open space. Here a frontier list holds those cells
//!   (added when a neighbour is dug; dropped, without using a step, once
//!   dug themselves), picked uniformly in O(1) — the same distribution.
//!   As in the plain algorithm, every pick is a step, also one at a cell where
//!   nothing can ever be built: one with two open neighbours, whose origin
//!   is a door, or where neither the shortest corridor nor the smallest
//!   room (at any offset) fits. Open space only grows, so such a cell stays
//!   hopeless; it is marked once and later picks of it cost O(1). When
//!   every frontier cell is hopeless no later step can change the map, and
//!   the loop ends early with exactly the map the remaining steps would
//!   leave.
//! - **Doors.** A cell that opens onto a room (a corridor's first cell
//!   leaving a room, the last cell of a corridor joining one, a room's
//!   entry) is a [`Tile::DOOR`]; new work never starts from a door, and a
//!   corridor never joins one, so every door has exactly two passable
//!   neighbours, on opposite sides. A corridor whose end would touch a door
//!   is not drawn.
//! - **Rooms are at least 2 × 2**: a room one cell thick would have a floor
//!   cell with one passable neighbour, a dead end no pruning of corridors
//!   removes. With 2 × 2 and more, every room cell has two room neighbours,
//!   so the finished map has no dead end at all (doors at room corners
//!   included).
//!
//! # Guarantees
//!
//! - The passable cells form one 4-connected region (everything grows from
//!   the first room, and pruning only removes leaves), and no passable cell
//!   has exactly one passable neighbour. The outer border is wall.
//! - Rooms keep their size bounds; two rooms are at least one wall cell
//!   apart, diagonally too; a room's floor touches only its own floor and
//!   its doors, so no corridor grazes a room. Every 2 × 2 block of passable
//!   cells is room floor: no two corridors run side by side. (A corridor may
//!   pass a room's corner diagonally, one cell off.)
//! - The lists beside the cells are true (see [`generate`]).
//! - Same parameters and seed, same map.

use std::collections::BTreeMap;

use super::map::{room_name, Tile, TileCorridor, TileDoor, TileMap, TileRect, TileRoom};
use super::TilesError;
use crate::rng::Rng;

/// The most steps [`AccretionParams::steps`] may ask for (issue 6).
pub const MAX_STEPS: u32 = 1_000_000;

/// The largest width or height of a map, in cells.
pub const MAX_SIDE: u32 = 4096;

/// The parameters of [`generate`], named in the CLI's snake_case. Sizes
/// are in cells. [`Default`] documents the values chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct AccretionParams {
    /// Map columns (`maxW`), `4..=`[`MAX_SIDE`], at least
    /// `max_room_width + 2`.
    pub width: u32,
    /// Map rows (`maxH`), `4..=`[`MAX_SIDE`], at least
    /// `max_room_height + 2`.
    pub height: u32,
    /// Attempts to add a room or corridor, `0..=`[`MAX_STEPS`]; 0 leaves the
    /// first room alone.
    pub steps: u32,
    /// Smallest room width, ≥ 2 (see the module docs for why not 1).
    pub min_room_width: u32,
    /// Largest room width, `min_room_width..=width - 2`.
    pub max_room_width: u32,
    /// Smallest room height, ≥ 2.
    pub min_room_height: u32,
    /// Largest room height, `min_room_height..=height - 2`.
    pub max_room_height: u32,
    /// Shortest corridor drawn, counting its door if it leaves a room, ≥ 1.
    pub min_corridor_length: u32,
    /// Longest corridor drawn before any lengthening to join open space,
    /// `min_corridor_length..=max(width, height) - 2`.
    pub max_corridor_length: u32,
    /// The probability, in `[0, 1]`, that a step starting from a corridor
    /// tries a room rather than a corridor (from a room it is always a
    /// corridor).
    pub room_chance: f64,
    /// The most cells a corridor is lengthened by to join a room or
    /// corridor ahead of it; 0 joins only what its end already touches. Any
    /// value is accepted: the map's border stops the lengthening.
    pub connect_distance: u32,
}

impl Default for AccretionParams {
    /// 80 × 50 (80 columns, as a terminal roguelike; 50 rows leave room for
    /// several rooms in each column), 1,000 steps (returns diminish after
    /// about 1000), rooms 4–10 wide and 3–7 high (a terminal cell
    /// is about twice as high as wide, so these look roughly square, and a
    /// dozen or more fit on the map), corridors 3–10 long (shorter than the
    /// widest room, so rooms dominate), `room_chance` 0.5 (even), and
    /// `connect_distance` 6 (about a room's width: loops form between
    /// neighbouring features, not across the map).
    fn default() -> Self {
        AccretionParams {
            width: 80,
            height: 50,
            steps: 1_000,
            min_room_width: 4,
            max_room_width: 10,
            min_room_height: 3,
            max_room_height: 7,
            min_corridor_length: 3,
            max_corridor_length: 10,
            room_chance: 0.5,
            connect_distance: 6,
        }
    }
}

impl AccretionParams {
    /// Checks every bound given on the fields.
    ///
    /// # Errors
    ///
    /// [`TilesError::Parameter`] naming the first field out of range (or
    /// contradicting another) and what would be accepted.
    pub fn validate(&self) -> Result<(), TilesError> {
        for (field, side) in [("width", self.width), ("height", self.height)] {
            if !(4..=MAX_SIDE).contains(&side) {
                return Err(TilesError::parameter(
                    field,
                    format!(
                        "{side} is out of range: 4..={MAX_SIDE} cells \
                         (a 2 × 2 room inside a wall border)"
                    ),
                ));
            }
        }
        if self.steps > MAX_STEPS {
            return Err(TilesError::parameter(
                "steps",
                format!("{} is too many: at most {MAX_STEPS}", self.steps),
            ));
        }
        let rooms = [
            (
                "min_room_width",
                "max_room_width",
                self.min_room_width,
                self.max_room_width,
                "width",
                self.width,
            ),
            (
                "min_room_height",
                "max_room_height",
                self.min_room_height,
                self.max_room_height,
                "height",
                self.height,
            ),
        ];
        for (min_field, max_field, min, max, side_field, side) in rooms {
            if min < 2 {
                return Err(TilesError::parameter(
                    min_field,
                    format!(
                        "{min} is too small: rooms are at least 2 cells across, \
                         so that no room cell is a dead end"
                    ),
                ));
            }
            if max < min {
                return Err(TilesError::parameter(
                    max_field,
                    format!("{max} is below {min_field} = {min}"),
                ));
            }
            if max > side - 2 {
                return Err(TilesError::parameter(
                    max_field,
                    format!(
                        "{max} does not fit: rooms lie inside the wall border, \
                         at most {side_field} - 2 = {}",
                        side - 2
                    ),
                ));
            }
        }
        let (min, max) = (self.min_corridor_length, self.max_corridor_length);
        if min < 1 {
            return Err(TilesError::parameter(
                "min_corridor_length",
                "0 is too small: a corridor is at least 1 cell long",
            ));
        }
        if max < min {
            return Err(TilesError::parameter(
                "max_corridor_length",
                format!("{max} is below min_corridor_length = {min}"),
            ));
        }
        let longest = self.width.max(self.height) - 2;
        if max > longest {
            return Err(TilesError::parameter(
                "max_corridor_length",
                format!(
                    "{max} does not fit: corridors lie inside the wall border, \
                     at most max(width, height) - 2 = {longest}"
                ),
            ));
        }
        if !(0.0..=1.0).contains(&self.room_chance) {
            return Err(TilesError::parameter(
                "room_chance",
                format!(
                    "{} is not a probability: a number in [0, 1]",
                    self.room_chance
                ),
            ));
        }
        Ok(())
    }
}

/// Grows a map by accretion (see the module docs).
///
/// The result is `params.width × params.height`; room floor is
/// [`Tile::FLOOR`], corridors [`Tile::CORRIDOR`], doors [`Tile::DOOR`]. Its
/// lists: `rooms` in the order they were made, named `room 0`, `room 1`, …
/// with an empty tag and their floor as bounds (never removed); `doors` the
/// surviving door cells, one 1 × 1 door each, `rooms[0]` the room it opens
/// and `rooms[1]` the room on the other side when a corridor of one cell
/// joins two rooms; `corridors` the surviving runs of corridor cells in
/// walking order from where each was dug (door cells are not listed), with
/// `rooms[0]` the room it was dug out of and `rooms[1]` the room it was
/// lengthened to join, each while that end's door survives (a room dug out
/// of a corridor is named by its own door, not by the corridor). Every
/// listed cell is passable, and every corridor and door cell is listed
/// once.
///
/// # Errors
///
/// [`TilesError::Parameter`] from [`AccretionParams::validate`]. Accretion
/// has no search that can fail: the first room always fits, and steps that
/// fit nothing add nothing.
///
/// # Complexity
///
/// O(width × height) to set up and prune, plus per step a few reads of a
/// bitset of open cells (a rectangle of `r` rows, `c` columns costs
/// `r × (c / 64 + 1)` word reads) and, when something is drawn, time linear
/// in its cells; a step at a cell already found hopeless is O(1). The loop
/// ends early once every frontier cell is hopeless (the map can no longer
/// change), so a million steps on a map that filled up early cost little
/// more than the steps that filled it.
///
/// # Example
///
/// ```
/// use levelgraph::tiles::accretion::{generate, AccretionParams};
/// use levelgraph::tiles::metrics::Metrics;
///
/// let params = AccretionParams { steps: 300, ..AccretionParams::default() };
/// let map = generate(&params, 7)?;
/// let metrics = Metrics::of(&map);
/// assert_eq!((metrics.regions, metrics.dead_ends), (1, 0));
/// assert!(map.rooms.len() > 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate(params: &AccretionParams, seed: u64) -> Result<TileMap, TilesError> {
    params.validate()?;
    let mut rng = Rng::seeded(seed);
    let mut grower = Grower::new(params);
    grower.place_first_room(&mut rng);
    grower.grow(&mut rng, params.steps);
    grower.remove_dead_ends();
    Ok(grower.into_map())
}

/// North, east, south, west (y grows down). `DIRS[(d + 2) % 4]` is the
/// opposite of `DIRS[d]`.
const DIRS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// Passable cells as one bit each, row by row, so that "is this rectangle
/// all wall" reads one or two words per row instead of every cell.
struct OpenBits {
    words_per_row: usize,
    bits: Vec<u64>,
}

impl OpenBits {
    fn new(width: usize, height: usize) -> Self {
        let words_per_row = width.div_ceil(64);
        OpenBits {
            words_per_row,
            bits: vec![0; words_per_row * height],
        }
    }

    #[inline]
    fn get(&self, x: usize, y: usize) -> bool {
        self.bits[y * self.words_per_row + x / 64] >> (x % 64) & 1 != 0
    }

    #[inline]
    fn set(&mut self, x: usize, y: usize) {
        self.bits[y * self.words_per_row + x / 64] |= 1 << (x % 64);
    }

    /// Whether no cell in columns `x0..=x1` of rows `y0..=y1` is open.
    fn rect_clear(&self, x0: usize, y0: usize, x1: usize, y1: usize) -> bool {
        let (w0, w1) = (x0 / 64, x1 / 64);
        let first = !0u64 << (x0 % 64);
        let last = !0u64 >> (63 - x1 % 64);
        (y0..=y1).all(|y| {
            let row = &self.bits[y * self.words_per_row..(y + 1) * self.words_per_row];
            if w0 == w1 {
                row[w0] & first & last == 0
            } else {
                row[w0] & first == 0
                    && row[w0 + 1..w1].iter().all(|&b| b == 0)
                    && row[w1] & last == 0
            }
        })
    }
}

/// A frontier entry: a wall cell next to open space, and whether it was
/// found able to start something since the last drawing.
#[derive(Clone, Copy)]
struct Candidate {
    cell: u32,
    /// The drawing count when [`Grower::start_at`] last accepted it (0:
    /// never); while it equals [`Grower::drawn`], the check is still good.
    checked: u32,
    /// Outward direction (index into [`DIRS`]), valid when `checked` is.
    dir: u8,
    /// Whether the origin is room floor, valid when `checked` is.
    from_room: bool,
    /// Nothing can ever be started here (see [`Grower::start_at`]).
    hopeless: bool,
}

/// What a step's pick found.
enum Pick {
    /// A cell that can start something, and how.
    Start(i32, i32, Start),
    /// A hopeless cell: the step is spent and nothing changes.
    Spent,
    /// Every frontier cell is hopeless (or there is none): no later step
    /// can change the map.
    Exhausted,
}

/// Where a step starts: the outward direction and whether the origin is a
/// room.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Start {
    dir: usize,
    from_room: bool,
}

/// A corridor as dug, before pruning.
struct CorridorRecord {
    /// Corridor (not door) cells in walking order, as cell indices.
    cells: Vec<u32>,
    /// The room at each end, with the door cell that joins it.
    ends: [Option<(usize, u32)>; 2],
}

/// The state of one run: the cells, their open bitset, the frontier and
/// the lists being built.
struct Grower<'a> {
    params: &'a AccretionParams,
    width: i32,
    height: i32,
    /// `connect_distance`, capped at the map's larger side.
    reach: i32,
    cells: Vec<Tile>,
    open: OpenBits,
    /// Whether a cell has ever entered the frontier (each enters once).
    queued: Vec<bool>,
    frontier: Vec<Candidate>,
    /// Frontier entries marked hopeless.
    hopeless: usize,
    /// Features drawn so far, starting at 1 so that 0 means "unchecked".
    drawn: u32,
    rooms: Vec<TileRoom>,
    /// Room index by the cell index of its top-left floor cell.
    room_at: BTreeMap<u32, usize>,
    /// Doors with their cell index.
    doors: Vec<(TileDoor, u32)>,
    corridors: Vec<CorridorRecord>,
}

impl<'a> Grower<'a> {
    /// A wall-filled map; `params` must be valid.
    fn new(params: &'a AccretionParams) -> Self {
        let (w, h) = (params.width as usize, params.height as usize);
        Grower {
            params,
            width: params.width as i32,
            height: params.height as i32,
            reach: params.connect_distance.min(params.width.max(params.height)) as i32,
            cells: vec![Tile::WALL; w * h],
            open: OpenBits::new(w, h),
            queued: vec![false; w * h],
            frontier: Vec::new(),
            hopeless: 0,
            drawn: 1,
            rooms: Vec::new(),
            room_at: BTreeMap::new(),
            doors: Vec::new(),
            corridors: Vec::new(),
        }
    }

    #[inline]
    fn index(&self, x: i32, y: i32) -> usize {
        y as usize * self.width as usize + x as usize
    }

    #[inline]
    fn interior(&self, x: i32, y: i32) -> bool {
        x >= 1 && y >= 1 && x < self.width - 1 && y < self.height - 1
    }

    /// Whether `(x, y)` is open; the cell must be on the map.
    #[inline]
    fn is_open(&self, x: i32, y: i32) -> bool {
        self.open.get(x as usize, y as usize)
    }

    #[inline]
    fn tile(&self, x: i32, y: i32) -> Tile {
        self.cells[self.index(x, y)]
    }

    /// Whether the rectangle `x0..=x1 × y0..=y1` (on the map) is all wall.
    #[inline]
    fn all_wall(&self, x0: i32, y0: i32, x1: i32, y1: i32) -> bool {
        self.open
            .rect_clear(x0 as usize, y0 as usize, x1 as usize, y1 as usize)
    }

    /// Step 1: a random room anywhere inside the border.
    fn place_first_room(&mut self, rng: &mut Rng) {
        let p = self.params;
        let rw = between(rng, p.min_room_width, p.max_room_width);
        let rh = between(rng, p.min_room_height, p.max_room_height);
        let x = 1 + rng.below((self.width - 1 - rw) as usize) as i32;
        let y = 1 + rng.below((self.height - 1 - rh) as usize) as i32;
        self.draw_room(
            TileRect::new(x as u32, y as u32, rw as u32, rh as u32),
            None,
        );
    }

    /// Step 2, `steps` times, or until nothing can be started anywhere
    /// (the rest of the steps would change nothing). Returns the steps
    /// taken.
    fn grow(&mut self, rng: &mut Rng, steps: u32) -> u32 {
        let p = self.params;
        for step in 0..steps {
            let (x, y, start) = match self.pick(rng) {
                Pick::Start(x, y, start) => (x, y, start),
                Pick::Spent => continue,
                Pick::Exhausted => return step,
            };
            if start.from_room || rng.unit() >= p.room_chance {
                let len = between(rng, p.min_corridor_length, p.max_corridor_length);
                if let Some((n, joined)) = self.plan_corridor(x, y, start.dir, len) {
                    self.draw_corridor(x, y, start, n, joined);
                }
            } else {
                let rw = between(rng, p.min_room_width, p.max_room_width);
                let rh = between(rng, p.min_room_height, p.max_room_height);
                let across = if DIRS[start.dir].0 == 0 { rw } else { rh };
                let offset = rng.below(across as usize) as i32;
                if let Some(rect) = self.plan_room(x, y, start.dir, rw, rh, offset) {
                    self.draw_room(rect, Some((x, y)));
                }
            }
        }
        steps
    }

    /// A uniformly random frontier cell, as the plain algorithm's pick of a
    /// wall cell next to open space: [`Pick::Start`] when something can start there,
    /// [`Pick::Spent`] when nothing ever can (marked, so later picks of it
    /// are O(1)), [`Pick::Exhausted`] when every frontier cell is hopeless.
    /// Cells dug since they entered the frontier are dropped on the way;
    /// every cell enters the frontier at most once, so the loop ends within
    /// `width × height` turns over the whole run.
    fn pick(&mut self, rng: &mut Rng) -> Pick {
        let w = self.width as usize;
        while self.hopeless < self.frontier.len() {
            let slot = rng.below(self.frontier.len());
            let cand = self.frontier[slot];
            let (x, y) = (
                (cand.cell as usize % w) as i32,
                (cand.cell as usize / w) as i32,
            );
            if self.is_open(x, y) {
                // No longer wall: not a cell the plain algorithm would pick.
                self.hopeless -= usize::from(cand.hopeless);
                self.frontier.swap_remove(slot);
                continue;
            }
            if cand.hopeless {
                return Pick::Spent;
            }
            if cand.checked == self.drawn {
                let start = Start {
                    dir: usize::from(cand.dir),
                    from_room: cand.from_room,
                };
                return Pick::Start(x, y, start);
            }
            match self.start_at(x, y) {
                Some(start) => {
                    self.frontier[slot] = Candidate {
                        checked: self.drawn,
                        dir: start.dir as u8,
                        from_room: start.from_room,
                        ..cand
                    };
                    return Pick::Start(x, y, start);
                }
                None => {
                    self.frontier[slot].hopeless = true;
                    self.hopeless += 1;
                    return Pick::Spent;
                }
            }
        }
        Pick::Exhausted
    }

    /// Where a step at wall cell `(x, y)` (inside the border) would go, or
    /// `None` if nothing can ever be built from it (see the module docs):
    /// open, not exactly one open neighbour, a door behind, or neither the
    /// shortest corridor nor the smallest room fits. Each of these stays
    /// true as open space grows, and when it returns `Some`, the step's
    /// attempt succeeds with positive probability.
    fn start_at(&self, x: i32, y: i32) -> Option<Start> {
        if self.is_open(x, y) {
            return None;
        }
        let mut back = None;
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            if self.is_open(x + dx, y + dy) {
                if back.is_some() {
                    return None;
                }
                back = Some(d);
            }
        }
        let back = back?;
        let origin = self.tile(x + DIRS[back].0, y + DIRS[back].1);
        if origin == Tile::DOOR {
            return None;
        }
        let start = Start {
            dir: (back + 2) % 4,
            from_room: origin == Tile::FLOOR,
        };
        let p = self.params;
        // The shortest corridor fits unless its cells or sides are not all
        // wall or its end touches a door; a longer one would contain it.
        let len = p.min_corridor_length as i32;
        let corridor = (start.from_room || p.room_chance < 1.0)
            && self.corridor_base_fits(x, y, start.dir, len)
            && self.tile(x + DIRS[start.dir].0 * len, y + DIRS[start.dir].1 * len) != Tile::DOOR;
        if corridor {
            return Some(start);
        }
        let (rw, rh) = (p.min_room_width as i32, p.min_room_height as i32);
        let across = if DIRS[start.dir].0 == 0 { rw } else { rh };
        let room = !start.from_room
            && p.room_chance > 0.0
            && (0..across).any(|o| self.plan_room(x, y, start.dir, rw, rh, o).is_some());
        room.then_some(start)
    }

    /// Whether `len` cells from `(x, y)` in direction `dir` lie inside the
    /// border with wall in them and beside them.
    fn corridor_base_fits(&self, x: i32, y: i32, dir: usize, len: i32) -> bool {
        let (dx, dy) = DIRS[dir];
        let (ex, ey) = (x + dx * (len - 1), y + dy * (len - 1));
        if !self.interior(ex, ey) {
            return false;
        }
        // The perpendicular of (dx, dy), as a positive unit.
        let (px, py) = (dy.abs(), dx.abs());
        self.all_wall(
            x.min(ex) - px,
            y.min(ey) - py,
            x.max(ex) + px,
            y.max(ey) + py,
        )
    }

    /// A corridor of `len` cells from `(x, y)` outward in `dir`: `None` if
    /// it does not fit (cells or sides not wall, outside the border, or its
    /// end touching a door); else the cells to draw (`len`, or more when
    /// lengthened by up to `connect_distance` to join open space) and the
    /// open cell it joins, if any.
    fn plan_corridor(
        &self,
        x: i32,
        y: i32,
        dir: usize,
        len: i32,
    ) -> Option<(i32, Option<(i32, i32)>)> {
        if !self.corridor_base_fits(x, y, dir, len) {
            return None;
        }
        let (dx, dy) = DIRS[dir];
        let (px, py) = (dy.abs(), dx.abs());
        for k in 0..=self.reach {
            let (cx, cy) = (x + dx * (len + k), y + dy * (len + k));
            if self.is_open(cx, cy) {
                if self.tile(cx, cy) == Tile::DOOR {
                    // Joining a door would give it a third passable
                    // neighbour; touching one unlengthened is refused.
                    return if k == 0 { None } else { Some((len, None)) };
                }
                return Some((len + k, Some((cx, cy))));
            }
            // A lengthening cell must itself fit: inside the border, wall
            // beside it (else the corridor would graze what is there).
            if k == self.reach
                || !self.interior(cx, cy)
                || self.is_open(cx + px, cy + py)
                || self.is_open(cx - px, cy - py)
            {
                break;
            }
        }
        Some((len, None))
    }

    /// A `rw × rh` room entered through wall cell `(x, y)` going `dir`,
    /// shifted `offset` cells along the wall (`0..rh` for east and west,
    /// `0..rw` for north and south), if it lies inside the border and it
    /// and its ring are wall.
    fn plan_room(
        &self,
        x: i32,
        y: i32,
        dir: usize,
        rw: i32,
        rh: i32,
        offset: i32,
    ) -> Option<TileRect> {
        let (x0, y0) = match dir {
            0 => (x - offset, y - rh),
            1 => (x + 1, y - offset),
            2 => (x - offset, y + 1),
            _ => (x - rw, y - offset),
        };
        let inside = x0 >= 1 && y0 >= 1 && x0 + rw < self.width && y0 + rh < self.height;
        (inside && self.all_wall(x0 - 1, y0 - 1, x0 + rw, y0 + rh))
            .then(|| TileRect::new(x0 as u32, y0 as u32, rw as u32, rh as u32))
    }

    /// The index of the room whose floor holds `(x, y)`: walks to its
    /// top-left cell (rooms never touch, so the walk stays in the room).
    fn room_of(&self, mut x: i32, mut y: i32) -> usize {
        while self.tile(x - 1, y) == Tile::FLOOR {
            x -= 1;
        }
        while self.tile(x, y - 1) == Tile::FLOOR {
            y -= 1;
        }
        self.room_at[&(self.index(x, y) as u32)]
    }

    /// Opens cell `(x, y)` as `tile`.
    fn dig(&mut self, x: i32, y: i32, tile: Tile) {
        let i = self.index(x, y);
        self.cells[i] = tile;
        self.open.set(x as usize, y as usize);
    }

    /// Adds the wall neighbours of open cell `(x, y)` inside the border to
    /// the frontier, each once ever.
    fn enqueue_around(&mut self, x: i32, y: i32) {
        for (dx, dy) in DIRS {
            let (nx, ny) = (x + dx, y + dy);
            if !self.interior(nx, ny) || self.is_open(nx, ny) {
                continue;
            }
            let i = self.index(nx, ny);
            if !self.queued[i] {
                self.queued[i] = true;
                self.frontier.push(Candidate {
                    cell: i as u32,
                    checked: 0,
                    dir: 0,
                    from_room: false,
                    hopeless: false,
                });
            }
        }
    }

    /// Draws room `rect` with its door at `entry` (`None` for the first
    /// room).
    fn draw_room(&mut self, rect: TileRect, entry: Option<(i32, i32)>) {
        let room = self.rooms.len();
        let (x0, y0) = (rect.x as i32, rect.y as i32);
        let (x1, y1) = (rect.right() as i32, rect.bottom() as i32);
        for y in y0..y1 {
            for x in x0..x1 {
                self.dig(x, y, Tile::FLOOR);
            }
        }
        if let Some((ex, ey)) = entry {
            self.dig(ex, ey, Tile::DOOR);
            let cell = self.index(ex, ey) as u32;
            self.doors.push((door_at(ex, ey, [Some(room), None]), cell));
            self.enqueue_around(ex, ey);
        }
        // Only the outermost rows and columns have wall neighbours.
        for y in y0..y1 {
            self.enqueue_around(x0, y);
            self.enqueue_around(x1 - 1, y);
        }
        for x in x0..x1 {
            self.enqueue_around(x, y0);
            self.enqueue_around(x, y1 - 1);
        }
        self.room_at.insert(self.index(x0, y0) as u32, room);
        self.rooms.push(TileRoom::rect(room_name(room), "", rect));
        self.drawn += 1;
    }

    /// Draws `n` corridor cells from `(x, y)` going `start.dir`, joining
    /// `joined` if given; the first cell is a door when leaving a room, the
    /// last when joining one.
    fn draw_corridor(&mut self, x: i32, y: i32, start: Start, n: i32, joined: Option<(i32, i32)>) {
        let (dx, dy) = DIRS[start.dir];
        let (bx, by) = DIRS[(start.dir + 2) % 4];
        let from = start.from_room.then(|| self.room_of(x + bx, y + by));
        let to = joined
            .filter(|&(jx, jy)| self.tile(jx, jy) == Tile::FLOOR)
            .map(|(jx, jy)| self.room_of(jx, jy));
        let (lx, ly) = (x + dx * (n - 1), y + dy * (n - 1));
        let mut record = CorridorRecord {
            cells: Vec::with_capacity(n as usize),
            ends: [None, None],
        };
        for i in 0..n {
            let (cx, cy) = (x + dx * i, y + dy * i);
            let door = (i == 0 && from.is_some()) || (i == n - 1 && to.is_some());
            self.dig(cx, cy, if door { Tile::DOOR } else { Tile::CORRIDOR });
            if !door {
                record.cells.push(self.index(cx, cy) as u32);
            }
        }
        let (first, last) = (self.index(x, y) as u32, self.index(lx, ly) as u32);
        match (from, to) {
            (Some(a), Some(b)) if n == 1 => {
                self.doors.push((door_at(x, y, [Some(a), Some(b)]), first));
            }
            _ => {
                if let Some(a) = from {
                    self.doors.push((door_at(x, y, [Some(a), None]), first));
                    record.ends[0] = Some((a, first));
                }
                if let Some(b) = to {
                    self.doors.push((door_at(lx, ly, [Some(b), None]), last));
                    record.ends[1] = Some((b, last));
                }
            }
        }
        if !record.cells.is_empty() {
            self.corridors.push(record);
        }
        for i in 0..n {
            self.enqueue_around(x + dx * i, y + dy * i);
        }
        self.drawn += 1;
    }

    /// Step 3: walls up corridor and door cells with at most one passable
    /// neighbour, and then their neighbours that become so, from a
    /// worklist. Each cell is walled at most once and pushes at most four
    /// neighbours, so this is linear in the corridor and door cells.
    fn remove_dead_ends(&mut self) {
        let (w, h) = (self.width as usize, self.height as usize);
        let prunable = |t: Tile| t == Tile::CORRIDOR || t == Tile::DOOR;
        let mut work: Vec<usize> = self
            .corridors
            .iter()
            .flat_map(|c| c.cells.iter().map(|&i| i as usize))
            .chain(self.doors.iter().map(|&(_, i)| i as usize))
            .collect();
        while let Some(i) = work.pop() {
            if !prunable(self.cells[i]) {
                continue;
            }
            let passable = super::regions::neighbours(i, w, h)
                .filter(|&j| self.cells[j].is_passable())
                .count();
            if passable <= 1 {
                self.cells[i] = Tile::WALL;
                work.extend(
                    super::regions::neighbours(i, w, h).filter(|&j| prunable(self.cells[j])),
                );
            }
        }
    }

    /// The finished map: the lists cut down to what pruning left.
    fn into_map(self) -> TileMap {
        let mut map = TileMap::filled(self.params.width, self.params.height, Tile::WALL);
        let w = self.width as u32;
        let cells = self.cells;
        let doors = self
            .doors
            .into_iter()
            .filter(|&(_, i)| cells[i as usize] == Tile::DOOR)
            .map(|(door, _)| door)
            .collect();
        let corridors = self
            .corridors
            .into_iter()
            .filter_map(|record| {
                // Pruning eats corridors from their loose ends, so what is
                // left of one is a contiguous run.
                let kept: Vec<[u32; 2]> = record
                    .cells
                    .iter()
                    .filter(|&&i| cells[i as usize] == Tile::CORRIDOR)
                    .map(|&i| [i % w, i / w])
                    .collect();
                let end = |e: Option<(usize, u32)>| {
                    e.and_then(|(room, door)| (cells[door as usize] == Tile::DOOR).then_some(room))
                };
                (!kept.is_empty()).then(|| TileCorridor {
                    cells: kept,
                    rooms: [end(record.ends[0]), end(record.ends[1])],
                })
            })
            .collect();
        map.cells = cells;
        map.rooms = self.rooms;
        map.doors = doors;
        map.corridors = corridors;
        map
    }
}

/// A uniform integer in `min..=max` (`min ≤ max`, both small).
fn between(rng: &mut Rng, min: u32, max: u32) -> i32 {
    (min + rng.below((max - min + 1) as usize) as u32) as i32
}

/// A one-cell door at `(x, y)`.
fn door_at(x: i32, y: i32, rooms: [Option<usize>; 2]) -> TileDoor {
    TileDoor {
        cells: TileRect::new(x as u32, y as u32, 1, 1),
        rooms,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rng::Rng;
    use crate::tiles::metrics::Metrics;
    use crate::tiles::regions::Regions;

    /// Small valid parameters: a `width × height` map with modest rooms.
    fn small(width: u32, height: u32) -> AccretionParams {
        AccretionParams {
            width,
            height,
            steps: 200,
            min_room_width: 3,
            max_room_width: 5,
            min_room_height: 2,
            max_room_height: 4,
            min_corridor_length: 2,
            max_corridor_length: 6,
            room_chance: 0.5,
            connect_distance: 4,
        }
    }

    /// The map as text rows: `#` wall, `.` floor, `+` door, `,` corridor.
    fn ascii(map: &TileMap) -> Vec<String> {
        (0..map.height)
            .map(|y| {
                (0..map.width)
                    .map(|x| match map.cells[map.index(x, y)] {
                        Tile::WALL => '#',
                        Tile::FLOOR => '.',
                        Tile::DOOR => '+',
                        Tile::CORRIDOR => ',',
                        _ => '?',
                    })
                    .collect()
            })
            .collect()
    }

    fn grower_map(g: Grower<'_>) -> TileMap {
        g.into_map()
    }

    /// Every guarantee of [`generate`] on one map.
    fn check_map(p: &AccretionParams, map: &TileMap) {
        let (w, h) = (map.width, map.height);
        assert_eq!((w, h), (p.width, p.height));
        assert_eq!(map.cells.len(), (w * h) as usize);
        let at = |x: i64, y: i64| map.get(x, y).unwrap_or(Tile::WALL);
        for x in 0..w {
            assert_eq!(map.cells[map.index(x, 0)], Tile::WALL);
            assert_eq!(map.cells[map.index(x, h - 1)], Tile::WALL);
        }
        for y in 0..h {
            assert_eq!(map.cells[map.index(0, y)], Tile::WALL);
            assert_eq!(map.cells[map.index(w - 1, y)], Tile::WALL);
        }
        // One region, no dead end.
        assert_eq!(Regions::of(map).count(), 1, "{:#?}", ascii(map));
        let metrics = Metrics::of(map);
        assert_eq!(metrics.dead_ends, 0, "{:#?}", ascii(map));
        // Rooms: sizes, floor, one-cell margin to every other room, and the
        // floor cells are exactly the rooms'.
        assert!(!map.rooms.is_empty());
        let mut floor = 0;
        for (i, room) in map.rooms.iter().enumerate() {
            let b = room.bounds;
            assert_eq!(room.name, format!("room {i}"));
            assert!((p.min_room_width..=p.max_room_width).contains(&b.width));
            assert!((p.min_room_height..=p.max_room_height).contains(&b.height));
            assert!(b.x >= 1 && b.y >= 1 && b.right() < w && b.bottom() < h);
            for y in b.y..b.bottom() {
                for x in b.x..b.right() {
                    assert_eq!(map.cells[map.index(x, y)], Tile::FLOOR);
                }
            }
            floor += b.width * b.height;
            let ring = TileRect::new(b.x - 1, b.y - 1, b.width + 2, b.height + 2);
            for other in &map.rooms[i + 1..] {
                assert!(!ring.intersects(&other.bounds), "{b:?} {:?}", other.bounds);
            }
        }
        let floor_cells = map.cells.iter().filter(|&&t| t == Tile::FLOOR).count();
        assert_eq!(floor_cells as u32, floor);
        // Nothing side by side but room floor.
        for y in 0..h as i64 - 1 {
            for x in 0..w as i64 - 1 {
                let block = [at(x, y), at(x + 1, y), at(x, y + 1), at(x + 1, y + 1)];
                if block.iter().all(|t| t.is_passable()) {
                    assert!(
                        block.iter().all(|&t| t == Tile::FLOOR),
                        "2 × 2 block at ({x}, {y}): {:#?}",
                        ascii(map)
                    );
                }
            }
        }
        // No corridor cell beside room floor: rooms are entered by doors.
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                if at(x, y) == Tile::CORRIDOR {
                    for (dx, dy) in DIRS {
                        let n = at(x + i64::from(dx), y + i64::from(dy));
                        assert_ne!(n, Tile::FLOOR, "corridor ({x}, {y}) grazes a room");
                    }
                }
            }
        }
        // Doors: listed once each, two passable neighbours on opposite
        // sides, next to the rooms they name.
        let door_cells = map.cells.iter().filter(|&&t| t == Tile::DOOR).count();
        assert_eq!(door_cells, map.doors.len());
        let touches = |room: usize, x: u32, y: u32| {
            let b = map.rooms[room].bounds;
            let ring = TileRect::new(b.x - 1, b.y - 1, b.width + 2, b.height + 2);
            ring.contains(x, y) && !b.contains(x, y)
        };
        let mut seen = std::collections::BTreeSet::new();
        for door in &map.doors {
            let c = door.cells;
            assert_eq!((c.width, c.height), (1, 1));
            assert!(seen.insert((c.x, c.y)));
            let (x, y) = (i64::from(c.x), i64::from(c.y));
            assert_eq!(at(x, y), Tile::DOOR);
            let open: Vec<bool> = DIRS
                .iter()
                .map(|&(dx, dy)| at(x + i64::from(dx), y + i64::from(dy)).is_passable())
                .collect();
            assert!(
                open == [true, false, true, false] || open == [false, true, false, true],
                "door ({x}, {y}): {open:?}"
            );
            let a = door.rooms[0].expect("a door opens a room");
            assert!(touches(a, c.x, c.y));
            if let Some(b) = door.rooms[1] {
                assert!(touches(b, c.x, c.y) && a != b);
            }
        }
        // Corridors: straight runs of corridor cells, each cell listed once,
        // ends at the doors of the rooms they name.
        let mut listed = std::collections::BTreeSet::new();
        for corridor in &map.corridors {
            assert!(!corridor.cells.is_empty());
            for pair in corridor.cells.windows(2) {
                let [[ax, ay], [bx, by]] = [pair[0], pair[1]];
                assert_eq!(ax.abs_diff(bx) + ay.abs_diff(by), 1);
            }
            let [first, last] = [corridor.cells[0], *corridor.cells.last().unwrap()];
            assert!(first[0] == last[0] || first[1] == last[1]);
            for &[x, y] in &corridor.cells {
                assert_eq!(map.cells[map.index(x, y)], Tile::CORRIDOR);
                assert!(listed.insert((x, y)));
            }
            for (end, room) in [first, last].into_iter().zip(corridor.rooms) {
                if let Some(room) = room {
                    let door = map.doors.iter().any(|d| {
                        d.rooms.contains(&Some(room))
                            && d.cells.x.abs_diff(end[0]) + d.cells.y.abs_diff(end[1]) == 1
                    });
                    assert!(door, "corridor end {end:?} has no door to room {room}");
                }
            }
        }
        let corridor_cells = map.cells.iter().filter(|&&t| t == Tile::CORRIDOR).count();
        assert_eq!(corridor_cells, listed.len());
    }

    #[test]
    fn defaults_are_valid_and_grow_a_dungeon() {
        let p = AccretionParams::default();
        assert_eq!(p.validate(), Ok(()));
        let map = generate(&p, 7).unwrap();
        check_map(&p, &map);
        assert!(map.rooms.len() >= 10, "{} rooms", map.rooms.len());
        assert!(!map.corridors.is_empty());
    }

    #[test]
    fn no_steps_leave_the_first_room_alone() {
        let p = AccretionParams {
            steps: 0,
            ..small(12, 9)
        };
        let map = generate(&p, 3).unwrap();
        check_map(&p, &map);
        assert_eq!(map.rooms.len(), 1);
        assert!(map.doors.is_empty() && map.corridors.is_empty());
    }

    #[test]
    fn bad_parameters_name_their_field() {
        type Edit = fn(&mut AccretionParams);
        let cases: [(&str, Edit); 16] = [
            ("width", |p| p.width = 0),
            ("height", |p| p.height = 3),
            ("width", |p| p.width = MAX_SIDE + 1),
            ("steps", |p| p.steps = MAX_STEPS + 1),
            ("min_room_width", |p| p.min_room_width = 1),
            ("max_room_width", |p| p.max_room_width = 3),
            ("max_room_width", |p| p.max_room_width = 79),
            ("min_room_height", |p| p.min_room_height = 0),
            ("max_room_height", |p| p.max_room_height = 2),
            ("max_room_height", |p| p.max_room_height = 49),
            ("min_corridor_length", |p| p.min_corridor_length = 0),
            ("max_corridor_length", |p| p.max_corridor_length = 2),
            ("max_corridor_length", |p| p.max_corridor_length = 79),
            ("room_chance", |p| p.room_chance = f64::NAN),
            ("room_chance", |p| p.room_chance = -0.1),
            ("room_chance", |p| p.room_chance = f64::INFINITY),
        ];
        for (field, edit) in cases {
            let mut p = AccretionParams::default();
            edit(&mut p);
            match generate(&p, 1) {
                Err(TilesError::Parameter { field: f, .. }) => assert_eq!(f, field, "{p:?}"),
                other => panic!("{p:?} gave {other:?}"),
            }
        }
        // The edges of the ranges are accepted.
        let p = AccretionParams {
            max_room_width: 78,
            max_room_height: 48,
            max_corridor_length: 78,
            room_chance: 1.0,
            connect_distance: u32::MAX,
            ..AccretionParams::default()
        };
        check_map(&p, &generate(&p, 1).unwrap());
    }

    #[test]
    fn open_bits_answer_rectangles_across_words() {
        let mut bits = OpenBits::new(150, 3);
        bits.set(64, 1);
        assert!(bits.rect_clear(0, 0, 63, 2));
        assert!(!bits.rect_clear(63, 1, 64, 1));
        assert!(!bits.rect_clear(10, 0, 140, 2));
        assert!(bits.rect_clear(65, 0, 149, 2));
        assert!(bits.rect_clear(0, 0, 149, 0));
        bits.set(149, 2);
        assert!(!bits.rect_clear(149, 2, 149, 2));
        assert!(bits.get(149, 2) && !bits.get(148, 2));
    }

    /// Draws the two rooms of the hand-worked corridor examples on a
    /// 20 × 7 map: room 0 at columns 1–3, room 1 at columns 12–14, rows
    /// 2–4 both.
    fn two_rooms(p: &AccretionParams) -> Grower<'_> {
        let mut g = Grower::new(p);
        g.draw_room(TileRect::new(1, 2, 3, 3), None);
        g.draw_room(TileRect::new(12, 2, 3, 3), None);
        g
    }

    #[test]
    fn corridors_lengthen_to_join_within_connect_distance() {
        let p = AccretionParams {
            connect_distance: 5,
            ..small(20, 7)
        };
        let mut g = two_rooms(&p);
        // From (4, 3), east of room 0, 3 cells reach column 6; room 1's
        // floor is at column 12, 5 cells further: just within reach.
        assert_eq!(g.plan_corridor(4, 3, 1, 3), Some((8, Some((12, 3)))));
        let start = g.start_at(4, 3).unwrap();
        assert_eq!(
            start,
            Start {
                dir: 1,
                from_room: true
            }
        );
        g.draw_corridor(4, 3, start, 8, Some((12, 3)));
        g.remove_dead_ends();
        let map = grower_map(g);
        assert_eq!(
            ascii(&map),
            [
                "####################",
                "####################",
                "#...########...#####",
                "#...+,,,,,,+...#####",
                "#...########...#####",
                "####################",
                "####################",
            ]
        );
        assert_eq!(
            map.doors,
            [
                door_at(4, 3, [Some(0), None]),
                door_at(11, 3, [Some(1), None])
            ]
        );
        let cells: Vec<[u32; 2]> = (5..=10).map(|x| [x, 3]).collect();
        assert_eq!(
            map.corridors,
            [TileCorridor {
                cells,
                rooms: [Some(0), Some(1)]
            }]
        );
    }

    #[test]
    fn corridors_out_of_reach_are_drawn_short_then_pruned() {
        let p = AccretionParams {
            connect_distance: 4,
            ..small(20, 7)
        };
        let mut g = two_rooms(&p);
        assert_eq!(g.plan_corridor(4, 3, 1, 3), Some((3, None)));
        g.draw_corridor(4, 3, g.start_at(4, 3).unwrap(), 3, None);
        assert_eq!(g.cells[g.index(6, 3)], Tile::CORRIDOR);
        g.remove_dead_ends();
        let map = grower_map(g);
        assert!(map.doors.is_empty() && map.corridors.is_empty());
        assert_eq!(ascii(&map)[3], "#...########...#####");
    }

    #[test]
    fn a_one_cell_corridor_between_rooms_is_one_door_of_both() {
        let p = small(12, 7);
        let mut g = Grower::new(&p);
        g.draw_room(TileRect::new(1, 2, 3, 3), None);
        g.draw_room(TileRect::new(5, 1, 3, 3), None);
        // (4, 2) lies between the rooms: two open neighbours, no start.
        assert_eq!(g.start_at(4, 2), None);
        // Planned from room 0 going east, one cell joins room 1 at once.
        assert_eq!(g.plan_corridor(4, 2, 1, 1), Some((1, Some((5, 2)))));
        let start = Start {
            dir: 1,
            from_room: true,
        };
        g.draw_corridor(4, 2, start, 1, Some((5, 2)));
        let map = grower_map(g);
        assert_eq!(map.doors, [door_at(4, 2, [Some(0), Some(1)])]);
        assert!(map.corridors.is_empty());
    }

    #[test]
    fn rooms_need_a_ring_of_wall() {
        let p = small(16, 9);
        let mut g = Grower::new(&p);
        g.draw_room(TileRect::new(1, 1, 3, 3), None);
        // A corridor down from room 0's bottom row: (2, 4)..(2, 6), door
        // first.
        let start = g.start_at(2, 4).unwrap();
        assert_eq!(
            start,
            Start {
                dir: 2,
                from_room: true
            }
        );
        g.draw_corridor(2, 4, start, 3, None);
        // East from the corridor's end, through (3, 6): a 3 × 2 room at
        // (4, 6) has its ring in columns 3–7, rows 5–8, all wall: it fits.
        let east = g.start_at(3, 6).unwrap();
        assert_eq!(
            east,
            Start {
                dir: 1,
                from_room: false
            }
        );
        assert_eq!(
            g.plan_room(3, 6, 1, 3, 2, 0),
            Some(TileRect::new(4, 6, 3, 2))
        );
        // A 3 × 3 room shifted up to row 4 would have room 0's floor at
        // (3, 3) in its ring; shifted to row 5 it fits; at row 6 it would
        // reach the bottom border.
        assert_eq!(g.plan_room(3, 6, 1, 3, 3, 2), None);
        assert_eq!(
            g.plan_room(3, 6, 1, 3, 3, 1),
            Some(TileRect::new(4, 5, 3, 3))
        );
        assert_eq!(g.plan_room(3, 6, 1, 3, 3, 0), None);
        g.draw_room(TileRect::new(4, 5, 3, 3), Some((3, 6)));
        g.remove_dead_ends();
        let map = grower_map(g);
        assert_eq!(
            ascii(&map),
            [
                "################",
                "#...############",
                "#...############",
                "#...############",
                "##+#############",
                "##,#...#########",
                "##,+...#########",
                "####...#########",
                "################",
            ]
        );
        // The corridor turns through two doors, so it is no dead end. It
        // names room 0, which it was dug from; room 1 was dug from it, not
        // joined by it.
        assert_eq!(map.corridors.len(), 1);
        assert_eq!(map.corridors[0].cells, [[2, 5], [2, 6]]);
        assert_eq!(map.corridors[0].rooms, [Some(0), None]);
        assert_eq!(
            map.doors,
            [
                door_at(2, 4, [Some(0), None]),
                door_at(3, 6, [Some(1), None])
            ]
        );
        check_map(&p, &map);
    }

    #[test]
    fn doors_start_nothing_and_corridors_never_touch_one() {
        let p = AccretionParams {
            connect_distance: 3,
            ..small(16, 12)
        };
        let mut g = Grower::new(&p);
        g.draw_room(TileRect::new(1, 6, 3, 3), None);
        // A corridor east from room 0's top-right cell: its door (4, 6)
        // is next to the room's corner.
        g.draw_corridor(
            4,
            6,
            Start {
                dir: 1,
                from_room: true,
            },
            3,
            None,
        );
        // (4, 5), above the door, has the door as its only open neighbour:
        // a corridor north from it would fit, but nothing starts at a door.
        assert!(g.corridor_base_fits(4, 5, 0, 2));
        assert_eq!(g.start_at(4, 5), None);
        // A room above, and corridors down from it toward the door.
        g.draw_room(TileRect::new(3, 1, 3, 2), None);
        assert_eq!(
            g.start_at(4, 3),
            Some(Start {
                dir: 2,
                from_room: true
            })
        );
        // Three cells would end right above the door: refused.
        assert_eq!(g.plan_corridor(4, 3, 2, 3), None);
        // Two cells end one above it; lengthening would join the door, so
        // it is drawn as it is.
        assert_eq!(g.plan_corridor(4, 3, 2, 2), Some((2, None)));
    }

    #[test]
    fn pruning_follows_dead_ends_back_to_the_junction() {
        let p = AccretionParams {
            connect_distance: 8,
            ..small(20, 9)
        };
        let mut g = Grower::new(&p);
        g.draw_room(TileRect::new(1, 4, 3, 3), None);
        g.draw_room(TileRect::new(12, 4, 3, 3), None);
        // Room 0 to room 1 along row 5, a spur up from (7, 4) to (7, 2),
        // and a stub out of room 1 going east.
        g.draw_corridor(
            4,
            5,
            Start {
                dir: 1,
                from_room: true,
            },
            8,
            Some((12, 5)),
        );
        g.draw_corridor(
            7,
            4,
            Start {
                dir: 0,
                from_room: false,
            },
            3,
            None,
        );
        g.draw_corridor(
            15,
            5,
            Start {
                dir: 1,
                from_room: true,
            },
            2,
            None,
        );
        let before = ascii(&grower_map(clone_grower(&g)));
        assert_eq!(before[2], "#######,############");
        assert_eq!(before[5], "#...+,,,,,,+...+,###");
        g.remove_dead_ends();
        let map = grower_map(g);
        assert_eq!(
            ascii(&map),
            [
                "####################",
                "####################",
                "####################",
                "####################",
                "#...########...#####",
                "#...+,,,,,,+...#####",
                "#...########...#####",
                "####################",
                "####################",
            ]
        );
        assert_eq!(map.corridors.len(), 1);
        assert_eq!(map.doors.len(), 2);
        check_map(
            &AccretionParams {
                min_room_width: 3,
                max_room_width: 3,
                min_room_height: 3,
                max_room_height: 3,
                ..p
            },
            &map,
        );
    }

    /// A copy of a grower's state (the type holds no `Clone` on purpose:
    /// runs never copy it).
    fn clone_grower<'a>(g: &Grower<'a>) -> Grower<'a> {
        Grower {
            params: g.params,
            width: g.width,
            height: g.height,
            reach: g.reach,
            cells: g.cells.clone(),
            open: OpenBits {
                words_per_row: g.open.words_per_row,
                bits: g.open.bits.clone(),
            },
            queued: g.queued.clone(),
            frontier: g.frontier.clone(),
            hopeless: g.hopeless,
            drawn: g.drawn,
            rooms: g.rooms.clone(),
            room_at: g.room_at.clone(),
            doors: g.doors.clone(),
            corridors: g
                .corridors
                .iter()
                .map(|c| CorridorRecord {
                    cells: c.cells.clone(),
                    ends: c.ends,
                })
                .collect(),
        }
    }

    #[test]
    fn growth_stops_early_only_when_nothing_fits_anywhere() {
        for seed in 0..20 {
            let p = AccretionParams {
                steps: MAX_STEPS,
                ..small(24, 16)
            };
            let mut g = Grower::new(&p);
            let mut rng = Rng::seeded(seed);
            g.place_first_room(&mut rng);
            let taken = g.grow(&mut rng, p.steps);
            assert!(taken < p.steps, "seed {seed}: a small map fills up");
            for y in 1..g.height - 1 {
                for x in 1..g.width - 1 {
                    assert_eq!(g.start_at(x, y), None, "seed {seed}: ({x}, {y})");
                }
            }
        }
    }

    /// Valid parameters for small, fast maps.
    fn valid_params() -> impl Strategy<Value = AccretionParams> {
        (
            (6u32..40, 6u32..30, 0u32..300),
            (2u32..6, 0u32..5, 2u32..6, 0u32..5),
            (1u32..6, 0u32..8, 0u32..=4, 0u32..10),
        )
            .prop_map(
                |((width, height, steps), (rw, drw, rh, drh), (cl, dcl, chance, reach))| {
                    let max_room_width = (rw + drw).min(width - 2);
                    let max_room_height = (rh + drh).min(height - 2);
                    let max_corridor_length = (cl + dcl).min(width.max(height) - 2);
                    AccretionParams {
                        width,
                        height,
                        steps,
                        min_room_width: rw.min(max_room_width),
                        max_room_width,
                        min_room_height: rh.min(max_room_height),
                        max_room_height,
                        min_corridor_length: cl.min(max_corridor_length),
                        max_corridor_length,
                        room_chance: f64::from(chance) / 4.0,
                        connect_distance: reach,
                    }
                },
            )
    }

    /// Anything, often out of range.
    fn wild_u32(small: std::ops::Range<u32>) -> impl Strategy<Value = u32> {
        prop_oneof![
            4 => small,
            1 => Just(0u32),
            1 => Just(u32::MAX),
            1 => any::<u32>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Connectivity, no dead end, room bounds and margins, true lists.
        #[test]
        fn every_map_keeps_the_guarantees(p in valid_params(), seed in any::<u64>()) {
            prop_assert_eq!(p.validate(), Ok(()));
            let map = generate(&p, seed).unwrap();
            check_map(&p, &map);
            prop_assert_eq!(&generate(&p, seed).unwrap(), &map);
        }

        /// The bitset's rectangles agree with looking at every cell.
        #[test]
        fn open_bits_agree_with_cells(
            width in 1usize..200,
            set in proptest::collection::vec((0usize..200, 0usize..4), 0..20),
            rect in (0usize..200, 0usize..200, 0usize..4, 0usize..4),
        ) {
            let mut bits = OpenBits::new(width, 4);
            let mut cells = vec![false; width * 4];
            for (x, y) in set {
                let x = x % width;
                bits.set(x, y);
                cells[y * width + x] = true;
            }
            let (a, b) = (rect.0 % width, rect.1 % width);
            let (x0, x1, y0, y1) = (a.min(b), a.max(b), rect.2.min(rect.3), rect.2.max(rect.3));
            let slow = (y0..=y1).all(|y| (x0..=x1).all(|x| !cells[y * width + x]));
            prop_assert_eq!(bits.rect_clear(x0, y0, x1, y1), slow);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Any parameters: a map that keeps the guarantees or a
        /// `Parameter` error, never a panic.
        #[test]
        fn wild_parameters_never_panic(
            sides in (wild_u32(4..40), wild_u32(4..30)),
            steps in prop_oneof![3 => 0u32..200, 1 => Just(MAX_STEPS + 1), 1 => Just(u32::MAX)],
            rooms in (wild_u32(0..8), wild_u32(0..12), wild_u32(0..8), wild_u32(0..12)),
            corridors in (wild_u32(0..6), wild_u32(0..20), wild_u32(0..10)),
            room_chance in prop_oneof![
                3 => -0.5f64..1.5,
                1 => Just(f64::NAN),
                1 => Just(f64::INFINITY),
                1 => Just(f64::NEG_INFINITY),
            ],
            seed in any::<u64>(),
        ) {
            let p = AccretionParams {
                width: sides.0,
                height: sides.1,
                steps,
                min_room_width: rooms.0,
                max_room_width: rooms.1,
                min_room_height: rooms.2,
                max_room_height: rooms.3,
                min_corridor_length: corridors.0,
                max_corridor_length: corridors.1,
                room_chance,
                connect_distance: corridors.2,
            };
            // Keep the accepted cases small so the test stays fast.
            prop_assume!(p.width.saturating_mul(p.height) <= 4096 || p.validate().is_err());
            match generate(&p, seed) {
                Ok(map) => check_map(&p, &map),
                Err(TilesError::Parameter { field, .. }) => {
                    prop_assert!(!field.is_empty());
                    prop_assert!(p.validate().is_err());
                }
                Err(e) => prop_assert!(false, "unexpected {e}"),
            }
        }
    }
}
