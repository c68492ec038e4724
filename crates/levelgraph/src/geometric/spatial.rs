//! A uniform grid over the host's drawing: which top-level vertices and
//! which corridors lie near a box, so that checking a placement costs
//! what lies near it, not the whole level. Rebuilt after each application
//! (the drawing moved), queried many times before the next.
//!
//! Queries only answer "is there something near", so the hash map's order
//! never reaches an output.

use std::collections::HashMap;

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
const MAX_CELLS: i64 = 64;

/// The grid. Cells are `cell` drawing units square.
#[derive(Debug, Default)]
pub(crate) struct Grid {
    valid: bool,
    cell: f64,
    rooms: Vec<(VertexId, Point)>,
    corridors: Vec<Corridor>,
    room_cells: HashMap<(i64, i64), Vec<u32>>,
    corridor_cells: HashMap<(i64, i64), Vec<u32>>,
    long: Vec<u32>,
    seen: Vec<u32>,
    epoch: u32,
}

impl Grid {
    /// Marks the grid stale: the drawing changed.
    pub(crate) fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Rebuilds the grid from `host` if it is stale, with cells of `cell`.
    pub(crate) fn refresh(&mut self, host: &Graph, cell: f64) {
        if self.valid {
            return;
        }
        self.valid = true;
        self.cell = cell;
        self.rooms.clear();
        self.corridors.clear();
        // Cleared, not emptied cell by cell: the drawing wanders over a
        // derivation, and cells it left would be walked at every refresh.
        self.room_cells.clear();
        self.corridor_cells.clear();
        self.long.clear();
        for (v, x) in host.vertices() {
            if let (None, Some(p)) = (x.parent, x.position) {
                let i = self.rooms.len() as u32;
                self.rooms.push((v, p));
                let key = self.key(p);
                self.room_cells.entry(key).or_default().push(i);
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
            let i = self.corridors.len() as u32;
            self.corridors.push(Corridor {
                id,
                ends: [e.source, e.target],
                rooms,
                at: [p, q],
            });
            let (lo, hi) = (
                self.key([p[0].min(q[0]), p[1].min(q[1])]),
                self.key([p[0].max(q[0]), p[1].max(q[1])]),
            );
            let cells = (hi.0.saturating_sub(lo.0).saturating_add(1))
                .saturating_mul(hi.1.saturating_sub(lo.1).saturating_add(1));
            if cells > MAX_CELLS {
                self.long.push(i);
                continue;
            }
            for x in lo.0..=hi.0 {
                for y in lo.1..=hi.1 {
                    self.corridor_cells.entry((x, y)).or_default().push(i);
                }
            }
        }
        self.seen.clear();
        self.seen.resize(self.corridors.len(), 0);
        self.epoch = 0;
    }

    fn key(&self, p: Point) -> (i64, i64) {
        // Positions are finite; far-out ones saturate, which only makes a
        // cell hold more.
        (
            (p[0] / self.cell).floor() as i64,
            (p[1] / self.cell).floor() as i64,
        )
    }

    /// Whether the box `lo..hi` covers so many cells that walking them would
    /// cost more than looking at everything.
    fn too_wide(&self, lo: Point, hi: Point) -> bool {
        let (a, b) = (self.key(lo), self.key(hi));
        let cells = (b.0.saturating_sub(a.0).saturating_add(1))
            .saturating_mul(b.1.saturating_sub(a.1).saturating_add(1));
        cells > 4 * (self.rooms.len() + self.corridors.len()) as i64 + 16
    }

    /// Whether `hit` holds for some room whose position lies in the box
    /// `lo..hi`.
    pub(crate) fn any_room(
        &self,
        lo: Point,
        hi: Point,
        mut hit: impl FnMut(VertexId, Point) -> bool,
    ) -> bool {
        let inside = |p: Point| p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1];
        if self.too_wide(lo, hi) {
            return self.rooms.iter().any(|&(v, p)| inside(p) && hit(v, p));
        }
        let (a, b) = (self.key(lo), self.key(hi));
        for x in a.0..=b.0 {
            for y in a.1..=b.1 {
                if let Some(list) = self.room_cells.get(&(x, y)) {
                    for &i in list {
                        let (v, p) = self.rooms[i as usize];
                        if inside(p) && hit(v, p) {
                            return true;
                        }
                    }
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
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        let meets = |c: &Corridor| {
            let [p, q] = c.at;
            p[0].max(q[0]) >= lo[0]
                && p[0].min(q[0]) <= hi[0]
                && p[1].max(q[1]) >= lo[1]
                && p[1].min(q[1]) <= hi[1]
        };
        if self.too_wide(lo, hi) {
            return self.corridors.iter().any(|c| meets(c) && hit(c));
        }
        for &i in &self.long {
            let c = &self.corridors[i as usize];
            if meets(c) && hit(c) {
                return true;
            }
        }
        let (a, b) = (self.key(lo), self.key(hi));
        for x in a.0..=b.0 {
            for y in a.1..=b.1 {
                let Some(list) = self.corridor_cells.get(&(x, y)) else {
                    continue;
                };
                for &i in list {
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
        }
        false
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
