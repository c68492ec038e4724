//! A uniform grid over the host's drawing: which top-level vertices and
//! which corridors lie near a box, so that checking a placement costs
//! what lies near it, not the whole level. Read again after each
//! application (the drawing moved) and asked about before the next.
//!
//! Cells are a dense array over the drawing's box, in compressed rows
//! (one run of members per cell), so a rebuild is two counting passes
//! and no hashing. They are made only for a drawing asked about many
//! times ([`SCANS`]): most applications ask a few questions before the
//! drawing changes again, and a scan of every room and corridor answers
//! those for less than putting them in cells costs.

use crate::drawing::top_level;
use crate::graph::{EdgeId, Graph, Point, VertexId};

/// A corridor as the placement check sees it: its id, its ends as stored
/// (for deletion tests), its ends' top-level vertices, and their positions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Corridor {
    pub(crate) id: EdgeId,
    pub(crate) ends: [VertexId; 2],
    pub(crate) rooms: [VertexId; 2],
    pub(crate) at: [Point; 2],
}

/// Corridors spanning more cells than this go to a list checked always.
const MAX_CELLS: usize = 64;

/// Questions answered by a scan of every room or corridor before the
/// cells are made. On the grown default grammar (20 to ~130 rooms) most
/// drawings are asked 2 to 6 questions before they change, a few up to
/// about 60; of 4, 8, 16, 32 and never, 32 and never took the fewest
/// instructions per derivation (8: 0.2 % more at 20 rooms, 3 % more
/// at ~130). The cells stay for drawings asked about many times.
const SCANS: u32 = 32;

/// The grid. Cells are at least `cell` drawing units square (wider when
/// the drawing is so spread out that cells would outnumber what they
/// hold).
#[derive(Debug, Default)]
pub(crate) struct Grid {
    valid: bool,
    /// Whether the cells describe the drawing (else every question scans).
    cells: bool,
    /// Questions scanned since the drawing changed.
    scans: u32,
    /// The least cell width asked for, and the box of every room.
    least: f64,
    bounds: [Point; 2],
    cell: f64,
    /// `1 / cell`: a cell is found with a multiplication (the grid is only
    /// a filter, and any monotone map of positions to cells serves it).
    per_cell: f64,
    origin: Point,
    columns: usize,
    rows: usize,
    rooms: Vec<(VertexId, Point)>,
    corridors: Vec<Corridor>,
    /// `room_start[c]..room_start[c + 1]`: cell `c`'s slice of `room_members`.
    room_start: Vec<u32>,
    room_members: Vec<u32>,
    /// Per room, its cell (found once for both counting passes).
    room_cell: Vec<u32>,
    corridor_start: Vec<u32>,
    corridor_members: Vec<u32>,
    /// Per corridor, the cells its box covers (first and last column and
    /// row), or `None` for a long corridor.
    spans: Vec<Option<[usize; 4]>>,
    long: Vec<u32>,
    fill: Vec<u32>,
    seen: Vec<u32>,
    epoch: u32,
}

impl Grid {
    /// Marks the grid stale: the drawing changed.
    pub(crate) fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Reads the drawing of `host` again if it is stale; cells, when made,
    /// are at least `cell` wide.
    pub(crate) fn refresh(&mut self, host: &Graph, cell: f64) {
        if self.valid {
            return;
        }
        self.valid = true;
        self.cells = false;
        self.scans = 0;
        self.least = cell;
        self.rooms.clear();
        self.corridors.clear();
        self.long.clear();
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        for (v, x) in host.vertices() {
            if let (None, Some(p)) = (x.parent, x.position) {
                self.rooms.push((v, p));
                for k in 0..2 {
                    lo[k] = lo[k].min(p[k]);
                    hi[k] = hi[k].max(p[k]);
                }
            }
        }
        for (id, e) in host.edges() {
            if e.cosmetic {
                continue;
            }
            let rooms = [top_level(host, e.source), top_level(host, e.target)];
            if rooms[0] == rooms[1] {
                continue;
            }
            let (Some(p), Some(q)) = (
                host.vertex(rooms[0]).and_then(|x| x.position),
                host.vertex(rooms[1]).and_then(|x| x.position),
            ) else {
                continue;
            };
            self.corridors.push(Corridor {
                id,
                ends: [e.source, e.target],
                rooms,
                at: [p, q],
            });
        }
        self.bounds = [lo, hi];
    }

