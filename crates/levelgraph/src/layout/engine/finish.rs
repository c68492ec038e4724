//! The finished layout's output form ([`Layout`]): every room's and
//! corridor's outline and the door segment of every edge.

use super::run::{Partial, Run};
use crate::layout::polygon::GridPoint;
use crate::layout::template::Shape;
use crate::layout::{Door, Layout, PlacedRoom};

impl Run<'_, '_> {
    /// The finished layout's output form.
    pub(super) fn finish(&self, best: &Partial) -> Layout {
        let prep = self.prep;
        let placed = |s: u32, p: GridPoint| {
            let shape = &prep.shapes[s as usize];
            PlacedRoom {
                template: shape.template,
                transform: shape.transform,
                position: p,
                outline: shape.outline.points().iter().map(|&q| q + p).collect(),
            }
        };
        let rooms: Vec<PlacedRoom> = (0..best.shape.len())
            .map(|r| placed(best.shape[r], best.pos[r]))
            .collect();
        let mut doors = Vec::new();
        let mut corridors = Vec::new();
        for (k, &[a, b]) in prep.problem.edges.iter().enumerate() {
            let (sa, pa, sb, pb) = (best.shape[a], best.pos[a], best.shape[b], best.pos[b]);
            match best.corridor[k] {
                None => {
                    if let Some(segment) =
                        door_between(&prep.shapes[sa as usize], pa, &prep.shapes[sb as usize], pb)
                    {
                        doors.push(Door {
                            edge: k,
                            room: a,
                            corridor: None,
                            segment,
                        });
                    }
                }
                Some((c, pc)) => {
                    let cshape = &prep.shapes[c as usize];
                    for (room, s, p) in [(a, sa, pa), (b, sb, pb)] {
                        if let Some(segment) = door_between(&prep.shapes[s as usize], p, cshape, pc)
                        {
                            doors.push(Door {
                                edge: k,
                                room,
                                corridor: Some(corridors.len()),
                                segment,
                            });
                        }
                    }
                    corridors.push(placed(c, pc));
                }
            }
        }
        Layout {
            rooms,
            doors,
            corridors,
        }
    }
}

/// A door segment shared by shape `a` at `pa` and shape `b` at `pb`: the
/// middle one of the positions both door lines allow.
fn door_between(a: &Shape, pa: GridPoint, b: &Shape, pb: GridPoint) -> Option<[GridPoint; 2]> {
    let mut options: Vec<[GridPoint; 2]> = Vec::new();
    for da in &a.doors {
        for db in &b.doors {
            if da.normal.x != -db.normal.x || da.normal.y != -db.normal.y || da.length != db.length
            {
                continue;
            }
            let sa = da.start + pa;
            let sb = db.start + pb;
            let axis = da.axis;
            // Same line across the axis?
            let across = |p: GridPoint| p.x * axis.y + p.y * axis.x;
            if across(sa) != across(sb) {
                continue;
            }
            let along = |p: GridPoint| p.x * axis.x + p.y * axis.y;
            let lo = along(sa).max(along(sb));
            let hi = (along(sa) + da.extra as i32).min(along(sb) + db.extra as i32);
            if lo > hi {
                continue;
            }
            let mid = lo + (hi - lo) / 2;
            let at = |t: i32| {
                GridPoint::new(
                    if axis.x != 0 { t } else { sa.x },
                    if axis.y != 0 { t } else { sa.y },
                )
            };
            options.push([at(mid), at(mid + da.length as i32)]);
        }
    }
    options.sort();
    options.into_iter().next()
}
