//! Configuration spaces (Ma et al. 2014, section 4): for a fixed
//! shape at the origin and a moving shape, the set of integer translations
//! of the moving shape at which the two do not overlap and some door of
//! one meets a door of the other (same segment, opposite sides). Between
//! rooms joined through a corridor, the translations at which some
//! placement of a corridor shape meets a door of each room.
//!
//! A space is a list of integer boxes (`[x0, x1] × [y0, y1]`, inclusive):
//! door-to-door spaces are segments (boxes one point thick), spaces through
//! an L-shaped corridor can be areas. Boxes may overlap; membership and
//! intersection do not care.
//!
//! [`door_space_within`] and the last step of [`corridor_spaces`] are in
//! `doors.rs`, each both plainly (every translation against every pair of
//! rectangles) and by the plane sweep of `sweep.rs`, whose time grows
//! with the pairs of rectangles only; [`Work`] counts what building them
//! and a layout's run cost, against
//! [`LayoutSettings::max_work`](crate::layout::LayoutSettings::max_work).

use super::polygon::GridPoint;
use super::template::Shape;
#[cfg(test)]
pub(crate) use doors::door_space;
pub(crate) use doors::door_space_within;
use doors::{only_door, without_overlap_within};

/// The work a layout has done, against its budget
/// ([`LayoutSettings::max_work`](crate::layout::LayoutSettings::max_work)):
/// counters, never a clock, so that where a budget stops a layout is the
/// same on every machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Work {
    /// Units done so far.
    pub(crate) spent: u64,
    /// Most units allowed.
    pub(crate) max: u64,
}

/// The work budget ran out ([`Work::spend`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OutOfWork;

impl Work {
    /// Nothing done yet, at most `max` units allowed.
    pub(crate) fn budget(max: u64) -> Self {
        Self { spent: 0, max }
    }

    /// No limit (the tests' spaces).
    #[cfg(test)]
    pub(crate) fn unlimited() -> Self {
        Self::budget(u64::MAX)
    }

    /// Counts `units` of work about to be done.
    ///
    /// # Errors
    /// [`OutOfWork`] when they would take the total beyond the budget
    /// (they are counted all the same, so the total says how far it went).
    pub(crate) fn spend(&mut self, units: u64) -> Result<(), OutOfWork> {
        self.spent = self.spent.saturating_add(units);
        if self.spent > self.max {
            Err(OutOfWork)
        } else {
            Ok(())
        }
    }
}

/// An inclusive box of integer points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct PointBox {
    pub(crate) x0: i32,
    pub(crate) y0: i32,
    pub(crate) x1: i32,
    pub(crate) y1: i32,
}

impl PointBox {
    #[cfg(test)]
    fn point(p: GridPoint) -> Self {
        Self {
            x0: p.x,
            y0: p.y,
            x1: p.x,
            y1: p.y,
        }
    }

    pub(crate) fn contains(&self, p: GridPoint) -> bool {
        self.x0 <= p.x && p.x <= self.x1 && self.y0 <= p.y && p.y <= self.y1
    }

    /// The number of integer points in the box.
    pub(crate) fn count(&self) -> u64 {
        (self.x1 - self.x0 + 1) as u64 * (self.y1 - self.y0 + 1) as u64
    }

    fn shifted(&self, d: GridPoint) -> Self {
        Self {
            x0: self.x0 + d.x,
            y0: self.y0 + d.y,
            x1: self.x1 + d.x,
            y1: self.y1 + d.y,
        }
    }

    fn intersect(&self, o: &PointBox) -> Option<PointBox> {
        let b = PointBox {
            x0: self.x0.max(o.x0),
            y0: self.y0.max(o.y0),
            x1: self.x1.min(o.x1),
            y1: self.y1.min(o.y1),
        };
        (b.x0 <= b.x1 && b.y0 <= b.y1).then_some(b)
    }

    /// The `k`-th point in row-major order (`k < count()`).
    pub(crate) fn nth(&self, k: u64) -> GridPoint {
        let w = (self.x1 - self.x0 + 1) as u64;
        GridPoint::new(self.x0 + (k % w) as i32, self.y0 + (k / w) as i32)
    }
}

/// A set of integer translations, as boxes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ConfigSpace {
    pub(crate) boxes: Vec<PointBox>,
}

