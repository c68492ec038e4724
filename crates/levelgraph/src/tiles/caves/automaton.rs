//! The cellular automaton: the random fill and the iterations of either
//! rule on a padded window, counting blocks with running sums.

use super::window::Window;
use super::CaveRule;
use crate::rng::Rng;

/// The iterations of steps 2 and 3.
#[derive(Clone, Copy, Debug)]
pub(super) struct Steps {
    pub(super) wall_add: u32,
    pub(super) no_wall_add: u32,
}

/// Wall cells of padding around the mask's bounding box: the widest window
/// (5 × 5) reaches two cells from its centre.
pub(super) const PAD: usize = 2;

/// The automaton's grid: the mask's bounding box with [`PAD`] cells of wall
/// on every side, so every window of a masked cell lies on the grid and
/// cells off the map or outside the mask read as wall with no bounds check.
/// Cells are 1 for wall, 0 for floor, so a block's sum is its wall count.
#[derive(Clone, Debug)]
pub(super) struct Automaton {
    /// Columns of the padded grid.
    pub(super) w: usize,
    /// Where the padded grid lies on the caller's.
    pub(super) window: Window,
    /// Masked cells as runs within a row: `(row, first column, one past the
    /// last)`, padded coordinates, row-major.
    pub(super) runs: Vec<(usize, usize, usize)>,
    /// How many cells are masked.
    pub(super) cells: usize,
    /// The current state.
    pub(super) wall: Vec<u8>,
    /// The next state; cells outside the mask stay 1 in both buffers.
    pub(super) next: Vec<u8>,
    /// Per column, the walls in the 3 rows around the current row.
    pub(super) col3: Vec<u8>,
    /// Per column, the walls in the rows of the larger block.
    pub(super) col_big: Vec<u8>,
    /// Per column, the walls in the 3 × 3 block centred there.
    pub(super) r1: Vec<u8>,
    /// Per column, the walls in the larger block (4 × 4 or 5 × 5 without
    /// corners).
    pub(super) r_big: Vec<u8>,
}

// Block counts stay below 26, so bytes never overflow.
pub(super) fn sum2(out: &mut [u8], a: &[u8], b: &[u8]) {
    for ((o, &a), &b) in out.iter_mut().zip(a).zip(b) {
        *o = a + b;
    }
}

pub(super) fn sum3(out: &mut [u8], a: &[u8], b: &[u8], c: &[u8]) {
    for (((o, &a), &b), &c) in out.iter_mut().zip(a).zip(b).zip(c) {
        *o = a + b + c;
    }
}

pub(super) fn sum4(out: &mut [u8], a: &[u8], b: &[u8], c: &[u8], d: &[u8]) {
    for ((((o, &a), &b), &c), &d) in out.iter_mut().zip(a).zip(b).zip(c).zip(d) {
        *o = a + b + c + d;
    }
}

pub(super) fn sum5(out: &mut [u8], a: &[u8], b: &[u8], c: &[u8], d: &[u8], e: &[u8]) {
    for (((((o, &a), &b), &c), &d), &e) in out.iter_mut().zip(a).zip(b).zip(c).zip(d).zip(e) {
        *o = a + b + c + d + e;
    }
}

impl Automaton {
    /// The grid for the `true` cells of `mask` (row-major, `grid_w`
    /// columns); `None` when none is.
    pub(super) fn new(mask: &[bool], grid_w: usize) -> Option<Self> {
        let window = Window::of(mask, grid_w, PAD)?;
        let (w, h) = (window.w, window.h);
        let inside = window.gather(mask);
        let mut runs = Vec::new();
        let mut cells = 0;
        for (y, row) in inside.chunks(w).enumerate() {
            let mut x = 0;
            while x < w {
                if !row[x] {
                    x += 1;
                    continue;
                }
                let start = x;
                while row[x] {
                    x += 1;
                }
                runs.push((y, start, x));
                cells += x - start;
            }
        }
        Some(Automaton {
            w,
            window,
            runs,
            cells,
            wall: vec![1; w * h],
            next: vec![1; w * h],
            col3: vec![0; w],
            col_big: vec![0; w],
            r1: vec![0; w],
            r_big: vec![0; w],
        })
    }

