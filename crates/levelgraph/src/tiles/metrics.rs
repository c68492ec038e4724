//! Measures of a tile map, for comparing generators and checking levels:
//! how much is open, how it falls apart, how far one can walk.

use serde::Serialize;

use super::map::TileMap;
use super::regions::{distances_from, neighbours, Regions};

/// The most breadth-first searches [`Metrics::of`] spends on the longest
/// shortest path before it settles for its lower bound.
pub const DIAMETER_SEARCH_LIMIT: usize = 256;

/// The most cells all of [`Metrics::of`]'s breadth-first searches for the
/// longest path may visit together, over all regions, before it settles
/// for its lower bound: 256 searches of a region of millions of cells
/// took half a minute (a 4096 × 4096 accretion map).
pub const DIAMETER_CELL_BUDGET: usize = 1 << 25;

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
    /// [`DIAMETER_SEARCH_LIMIT`] searches of a region, or the cells
    /// [`DIAMETER_CELL_BUDGET`] allows all of them, did not settle it and
    /// it is the best lower bound found.
    pub longest_path_exact: bool,
    /// Steps from the first room tagged `entrance` to the first tagged
    /// `goal` (from a passable cell nearest each room's centre); `None`
    /// when the map has no such pair or no path joins them.
    pub entrance_to_goal: Option<u32>,
}