impl ConfigSpace {
    pub(crate) fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }

    /// Whether `p` is in the space. Boxes are sorted by `x0` (as
    /// [`normalise`] leaves them), so the scan stops at the first box that
    /// starts right of `p`.
    pub(crate) fn contains(&self, p: GridPoint) -> bool {
        self.boxes
            .iter()
            .take_while(|b| b.x0 <= p.x)
            .any(|b| b.contains(p))
    }

    /// This space moved by `d`.
    pub(crate) fn shifted(&self, d: GridPoint) -> ConfigSpace {
        ConfigSpace {
            boxes: self.boxes.iter().map(|b| b.shifted(d)).collect(),
        }
    }

    /// The space with every translation negated: the space of the pair
    /// the other way round (`fixed` and `moving` swapped), since both
    /// conditions (no overlap, doors that meet) are symmetric.
    pub(crate) fn negated(&self) -> ConfigSpace {
        let mut boxes: Vec<PointBox> = self
            .boxes
            .iter()
            .map(|b| PointBox {
                x0: -b.x1,
                y0: -b.y1,
                x1: -b.x0,
                y1: -b.y0,
            })
            .collect();
        boxes.sort_unstable();
        ConfigSpace { boxes }
    }

    /// The points in both (boxes may repeat points).
    #[cfg(test)]
    pub(crate) fn intersect(&self, other: &ConfigSpace) -> ConfigSpace {
        self.intersect_counted(other).0
    }

    /// The points in both (boxes may repeat points), and the boxes and
    /// pairs of boxes looked at (the work, see
    /// [`LayoutSettings::max_work`](crate::layout::LayoutSettings::max_work)).
    /// Both lists are sorted by `x0` (as [`normalise`] leaves them), so the
    /// scan over `other` stops at the first box that starts right of `a`.
    pub(crate) fn intersect_counted(&self, other: &ConfigSpace) -> (ConfigSpace, u64) {
        let mut boxes = Vec::new();
        let mut compared = (self.boxes.len() + other.boxes.len()) as u64;
        let (Some(sa), Some(sb)) = (self.bounds(), other.bounds()) else {
            return (ConfigSpace::default(), compared);
        };
        let Some(common) = sa.intersect(&sb) else {
            return (ConfigSpace::default(), compared);
        };
        for a in &self.boxes {
            let Some(a) = a.intersect(&common) else {
                continue;
            };
            for b in &other.boxes {
                compared += 1;
                if b.x0 > a.x1 {
                    break;
                }
                if let Some(c) = a.intersect(b) {
                    boxes.push(c);
                }
            }
        }
        normalise(&mut boxes);
        (ConfigSpace { boxes }, compared)
    }

    /// The smallest box around every point, if any.
    pub(crate) fn bounds(&self) -> Option<PointBox> {
        let first = *self.boxes.first()?;
        Some(self.boxes.iter().fold(first, |acc, b| PointBox {
            x0: acc.x0.min(b.x0),
            y0: acc.y0.min(b.y0),
            x1: acc.x1.max(b.x1),
            y1: acc.y1.max(b.y1),
        }))
    }

    /// Total points counted per box (a point in two boxes counts twice).
    pub(crate) fn weight(&self) -> u64 {
        self.boxes.iter().map(PointBox::count).sum()
    }

    /// The `k`-th point, `k < weight()`.
    pub(crate) fn nth(&self, mut k: u64) -> GridPoint {
        for b in &self.boxes {
            let c = b.count();
            if k < c {
                return b.nth(k);
            }
            k -= c;
        }
        unreachable!("k < weight()")
    }

    /// An end of the box that holds the `k`-th point (`k < weight()`):
    /// its lowest corner, or with `high` its highest. Of a door-to-door
    /// segment these are the translations at which the two rooms share
    /// the least wall.
    pub(crate) fn end_of_nth(&self, mut k: u64, high: bool) -> GridPoint {
        for b in &self.boxes {
            let c = b.count();
            if k < c {
                return if high {
                    GridPoint::new(b.x1, b.y1)
                } else {
                    GridPoint::new(b.x0, b.y0)
                };
            }
            k -= c;
        }
        unreachable!("k < weight()")
    }
}

