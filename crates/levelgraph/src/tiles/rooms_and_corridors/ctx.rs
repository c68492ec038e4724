//! The map being drawn ([`Ctx`]): its tiles, the zone grid that says what
//! each cell may become, cell owners and their union-find, all in buffers a
//! thread lends from one map to the next ([`Scratch`]).

use super::corridors::PathShape;
use super::links::LinkScratch;
use super::placement::EightRooms;
use super::route::loop_budget;
use crate::tiles::map::{room_name, Outline, SmolStr, Tile, TileDoor, TileMap, TileRect, TileRoom};
use crate::union_find::UnionFind;

/// The buffers of one map kept for the next on the same thread: the grids
/// (at 200 × 200 cells the owner grid alone is 160 KB), the union-find, the
/// rooms, the links and the scratch of the path checks. A map made with them
/// allocates little besides what it returns (the rare corridor searches,
/// door candidates and joins of unreached rooms still allocate their own).
/// Measured 2026-11-28 against fresh buffers per map: 10–25 % of a map's
/// time at 80 × 25 to 100 × 100, 6.6× at 200 × 200.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) zone: Vec<u8>,
    pub(super) owner: Vec<u32>,
    pub(super) sets: UnionFind,
    pub(super) rects: Vec<TileRect>,
    pub(super) placed: Vec<EightRooms>,
    pub(super) links: Vec<(usize, usize)>,
    pub(super) deferred: Vec<(usize, usize)>,
    pub(super) choose: LinkScratch,
    pub(super) stretches: Vec<(usize, usize)>,
    pub(super) meets: Vec<usize>,
    pub(super) drawn: Vec<usize>,
}

thread_local! {
    /// The [`Scratch`] of the last map made on this thread, lent to the
    /// next.
    pub(super) static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// The largest map (in cells: 4 MB of owner grid and 1 MB of zone grid)
/// whose buffers a thread keeps between maps: a larger map's are freed, so
/// one huge map does not hold its memory for the rest of the thread's
/// life.
pub(super) const SCRATCH_KEEP_CELLS: usize = 1 << 20;

/// What each cell may become: corridors only ever go on `FREE` cells, doors
/// only on `RING` cells. The low bits of a [`Ctx::zone`] cell ([`KIND`]).
pub(super) const FREE: u8 = 0;
/// The map's outer edge.
pub(super) const BORDER: u8 = 1;
/// Room floor.
pub(super) const FLOOR: u8 = 2;
/// A cell 4-adjacent to room floor (a room's wall ring without its corners),
/// not on the border.
pub(super) const RING: u8 = 3;
/// A corner of a room's wall ring: kept wall so a corridor never touches a
/// room even diagonally, and a door's sides stay wall.
pub(super) const CORNER: u8 = 4;
/// The bits of a zone cell that say its kind.
pub(super) const KIND: u8 = 7;
/// Set in a zone cell that is corridor or door on the map, so the path
/// checks read one grid: a cell's kind and whether it is open come in one
/// byte.
pub(super) const OPEN: u8 = 8;
/// No owner / no cell.
pub(super) const NONE: u32 = u32::MAX;

/// The map being drawn, with what the corridor rules need beside it.
pub(super) struct Ctx {
    pub(super) map: TileMap,
    /// Columns, as `usize` for index arithmetic.
    pub(super) w: usize,
    /// Per cell: its kind (`FREE`, `BORDER`, `FLOOR`, `RING` or `CORNER`,
    /// the [`KIND`] bits) and [`OPEN`] where the map has a corridor or a
    /// door.
    pub(super) zone: Vec<u8>,
    /// Per door and corridor cell, and per floor cell beside its room's
    /// ring: the room (floor, door) or the union-find node of the corridor
    /// that opened it. Read only where this map has opened the cell, and
    /// of a room's floor only beside its ring, so the grid
    /// may hold another map's values elsewhere (inside rooms too): it is
    /// borrowed from the thread's last map and never cleared.
    pub(super) owner: Vec<u32>,
    /// Union-find over the owners: two owners share a root exactly when
    /// their cells are connected.
    pub(super) sets: UnionFind,
    pub(super) rects: Vec<TileRect>,
    /// Cells the searches may still settle for links that only add loops.
    pub(super) loop_budget: usize,
    /// Scratch, kept between tries so that trying an L allocates nothing:
    /// the path's geometry, its stretches outside rooms (index ranges), the
    /// open cells it meets, the cells a drawing opened.
    pub(super) l_shape: PathShape,
    pub(super) stretches: Vec<(usize, usize)>,
    pub(super) meets: Vec<usize>,
    pub(super) drawn: Vec<usize>,
}

impl Ctx {
    /// A map of wall with the floor of `scratch.rects` drawn and listed,
    /// working in the buffers of `scratch` (until [`Ctx::finish`] gives
    /// them back).
    pub(super) fn new(width: u32, height: u32, scratch: &mut Scratch) -> Self {
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
    pub(super) fn finish(self, scratch: &mut Scratch) -> TileMap {
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
    pub(super) fn reserve(&mut self, links: usize) {
        self.sets.reserve(2 * links);
        self.map.corridors.reserve(2 * links);
        self.map.doors.reserve(4 * links);
    }

    /// Cell `i`'s column and row.
    pub(super) fn xy(&self, i: usize) -> [u32; 2] {
        [(i % self.w) as u32, (i / self.w) as u32]
    }

    /// Cell `i`'s kind, without the [`OPEN`] bit.
    pub(super) fn kind(&self, i: usize) -> u8 {
        self.zone[i] & KIND
    }

    /// Whether cell `i` is corridor or door.
    pub(super) fn is_open(&self, i: usize) -> bool {
        self.zone[i] & OPEN != 0
    }

    /// Makes cell `c` a door or corridor (`tile`) owned by `owner`.
    pub(super) fn open(&mut self, c: usize, tile: Tile, owner: u32) {
        self.map.cells[c] = tile;
        self.zone[c] |= OPEN;
        self.owner[c] = owner;
    }

    /// Makes ring cell `c`, at column and row `at`, a door of `room` and
    /// lists it.
    pub(super) fn open_door(&mut self, c: usize, at: [u32; 2], room: u32) {
        self.open(c, Tile::DOOR, room);
        self.map.doors.push(TileDoor {
            cells: TileRect::new(at[0], at[1], 1, 1),
            rooms: [Some(room as usize), None],
        });
    }

    /// Whether one of the four 2 × 2 blocks holding inner cell `c` would be
    /// all corridor and door, counting `extra` cells as open too.
    pub(super) fn forms_block(&self, c: usize, extra: [usize; 3]) -> bool {
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
    pub(super) fn outward(&self, c: usize) -> usize {
        2 * c - self.ring_floor(c)
    }

    pub(super) fn room_of_ring(&self, c: usize) -> usize {
        self.owner[self.ring_floor(c)] as usize
    }

    /// The ring cells of `room` a door may take: not on the border and
    /// opening onto a cell a corridor may use.
    pub(super) fn door_candidates(&self, room: usize) -> Vec<usize> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