    /// Puts the rooms and corridors read by [`Grid::refresh`] in cells.
    fn make_cells(&mut self) {
        self.cells = true;
        let cell = self.least;
        let [lo, hi] = self.bounds;
        // Every room and corridor end lies in `lo..hi`. At most about
        // twice as many cells as things to hold; a drawing that is not
        // finite (a host read with huge positions) gets one cell.
        let (w, h) = (hi[0] - lo[0], hi[1] - lo[1]);
        let things = (2 * (self.rooms.len() + self.corridors.len()) + 16) as f64;
        if w.is_finite() && h.is_finite() {
            self.cell = cell.max((w * h / things).sqrt()).max(w.max(h) / things);
            self.origin = lo;
            self.columns = (w / self.cell) as usize + 1;
            self.rows = (h / self.cell) as usize + 1;
            self.per_cell = 1.0 / self.cell;
        } else {
            self.cell = f64::INFINITY;
            self.per_cell = 0.0;
            self.origin = [0.0, 0.0];
            self.columns = 1;
            self.rows = 1;
        }
        let cells = self.columns * self.rows;
        self.room_start.clear();
        self.room_start.resize(cells + 1, 0);
        self.room_cell.clear();
        for &(_, p) in &self.rooms {
            let c = self.index(p);
            self.room_cell.push(c as u32);
            self.room_start[c + 1] += 1;
        }
        prefix_sums(&mut self.room_start);
        self.fill.clear();
        self.fill.extend_from_slice(&self.room_start[..cells]);
        self.room_members.clear();
        self.room_members.resize(self.rooms.len(), 0);
        for (i, &c) in self.room_cell.iter().enumerate() {
            let c = c as usize;
            self.room_members[self.fill[c] as usize] = i as u32;
            self.fill[c] += 1;
        }
        self.spans.clear();
        self.corridor_start.clear();
        self.corridor_start.resize(cells + 1, 0);
        for (i, c) in self.corridors.iter().enumerate() {
            let [p, q] = c.at;
            let (x0, y0) = self.column_row([p[0].min(q[0]), p[1].min(q[1])]);
            let (x1, y1) = self.column_row([p[0].max(q[0]), p[1].max(q[1])]);
            if (x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CELLS {
                self.long.push(i as u32);
                self.spans.push(None);
                continue;
            }
            self.spans.push(Some([x0, x1, y0, y1]));
            for y in y0..=y1 {
                for x in x0..=x1 {
                    self.corridor_start[y * self.columns + x + 1] += 1;
                }
            }
        }
        prefix_sums(&mut self.corridor_start);
        self.fill.clear();
        self.fill.extend_from_slice(&self.corridor_start[..cells]);
        self.corridor_members.clear();
        self.corridor_members
            .resize(self.corridor_start[cells] as usize, 0);
        for (i, span) in self.spans.iter().enumerate() {
            let Some([x0, x1, y0, y1]) = *span else {
                continue;
            };
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let c = y * self.columns + x;
                    self.corridor_members[self.fill[c] as usize] = i as u32;
                    self.fill[c] += 1;
                }
            }
        }
        self.seen.clear();
        self.seen.resize(self.corridors.len(), 0);
        self.epoch = 0;
    }

    /// The cell (column, row) of `p`, clamped to the grid: a point off
    /// the grid goes to the nearest cell, so a box reaching past the
    /// drawing still walks the cells it shares with it.
    fn column_row(&self, p: Point) -> (usize, usize) {
        // `as` truncates toward 0 and saturates (negative and NaN to 0).
        let x = ((p[0] - self.origin[0]) * self.per_cell) as usize;
        let y = ((p[1] - self.origin[1]) * self.per_cell) as usize;
        (x.min(self.columns - 1), y.min(self.rows - 1))
    }

    fn index(&self, p: Point) -> usize {
        let (x, y) = self.column_row(p);
        y * self.columns + x
    }

    /// Whether the next question is answered by a scan (else the cells
    /// are made, if they are not yet, and answer it).
    fn scan(&mut self) -> bool {
        if self.cells {
            return false;
        }
        if self.scans < SCANS {
            self.scans += 1;
            return true;
        }
        self.make_cells();
        false
    }

    /// Whether `hit` holds for some room whose position lies in the box
    /// `lo..hi`.
    pub(crate) fn any_room(
        &mut self,
        lo: Point,
        hi: Point,
        mut hit: impl FnMut(VertexId, Point) -> bool,
    ) -> bool {
        let inside = |p: Point| p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1];
        if self.scan() {
            return self.rooms.iter().any(|&(v, p)| inside(p) && hit(v, p));
        }
        let ((x0, y0), (x1, y1)) = (self.column_row(lo), self.column_row(hi));
        for y in y0..=y1 {
            // A row's cells are one run of members.
            let row = y * self.columns;
            let (a, b) = (self.room_start[row + x0], self.room_start[row + x1 + 1]);
            for &i in &self.room_members[a as usize..b as usize] {
                let (v, p) = self.rooms[i as usize];
                if inside(p) && hit(v, p) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `hit` holds for some corridor whose bounding box meets the
    /// box `lo..hi` (each corridor tried once).
    pub(crate) fn any_corridor(
        &mut self,
        lo: Point,
        hi: Point,
        mut hit: impl FnMut(&Corridor) -> bool,
    ) -> bool {
        let meets = |c: &Corridor| {
            let [p, q] = c.at;
            p[0].max(q[0]) >= lo[0]
                && p[0].min(q[0]) <= hi[0]
                && p[1].max(q[1]) >= lo[1]
                && p[1].min(q[1]) <= hi[1]
        };
        if self.scan() {
            return self.corridors.iter().any(|c| meets(c) && hit(c));
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        for &i in &self.long {
            let c = &self.corridors[i as usize];
            if meets(c) && hit(c) {
                return true;
            }
        }
        let ((x0, y0), (x1, y1)) = (self.column_row(lo), self.column_row(hi));
        for y in y0..=y1 {
            let row = y * self.columns;
            let (a, b) = (
                self.corridor_start[row + x0],
                self.corridor_start[row + x1 + 1],
            );
            for &i in &self.corridor_members[a as usize..b as usize] {
                let seen = &mut self.seen[i as usize];
                if *seen == self.epoch {
                    continue;
                }
                *seen = self.epoch;
                let c = &self.corridors[i as usize];
                if meets(c) && hit(c) {
                    return true;
                }
            }
        }
        false
    }
}

/// Turns per-cell counts at `start[c + 1]` into run starts.
fn prefix_sums(start: &mut [u32]) {
    for c in 1..start.len() {
        start[c] += start[c - 1];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The grid's answers equal a scan of every room and corridor, on
    /// random drawings and boxes (cells, long corridors and wide boxes
    /// included).
    #[test]
    fn the_grid_answers_like_a_full_scan() {
        let mut rng = Rng::seeded(11);
        for round in 0..30 {
            let mut g = Graph::new();
            let n = 5 + rng.below(60);
            let spread = if round % 3 == 0 { 200.0 } else { 12.0 };
            let ids: Vec<VertexId> = (0..n).map(|_| g.add_vertex_named("room")).collect();
            for &v in &ids {
                g.vertex_mut(v).unwrap().position = Some([
                    spread * rng.unit() - spread / 2.0,
                    spread * rng.unit() - spread / 2.0,
                ]);
            }
            for _ in 0..n {
                let (a, b) = (ids[rng.below(n)], ids[rng.below(n)]);
                if a != b {
                    g.connect(a, b, false);
                }
            }
            let mut grid = Grid::default();
            grid.refresh(&g, 1.0);
            for _ in 0..100 {
                let c = [
                    spread * rng.unit() - spread / 2.0,
                    spread * rng.unit() - spread / 2.0,
                ];
                let w = 0.1 + 6.0 * rng.unit();
                let (lo, hi) = ([c[0] - w, c[1] - w], [c[0] + w, c[1] + w]);
                let mut rooms = Vec::new();
                grid.any_room(lo, hi, |v, _| {
                    rooms.push(v);
                    false
                });
                rooms.sort();
                let mut want: Vec<VertexId> = ids
                    .iter()
                    .copied()
                    .filter(|&v| {
                        let p = g.vertex(v).unwrap().position.unwrap();
                        p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1]
                    })
                    .collect();
                want.sort();
                assert_eq!(rooms, want);
                let mut corridors = Vec::new();
                grid.any_corridor(lo, hi, |c| {
                    corridors.push(c.id);
                    false
                });
                corridors.sort();
                let mut want: Vec<EdgeId> = g
                    .edges()
                    .filter(|(_, e)| {
                        let (p, q) = (
                            g.vertex(e.source).unwrap().position.unwrap(),
                            g.vertex(e.target).unwrap().position.unwrap(),
                        );
                        p[0].max(q[0]) >= lo[0]
                            && p[0].min(q[0]) <= hi[0]
                            && p[1].max(q[1]) >= lo[1]
                            && p[1].min(q[1]) <= hi[1]
                    })
                    .map(|(id, _)| id)
                    .collect();
                want.sort();
                assert_eq!(corridors, want, "each corridor once, none missed");
            }
        }
    }
}
