//! Plane geometry: vectors, orientation, segment crossing, the similarity
//! that carries a rule's drawing onto a host edge, and the two spring
//! shapes' functions; for the geometric derivation, the room layout's
//! embedding and the pictures.
//!
//! Only IEEE-exact operations (+, −, ×, ÷, sqrt) are used, also for the
//! logarithm ([`ln`]), so that drawings are the same bytes on every
//! platform (ARCHITECTURE.md, "determinism").

use crate::graph::Point;

/// Eight unit directions, counter-clockwise from `[1, 0]` in a y-up frame
/// (clockwise on screen), with exact constants: no trigonometry, whose
/// last bits differ by platform.
pub(crate) const COMPASS: [Point; 8] = [
    [1.0, 0.0],
    [
        std::f64::consts::FRAC_1_SQRT_2,
        std::f64::consts::FRAC_1_SQRT_2,
    ],
    [0.0, 1.0],
    [
        -std::f64::consts::FRAC_1_SQRT_2,
        std::f64::consts::FRAC_1_SQRT_2,
    ],
    [-1.0, 0.0],
    [
        -std::f64::consts::FRAC_1_SQRT_2,
        -std::f64::consts::FRAC_1_SQRT_2,
    ],
    [0.0, -1.0],
    [
        std::f64::consts::FRAC_1_SQRT_2,
        -std::f64::consts::FRAC_1_SQRT_2,
    ],
];

/// `a − b`.
pub(crate) fn sub(a: Point, b: Point) -> Point {
    [a[0] - b[0], a[1] - b[1]]
}

/// The z component of the cross product `a × b`: positive when `b` is
/// counter-clockwise from `a` (in a y-up frame).
pub(crate) fn cross(a: Point, b: Point) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

/// Euclidean length of `a`.
pub(crate) fn norm(a: Point) -> f64 {
    (a[0] * a[0] + a[1] * a[1]).sqrt()
}

/// Distance between `a` and `b`.
pub(crate) fn distance(a: Point, b: Point) -> f64 {
    norm(sub(a, b))
}

/// The point of the segment `a b` nearest to `p`, as the parameter `t` in
/// [0, 1] along it and the offset `p − (a + t·(b − a))` from that point to
/// `p`. A zero-length segment gives `t = 0`.
pub(crate) fn off_segment(p: Point, a: Point, b: Point) -> (f64, Point) {
    let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
    let len2 = ex * ex + ey * ey;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (t, [p[0] - (a[0] + t * ex), p[1] - (a[1] + t * ey)])
}

/// The sine of the signed angle from `a − at` to `b − at`; 0 when either
/// is a zero vector.
pub(crate) fn signed_sine(at: Point, a: Point, b: Point) -> f64 {
    let (u, v) = (sub(a, at), sub(b, at));
    let lengths = norm(u) * norm(v);
    if lengths <= 0.0 {
        0.0
    } else {
        cross(u, v) / lengths
    }
}

/// Orientation of the triangle `a b c`: > 0 counter-clockwise, < 0
/// clockwise, 0 collinear.
fn orient(a: Point, b: Point, c: Point) -> f64 {
    cross(sub(b, a), sub(c, a))
}

/// Whether `p`, known to be collinear with `a b`, lies within the segment's
/// bounding box.
fn on_segment(a: Point, b: Point, p: Point) -> bool {
    p[0] >= a[0].min(b[0])
        && p[0] <= a[0].max(b[0])
        && p[1] >= a[1].min(b[1])
        && p[1] <= a[1].max(b[1])
}

/// Whether the closed segments `a b` and `c d` have a point in common
/// (a touch or a collinear overlap counts as a crossing).
pub fn segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool {
    let (d1, d2) = (orient(c, d, a), orient(c, d, b));
    let (d3, d4) = (orient(a, b, c), orient(a, b, d));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    (d1 == 0.0 && on_segment(c, d, a))
        || (d2 == 0.0 && on_segment(c, d, b))
        || (d3 == 0.0 && on_segment(a, b, c))
        || (d4 == 0.0 && on_segment(a, b, d))
}

/// A similarity of the plane (rotation, uniform scale and translation,
/// no reflection): `p ↦ to + (p − from) · z`, with `z` a complex number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Similarity {
    from: Point,
    to: Point,
    z: Point,
}

impl Similarity {
    /// The similarity that takes `a` to `a2` and `b` to `b2` (geometric
    /// derivation: fresh vertices are placed relative to a pattern edge
    /// used as a basis). `None` when `a` and `b` coincide.
    pub(crate) fn between(a: Point, b: Point, a2: Point, b2: Point) -> Option<Self> {
        let (u, v) = (sub(b, a), sub(b2, a2));
        let den = u[0] * u[0] + u[1] * u[1];
        if den <= 0.0 {
            return None;
        }
        // z = v / u as complex numbers.
        let z = [
            (v[0] * u[0] + v[1] * u[1]) / den,
            (v[1] * u[0] - v[0] * u[1]) / den,
        ];
        Some(Similarity { from: a, to: a2, z })
    }

    /// The translation taking `from` to `to`, scaled by `scale`.
    pub(crate) fn translation(from: Point, to: Point, scale: f64) -> Self {
        Similarity {
            from,
            to,
            z: [scale, 0.0],
        }
    }

    /// The image of `p`.
    pub(crate) fn apply(&self, p: Point) -> Point {
        let q = sub(p, self.from);
        [
            self.to[0] + q[0] * self.z[0] - q[1] * self.z[1],
            self.to[1] + q[0] * self.z[1] + q[1] * self.z[0],
        ]
    }
}

pub(crate) use crate::exact::ln;

/// An algebraic sigmoid, `x / √(1 + x²)`: odd, increasing, in (−1, 1),
/// with IEEE-exact operations only.
pub(crate) fn sigmoid(x: f64) -> f64 {
    x / (1.0 + x * x).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_segments_touching_and_apart() {
        let p = |x: f64, y: f64| [x, y];
        // An X.
        assert!(segments_cross(p(0., 0.), p(2., 2.), p(0., 2.), p(2., 0.)));
        // A T: an end on the other segment counts.
        assert!(segments_cross(p(0., 0.), p(2., 0.), p(1., 0.), p(1., 3.)));
        // Collinear overlap counts; collinear apart does not.
        assert!(segments_cross(p(0., 0.), p(2., 0.), p(1., 0.), p(3., 0.)));
        assert!(!segments_cross(p(0., 0.), p(1., 0.), p(2., 0.), p(3., 0.)));
        // Parallel, and near misses.
        assert!(!segments_cross(p(0., 0.), p(2., 0.), p(0., 1.), p(2., 1.)));
        assert!(!segments_cross(p(0., 0.), p(2., 2.), p(3., 0.), p(2.1, 1.)));
    }

    #[test]
    fn a_similarity_maps_the_basis_and_keeps_orientation() {
        let s = Similarity::between([0., 0.], [1., 0.], [2., 2.], [2., 4.]).unwrap();
        assert_eq!(s.apply([0., 0.]), [2., 2.]);
        assert_eq!(s.apply([1., 0.]), [2., 4.]);
        // A point left of the basis stays left of it (rotation, no mirror).
        let q = s.apply([0.5, 1.0]);
        assert!(signed_sine([2., 2.], [2., 4.], q) > 0.0);
        assert!(signed_sine([0., 0.], [1., 0.], [0.5, 1.0]) > 0.0);
        assert!(Similarity::between([1., 1.], [1., 1.], [0., 0.], [1., 0.]).is_none());
    }
}