impl Metrics {
    /// Measures `map`: O(cells) plus up to [`DIAMETER_SEARCH_LIMIT`]
    /// breadth-first searches per region for the longest path, visiting
    /// about [`DIAMETER_CELL_BUDGET`] cells in all beyond each region's
    /// double sweep (four searches), which always runs.
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
        let mut bfs = Bfs::new(map);
        let mut budget = Budget {
            cells_left: DIAMETER_CELL_BUDGET,
        };
        for (i, &l) in regions.label.iter().enumerate() {
            if l == next {
                next += 1;
                let size = regions.sizes[l as usize] as usize;
                let (d, exact) = diameter(map, i, size, &mut bfs, &mut budget);
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

/// A breadth-first search that keeps its buffers between runs and
/// clears only the cells its last run reached, so a search costs the size
/// of the region it walks, not of the map.
struct Bfs {
    dist: Vec<u32>,
    /// The cells the last run reached, in the order it reached them.
    queue: Vec<usize>,
}

impl Bfs {
    fn new(map: &TileMap) -> Self {
        Bfs {
            dist: vec![u32::MAX; map.cells.len()],
            queue: Vec::new(),
        }
    }

    /// Distances from `start` (a passable cell) to its region, in
    /// `self.dist`; `u32::MAX` elsewhere.
    fn run(&mut self, map: &TileMap, start: usize) {
        let (w, h) = (map.width as usize, map.height as usize);
        for &i in &self.queue {
            self.dist[i] = u32::MAX;
        }
        self.queue.clear();
        self.dist[start] = 0;
        self.queue.push(start);
        let mut head = 0;
        while head < self.queue.len() {
            let i = self.queue[head];
            head += 1;
            for j in neighbours(i, w, h) {
                if self.dist[j] == u32::MAX && map.cells[j].is_passable() {
                    self.dist[j] = self.dist[i] + 1;
                    self.queue.push(j);
                }
            }
        }
    }

    /// The largest distance of the last run and the first cell (by index)
    /// at it.
    fn farthest(&self) -> (u32, usize) {
        let mut best = (0, usize::MAX);
        for &i in &self.queue {
            let d = self.dist[i];
            if d > best.0 || (d == best.0 && i < best.1) {
                best = (d, i);
            }
        }
        best
    }
}

/// What the longest-path searches of one [`Metrics::of`] may still spend:
/// cells visited, over all regions.
struct Budget {
    cells_left: usize,
}

impl Budget {
    /// Takes searches over `cells` cells in all; `false` (taking nothing)
    /// when the budget is spent. The last searches allowed may overrun it.
    fn take(&mut self, cells: usize) -> bool {
        if self.cells_left == 0 {
            return false;
        }
        self.spend(cells);
        true
    }

    /// Counts searches over `cells` cells that are made whatever is left.
    fn spend(&mut self, cells: usize) {
        self.cells_left = self.cells_left.saturating_sub(cells);
    }
}

/// The diameter of the region holding `start`, by iFUB (Crescenzi et al.,
/// "On computing the diameter of real-world undirected graphs", 2013):
/// a double sweep picks a central cell `u`; cells are taken by falling
/// distance from `u`, and once the best eccentricity found exceeds twice
/// the current level no farther pair can exist. Returns the diameter and
/// whether it is exact (within [`DIAMETER_SEARCH_LIMIT`] searches and the
/// cells [`DIAMETER_CELL_BUDGET`] leaves; the searches that overrun it
/// are made). The double sweep's four searches are made even when the
/// budget is spent, so every region, the largest too, gets a lower bound
/// from them: O(size) each, O(cells) over all regions.
fn diameter(
    map: &TileMap,
    start: usize,
    size: usize,
    bfs: &mut Bfs,
    budget: &mut Budget,
) -> (u32, bool) {
    if size <= 1 {
        return (0, true);
    }
    budget.spend(4 * size);
    bfs.run(map, start);
    let (_, a) = bfs.farthest();
    bfs.run(map, a);
    let (ecc_a, b) = bfs.farthest();
    let da: Vec<(usize, u32)> = bfs.queue.iter().map(|&i| (i, bfs.dist[i])).collect();
    // The middle of the a–b path: walk back from b toward a.
    bfs.run(map, b);
    let mut searches = 3;
    let u = da
        .iter()
        .filter(|&&(i, d)| d + bfs.dist[i] == ecc_a)
        .min_by_key(|&&(i, d)| (d.abs_diff(bfs.dist[i]), i))
        .map_or(start, |&(i, _)| i);
    drop(da);
    bfs.run(map, u);
    searches += 1;
    let (ecc_u, _) = bfs.farthest();
    let mut lower = ecc_a.max(ecc_u);
    let mut by_level: Vec<Vec<usize>> = vec![Vec::new(); ecc_u as usize + 1];
    for &i in &bfs.queue {
        by_level[bfs.dist[i] as usize].push(i);
    }
    // Before level `i` is searched, every pair with an end farther than `i`
    // from `u` is covered, and the rest are at most `2 i` apart.
    for level in (1..=ecc_u).rev() {
        if lower >= 2 * level {
            return (lower, true);
        }
        let cells = &mut by_level[level as usize];
        // In index order, as a scan of the map would list them.
        cells.sort_unstable();
        for &v in cells.iter() {
            if searches >= DIAMETER_SEARCH_LIMIT || !budget.take(size) {
                return (lower, false);
            }
            bfs.run(map, v);
            let (ecc_v, _) = bfs.farthest();
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

    /// Each region's searches cost its own cells: a map of 65,536
    /// two-cell regions used to run four searches over the whole map per
    /// region (10^11 cell visits, no end in sight).
    #[test]
    fn many_small_regions_cost_their_own_cells() {
        let (w, h) = (1024u32, 256u32);
        let mut map = TileMap::filled(w, h, Tile::WALL);
        for y in (0..h).step_by(2) {
            for x in (0..w).step_by(4) {
                map.set(x, y, Tile::FLOOR);
                map.set(x + 1, y, Tile::FLOOR);
            }
        }
        let m = Metrics::of(&map);
        assert_eq!(m.regions, 256 * 128);
        assert_eq!((m.longest_path, m.longest_path_exact), (1, true));
    }

    /// The cell budget stops the searches and says so; what it returns is
    /// a lower bound.
    #[test]
    fn the_cell_budget_bounds_the_search() {
        let map = map_of(&[".#...", ".#.#.", ".#.#.", "...#."]);
        let regions = Regions::of(&map);
        let size = regions.sizes[0] as usize;
        let mut bfs = Bfs::new(&map);
        let mut plenty = Budget {
            cells_left: DIAMETER_CELL_BUDGET,
        };
        assert_eq!(diameter(&map, 0, size, &mut bfs, &mut plenty), (13, true));
        // Nothing or one cell left (an earlier region spent the rest): the
        // double sweep still runs, so the bound is the sweep's, not 0, and
        // it is called exact only when the sweep alone settles it.
        for left in [0, 1] {
            let mut spent = Budget { cells_left: left };
            let (d, exact) = diameter(&map, 0, size, &mut bfs, &mut spent);
            assert!((1..=13).contains(&d) && (!exact || d == 13), "{d} {exact}");
            assert_eq!(spent.cells_left, 0);
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
