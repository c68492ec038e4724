//! Connectivity: joining every region to the largest with the fewest
//! carved cells ([`join_regions`]), or keeping the largest region only.

use super::window::Window;
use crate::tiles::TilesError;

/// Joins the floor of a `width × height` grid into one 4-connected region
/// by carving floor inside `mask` only: afterwards every floor cell and
/// every `must_join` cell (row-major indices, e.g. the cells just inside a
/// room's doors; they are made floor) are one region. Nothing changes when
/// they already are.
///
/// The region with the most cells (the first of equal ones) is the root.
/// One 0-1 breadth-first search from the root through the mask, where
/// entering a floor cell is free and a wall cell costs one, finds for every
/// region the tunnel that carves the fewest wall cells to reach the root
/// (crossing other regions on the way for free); the tunnels are carved
/// along the search's tree, so tunnels to neighbouring regions share their
/// cells. Tunnels are one cell wide and 4-connected. O(cells).
///
/// # Errors
///
/// [`TilesError::Parameter`], and `floor` unchanged, when
/// - `mask` or `floor` does not have `width × height` cells (`mask`,
///   `floor`);
/// - a `must_join` cell is off the grid or outside the mask (`must_join`);
/// - a floor cell lies outside the mask (`floor`);
/// - some floor or `must_join` cell lies in a part of the mask that is not
///   4-connected to the root's, so no tunnel inside the mask can join it
///   (`mask`).
pub fn join_regions(
    floor: &mut [bool],
    mask: &[bool],
    width: u32,
    height: u32,
    must_join: &[usize],
) -> Result<(), TilesError> {
    let (w, h) = (width as usize, height as usize);
    let n = w
        .checked_mul(h)
        .ok_or_else(|| TilesError::parameter("width", "width × height overflows"))?;
    for (field, len) in [("mask", mask.len()), ("floor", floor.len())] {
        if len != n {
            return Err(TilesError::parameter(
                field,
                format!("has {len} cells; a {width}×{height} grid has {n}"),
            ));
        }
    }
    let at = |i: usize| format!("({}, {})", i % w, i / w);
    for &i in must_join {
        if i >= n {
            return Err(TilesError::parameter(
                "must_join",
                format!("cell index {i} is off the {width}×{height} grid"),
            ));
        }
        if !mask[i] {
            return Err(TilesError::parameter(
                "must_join",
                format!("cell {} lies outside the mask", at(i)),
            ));
        }
    }
    if let Some(i) = (0..n).find(|&i| floor[i] && !mask[i]) {
        return Err(TilesError::parameter(
            "floor",
            format!("cell {} is floor outside the mask", at(i)),
        ));
    }
    // With no mask cell there is no floor and no must_join cell either.
    let Some(window) = Window::of(mask, w, 1) else {
        return Ok(());
    };
    let inside = window.gather(mask);
    let mut open = window.gather(floor);
    for &i in must_join {
        open[window.local(i)] = true;
    }
    let regions = LocalRegions::of(&open, window.w);
    let Some(root) = regions.largest() else {
        return Ok(());
    };
    let mut tunnels = Vec::new();
    if regions.sizes.len() > 1 {
        let (parent, entry) = tunnel_tree(&open, &inside, window.w, &regions, root);
        if let Some(r) = entry.iter().position(|&e| e == NO_CELL) {
            return Err(TilesError::parameter(
                "mask",
                format!(
                    "cell {} lies in a part of the mask not 4-connected to the largest \
                     floor region at {}: no tunnel inside the mask can join them",
                    at(window.global(regions.first[r])),
                    at(window.global(regions.first[root as usize]))
                ),
            ));
        }
        // Every cell already walked has its whole path to the root carved,
        // so a walk stops at the first one; each cell is walked once.
        let mut walked = vec![false; open.len()];
        for &start in &entry {
            let mut i = start;
            while i != NO_CELL && !walked[i as usize] {
                walked[i as usize] = true;
                if !open[i as usize] {
                    tunnels.push(window.global(i as usize));
                }
                i = parent[i as usize];
            }
        }
    }
    for &i in must_join.iter().chain(&tunnels) {
        floor[i] = true;
    }
    Ok(())
}

/// No cell: the parent of a search's sources.
const NO_CELL: u32 = u32::MAX;

