//! Connected regions and walking distances over a tile map's passable
//! cells, 4-connected (a step goes up, down, left or right; never
//! diagonally, so two floor cells touching at a corner are not joined).

use super::map::TileMap;

/// The passable regions of a map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regions {
    /// Per cell (row-major), the region index, or [`Regions::NONE`] for a
    /// wall.
    pub label: Vec<u32>,
    /// Cells per region; regions are numbered in row-major order of their
    /// first cell.
    pub sizes: Vec<u32>,
}

impl Regions {
    /// The label of a wall cell.
    pub const NONE: u32 = u32::MAX;

    /// Labels every passable cell of `map` with its region (breadth-first
    /// flood fill, O(width × height)).
    pub fn of(map: &TileMap) -> Self {
        Self::of_cells(map.width, map.height, |i| map.cells[i].is_passable())
    }

    /// Labels the cells for which `open(index)` holds, on a
    /// `width × height` grid; for generators that keep their own grid.
    pub fn of_cells(width: u32, height: u32, open: impl Fn(usize) -> bool) -> Self {
        let (w, h) = (width as usize, height as usize);
        let mut label = vec![Self::NONE; w * h];
        let mut sizes = Vec::new();
        let mut queue = Vec::new();
        for start in 0..w * h {
            if label[start] != Self::NONE || !open(start) {
                continue;
            }
            let id = sizes.len() as u32;
            label[start] = id;
            queue.clear();
            queue.push(start);
            let mut head = 0;
            while head < queue.len() {
                let i = queue[head];
                head += 1;
                for j in neighbours(i, w, h) {
                    if label[j] == Self::NONE && open(j) {
                        label[j] = id;
                        queue.push(j);
                    }
                }
            }
            sizes.push(queue.len() as u32);
        }
        Regions { label, sizes }
    }

    /// How many regions there are.
    pub fn count(&self) -> usize {
        self.sizes.len()
    }

    /// The largest region (the first of equal ones), `None` if there is no
    /// passable cell.
    pub fn largest(&self) -> Option<u32> {
        // max_by_key keeps the last of equal maxima; reversing keeps the first.
        (0..self.sizes.len() as u32)
            .rev()
            .max_by_key(|&r| self.sizes[r as usize])
    }
}

/// The up to four 4-neighbours of cell index `i` on a `w × h` grid.
#[inline]
pub(crate) fn neighbours(i: usize, w: usize, h: usize) -> impl Iterator<Item = usize> {
    let (x, y) = (i % w, i / w);
    let up = (y > 0).then(|| i - w);
    let down = (y + 1 < h).then(|| i + w);
    let left = (x > 0).then(|| i - 1);
    let right = (x + 1 < w).then(|| i + 1);
    [up, down, left, right].into_iter().flatten()
}

/// Walking distances (steps) from `start` to every passable cell of `map`,
/// `u32::MAX` where unreachable (and at walls). Breadth-first, O(cells).
pub fn distances_from(map: &TileMap, start: usize) -> Vec<u32> {
    let (w, h) = (map.width as usize, map.height as usize);
    let mut dist = vec![u32::MAX; w * h];
    if start >= w * h || !map.cells[start].is_passable() {
        return dist;
    }
    dist[start] = 0;
    let mut queue = vec![start];
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head];
        head += 1;
        for j in neighbours(i, w, h) {
            if dist[j] == u32::MAX && map.cells[j].is_passable() {
                dist[j] = dist[i] + 1;
                queue.push(j);
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::map::Tile;

    fn map_of(rows: &[&str]) -> TileMap {
        let mut map = TileMap::filled(rows[0].len() as u32, rows.len() as u32, Tile::WALL);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.bytes().enumerate() {
                if c == b'.' {
                    map.set(x as u32, y as u32, Tile::FLOOR);
                }
            }
        }
        map
    }

    #[test]
    fn diagonal_cells_are_separate_regions() {
        let map = map_of(&["..#.", "#.#.", "##.#"]);
        let r = Regions::of(&map);
        assert_eq!(r.sizes, vec![3, 2, 1]);
        assert_eq!(r.largest(), Some(0));
        assert_eq!(r.label[2], Regions::NONE);
        assert_eq!(r.label[10], 2);
    }

    #[test]
    fn distances_walk_around_walls() {
        let map = map_of(&["...", "##.", "...", ".##"]);
        let d = distances_from(&map, 0);
        assert_eq!(d[9], 7);
        assert_eq!(d[3], u32::MAX);
        assert_eq!(distances_from(&map, 3), vec![u32::MAX; 12]);
    }
}
