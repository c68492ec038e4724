//! Measures of a tile map, for comparing generators and checking levels:
//! how much is open, how it falls apart, how far one can walk.

use serde::Serialize;

use super::map::TileMap;
use super::regions::{distances_from, neighbours, Regions};

/// The most breadth-first searches [`Metrics::of`] spends on the longest
/// shortest path before it settles for its lower bound.
pub const DIAMETER_SEARCH_LIMIT: usize = 256;

/// The measures of one map. Passable means every tile but a wall; steps
/// are 4-neighbour moves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Passable cells / all cells, in `[0, 1]`.
    pub floor_ratio: f64,
    /// 4-connected regions of passable cells.
    pub regions: usize,
    /// Passable cells with exactly one passable 4-neighbour.
    pub dead_ends: usize,
    /// Rooms the map lists.
    pub rooms: usize,
    /// Corridors the map lists.
    pub corridors: usize,
    /// The longest shortest path in steps between two passable cells of the
    /// same region (the largest region diameter).
    pub longest_path: u32,
    /// Whether `longest_path` is exact; `false` when
    /// [`DIAMETER_SEARCH_LIMIT`] searches did not settle it and it is the
    /// best lower bound found.
    pub longest_path_exact: bool,
    /// Steps from the first room tagged `entrance` to the first tagged
    /// `goal` (from a passable cell nearest each room's centre); `None`
    /// when the map has no such pair or no path joins them.
    pub entrance_to_goal: Option<u32>,
}

impl Metrics {
    /// Measures `map`: O(cells) plus up to [`DIAMETER_SEARCH_LIMIT`]
    /// breadth-first searches per region for the longest path.
    pub fn of(map: &TileMap) -> Self {
        let cells = map.cells.len().max(1);
        let (w, h) = (map.width as usize, map.height as usize);
        let open = map.cells.iter().filter(|t| t.is_passable()).count();
        let dead_ends = (0..map.cells.len())
            .filter(|&i| {
                map.cells[i].is_passable()
                    && neighbours(i, w, h)
                        .filter(|&j| map.cells[j].is_passable())
                        .count()
                        == 1
            })
            .count();
        let regions = Regions::of(map);
        let mut longest_path = 0;
        let mut longest_path_exact = true;
        // Regions are numbered in row-major order of their first cell, so
        // one pass finds each region's first cell.
        let mut next = 0;
        for (i, &l) in regions.label.iter().enumerate() {
            if l == next {
                next += 1;
                let (d, exact) = diameter(map, i);
                longest_path = longest_path.max(d);
                longest_path_exact &= exact;
            }
        }
        Metrics {
            width: map.width,
            height: map.height,
            floor_ratio: open as f64 / cells as f64,
            regions: regions.count(),
            dead_ends,
            rooms: map.rooms.len(),
            corridors: map.corridors.len(),
            longest_path,
            longest_path_exact,
            entrance_to_goal: route_between_tags(map, "entrance", "goal"),
        }
    }
}

/// Steps between the first room tagged `from` and the first tagged `to`,
/// each entered at the passable cell of its bounds nearest its centre.
pub fn route_between_tags(map: &TileMap, from: &str, to: &str) -> Option<u32> {
    let cell_of = |tag: &str| {
        let room = map.rooms.iter().find(|r| r.tag == tag)?;
        let b = room.bounds;
        let [cx, cy] = b.center();
        (b.y..b.bottom())
            .flat_map(|y| (b.x..b.right()).map(move |x| (x, y)))
            .filter(|&(x, y)| map.cells[map.index(x, y)].is_passable())
            .min_by_key(|&(x, y)| (x.abs_diff(cx) + y.abs_diff(cy), y, x))
            .map(|(x, y)| map.index(x, y))
    };
    let (a, b) = (cell_of(from)?, cell_of(to)?);
    let d = distances_from(map, a)[b];
    (d != u32::MAX).then_some(d)
}