impl ConfigSpace {
    /// The points of this space at which `moving` overlaps none of the
    /// placed shapes `placed` (shape, position), by cutting each box with
    /// the box of translations at which one rectangle of `moving` would
    /// overlap one rectangle of a placed shape (exact: two rectangles
    /// overlap exactly when the translation is in that box), the number
    /// of cuts made (box of this space × pair of rectangles that met it),
    /// and the work (see
    /// [`LayoutSettings::max_work`](crate::layout::LayoutSettings::max_work)):
    /// a unit per rectangle pair and per box it was tried on.
    pub(crate) fn without_overlaps(
        &self,
        moving: &Shape,
        placed: &[(&Shape, GridPoint)],
    ) -> (ConfigSpace, u64, u64) {
        let mut boxes = self.boxes.clone();
        let mut cuts = 0u64;
        let mut compared = 0u64;
        for &(shape, at) in placed {
            for b in &shape.rects {
                for a in &moving.rects {
                    // a + p meets b + at (open interiors) exactly when
                    // b.x0 + at.x - a.x1 < p.x < b.x1 + at.x - a.x0, and
                    // the same in y.
                    let cut = PointBox {
                        x0: b.x0 + at.x - a.x1 + 1,
                        y0: b.y0 + at.y - a.y1 + 1,
                        x1: b.x1 + at.x - a.x0 - 1,
                        y1: b.y1 + at.y - a.y0 - 1,
                    };
                    compared += 1;
                    if cut.x0 > cut.x1 || cut.y0 > cut.y1 {
                        continue;
                    }
                    compared += boxes.len() as u64;
                    let mut next = Vec::with_capacity(boxes.len());
                    for k in &boxes {
                        let Some(c) = k.intersect(&cut) else {
                            next.push(*k);
                            continue;
                        };
                        cuts += 1;
                        // Up to four pieces around the cut: below, above,
                        // and left and right within the cut's rows.
                        if k.y0 < c.y0 {
                            next.push(PointBox { y1: c.y0 - 1, ..*k });
                        }
                        if c.y1 < k.y1 {
                            next.push(PointBox { y0: c.y1 + 1, ..*k });
                        }
                        if k.x0 < c.x0 {
                            next.push(PointBox {
                                x1: c.x0 - 1,
                                y0: c.y0,
                                y1: c.y1,
                                ..*k
                            });
                        }
                        if c.x1 < k.x1 {
                            next.push(PointBox {
                                x0: c.x1 + 1,
                                y0: c.y0,
                                y1: c.y1,
                                ..*k
                            });
                        }
                    }
                    boxes = next;
                }
            }
        }
        normalise(&mut boxes);
        (ConfigSpace { boxes }, cuts, compared)
    }
}

/// Sorts, drops boxes inside others and merges collinear segments that
/// touch or overlap, so equal sets mostly get equal lists.
fn normalise(boxes: &mut Vec<PointBox>) {
    // Row by row first, so that the points of one row are neighbours.
    boxes.sort_unstable_by_key(|b| (b.y0, b.y1, b.x0, b.x1));
    boxes.dedup();
    // Merge horizontal segments on one row, then vertical ones on one column.
    let mut merged: Vec<PointBox> = Vec::with_capacity(boxes.len());
    for &b in boxes.iter() {
        if let Some(last) = merged.last_mut() {
            let row = last.y0 == last.y1 && b.y0 == b.y1 && last.y0 == b.y0;
            if row && b.x0 <= last.x1 + 1 {
                last.x1 = last.x1.max(b.x1);
                continue;
            }
        }
        merged.push(b);
    }
    merged.sort_unstable_by_key(|b| (b.x0, b.x1, b.y0, b.y1));
    let mut out: Vec<PointBox> = Vec::with_capacity(merged.len());
    for b in merged {
        if let Some(last) = out.last_mut() {
            let column = last.x0 == last.x1 && b.x0 == b.x1 && last.x0 == b.x0;
            if column && b.y0 <= last.y1 + 1 {
                last.y1 = last.y1.max(b.y1);
                continue;
            }
        }
        out.push(b);
    }
    // Thin boxes (segments and points) that repeat points were merged
    // above (a point merges into a segment of its row or column); only a
    // box with area can hold another, so the quadratic test runs only then.
    // `out` is sorted by x0 (then x1, y0, y1): the order `intersect` and
    // `contains` rely on.
    if !out.iter().any(|b| b.x0 < b.x1 && b.y0 < b.y1) {
        *boxes = out;
        return;
    }
    let keep: Vec<bool> = (0..out.len())
        .map(|i| {
            !out.iter().enumerate().any(|(j, o)| {
                j != i
                    && o.x0 <= out[i].x0
                    && out[i].x1 <= o.x1
                    && o.y0 <= out[i].y0
                    && out[i].y1 <= o.y1
                    && (o != &out[i] || j < i)
            })
        })
        .collect();
    let mut k = 0;
    out.retain(|_| {
        k += 1;
        keep[k - 1]
    });
    *boxes = out;
}

/// Translations of `moving` relative to `fixed` at the origin at which
/// some placement of one of `corridors` meets a door of `fixed` with one
/// of its doors and a door of `moving` with another, overlapping neither
/// room; and the two rooms do not overlap each other.
#[cfg(test)]
pub(crate) fn corridor_space(fixed: &Shape, moving: &Shape, corridors: &[Shape]) -> ConfigSpace {
    let all = [fixed.clone(), moving.clone()];
    corridor_spaces(&all, &[true, true], corridors, &mut Work::unlimited())
        .expect("no limit")
        .0
        .swap_remove(1)
}

