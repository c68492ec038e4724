//! The A* search for a corridor that keeps the rules, over the cells of a
//! window: a cost per step and per turn, Dial's bucket queue.

use super::ctx::{Ctx, FLOOR, FREE, NONE, RING};
use crate::tiles::map::{Tile, TileRect};

/// What a turn adds to a searched corridor's cost, in steps: a route may
/// be up to this much longer to save a bend.
pub const TURN_COST: usize = 2;

/// A route search's queue entry: a cell reached at a cost, heading `heading`
/// (for a door it sets out from, the heading out of it).
struct Entry {
    g: usize,
    x: u16,
    y: u16,
    cost: u32,
    heading: u8,
    start: bool,
    /// Set when the cell ends the route.
    end: Option<End>,
}

/// Where a corridor ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    /// At a door of this room.
    Door(usize),
    /// On a corridor cell already connected to the target.
    Join,
}

/// A rectangle of cells a search may use: columns `x0..x1`, rows `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    pub(super) x0: usize,
    pub(super) y0: usize,
    pub(super) x1: usize,
    pub(super) y1: usize,
}

impl Window {
    /// The index of map cell (`x`, `y`) in a grid of the window's cells.
    fn local(&self, x: usize, y: usize) -> usize {
        (y - self.y0) * (self.x1 - self.x0) + (x - self.x0)
    }

    /// Whether map cell (`x`, `y`) lies in the window.
    fn contains(&self, x: usize, y: usize) -> bool {
        x >= self.x0 && x < self.x1 && y >= self.y0 && y < self.y1
    }
}

// Per window cell: the heading it was reached by, START for a door a route
// sets out from, UNSEEN before it is settled.
const UNSEEN: u8 = u8::MAX;
const START: u8 = 4;
/// Buckets of the queue: a step adds 0 to `TURN_COST + 2` to an estimate.
const BUCKETS: usize = TURN_COST + 3;
/// The column and row steps of headings 0 up, 1 down, 2 left, 3 right.
const OFF_X: [usize; 4] = [0, 0, usize::MAX, 1];
const OFF_Y: [usize; 4] = [usize::MAX, 1, 0, 0];

impl Ctx {
    /// A cheap route in `win` from a door the rooms marked in `source` may
    /// take to a door of a room marked in `target` (entered straight from
    /// its outside) or to a corridor cell whose owner is marked. A step
    /// costs 1 and a turn [`TURN_COST`] more, so routes run straight where
    /// they can instead of in staircases. A step is refused where it would
    /// close a 2 × 2 block with the two cells before it; [`Ctx::commit`]
    /// checks the whole route. Returns the route's cells in walking order
    /// and how it ends, if found, and the number of cells settled.
    ///
    /// A* over cells with Dial's bucket queue (the costs are small
    /// integers), guided toward the ring of room `goal` when given; each
    /// cell is settled once, with the heading it was first reached by (so
    /// a route is cheapest up to that simplification of turn costs), and
    /// the work is O(window cells). A target away from `goal` (a connected
    /// corridor) is taken when the search meets it first.
    pub(super) fn search(
        &self,
        source: &[bool],
        target: &[bool],
        goal: Option<TileRect>,
        win: Window,
        banned: &[usize],
    ) -> (Option<(Vec<usize>, End)>, usize) {
        let w = self.w;
        let off_g = [w.wrapping_neg(), w, usize::MAX, 1];
        let mut from = vec![UNSEEN; (win.x1 - win.x0) * (win.y1 - win.y0)];
        let mut buckets: [Vec<Entry>; BUCKETS] = Default::default();
        let starts = self.search_starts(source, goal, win, banned);
        let mut next_start = 0;
        let mut pending = 0usize;
        let mut settled = 0;
        let mut f = 0;
        loop {
            while let Some(&(start_f, door, heading)) = starts.get(next_start) {
                if pending == 0 {
                    f = f.max(start_f);
                }
                if start_f != f {
                    break;
                }
                buckets[f % BUCKETS].push(Entry {
                    g: door,
                    x: (door % w) as u16,
                    y: (door / w) as u16,
                    cost: 0,
                    heading,
                    start: true,
                    end: None,
                });
                pending += 1;
                next_start += 1;
            }
            if pending == 0 {
                break;
            }
            while let Some(e) = buckets[f % BUCKETS].pop() {
                pending -= 1;
                let (x, y) = (e.x as usize, e.y as usize);
                let l = win.local(x, y);
                if from[l] != UNSEEN {
                    continue;
                }
                settled += 1;
                from[l] = if e.start { START } else { e.heading };
                if let Some(end) = e.end {
                    return (Some((trace_back(&from, win, off_g, &e), end)), settled);
                }
                let behind = if e.start {
                    NONE as usize
                } else {
                    e.g.wrapping_sub(off_g[e.heading as usize])
                };
                for nd in 0..4u8 {
                    // A door is left straight outward only; no step back.
                    if (e.start && nd != e.heading) || nd == e.heading ^ 1 {
                        continue;
                    }
                    let d = nd as usize;
                    let (nx, ny) = (x.wrapping_add(OFF_X[d]), y.wrapping_add(OFF_Y[d]));
                    if !win.contains(nx, ny) || from[win.local(nx, ny)] != UNSEEN {
                        continue;
                    }
                    let n = e.g.wrapping_add(off_g[d]);
                    let Some(end) = self.enter(n, d, target, banned) else {
                        continue;
                    };
                    if self.forms_block(n, [n, e.g, behind]) {
                        continue;
                    }
                    let cost = e.cost + 1 + if nd == e.heading { 0 } else { TURN_COST as u32 };
                    buckets[(cost as usize + estimate(goal, nx, ny)) % BUCKETS].push(Entry {
                        g: n,
                        x: nx as u16,
                        y: ny as u16,
                        cost,
                        heading: nd,
                        start: false,
                        end,
                    });
                    pending += 1;
                }
            }
            f += 1;
        }
        (None, settled)
    }

