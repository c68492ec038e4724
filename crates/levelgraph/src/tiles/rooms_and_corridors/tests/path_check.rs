//! The path check with its batched reads against the cell-by-cell check it
//! replaced, over random Ls and Zs on maps filling up with corridors.

use crate::rng::Rng;
use crate::tiles::map::Tile;
use crate::tiles::rooms_and_corridors::corridors::random_cell;
use crate::tiles::rooms_and_corridors::ctx::{Ctx, Scratch, FLOOR, FREE, KIND, OPEN, RING};
use crate::tiles::rooms_and_corridors::placement::place_rooms;
use crate::tiles::rooms_and_corridors::RoomsParams;

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
