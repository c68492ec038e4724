//! Grid rules (grid mode): a pattern laid on the grid by a [`Frame`]
//! (origin cell and orientation) fixes every vertex by cell lookup, not by
//! a search along edges.

use std::ops::ControlFlow;

use super::{budget, Match, Pattern, TagTest};
use crate::graph::{Cell, EdgeId, Graph, VertexId};

/// Grid cells have coordinates within ±`MAX_CELL` (10⁹): a grid rule
/// whose match or new vertex would lie beyond does not match or apply
/// (offsets are at most ±[`MAX_OFFSET`], so no sum on the way overflows),
/// and a host document's cells must lie within it too.
pub const MAX_CELL: i32 = 1_000_000_000;

/// Grid offsets `@dx,dy` of rule vertices are within ±`MAX_OFFSET` (10⁶)
/// in each coordinate; text and JSON grammars beyond it are refused with
/// a located error.
pub const MAX_OFFSET: i32 = 1_000_000;

/// How a grid rule lies on the grid: its origin cell and orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The host cell of the rule's offset `@0,0`.
    pub origin: Cell,
    /// 0–3: turned by 0°, 90°, 180°, 270°; 4–7: the same after mirroring
    /// (`dx` negated first).
    pub transform: u8,
}

impl Frame {
    /// The host cell of rule offset `offset`, turned and mirrored by the
    /// frame's transform.
    pub fn place(&self, offset: [i32; 2]) -> Cell {
        let [dx, dy] = offset;
        let (x, y) = if self.transform >= 4 {
            (-dx, dy)
        } else {
            (dx, dy)
        };
        let (x, y) = match self.transform % 4 {
            0 => (x, y),
            1 => (-y, x),
            2 => (-x, -y),
            _ => (y, -x),
        };
        [self.origin[0] + x, self.origin[1] + y]
    }

    /// [`Frame::place`], or `None` when the cell would be beyond
    /// ±[`MAX_CELL`] (or not a 32-bit number at all).
    pub fn checked_place(&self, offset: [i32; 2]) -> Option<Cell> {
        let turned = Frame {
            origin: [0, 0],
            transform: self.transform,
        }
        .place(offset);
        let x = self.origin[0].checked_add(turned[0])?;
        let y = self.origin[1].checked_add(turned[1])?;
        (x.unsigned_abs() <= MAX_CELL.unsigned_abs() && y.unsigned_abs() <= MAX_CELL.unsigned_abs())
            .then_some([x, y])
    }
}

impl Pattern {
    /// Grid matching: for each orientation and each host vertex that can
    /// be pattern vertex 0, the other vertices are the ones in the cells
    /// the offsets point to; then edges and the complete-match checks.
    /// With `anchor` `(i, v)`, only frames that put pattern vertex `i` on
    /// host vertex `v` are tried.
    pub(super) fn grid_search_from(
        &self,
        host: &Graph,
        offsets: &[[i32; 2]],
        transforms: &[u8],
        anchor: Option<(usize, VertexId)>,
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (root, candidates): (usize, Vec<VertexId>) = match anchor {
            Some((i, v)) => (i, vec![v]),
            None => (
                0,
                match &self.vertices[0].tags {
                    TagTest::Any => host.vertex_ids().collect(),
                    TagTest::OneOf(tags) => tags
                        .iter()
                        .flat_map(|&t| host.vertices_tagged(t).iter().copied())
                        .collect(),
                },
            ),
        };
        let mut image = Match {
            vertices: vec![VertexId(u32::MAX); self.vertices.len()],
            edges: vec![EdgeId(u32::MAX); self.edges.len()],
            frame: None,
        };
        for &transform in transforms {
            'origin: for &h0 in &candidates {
                budget::spend()?;
                let Some(cell0) = host.vertex(h0).and_then(|v| v.cell) else {
                    continue;
                };
                let turned = Frame {
                    origin: [0, 0],
                    transform,
                }
                .place(offsets[root]);
                let (Some(ox), Some(oy)) = (
                    cell0[0].checked_sub(turned[0]),
                    cell0[1].checked_sub(turned[1]),
                ) else {
                    continue;
                };
                let frame = Frame {
                    origin: [ox, oy],
                    transform,
                };
                for (i, &offset) in offsets.iter().enumerate() {
                    let Some(cell) = frame.checked_place(offset) else {
                        continue 'origin;
                    };
                    match host.vertex_at(cell) {
                        Some(v) if self.vertex_fits(host, i, v) => image.vertices[i] = v,
                        _ => continue 'origin,
                    }
                }
                let mut used: Vec<EdgeId> = Vec::with_capacity(self.edges.len());
                for (j, pe) in self.edges.iter().enumerate() {
                    let (a, b) = (image.vertices[pe.source], image.vertices[pe.target]);
                    let found = self.find_edge(host, j, a, b, |e| !used.contains(&e));
                    match found {
                        Some(e) => {
                            image.edges[j] = e;
                            used.push(e);
                        }
                        None => continue 'origin,
                    }
                }
                image.frame = Some(frame);
                if self.conditions_hold(host, &image) {
                    visit(&image)?;
                }
            }
        }
        ControlFlow::Continue(())
    }
}
