//! The fallback when no L or Z fits: searched corridors (in a window
//! around the two rooms, then the whole map, rerouted round 2 × 2 blocks),
//! checked and drawn, and the last-resort join of unconnected components.

use super::ctx::{Ctx, FREE, OPEN, RING};
use super::search::{End, Window};
use crate::tiles::map::{Tile, TileCorridor, TileDoor, TileRect};
use crate::tiles::TilesError;

/// How far (cells) beyond two rooms' bounding box the first corridor search
/// looks before it searches the whole map.
pub const SEARCH_MARGIN: u32 = 8;
/// Cells per map cell a map's corridor searches may settle before the
/// links that only add loops stop searching: past
/// `LOOP_SEARCH_BUDGET × width × height` settled cells, a link whose rooms
/// are already connected is drawn only where an L or a Z fits. Links that connectivity needs are always searched. This keeps
/// the densest parameters (a thousand rooms, 16 corridors each) to seconds;
/// the default parameters use a few hundredths of it.
pub const LOOP_SEARCH_BUDGET: usize = 16;
/// The most cells a map's corridor searches may settle before loop links
/// stop searching, whatever its size: `LOOP_SEARCH_BUDGET × width ×
/// height` alone let a 4096 × 4096 map of 1,024 rooms with 16 corridors
/// each settle 268 million cells (19 s). Maps up to about 2 million cells
/// (1448 × 1448) are not affected.
pub const LOOP_SEARCH_CAP: usize = 1 << 25;

/// The cells the corridor searches of a `w × h` map may settle before
/// loop links stop searching.
pub(super) fn loop_budget(w: usize, h: usize) -> usize {
    (LOOP_SEARCH_BUDGET * w * h).min(LOOP_SEARCH_CAP)
}
/// How many times a corridor search is run again, per window, with a cell
/// banned when its route broke the no-double-corridor rule further back than
/// the search can see.
pub const SEARCH_REROUTES: usize = 8;

/// The error of a map whose components could not all be joined.
fn limit(detail: String) -> TilesError {
    TilesError::Limit {
        generator: "rooms and corridors",
        limit: format!(
            "corridor searches of the whole map from every component \
             ({SEARCH_REROUTES} reroutes each)"
        ),
        detail,
    }
}

impl Ctx {
    /// The last resort for connectivity: while some room is not connected
    /// to room 0, a search from its component to the nearest cell of any
    /// other. Each success merges two components, so this ends after fewer
    /// rounds than there are rooms.
    ///
    /// # Errors
    ///
    /// [`TilesError::Limit`] when no component can reach another.
    pub(super) fn join_components(&mut self) -> Result<(), TilesError> {
        let n = self.rects.len();
        for _ in 0..n {
            let first = self.sets.find(0);
            let mut tried = Vec::new();
            let mut joined = false;
            for a in 0..n {
                let root = self.sets.find(a);
                if root == first || tried.contains(&root) {
                    continue;
                }
                tried.push(root);
                let source: Vec<bool> = (0..self.sets.len())
                    .map(|node| self.sets.find(node) == root)
                    .collect();
                let target: Vec<bool> = source.iter().map(|&s| !s).collect();
                let whole = self.window(a, a, u32::MAX);
                if self.route(&source, &target, None, &[whole]) {
                    joined = true;
                    break;
                }
            }
            if !joined {
                break;
            }
        }
        let first = self.sets.find(0);
        match (1..n).find(|&r| self.sets.find(r) != first) {
            None => Ok(()),
            Some(lost) => Err(limit(format!("room {lost} is not connected to room 0"))),
        }
    }