    /// One start: the random fill at `chance`, then both phases.
    pub(super) fn run(&mut self, rule: CaveRule, steps: Steps, chance: f64, rng: &mut Rng) {
        let w = self.w;
        for &(y, a, b) in &self.runs {
            for cell in &mut self.wall[y * w + a..y * w + b] {
                *cell = u8::from(rng.unit() >= chance);
            }
        }
        for _ in 0..steps.wall_add {
            self.step(rule, true);
        }
        for _ in 0..steps.no_wall_add {
            self.step(rule, false);
        }
    }

    /// One synchronous iteration over the masked cells. Block counts come
    /// from running sums: per row, the column sums of the 3 (4, 5) rows
    /// around it, then sums of 3 (4, 5) neighbouring column sums, all
    /// straight-line loops over bytes that the compiler vectorizes.
    pub(super) fn step(&mut self, rule: CaveRule, add_walls: bool) {
        let Automaton {
            w,
            runs,
            wall,
            next,
            col3,
            col_big,
            r1,
            r_big,
            ..
        } = self;
        let w = *w;
        let mut summed_row = usize::MAX;
        for &(y, a, b) in runs.iter() {
            if y != summed_row {
                summed_row = y;
                // Row `y + d - 2`: every masked row has PAD rows above and below.
                let row = |d: usize| &wall[(y + d - 2) * w..(y + d - 1) * w];
                sum3(col3, row(1), row(2), row(3));
                sum3(&mut r1[1..w - 1], col3, &col3[1..], &col3[2..]);
                if add_walls {
                    match rule {
                        CaveRule::Standard => {
                            // Rows y − 1 ..= y + 2, columns x − 1 ..= x + 2.
                            sum2(col_big, col3, row(4));
                            let c = &col_big[..];
                            sum4(&mut r_big[1..w - 2], c, &c[1..], &c[2..], &c[3..]);
                        }
                        CaveRule::RogueBasin => {
                            // Five rows in the middle three columns, three in
                            // the outer two: the 5 × 5 block without corners.
                            sum3(col_big, col3, row(0), row(4));
                            let (c, b) = (&col3[..], &col_big[..]);
                            sum5(&mut r_big[2..w - 2], c, &b[1..], &b[2..], &b[3..], &c[4..]);
                        }
                    }
                }
            }
            let cur = &wall[y * w + a..y * w + b];
            let out = &mut next[y * w + a..y * w + b];
            let (r1, rb) = (&r1[a..b], &r_big[a..b]);
            match (rule, add_walls) {
                // First rule wins: ≥ 5 → wall; 4 × 4 ≤ 2 → wall; ≤ 2 → floor;
                // else (3 or 4) unchanged.
                (CaveRule::Standard, true) => {
                    for (((o, &c), &s), &t) in out.iter_mut().zip(cur).zip(r1).zip(rb) {
                        *o = u8::from(s >= 5) | u8::from(t <= 2) | (u8::from(s >= 3) & c);
                    }
                }
                (CaveRule::Standard, false) => {
                    for ((o, &c), &s) in out.iter_mut().zip(cur).zip(r1) {
                        *o = u8::from(s >= 5) | (u8::from(s >= 3) & c);
                    }
                }
                (CaveRule::RogueBasin, true) => {
                    for ((o, &s), &t) in out.iter_mut().zip(r1).zip(rb) {
                        *o = u8::from(s >= 5) | u8::from(t <= 2);
                    }
                }
                (CaveRule::RogueBasin, false) => {
                    for (o, &s) in out.iter_mut().zip(r1) {
                        *o = u8::from(s >= 5);
                    }
                }
            }
        }
        std::mem::swap(wall, next);
    }

    /// Floor cells among the masked ones.
    pub(super) fn floor_count(&self) -> usize {
        let w = self.w;
        self.runs
            .iter()
            .map(|&(y, a, b)| {
                self.wall[y * w + a..y * w + b]
                    .iter()
                    .filter(|&&c| c == 0)
                    .count()
            })
            .sum()
    }

    /// Writes the masked cells' state into `floor` (the caller's grid);
    /// other cells are left alone.
    pub(super) fn write_floor(&self, floor: &mut [bool]) {
        let w = self.w;
        for &(y, a, b) in &self.runs {
            let to = self.window.global(y * w + a);
            for (f, &c) in floor[to..to + b - a]
                .iter_mut()
                .zip(&self.wall[y * w + a..y * w + b])
            {
                *f = c == 0;
            }
        }
    }
}
