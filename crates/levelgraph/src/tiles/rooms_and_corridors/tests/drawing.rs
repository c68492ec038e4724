//! Links drawn on small hand-built maps: Ls cut to their doors, crossing
//! rooms, refused beside other corridors, searched routes and the limit.

use super::check_map;
use crate::rng::Rng;
use crate::tiles::map::{Tile, TileRect};
use crate::tiles::rooms_and_corridors::ctx::{Ctx, Scratch};
use crate::tiles::rooms_and_corridors::search::End;
use crate::tiles::rooms_and_corridors::RoomsParams;
use crate::tiles::TilesError;

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
