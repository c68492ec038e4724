//! Orthogonal polygons on the integer grid: the outlines of room templates
//! (Edgar-DotNet's `shape` lists).
//!
//! A polygon is stored counter-clockwise (x right, y up), without repeated
//! or collinear consecutive points, starting at its lowest point of the
//! smallest x. Every side is horizontal or vertical. Areas and overlaps are
//! exact integers: the polygon is cut into rectangles once
//! ([`OrthoPolygon::rectangles`]), and overlap is a sum over rectangle pairs.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A point of the integer grid, in grid units. Room positions, outlines
/// and door segments are all grid points. In JSON it is `[x, y]`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct GridPoint {
    /// Column, growing right.
    pub x: i32,
    /// Row, growing up (the SVG output flips it).
    pub y: i32,
}

impl GridPoint {
    /// The point `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }
}

impl From<[i32; 2]> for GridPoint {
    fn from([x, y]: [i32; 2]) -> Self {
        Self { x, y }
    }
}

impl From<GridPoint> for [i32; 2] {
    fn from(p: GridPoint) -> Self {
        [p.x, p.y]
    }
}

impl std::ops::Add for GridPoint {
    type Output = GridPoint;
    fn add(self, o: GridPoint) -> GridPoint {
        GridPoint::new(self.x + o.x, self.y + o.y)
    }
}

impl std::ops::Sub for GridPoint {
    type Output = GridPoint;
    fn sub(self, o: GridPoint) -> GridPoint {
        GridPoint::new(self.x - o.x, self.y - o.y)
    }
}

impl fmt::Display for GridPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.x, self.y)
    }
}

/// An axis-aligned rectangle `[x0, x1) × [y0, y1)` in grid units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Smallest x.
    pub x0: i32,
    /// Smallest y.
    pub y0: i32,
    /// Largest x (exclusive as a cell range, the right side as geometry).
    pub x1: i32,
    /// Largest y.
    pub y1: i32,
}

impl Rect {
    /// The area of the intersection with `other` moved by `shift`.
    pub fn overlap(&self, other: &Rect, shift: GridPoint) -> i64 {
        let w = self.x1.min(other.x1 + shift.x) - self.x0.max(other.x0 + shift.x);
        let h = self.y1.min(other.y1 + shift.y) - self.y0.max(other.y0 + shift.y);
        if w > 0 && h > 0 {
            i64::from(w) * i64::from(h)
        } else {
            0
        }
    }

    /// The gap between the two rectangles (the other moved by `shift`)
    /// along the axis where they are farthest apart: 0 when they touch or
    /// overlap, else the larger of the horizontal and vertical gaps
    /// (the L∞ distance between the two boxes).
    pub fn gap(&self, other: &Rect, shift: GridPoint) -> i32 {
        let gx = (other.x0 + shift.x - self.x1).max(self.x0 - (other.x1 + shift.x));
        let gy = (other.y0 + shift.y - self.y1).max(self.y0 - (other.y1 + shift.y));
        gx.max(gy).max(0)
    }
}

/// Why a list of points is not an orthogonal polygon.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PolygonError {
    /// Fewer than four distinct corners.
    #[error("a room outline needs at least 4 corners, found {0}")]
    TooFewPoints(usize),
    /// A side that is neither horizontal nor vertical.
    #[error("side {from} → {to} is neither horizontal nor vertical")]
    Diagonal {
        /// Its first corner.
        from: GridPoint,
        /// Its second corner.
        to: GridPoint,
    },
    /// Two sides that cross or overlap, or a corner visited twice.
    #[error("the outline crosses or touches itself near {0}")]
    SelfIntersecting(GridPoint),
    /// Zero area.
    #[error("the outline encloses no area")]
    Empty,
    /// A coordinate outside ±1,000,000.
    #[error("coordinate {0} is outside ±1000000")]
    TooLarge(GridPoint),
    /// More than [`MAX_CORNERS`] points listed.
    #[error("the outline lists {0} corners; a room may have at most {MAX_CORNERS}")]
    TooManyCorners(usize),
}

/// Largest coordinate a template may use: keeps every area and squared
/// distance of a layout far inside `i64`.
pub const MAX_COORDINATE: i32 = 1_000_000;

/// Most corners an outline may list (counted as given, repeated and
/// collinear ones included). A layout's cost grows with its rooms'
/// corners: the configuration spaces of two shapes of `c` corners take
/// time near `c²` (their rectangle pairs, and their door-line pairs), and
/// every energy term of two placed rooms takes `c²`/4 rectangle pairs.
/// The configuration spaces of three rooms of a 500-corner staircase
/// (`bench/stairs-map.sh 500`) take 0.6 s on the EPYC of BENCHMARKS.md
/// ("The CLI end to end"); of 1,000 corners, were they allowed, 2.9 s.
/// Edgar's own templates have at most 12 corners. Validating an outline
/// is itself quadratic in its points (self-crossings, collinear points),
/// so the count is checked first.
pub const MAX_CORNERS: usize = 512;