    /// The plain algorithm has no fallback; this one searches for the shortest
    /// corridor that keeps the rules, in a window around the rooms and then
    /// over the map. When the link is `required` (its rooms not yet
    /// connected) it may start at a door of any room connected to `a` and
    /// end at any door or corridor cell connected to `b`; otherwise it runs
    /// from a door of `a` to a door of `b`.
    pub(super) fn draw_searched(&mut self, a: usize, b: usize, required: bool) -> bool {
        let (root_a, root_b) = (self.sets.find(a), self.sets.find(b));
        let (source, target): (Vec<bool>, Vec<bool>) = (0..self.sets.len())
            .map(|node| {
                if required {
                    let root = self.sets.find(node);
                    (root == root_a, root == root_b)
                } else {
                    (node == a, node == b)
                }
            })
            .unzip();
        let goal = Some(self.rects[b]);
        let near = self.window(a, b, SEARCH_MARGIN);
        let whole = self.window(a, b, u32::MAX);
        if near == whole {
            self.route(&source, &target, goal, &[near])
        } else {
            self.route(&source, &target, goal, &[near, whole])
        }
    }

    /// Searches each window in turn for a route from a door of a room
    /// marked in `source` to a room door or corridor cell marked in
    /// `target` (owners), and draws the first that [`Ctx::commit`] accepts;
    /// a route refused for a 2 × 2 block is searched again without that
    /// cell, up to [`SEARCH_REROUTES`] times per window.
    fn route(
        &mut self,
        source: &[bool],
        target: &[bool],
        goal: Option<TileRect>,
        windows: &[Window],
    ) -> bool {
        let mut banned = Vec::new();
        for &win in windows {
            for _ in 0..=SEARCH_REROUTES {
                let (found, settled) = self.search(source, target, goal, win, &banned);
                self.loop_budget = self.loop_budget.saturating_sub(settled);
                let Some((path, end)) = found else {
                    break;
                };
                match self.commit(&path, end) {
                    Ok(()) => return true,
                    Err(Some(cell)) => banned.push(cell),
                    Err(None) => break,
                }
            }
        }
        false
    }

    /// The bounding box of rooms `a` and `b` grown by `margin` plus their
    /// rings and door steps, within the map's inner cells.
    fn window(&self, a: usize, b: usize, margin: u32) -> Window {
        let (ra, rb) = (self.rects[a], self.rects[b]);
        let grow = margin.saturating_add(2) as usize;
        let (w, h) = (self.map.width as usize, self.map.height as usize);
        Window {
            x0: (ra.x.min(rb.x) as usize).saturating_sub(grow).max(1),
            y0: (ra.y.min(rb.y) as usize).saturating_sub(grow).max(1),
            x1: (ra.right().max(rb.right()) as usize)
                .saturating_add(grow)
                .min(w - 1),
            y1: (ra.bottom().max(rb.bottom()) as usize)
                .saturating_add(grow)
                .min(h - 1),
        }
    }

    /// Draws `path` (walking order, from a door) if it keeps every rule: it
    /// starts at a room's ring cell and steps straight out,
    /// ends at a ring cell of the `end` room entered straight (or on a
    /// corridor cell for [`End::Join`]), runs on free cells between, and
    /// closes no 2 × 2 block of corridor and door. Otherwise leaves the map
    /// as it was and returns the first cell that closed a block, if that
    /// was the fault.
    pub(super) fn commit(&mut self, path: &[usize], end: End) -> Result<(), Option<usize>> {
        let n = path.len();
        if n < 2 {
            return Err(None);
        }
        let first = path[0];
        if self.kind(first) != RING || self.outward(first) != path[1] {
            return Err(None);
        }
        let from = self.room_of_ring(first);
        let middle = match end {
            End::Door(room) => {
                let last = path[n - 1];
                if n < 3
                    || self.kind(last) != RING
                    || self.room_of_ring(last) != room
                    || self.outward(last) != path[n - 2]
                {
                    return Err(None);
                }
                &path[1..n - 1]
            }
            End::Join => {
                if self.map.cells[path[n - 1]] != Tile::CORRIDOR {
                    return Err(None);
                }
                &path[1..]
            }
        };
        if middle.iter().any(|&c| self.kind(c) != FREE) {
            return Err(None);
        }
        let mut sorted = path.to_vec();
        sorted.sort_unstable();
        if sorted.windows(2).any(|p| p[0] == p[1]) {
            return Err(None);
        }
        // Open the new cells, test the blocks they close, and undo on a
        // fault: a route may close a block with its own cells far apart.
        let mut opened = Vec::new();
        for &c in path {
            if !self.is_open(c) {
                self.zone[c] |= OPEN;
                opened.push(c);
            }
        }
        let bad = opened
            .iter()
            .copied()
            .find(|&c| self.forms_block(c, [c; 3]));
        for &c in &opened {
            self.zone[c] &= !OPEN;
        }
        if let Some(bad) = bad {
            return Err(Some(bad));
        }
        self.draw(path, from, end);
        Ok(())
    }