/// The tunnels of [`join_regions`]: a 0-1 breadth-first search from the
/// root region through the cells of `inside`, where entering an `open` cell
/// is free and any other costs one, so every cell is reached along a path
/// from the root with the fewest closed cells. Returns each cell's parent
/// on that path ([`NO_CELL`] for the root's cells and cells not reached)
/// and, per region, the first cell reached (the root's first cell for the
/// root, [`NO_CELL`] for regions no path reaches).
///
/// Costs are settled level by level (Dial's buckets with two levels): open
/// cells reached at cost `c` join the current level, closed ones the next.
/// A cell's first cost is final, since every level below has been spent,
/// so a cell is visited once; the search stops when every region is
/// reached.
fn tunnel_tree(
    open: &[bool],
    inside: &[bool],
    w: usize,
    regions: &LocalRegions,
    root: u32,
) -> (Vec<u32>, Vec<u32>) {
    const SEEN: u8 = 0;
    const CLOSED: u8 = 1;
    // One byte per cell, so a neighbour costs one load: SEEN also stands
    // for cells outside the mask, OPEN (2) for open cells not yet seen.
    let mut state: Vec<u8> = open
        .iter()
        .zip(inside)
        .map(|(&o, &m)| u8::from(m) + u8::from(o))
        .collect();
    let mut parent = vec![NO_CELL; open.len()];
    let mut entry = vec![NO_CELL; regions.sizes.len()];
    entry[root as usize] = regions.first[root as usize] as u32;
    let mut current = Vec::new();
    for (i, &l) in regions.label.iter().enumerate() {
        if l == root {
            state[i] = SEEN;
            current.push(i);
        }
    }
    let mut missing = regions.sizes.len() - 1;
    let mut next = Vec::new();
    while !current.is_empty() {
        while let Some(i) = current.pop() {
            // Inside cells are never on the window's closed ring, so all
            // four neighbours exist.
            for j in [i - w, i + w, i - 1, i + 1] {
                let s = state[j];
                if s == SEEN {
                    continue;
                }
                state[j] = SEEN;
                parent[j] = i as u32;
                if s == CLOSED {
                    next.push(j);
                    continue;
                }
                current.push(j);
                let r = regions.label[j] as usize;
                if entry[r] == NO_CELL {
                    entry[r] = j as u32;
                    missing -= 1;
                    if missing == 0 {
                        return (parent, entry);
                    }
                }
            }
        }
        std::mem::swap(&mut current, &mut next);
    }
    (parent, entry)
}

/// The 4-connected regions of the open cells of a `w`-column grid whose
/// outer ring is closed, numbered in row-major order of their first cell
/// (as [`Regions`](crate::tiles::regions::Regions) numbers them).
pub(super) struct LocalRegions {
    /// Per cell, the region, or [`NO_CELL`] for a closed cell.
    label: Vec<u32>,
    /// Cells per region.
    sizes: Vec<u32>,
    /// Each region's first cell.
    first: Vec<usize>,
}

impl LocalRegions {
    pub(super) fn of(open: &[bool], w: usize) -> Self {
        let mut label = vec![NO_CELL; open.len()];
        // Open cells not yet labelled.
        let mut todo = open.to_vec();
        let (mut sizes, mut first, mut stack) = (Vec::new(), Vec::new(), Vec::new());
        for start in 0..open.len() {
            if !todo[start] {
                continue;
            }
            let id = sizes.len() as u32;
            label[start] = id;
            todo[start] = false;
            stack.push(start);
            let mut size = 0;
            while let Some(i) = stack.pop() {
                size += 1;
                // Open cells are never on the closed ring.
                for j in [i - w, i + w, i - 1, i + 1] {
                    if todo[j] {
                        todo[j] = false;
                        label[j] = id;
                        stack.push(j);
                    }
                }
            }
            sizes.push(size);
            first.push(start);
        }
        LocalRegions {
            label,
            sizes,
            first,
        }
    }

    /// The region with the most cells, the first of equal ones.
    pub(super) fn largest(&self) -> Option<u32> {
        let mut best: Option<u32> = None;
        for (r, &size) in self.sizes.iter().enumerate() {
            if best.is_none_or(|b| size > self.sizes[b as usize]) {
                best = Some(r as u32);
            }
        }
        best
    }
}

/// Fills every floor region but the largest with wall, on a
/// `width`-column map whose outer ring is wall.
pub(super) fn keep_largest(floor: &mut [bool], width: usize) {
    let regions = LocalRegions::of(floor, width);
    if let Some(keep) = regions.largest() {
        for (f, &label) in floor.iter_mut().zip(&regions.label) {
            *f = label == keep;
        }
    }
}
