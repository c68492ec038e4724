//! Step 1: rooms of random size and place, each kept [`ROOM_GAP`] from
//! the others, tested eight placed rooms at a time.

use super::params::{RoomsParams, MAX_SIDE};
use crate::rng::Rng;
use crate::tiles::TileRect;

/// Wall cells kept between the floors of two rooms, along x or along y: the
/// room's wall ring, one cell for a corridor to pass, the other room's
/// ring. With less, a corridor between the two would graze one of them.
pub const ROOM_GAP: u32 = 3;

/// [`place_rooms_in`] with a work buffer of its own.
#[cfg(test)]
pub(super) fn place_rooms(params: &RoomsParams, rng: &mut Rng, rects: &mut Vec<TileRect>) {
    place_rooms_in(params, rng, rects, &mut Vec::new());
}

/// Step 1: each room draws a size and a position up to
/// `placement_tries` times and takes the first that keeps [`ROOM_GAP`] from
/// every room placed and one wall cell from the map's edge. Writes the
/// rooms to `rects`; `placed` is a work buffer.
pub(super) fn place_rooms_in(
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
pub(super) struct EightRooms {
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
pub(super) fn apart(a: &TileRect, b: &TileRect) -> bool {
    (a.x >= b.right() + ROOM_GAP)
        | (b.x >= a.right() + ROOM_GAP)
        | (a.y >= b.bottom() + ROOM_GAP)
        | (b.y >= a.bottom() + ROOM_GAP)
}

#[cfg(test)]
mod tests {
    use super::*;

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
