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
mod tests;
