//! The working grid of the automaton and the joining: a mask's bounding
//! box with closed cells around it.

/// The bounding box of a mask's cells on a `grid_w`-column grid, grown by
/// `pad` closed cells on every side: the working grid of
/// [`Automaton`](super::automaton::Automaton) and
/// [`join_regions`](super::join_regions), where neighbours need no bounds
/// checks.
#[derive(Clone, Copy, Debug)]
pub(super) struct Window {
    /// Columns of the window.
    pub(super) w: usize,
    /// Rows of the window.
    pub(super) h: usize,
    /// Columns of the caller's grid.
    pub(super) grid_w: usize,
    /// The caller's column and row of window cell `(pad, pad)`.
    pub(super) x0: usize,
    pub(super) y0: usize,
    /// Closed cells on every side.
    pub(super) pad: usize,
}

impl Window {
    /// The window of the `true` cells of `mask` (row-major, `grid_w`
    /// columns); `None` when none is or the grid has no columns.
    pub(super) fn of(mask: &[bool], grid_w: usize, pad: usize) -> Option<Self> {
        if grid_w == 0 {
            return None;
        }
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for (y, row) in mask.chunks(grid_w).enumerate() {
            if let (Some(a), Some(b)) = (row.iter().position(|&m| m), row.iter().rposition(|&m| m))
            {
                (x0, x1) = (x0.min(a), x1.max(b));
                (y0, y1) = (y0.min(y), y1.max(y));
            }
        }
        (x0 != usize::MAX).then(|| Window {
            w: x1 - x0 + 1 + 2 * pad,
            h: y1 - y0 + 1 + 2 * pad,
            grid_w,
            x0,
            y0,
            pad,
        })
    }

    /// The window index of caller's cell `i` (inside the box).
    pub(super) fn local(&self, i: usize) -> usize {
        let (x, y) = (i % self.grid_w, i / self.grid_w);
        (y + self.pad - self.y0) * self.w + x + self.pad - self.x0
    }

    /// The caller's index of window cell `i` (not on the padding).
    pub(super) fn global(&self, i: usize) -> usize {
        let (x, y) = (i % self.w, i / self.w);
        (y + self.y0 - self.pad) * self.grid_w + x + self.x0 - self.pad
    }

    /// The caller's cells copied into the window, the padding `false`.
    pub(super) fn gather(&self, cells: &[bool]) -> Vec<bool> {
        let mut out = vec![false; self.w * self.h];
        let inner = self.w - 2 * self.pad;
        for y in self.pad..self.h - self.pad {
            let from = (y + self.y0 - self.pad) * self.grid_w + self.x0;
            let to = y * self.w + self.pad;
            let end = (from + inner).min(cells.len());
            if from < end {
                out[to..to + end - from].copy_from_slice(&cells[from..end]);
            }
        }
        out
    }
}
