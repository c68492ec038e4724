//! The ordered partition of the search, in nauty's arrays: the vertices in
//! cell order (`lab`), each vertex's place (`pos`), and cells as ranges of
//! places, each cell named by its first place (McKay & Piperno 2014,
//! section 3; bliss names cells the same way).
//!
//! Each cell boundary remembers the search level that made it, so going
//! back up the tree is forgetting the boundaries of deeper levels (nauty's
//! `ptn` levels) rather than keeping a copy of the partition per level.
//! Cells going back up have the same vertices but may list them in
//! another order; nothing the search computes depends on the order inside
//! a cell.

/// A place that starts no cell.
const NO_CELL: u32 = u32::MAX;

/// An ordered partition of `0..n`.
#[derive(Clone, Debug)]
pub(crate) struct Partition {
    /// Place → vertex.
    pub(crate) lab: Vec<u32>,
    /// Vertex → place.
    pub(crate) pos: Vec<u32>,
    /// Vertex → the first place of its cell.
    pub(crate) cell_of: Vec<u32>,
    /// First place of a cell → its size (meaningless at other places).
    pub(crate) len: Vec<u32>,
    /// Place → the level whose refinement started a cell there, or
    /// [`NO_CELL`].
    level: Vec<u32>,
    /// How many cells there are.
    pub(crate) cells: usize,
}

impl Partition {
    /// The partition by colour at level 0: vertices sorted by colour, then
    /// by number (the order inside a cell is arbitrary), one cell per
    /// colour, smaller colours first.
    pub(crate) fn by_colour(colours: &[u32]) -> Self {
        let n = colours.len();
        let mut lab: Vec<u32> = (0..n as u32).collect();
        lab.sort_unstable_by_key(|&v| (colours[v as usize], v));
        let mut p = Partition {
            lab,
            pos: vec![0; n],
            cell_of: vec![0; n],
            len: vec![0; n],
            level: vec![NO_CELL; n],
            cells: 0,
        };
        for i in 0..n {
            let v = p.lab[i] as usize;
            p.pos[v] = i as u32;
            if i == 0 || colours[p.lab[i - 1] as usize] != colours[v] {
                p.level[i] = 0;
            }
        }
        p.rebuild();
        p
    }

    pub(crate) fn is_discrete(&self) -> bool {
        self.cells == self.lab.len()
    }

    /// The vertices of the cell starting at `start`.
    pub(crate) fn cell(&self, start: u32) -> &[u32] {
        let s = start as usize;
        &self.lab[s..s + self.len[s] as usize]
    }

    /// The first places of the cells, in order.
    pub(crate) fn cell_starts(&self) -> impl Iterator<Item = u32> + '_ {
        let n = self.lab.len();
        let mut at = 0;
        std::iter::from_fn(move || {
            (at < n).then(|| {
                let start = at;
                at += self.len[at] as usize;
                start as u32
            })
        })
    }

    /// Splits off `[at, at + size)`, the tail of the cell it lies in, as a
    /// cell made at `level`. The caller has put the right vertices there.
    pub(crate) fn split_at(&mut self, cell: u32, at: u32, level: u32) {
        let (cell, at_u) = (cell as usize, at as usize);
        let end = cell + self.len[cell] as usize;
        debug_assert!(cell < at_u && at_u < end);
        self.len[cell] = at - cell as u32;
        self.len[at_u] = (end - at_u) as u32;
        self.level[at_u] = level;
        for &v in &self.lab[at_u..end] {
            self.cell_of[v as usize] = at;
        }
        self.cells += 1;
    }

    /// Puts `v` first in its cell and makes it a cell of its own at
    /// `level`; returns its place (the singleton's name). `v`'s cell must
    /// have two vertices or more.
    pub(crate) fn individualise(&mut self, v: u32, level: u32) -> u32 {
        let start = self.cell_of[v as usize];
        self.swap(self.pos[v as usize], start);
        self.split_at(start, start + 1, level);
        start
    }

    /// Exchanges the vertices at places `a` and `b` (of one cell).
    pub(crate) fn swap(&mut self, a: u32, b: u32) {
        let (x, y) = (self.lab[a as usize], self.lab[b as usize]);
        self.lab[a as usize] = y;
        self.lab[b as usize] = x;
        self.pos[y as usize] = a;
        self.pos[x as usize] = b;
    }

    /// Back to the cells as they were when level `level`'s refinement had
    /// ended: the boundaries of deeper levels are forgotten. O(n).
    pub(crate) fn restore(&mut self, level: u32) {
        for l in &mut self.level {
            if *l != NO_CELL && *l > level {
                *l = NO_CELL;
            }
        }
        self.rebuild();
    }

    /// `cell_of`, `len` and `cells` from `level`.
    fn rebuild(&mut self) {
        let n = self.lab.len();
        self.cells = 0;
        if n == 0 {
            return;
        }
        let mut start = 0;
        for i in 0..=n {
            if i == n || (i > 0 && self.level[i] != NO_CELL) {
                self.len[start] = (i - start) as u32;
                self.cells += 1;
                if i == n {
                    break;
                }
                start = i;
            }
            self.cell_of[self.lab[i] as usize] = start as u32;
        }
    }

    /// The cell the search branches on: the first cell of two vertices
    /// or more (McKay 1981's first choice), looked for from place `from`
    /// on (every cell before it must be a singleton: the parent's target
    /// is such a place, so a path down the tree scans each place once).
    /// `None` for a discrete partition.
    pub(crate) fn target_cell(&self, from: u32) -> Option<u32> {
        let n = self.lab.len();
        let mut at = from as usize;
        while at < n {
            let size = self.len[at] as usize;
            if size > 1 {
                return Some(at as u32);
            }
            at += size;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_follow_colours_and_come_back_on_restore() {
        let mut p = Partition::by_colour(&[3, 1, 3, 1, 2]);
        let cells: Vec<Vec<u32>> = p.cell_starts().map(|s| p.cell(s).to_vec()).collect();
        assert_eq!(cells, vec![vec![1, 3], vec![4], vec![0, 2]]);
        assert_eq!(p.target_cell(0), Some(0));
        let at = p.individualise(3, 1);
        assert_eq!((at, p.cells, p.cell(0)), (0, 4, &[3][..]));
        p.individualise(2, 2);
        assert!(p.is_discrete());
        p.restore(1);
        assert_eq!(p.cells, 4);
        p.restore(0);
        assert_eq!(p.cells, 3);
        let mut sets: Vec<Vec<u32>> = p
            .cell_starts()
            .map(|s| {
                let mut c = p.cell(s).to_vec();
                c.sort_unstable();
                c
            })
            .collect();
        sets.sort();
        assert_eq!(sets, vec![vec![0, 2], vec![1, 3], vec![4]]);
        let empty = Partition::by_colour(&[]);
        assert!(empty.is_discrete() && empty.target_cell(0).is_none());
    }
}