/// The diameter of the region holding `start`, by iFUB (Crescenzi et al.,
/// "On computing the diameter of real-world undirected graphs", 2013):
/// a double sweep picks a central cell `u`; cells are taken by falling
/// distance from `u`, and once the best eccentricity found exceeds twice
/// the current level no farther pair can exist. Returns the diameter and
/// whether it is exact (within [`DIAMETER_SEARCH_LIMIT`] searches).
fn diameter(map: &TileMap, start: usize) -> (u32, bool) {
    let farthest = |dist: &[u32]| {
        let mut best = (0, start);
        for (i, &d) in dist.iter().enumerate() {
            if d != u32::MAX && d > best.0 {
                best = (d, i);
            }
        }
        best
    };
    let d0 = distances_from(map, start);
    let (_, a) = farthest(&d0);
    let da = distances_from(map, a);
    let (ecc_a, b) = farthest(&da);
    // The middle of the a–b path: walk back from b toward a.
    let db = distances_from(map, b);
    let mut searches = 3;
    let u = (0..da.len())
        .filter(|&i| da[i] != u32::MAX && da[i] + db[i] == ecc_a)
        .min_by_key(|&i| (da[i].abs_diff(db[i]), i))
        .unwrap_or(start);
    let du = distances_from(map, u);
    searches += 1;
    let (ecc_u, _) = farthest(&du);
    let mut lower = ecc_a.max(ecc_u);
    let mut by_level: Vec<Vec<usize>> = vec![Vec::new(); ecc_u as usize + 1];
    for (i, &d) in du.iter().enumerate() {
        if d != u32::MAX {
            by_level[d as usize].push(i);
        }
    }
    // Before level `i` is searched, every pair with an end farther than `i`
    // from `u` is covered, and the rest are at most `2 i` apart.
    for level in (1..=ecc_u).rev() {
        if lower >= 2 * level {
            return (lower, true);
        }
        for &v in &by_level[level as usize] {
            if searches >= DIAMETER_SEARCH_LIMIT {
                return (lower, false);
            }
            let (ecc_v, _) = farthest(&distances_from(map, v));
            searches += 1;
            lower = lower.max(ecc_v);
        }
    }
    (lower, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::map::{Tile, TileRect, TileRoom};

    fn map_of(rows: &[&str]) -> TileMap {
        let mut map = TileMap::filled(rows[0].len() as u32, rows.len() as u32, Tile::WALL);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.bytes().enumerate() {
                if c != b'#' {
                    map.set(x as u32, y as u32, Tile::FLOOR);
                }
            }
        }
        map
    }

    #[test]
    fn counts_on_a_hand_made_map() {
        let map = map_of(&["#....#", "#.##.#", "#.##..", "#....#", "######"]);
        let m = Metrics::of(&map);
        assert_eq!(m.regions, 1);
        assert_eq!(m.dead_ends, 1);
        assert_eq!(m.floor_ratio, 13.0 / 30.0);
        // The loop of 12 cells: opposite cells are 6 apart; the spur adds 1.
        assert_eq!(m.longest_path, 7);
        assert!(m.longest_path_exact);
    }

    #[test]
    fn longest_path_matches_all_pairs_on_small_maps() {
        let maps = [
            map_of(&["....", ".##.", "....", "#..#"]),
            map_of(&[".#...", ".#.#.", ".#.#.", "...#."]),
            map_of(&["..#..", "..#..", "#####", "....."]),
        ];
        for map in &maps {
            let mut all_pairs = 0;
            for i in 0..map.cells.len() {
                for d in distances_from(map, i) {
                    if d != u32::MAX {
                        all_pairs = all_pairs.max(d);
                    }
                }
            }
            assert_eq!(Metrics::of(map).longest_path, all_pairs);
        }
    }

    #[test]
    fn entrance_to_goal_walks_between_tagged_rooms() {
        let mut map = map_of(&["...#...", ".......", "...#..."]);
        map.rooms
            .push(TileRoom::rect("e", "entrance", TileRect::new(0, 0, 3, 3)));
        map.rooms
            .push(TileRoom::rect("g", "goal", TileRect::new(4, 0, 3, 3)));
        assert_eq!(Metrics::of(&map).entrance_to_goal, Some(4));
        map.set(3, 1, Tile::WALL);
        assert_eq!(Metrics::of(&map).entrance_to_goal, None);
    }
}