/// An orthogonal polygon with integer corners (see the module docs for
/// its normal form).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrthoPolygon {
    points: Vec<GridPoint>,
}

impl OrthoPolygon {
    /// Validates and normalises `points` (either orientation; repeated and
    /// collinear points are dropped; the polygon is not moved).
    ///
    /// # Errors
    /// [`PolygonError`] when the points are not a simple orthogonal
    /// polygon with positive area, or are more than [`MAX_CORNERS`].
    pub fn new(points: &[GridPoint]) -> Result<Self, PolygonError> {
        if points.len() > MAX_CORNERS {
            return Err(PolygonError::TooManyCorners(points.len()));
        }
        if let Some(&p) = points
            .iter()
            .find(|p| p.x.abs() > MAX_COORDINATE || p.y.abs() > MAX_COORDINATE)
        {
            return Err(PolygonError::TooLarge(p));
        }
        let mut pts: Vec<GridPoint> = Vec::with_capacity(points.len());
        for &p in points {
            if pts.last() != Some(&p) {
                pts.push(p);
            }
        }
        while pts.len() > 1 && pts.first() == pts.last() {
            pts.pop();
        }
        // Drop collinear corners until none is left (a corner whose two
        // sides go the same way or straight back).
        loop {
            let n = pts.len();
            if n < 3 {
                break;
            }
            let Some(i) = (0..n).find(|&i| {
                let (a, b, c) = (pts[(i + n - 1) % n], pts[i], pts[(i + 1) % n]);
                (a.x == b.x && b.x == c.x) || (a.y == b.y && b.y == c.y)
            }) else {
                break;
            };
            pts.remove(i);
        }
        if pts.len() < 4 {
            return Err(PolygonError::TooFewPoints(pts.len()));
        }
        let n = pts.len();
        for i in 0..n {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            if a.x != b.x && a.y != b.y {
                return Err(PolygonError::Diagonal { from: a, to: b });
            }
        }
        let twice_area: i64 = (0..n)
            .map(|i| {
                let (a, b) = (pts[i], pts[(i + 1) % n]);
                i64::from(a.x) * i64::from(b.y) - i64::from(b.x) * i64::from(a.y)
            })
            .sum();
        if twice_area == 0 {
            return Err(PolygonError::Empty);
        }
        if twice_area < 0 {
            pts.reverse();
        }
        if let Some(p) = self_intersection(&pts) {
            return Err(PolygonError::SelfIntersecting(p));
        }
        let first = (0..n).min_by_key(|&i| (pts[i].x, pts[i].y)).unwrap_or(0);
        pts.rotate_left(first);
        Ok(Self { points: pts })
    }

    /// The axis-aligned rectangle `[x0, x1] × [y0, y1]` as a polygon.
    ///
    /// # Errors
    /// [`PolygonError::Empty`] when it has no area.
    pub fn rectangle(x0: i32, y0: i32, x1: i32, y1: i32) -> Result<Self, PolygonError> {
        Self::new(&[
            GridPoint::new(x0, y0),
            GridPoint::new(x1, y0),
            GridPoint::new(x1, y1),
            GridPoint::new(x0, y1),
        ])
    }

    /// The corners, counter-clockwise.
    pub fn points(&self) -> &[GridPoint] {
        &self.points
    }

