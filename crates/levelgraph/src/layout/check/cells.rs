//! Cells: outlines rasterised into unit cells by the even-odd rule, a
//! door's unit segments, and how far a side runs past a segment on it.

use super::OutlineFault;
use crate::layout::polygon::GridPoint;
use std::collections::BTreeSet;

/// A unit cell: the square `[x, x+1] × [y, y+1]` (wide integers, so that
/// no sum of coordinates can overflow).
pub(super) type Cell = (i64, i64);

/// Largest bounding box (in cells) of an outline that is rasterised.
const MAX_BOX_CELLS: i64 = 4_000_000;

/// The cells whose centre lies inside the closed polyline `points` by the
/// even-odd rule (a ray from the centre towards +x; any polygon, not only
/// orthogonal ones).
pub(super) fn raster(points: &[Cell]) -> Result<BTreeSet<Cell>, OutlineFault> {
    let mut cells = BTreeSet::new();
    let (Some(x0), Some(x1), Some(y0), Some(y1)) = (
        points.iter().map(|p| p.0).min(),
        points.iter().map(|p| p.0).max(),
        points.iter().map(|p| p.1).min(),
        points.iter().map(|p| p.1).max(),
    ) else {
        return Ok(cells);
    };
    if (x1 - x0).saturating_mul(y1 - y0) > MAX_BOX_CELLS {
        return Err(OutlineFault::TooLarge {
            width: x1 - x0,
            height: y1 - y0,
        });
    }
    for x in x0..x1 {
        for y in y0..y1 {
            if inside(points, 2 * x + 1, 2 * y + 1) {
                cells.insert((x, y));
            }
        }
    }
    Ok(cells)
}

/// Whether the point `(cx, cy) / 2` is inside `points` by the even-odd
/// rule. Doubled coordinates keep everything integral; a cell centre is
/// never at the height of a corner, so every crossing is proper.
fn inside(points: &[Cell], cx: i64, cy: i64) -> bool {
    let n = points.len();
    let mut odd = false;
    for i in 0..n {
        let (ax, ay) = (2 * points[i].0, 2 * points[i].1);
        let (bx, by) = (2 * points[(i + 1) % n].0, 2 * points[(i + 1) % n].1);
        if (ay > cy) != (by > cy) {
            // The side crosses the line y = cy at x = ax + (cy − ay)(bx −
            // ax)/(by − ay); it is right of cx iff num / (by − ay) > 0.
            let num = i128::from(ax - cx) * i128::from(by - ay)
                + i128::from(cy - ay) * i128::from(bx - ax);
            if num != 0 && (num > 0) == (by > ay) {
                odd = !odd;
            }
        }
    }
    odd
}

/// The unit segments of a straight segment of positive length, from its
/// lower-left end: each as (the cell on its upper or right side, the cell
/// on its lower or left side, its two ends).
pub(super) fn units_of(segment: [GridPoint; 2]) -> Vec<(Cell, Cell, [GridPoint; 2])> {
    let [s, t] = segment;
    let (lo, hi) = if (s.x, s.y) <= (t.x, t.y) {
        (s, t)
    } else {
        (t, s)
    };
    let horizontal = lo.y == hi.y;
    let len = (hi.x - lo.x) + (hi.y - lo.y);
    (0..len)
        .map(|k| {
            let (a, b) = if horizontal {
                (
                    GridPoint::new(lo.x + k, lo.y),
                    GridPoint::new(lo.x + k + 1, lo.y),
                )
            } else {
                (
                    GridPoint::new(lo.x, lo.y + k),
                    GridPoint::new(lo.x, lo.y + k + 1),
                )
            };
            let (x, y) = (i64::from(a.x), i64::from(a.y));
            let minus = if horizontal { (x, y - 1) } else { (x - 1, y) };
            ((x, y), minus, [a, b])
        })
        .collect()
}

/// Whether the straight segment lies on one side of the region `cells`
/// (every unit segment of it on the boundary, with the inside on the same
/// hand); if so, how far the side runs on past each end of it.
pub(super) fn side_distance(cells: &BTreeSet<Cell>, segment: [GridPoint; 2]) -> Option<(i64, i64)> {
    let [s, t] = segment;
    if s == t || (s.x != t.x && s.y != t.y) {
        return None;
    }
    // Which side of the unit segment from `start` along the segment's
    // axis the inside is on (`Some(true)`: above or right), if it is a
    // boundary segment at all.
    let horizontal = s.y == t.y;
    let hand = |start: Cell| -> Option<bool> {
        let minus = if horizontal {
            (start.0, start.1 - 1)
        } else {
            (start.0 - 1, start.1)
        };
        match (cells.contains(&start), cells.contains(&minus)) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        }
    };
    let step = |c: Cell, k: i64| -> Cell {
        if horizontal {
            (c.0 + k, c.1)
        } else {
            (c.0, c.1 + k)
        }
    };
    let units = units_of(segment);
    let lo = units.first()?.0;
    let hi_start = units.last()?.0;
    let inside_hand = hand(lo)?;
    if units.iter().any(|u| hand(u.0) != Some(inside_hand)) {
        return None;
    }
    // Walk along the side past each end until it turns (the region is
    // finite, so both walks end).
    let mut before = 0;
    while hand(step(lo, -(before + 1))) == Some(inside_hand) {
        before += 1;
    }
    let mut after = 0;
    while hand(step(hi_start, after + 1)) == Some(inside_hand) {
        after += 1;
    }
    Some((before, after))
}