    /// The doors a route may set out from, by estimate (with the door and
    /// its heading out): each joins [`Ctx::search`]'s queue when the search
    /// reaches its estimate, as the buckets span only `BUCKETS` consecutive
    /// estimates.
    fn search_starts(
        &self,
        source: &[bool],
        goal: Option<TileRect>,
        win: Window,
        banned: &[usize],
    ) -> Vec<(usize, usize, u8)> {
        let w = self.w;
        let mut starts = Vec::new();
        for room in (0..self.rects.len()).filter(|&r| source[r]) {
            for door in self.door_candidates(room) {
                let (x, y) = (door % w, door / w);
                if win.contains(x, y) && !banned.contains(&door) {
                    let out = self.outward(door);
                    let heading = (0..4).find(|&d| step(door, d, w) == out).unwrap_or(0);
                    starts.push((estimate(goal, x, y), door, heading));
                }
            }
        }
        starts.sort_unstable();
        starts
    }

    /// How a route may step onto cell `g` in heading `heading`: not at all
    /// (None), walking on (Some(None)), or ending there (Some(Some(end))).
    fn enter(
        &self,
        g: usize,
        heading: usize,
        target: &[bool],
        banned: &[usize],
    ) -> Option<Option<End>> {
        let w = self.w;
        match self.kind(g) {
            FREE if banned.contains(&g) => None,
            FREE if self.map.cells[g] == Tile::CORRIDOR && target[self.owner[g] as usize] => {
                Some(Some(End::Join))
            }
            FREE => Some(None),
            // Into a target room's door, heading for its floor.
            RING if self.zone[step(g, heading as u8, w)] == FLOOR
                && target[self.owner[step(g, heading as u8, w)] as usize]
                && !banned.contains(&g) =>
            {
                Some(Some(End::Door(
                    self.owner[step(g, heading as u8, w)] as usize,
                )))
            }
            _ => None,
        }
    }
}

/// Manhattan distance from (`x`, `y`) to the ring of `goal` (0 without
/// one): never more than the rest of a route to one of its doors, and
/// changing by at most 1 a step (so an estimate grows by 0 to
/// TURN_COST + 2 a step).
fn estimate(goal: Option<TileRect>, x: usize, y: usize) -> usize {
    goal.map_or(0, |r| {
        let (x0, x1) = (r.x as usize - 1, r.right() as usize);
        let (y0, y1) = (r.y as usize - 1, r.bottom() as usize);
        x0.saturating_sub(x) + x.saturating_sub(x1) + y0.saturating_sub(y) + y.saturating_sub(y1)
    })
}

/// The route that ends at entry `e`, walked back along the headings in
/// `from` (window cells, see [`Window::local`]) to the door it set out
/// from, in walking order. `off_g` is the index step of each heading.
fn trace_back(from: &[u8], win: Window, off_g: [usize; 4], e: &Entry) -> Vec<usize> {
    let (mut at, mut ax, mut ay) = (e.g, e.x as usize, e.y as usize);
    let mut cells = vec![at];
    while from[win.local(ax, ay)] != START {
        let d = from[win.local(ax, ay)] as usize;
        at = at.wrapping_sub(off_g[d]);
        ax = ax.wrapping_sub(OFF_X[d]);
        ay = ay.wrapping_sub(OFF_Y[d]);
        cells.push(at);
    }
    cells.reverse();
    cells
}

/// The neighbour of cell `i` in heading `d`: 0 up, 1 down, 2 left, 3
/// right (so `d ^ 1` is the opposite). The caller keeps `i` off the border.
fn step(i: usize, d: u8, w: usize) -> usize {
    match d {
        0 => i - w,
        1 => i + w,
        2 => i - 1,
        _ => i + 1,
    }
}