    /// The sides as `(from, to)` pairs, counter-clockwise: the interior is
    /// on the left of each.
    pub fn sides(&self) -> impl Iterator<Item = (GridPoint, GridPoint)> + '_ {
        let n = self.points.len();
        (0..n).map(move |i| (self.points[i], self.points[(i + 1) % n]))
    }

    /// The bounding box.
    pub fn bounds(&self) -> Rect {
        let mut r = Rect {
            x0: i32::MAX,
            y0: i32::MAX,
            x1: i32::MIN,
            y1: i32::MIN,
        };
        for p in &self.points {
            r.x0 = r.x0.min(p.x);
            r.y0 = r.y0.min(p.y);
            r.x1 = r.x1.max(p.x);
            r.y1 = r.y1.max(p.y);
        }
        r
    }

    /// The area in square grid units.
    pub fn area(&self) -> i64 {
        self.rectangles()
            .iter()
            .map(|r| i64::from(r.x1 - r.x0) * i64::from(r.y1 - r.y0))
            .sum()
    }

    /// The polygon moved by `shift`.
    pub fn translated(&self, shift: GridPoint) -> Self {
        Self {
            points: self.points.iter().map(|&p| p + shift).collect(),
        }
    }

    /// The polygon under `t` (about the origin), moved so that its
    /// bounding box starts at `(0, 0)`.
    pub fn transformed(&self, t: Transform) -> Self {
        let pts: Vec<GridPoint> = self.points.iter().map(|&p| t.apply(p)).collect();
        let poly = Self::new(&pts).expect("a transform keeps a valid polygon valid");
        let b = poly.bounds();
        poly.translated(GridPoint::new(-b.x0, -b.y0))
    }

    /// A cut into disjoint rectangles (vertical slabs between consecutive
    /// corner x coordinates, merged where neighbouring slabs agree).
    pub fn rectangles(&self) -> Vec<Rect> {
        let mut xs: Vec<i32> = self.points.iter().map(|p| p.x).collect();
        xs.sort_unstable();
        xs.dedup();
        let mut out: Vec<Rect> = Vec::new();
        // Open rectangles of the previous slab, by their y range.
        let mut open: Vec<Rect> = Vec::new();
        for w in xs.windows(2) {
            let (x0, x1) = (w[0], w[1]);
            let mid2 = x0 + x1; // twice the slab's middle x
                                // The y values where a horizontal side spans this slab.
            let mut ys: Vec<i32> = self
                .sides()
                .filter(|(a, b)| a.y == b.y && 2 * a.x.min(b.x) < mid2 && 2 * a.x.max(b.x) > mid2)
                .map(|(a, _)| a.y)
                .collect();
            ys.sort_unstable();
            let intervals: Vec<(i32, i32)> = ys.chunks(2).map(|c| (c[0], c[1])).collect();
            let mut next_open = Vec::with_capacity(intervals.len());
            for (y0, y1) in intervals {
                if let Some(k) = open.iter().position(|r| r.y0 == y0 && r.y1 == y1) {
                    let mut r = open.swap_remove(k);
                    r.x1 = x1;
                    next_open.push(r);
                } else {
                    next_open.push(Rect { x0, y0, x1, y1 });
                }
            }
            out.append(&mut open);
            open = next_open;
        }
        out.append(&mut open);
        out.sort_by_key(|r| (r.x0, r.y0));
        out
    }
}

/// A corner where two non-adjacent sides meet, if any.
fn self_intersection(pts: &[GridPoint]) -> Option<GridPoint> {
    let n = pts.len();
    let side = |i: usize| (pts[i], pts[(i + 1) % n]);
    for i in 0..n {
        for j in i + 1..n {
            if j == i + 1 || (i == 0 && j == n - 1) {
                continue;
            }
            let (a, b) = side(i);
            let (c, d) = side(j);
            if let Some(p) = closed_segments_meet(a, b, c, d) {
                return Some(p);
            }
        }
    }
    None
}

/// A common point of two closed axis-parallel segments, if any.
fn closed_segments_meet(
    a: GridPoint,
    b: GridPoint,
    c: GridPoint,
    d: GridPoint,
) -> Option<GridPoint> {
    let x0 = a.x.min(b.x).max(c.x.min(d.x));
    let x1 = a.x.max(b.x).min(c.x.max(d.x));
    let y0 = a.y.min(b.y).max(c.y.min(d.y));
    let y1 = a.y.max(b.y).min(c.y.max(d.y));
    (x0 <= x1 && y0 <= y1).then_some(GridPoint::new(x0, y0))
}

