//! Outlines and paths of cells for the object layer: bounding boxes,
//! outlines traced clockwise, straight runs reduced to their ends.

use std::collections::BTreeMap;

/// `(min x, min y, max x, max y)` of non-empty `points`.
pub(super) fn bounding_box(points: &[[u32; 2]]) -> (u32, u32, u32, u32) {
    points
        .iter()
        .fold((u32::MAX, u32::MAX, 0, 0), |(x0, y0, x1, y1), &[x, y]| {
            (x0.min(x), y0.min(y), x1.max(x), y1.max(y))
        })
}

/// A closed outline without repeated points and without points in the
/// middle of a straight edge.
pub(super) fn simplify_loop(outline: &[[u32; 2]]) -> Vec<[u32; 2]> {
    let mut points: Vec<[u32; 2]> = Vec::with_capacity(outline.len());
    for &p in outline {
        if points.last() != Some(&p) {
            points.push(p);
        }
    }
    while points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    // Dropping a point can make its neighbours collinear with the next, so
    // repeat until nothing changes (each pass drops at least one point).
    loop {
        let n = points.len();
        if n < 3 {
            return points;
        }
        let keep: Vec<bool> = (0..n)
            .map(|i| !collinear(points[(i + n - 1) % n], points[i], points[(i + 1) % n]))
            .collect();
        if keep.iter().all(|&k| k) {
            return points;
        }
        points = points
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(&p, _)| p)
            .collect();
    }
}

/// An open path with only its ends and turns.
pub(super) fn simplify_path(path: &[[u32; 2]]) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> = Vec::new();
    for &p in path {
        if out.len() >= 2 && collinear(out[out.len() - 2], out[out.len() - 1], p) {
            out.pop();
        }
        out.push(p);
    }
    out
}

/// Whether `b` lies on the straight line through `a` and `c` (axis
/// parallel: outlines and walks of cells only turn at right angles).
pub(super) fn collinear(a: [u32; 2], b: [u32; 2], c: [u32; 2]) -> bool {
    (a[0] == b[0] && b[0] == c[0]) || (a[1] == b[1] && b[1] == c[1])
}

/// The outline of a set of cells in cell-corner coordinates, clockwise on
/// screen, starting at the top-left corner of the topmost, leftmost cell;
/// `None` unless the cells' boundary is one simple loop (4-connected, no
/// holes, no two cells touching only at a corner).
pub(super) fn trace_outline(cells: &[[u32; 2]]) -> Option<Vec<[u32; 2]>> {
    let set: std::collections::BTreeSet<[u32; 2]> = cells.iter().copied().collect();
    let has = |x: u32, y: u32, dx: i64, dy: i64| {
        let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
        nx >= 0 && ny >= 0 && set.contains(&[nx as u32, ny as u32])
    };
    // Boundary edges with the cells on their right, from start to end
    // corner; a corner starting two edges is a pinch.
    let mut next: BTreeMap<[u32; 2], [u32; 2]> = BTreeMap::new();
    let mut n_edges = 0usize;
    for &[x, y] in &set {
        let edges = [
            (has(x, y, 0, -1), [x, y], [x + 1, y]),
            (has(x, y, 1, 0), [x + 1, y], [x + 1, y + 1]),
            (has(x, y, 0, 1), [x + 1, y + 1], [x, y + 1]),
            (has(x, y, -1, 0), [x, y + 1], [x, y]),
        ];
        for (shared, from, to) in edges {
            if !shared {
                n_edges += 1;
                if next.insert(from, to).is_some() {
                    return None;
                }
            }
        }
    }
    // The set is ordered by [x, y]; the loop starts at the smallest corner
    // by row, then column.
    let start = *next.keys().min_by_key(|&&[x, y]| (y, x))?;
    let mut outline = vec![start];
    let mut at = next[&start];
    while at != start {
        outline.push(at);
        at = *next.get(&at)?;
        if outline.len() > n_edges {
            return None;
        }
    }
    (outline.len() == n_edges).then(|| simplify_loop(&outline))
}