    /// Draws a corridor already checked: `path` in walking order from a
    /// door of room `from` to `end`. New cells become doors (on a ring) or
    /// corridor, are listed, and join the connectivity of everything they
    /// touch; a path that opens no new cell joins the connectivity only.
    fn draw(&mut self, path: &[usize], from: usize, end: End) {
        let node = self.sets.push();
        let w = self.w;
        let mut drawn = std::mem::take(&mut self.drawn);
        drawn.clear();
        for &c in path {
            if !self.is_open(c) {
                if self.kind(c) == RING {
                    let room = self.room_of_ring(c);
                    self.open(c, Tile::DOOR, room as u32);
                    let [x, y] = self.xy(c);
                    self.map.doors.push(TileDoor {
                        cells: TileRect::new(x, y, 1, 1),
                        rooms: [Some(room), None],
                    });
                } else {
                    self.open(c, Tile::CORRIDOR, node as u32);
                }
                drawn.push(c);
            }
        }
        // Cells this corridor opened are `node`'s own; only what it meets
        // (doors, crossed corridors, cells beside) can join components.
        for &c in path {
            let o = self.owner[c] as usize;
            if o != node {
                self.sets.union(node, o);
            }
        }
        for &c in &drawn {
            let o = self.owner[c] as usize;
            for nb in [c - w, c + w, c - 1, c + 1] {
                if self.map.cells[nb] != Tile::WALL {
                    let other = self.owner[nb] as usize;
                    if other != o {
                        self.sets.union(o, other);
                    }
                }
            }
        }
        if !drawn.is_empty() {
            self.map.corridors.push(TileCorridor {
                cells: walk_coordinates(path, w),
                rooms: [
                    Some(from),
                    match end {
                        End::Door(room) => Some(room),
                        End::Join => None,
                    },
                ],
            });
        }
        self.drawn = drawn;
    }
}

/// The column and row of each cell of a 4-connected walk over a map `w`
/// cells wide, found from the steps rather than by a division per cell.
fn walk_coordinates(path: &[usize], w: usize) -> Vec<[u32; 2]> {
    let Some(&first) = path.first() else {
        return Vec::new();
    };
    let mut at = [(first % w) as u32, (first / w) as u32];
    let mut cells = Vec::with_capacity(path.len());
    cells.push(at);
    for pair in path.windows(2) {
        match pair[1].wrapping_sub(pair[0]) {
            1 => at[0] += 1,
            d if d == usize::MAX => at[0] -= 1,
            d if d == w => at[1] += 1,
            _ => at[1] -= 1,
        }
        cells.push(at);
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loop links' search budget grows with the map up to a fixed cap:
    /// 16 × 4096 × 4096 settled cells took 19 s
    /// (`tiles rooms --rooms 1024 --width 4096 --height 4096
    /// --placement-tries 1000 --corridors 16`).
    #[test]
    fn loop_search_budget_is_capped() {
        assert_eq!(loop_budget(80, 50), LOOP_SEARCH_BUDGET * 80 * 50);
        assert_eq!(loop_budget(1024, 1024), LOOP_SEARCH_BUDGET * 1024 * 1024);
        assert_eq!(loop_budget(4096, 4096), LOOP_SEARCH_CAP);
    }
}