/// The door spaces between rooms and corridors: what
/// [`corridor_spaces`] builds the pairs' spaces from, kept for placing the
/// corridors themselves.
#[derive(Clone, Debug, Default)]
pub(crate) struct CorridorDoors {
    /// `near[f][c][i]`: corridor `c` relative to room shape `f`, meeting
    /// it by the corridor's door `i`.
    near: Vec<Vec<Vec<ConfigSpace>>>,
    /// `far[c][j][m]`: room shape `m` relative to corridor `c`, meeting
    /// the corridor's door `j`.
    far: Vec<Vec<Vec<ConfigSpace>>>,
}

impl CorridorDoors {
    /// Positions of corridor `c` relative to room shape `f`, by its door `i`.
    pub(crate) fn near(&self, f: usize, c: usize, i: usize) -> &ConfigSpace {
        &self.near[f][c][i]
    }

    /// Positions of room shape `m` relative to corridor `c`, by its door `j`.
    pub(crate) fn far(&self, c: usize, j: usize, m: usize) -> &ConfigSpace {
        &self.far[c][j][m]
    }
}

/// The corridor configuration space (the tests' `corridor_space`) of
/// every ordered pair of `shapes` that both have `wanted`, as a
/// `shapes.len()²` table (`[fixed * s + moving]`; empty where not wanted),
/// with the door spaces it was built from. The door spaces between a room
/// and a corridor's door are computed once per room, corridor shape and
/// door, not once per pair. Each door space and each pair's space is
/// charged to `work` before it is built.
///
/// # Errors
/// [`OutOfWork`] when `work` runs out: then nothing more is built.
pub(crate) fn corridor_spaces(
    shapes: &[Shape],
    wanted: &[bool],
    corridors: &[Shape],
    work: &mut Work,
) -> Result<(Vec<ConfigSpace>, CorridorDoors), OutOfWork> {
    let s = shapes.len();
    // near[f][c][i]: corridor c relative to room f, meeting it by door i.
    // far[c][j][m]: room m relative to corridor c, meeting its door j.
    let mut near: Vec<Vec<Vec<ConfigSpace>>> = Vec::with_capacity(s);
    for f in 0..s {
        let mut of_room = Vec::with_capacity(corridors.len());
        for c in corridors {
            let mut of_doors = Vec::with_capacity(c.doors.len());
            for i in 0..c.doors.len() {
                of_doors.push(if wanted[f] {
                    door_space_within(&shapes[f], c, Some(i), work)?
                } else {
                    ConfigSpace::default()
                });
            }
            of_room.push(of_doors);
        }
        near.push(of_room);
    }
    let mut far: Vec<Vec<Vec<ConfigSpace>>> = Vec::with_capacity(corridors.len());
    for c in corridors {
        let mut of_doors = Vec::with_capacity(c.doors.len());
        for j in 0..c.doors.len() {
            let by_j = only_door(c, j);
            let mut of_room = Vec::with_capacity(s);
            for m in 0..s {
                of_room.push(if wanted[m] {
                    door_space_within(&by_j, &shapes[m], None, work)?
                } else {
                    ConfigSpace::default()
                });
            }
            of_doors.push(of_room);
        }
        far.push(of_doors);
    }
    let doors = CorridorDoors { near, far };
    let mut out = vec![ConfigSpace::default(); s * s];
    for f in 0..s {
        for m in 0..s {
            if !wanted[f] || !wanted[m] {
                continue;
            }
            if m < f {
                // The pair the other way round, already computed.
                out[f * s + m] = out[m * s + f].negated();
                continue;
            }
            let boxes = through_corridors(&doors, f, m);
            out[f * s + m] = without_overlap_within(&shapes[f], &shapes[m], &boxes, work)?;
        }
    }
    Ok((out, doors))
}

/// The translations of room shape `m` relative to room shape `f` at which
/// some corridor meets `f` by one of its doors and `m` by another, door
/// spaces aside from overlaps: per corridor and pair of its doors, the
/// Minkowski sum of every box of the one door space with every box of the
/// other (the sum of two boxes is a box).
fn through_corridors(doors: &CorridorDoors, f: usize, m: usize) -> Vec<PointBox> {
    let mut boxes = Vec::new();
    for (near, far) in doors.near[f].iter().zip(&doors.far) {
        for (first, near) in near.iter().enumerate() {
            for (second, far) in far.iter().enumerate() {
                if second == first {
                    continue;
                }
                for a in &near.boxes {
                    for b in &far[m].boxes {
                        boxes.push(PointBox {
                            x0: a.x0 + b.x0,
                            y0: a.y0 + b.y0,
                            x1: a.x1 + b.x1,
                            y1: a.y1 + b.y1,
                        });
                    }
                }
            }
        }
    }
    boxes
}

mod doors;
mod sweep;
#[cfg(test)]
mod tests;