/// One of the 8 symmetries of the square grid: an optional mirror
/// (`x → −x`) followed by `rotation` quarter turns counter-clockwise.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Transform {
    /// Quarter turns counter-clockwise, 0..=3.
    pub rotation: u8,
    /// Mirrored before turning.
    pub mirror: bool,
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform {
        rotation: 0,
        mirror: false,
    };

    /// The four rotations, then (with `mirror`) the four mirrored ones.
    pub fn all(mirror: bool) -> impl Iterator<Item = Transform> {
        let mirrors: &'static [bool] = if mirror { &[false, true] } else { &[false] };
        mirrors.iter().flat_map(|&m| {
            (0..4).map(move |r| Transform {
                rotation: r,
                mirror: m,
            })
        })
    }

    /// `p` under the transform, about the origin.
    pub fn apply(self, p: GridPoint) -> GridPoint {
        let mut q = if self.mirror {
            GridPoint::new(-p.x, p.y)
        } else {
            p
        };
        for _ in 0..self.rotation % 4 {
            q = GridPoint::new(-q.y, q.x);
        }
        q
    }

    /// A short name: `r0`, `r90`, `r180`, `r270`, `m0`, `m90`, … (`m`:
    /// mirrored, then turned by the degrees).
    pub fn name(self) -> String {
        format!(
            "{}{}",
            if self.mirror { 'm' } else { 'r' },
            u32::from(self.rotation % 4) * 90
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(p: &[(i32, i32)]) -> Result<OrthoPolygon, PolygonError> {
        OrthoPolygon::new(
            &p.iter()
                .map(|&(x, y)| GridPoint::new(x, y))
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn normal_form_is_counter_clockwise_from_the_lowest_left_corner() {
        // Edgar writes outlines clockwise: [[0,0],[0,6],[6,6],[6,0]].
        let p = poly(&[(0, 0), (0, 6), (6, 6), (6, 0)]).unwrap();
        assert_eq!(
            p.points(),
            &[
                GridPoint::new(0, 0),
                GridPoint::new(6, 0),
                GridPoint::new(6, 6),
                GridPoint::new(0, 6)
            ]
        );
        assert_eq!(p.area(), 36);
        // Collinear and repeated points go.
        let q = poly(&[(0, 0), (3, 0), (6, 0), (6, 6), (6, 6), (0, 6), (0, 0)]).unwrap();
        assert_eq!(q, p);
    }

    #[test]
    fn bad_outlines_are_refused() {
        assert!(matches!(
            poly(&[(0, 0), (2, 2), (0, 2)]),
            Err(PolygonError::TooFewPoints(3))
        ));
        assert!(matches!(
            poly(&[(0, 0), (4, 0), (4, 4), (1, 5)]),
            Err(PolygonError::Diagonal { .. })
        ));
        // Figure eights: two squares whose sides cross. Equal squares wind
        // both ways and enclose nothing; unequal ones cross.
        assert!(matches!(
            poly(&[(0, 0), (2, 0), (2, 4), (4, 4), (4, 2), (0, 2)]),
            Err(PolygonError::Empty)
        ));
        assert!(matches!(
            poly(&[(0, 0), (2, 0), (2, 5), (5, 5), (5, 2), (0, 2)]),
            Err(PolygonError::SelfIntersecting(_))
        ));
        assert!(matches!(
            poly(&[(0, 0), (5_000_000, 0), (5_000_000, 1), (0, 1)]),
            Err(PolygonError::TooLarge(_))
        ));
    }

    #[test]
    fn rectangles_cover_an_l_shape_and_a_t_shape_exactly() {
        // Edgar's small L and regular T (otherShapes.yml).
        let l = poly(&[(0, 0), (0, 6), (3, 6), (3, 3), (6, 3), (6, 0)]).unwrap();
        assert_eq!(l.area(), 27);
        let t = poly(&[
            (0, 0),
            (0, 3),
            (3, 3),
            (3, 6),
            (6, 6),
            (6, 3),
            (9, 3),
            (9, 0),
        ])
        .unwrap();
        assert_eq!(t.area(), 36);
        // Every unit cell is inside exactly one rectangle iff it is inside
        // the polygon (tested by the crossing rule at the cell's centre).
        for p in [&l, &t] {
            let rects = p.rectangles();
            let b = p.bounds();
            for x in b.x0..b.x1 {
                for y in b.y0..b.y1 {
                    let covered = rects
                        .iter()
                        .filter(|r| r.x0 <= x && x < r.x1 && r.y0 <= y && y < r.y1)
                        .count();
                    let (cx, cy) = (2 * x + 1, 2 * y + 1);
                    let crossings = p
                        .sides()
                        .filter(|(a, b)| {
                            a.x == b.x
                                && 2 * a.x > cx
                                && 2 * a.y.min(b.y) < cy
                                && 2 * a.y.max(b.y) > cy
                        })
                        .count();
                    assert_eq!(covered, crossings % 2, "cell ({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn transforms_form_the_symmetry_group_of_the_square() {
        let p = GridPoint::new(2, 1);
        let images: std::collections::BTreeSet<_> =
            Transform::all(true).map(|t| t.apply(p)).collect();
        assert_eq!(images.len(), 8);
        let quarter = Transform {
            rotation: 1,
            mirror: false,
        };
        assert_eq!(quarter.apply(p), GridPoint::new(-1, 2));
        // A transformed outline starts at the origin and keeps its area.
        let l = poly(&[(0, 0), (0, 6), (3, 6), (3, 3), (6, 3), (6, 0)]).unwrap();
        for t in Transform::all(true) {
            let m = l.transformed(t);
            let b = m.bounds();
            assert_eq!((b.x0, b.y0), (0, 0));
            assert_eq!(m.area(), l.area());
        }
    }

    #[test]
    fn overlap_and_gap_of_rectangles() {
        let a = Rect {
            x0: 0,
            y0: 0,
            x1: 4,
            y1: 4,
        };
        assert_eq!(a.overlap(&a, GridPoint::new(2, 3)), 2);
        assert_eq!(a.overlap(&a, GridPoint::new(4, 0)), 0);
        assert_eq!(a.gap(&a, GridPoint::new(4, 0)), 0);
        assert_eq!(a.gap(&a, GridPoint::new(6, 1)), 2);
        assert_eq!(a.gap(&a, GridPoint::new(-7, -5)), 3);
    }
}
