//! Door-to-door spaces ([`door_space_within`]) and the free points of a
//! corridor space's boxes ([`without_overlap_within`]), each two ways with the same result:
//! plainly, every translation tested against every pair of rectangles
//! ([`Shape::overlap`]), which is fastest for small shapes; and by the
//! plane sweep of [`sweep`], whose time grows with the rectangle pairs and
//! not with their product with the translations, so that it stays fast
//! for templates of hundreds of corners (issue 23: three rooms of 302
//! corners took 16.5 s, the plain way's `O(corners⁴)`). Each call takes
//! the way its estimate says is less work; a proptest holds the sweep to
//! the plain way, box for box.

use super::sweep::{self, Row};
use super::{normalise, ConfigSpace, OutOfWork, PointBox, Work};
use crate::layout::polygon::GridPoint;
use crate::layout::template::{DoorLine, Shape};

/// Translations of `moving` (relative to `fixed` at the origin) at which
/// they do not overlap and a door of each meets, as runs of points along
/// the door lines. When `door` is given, only doors of `moving` on door line
/// `door` count (used to make a corridor's two doors different ones). By
/// whichever of [`door_space_plain`] and [`door_space_sweep`] is less work
/// by their estimates, which is charged to `work` first (see
/// [`LayoutSettings::max_work`](crate::layout::LayoutSettings::max_work)).
///
/// # Errors
/// [`OutOfWork`], with nothing built, when `work` runs out.
pub(crate) fn door_space_within(
    fixed: &Shape,
    moving: &Shape,
    door: Option<usize>,
    work: &mut Work,
) -> Result<ConfigSpace, OutOfWork> {
    let lines = meeting_lines(fixed, moving, door);
    let (plain, swept) = door_space_costs(fixed, moving, &lines);
    work.spend(plain.min(swept))?;
    Ok(if plain <= swept {
        door_space_plain(fixed, moving, &lines)
    } else {
        door_space_sweep(fixed, moving, &lines)
    })
}

/// [`door_space_within`] without a budget (the tests' spaces).
#[cfg(test)]
pub(crate) fn door_space(fixed: &Shape, moving: &Shape, door: Option<usize>) -> ConfigSpace {
    door_space_within(fixed, moving, door, &mut Work::unlimited()).expect("no limit")
}

/// `fixed` with its doors limited to door line `door`: the side of a
/// corridor that meets one room.
pub(crate) fn only_door(fixed: &Shape, door: usize) -> Shape {
    Shape {
        doors: vec![fixed.doors[door]],
        ..fixed.clone()
    }
}

/// Pairs of door lines, of a fixed shape and a moving one.
pub(crate) type LinePairs<'a> = Vec<(&'a DoorLine, &'a DoorLine)>;

/// The pairs of door lines whose doors can meet, with the door line of
/// `moving` limited to `door` if given.
pub(crate) fn meeting_lines<'a>(
    fixed: &'a Shape,
    moving: &'a Shape,
    door: Option<usize>,
) -> LinePairs<'a> {
    let mut pairs = Vec::new();
    for df in &fixed.doors {
        for (k, dm) in moving.doors.iter().enumerate() {
            if door.is_none_or(|d| d == k) && doors_can_meet(df, dm) {
                pairs.push((df, dm));
            }
        }
    }
    pairs
}

/// Whether doors of the two lines can meet: on sides facing each other
/// (opposite outward normals), with equal door lengths.
fn doors_can_meet(df: &DoorLine, dm: &DoorLine) -> bool {
    dm.normal.x == -df.normal.x && dm.normal.y == -df.normal.y && dm.length == df.length
}

/// The work of [`door_space_plain`] and of [`door_space_sweep`] over the
/// door-line pairs `lines`: a unit per translation and rectangle pair
/// tested; two sweeps (rows, then columns), each over a box per pair of
/// rectangles and a row per pair of door lines ([`sweep::sweep_work`]).
fn door_space_costs(fixed: &Shape, moving: &Shape, lines: &LinePairs<'_>) -> (u64, u64) {
    let rects = fixed.rects.len() as u64 * moving.rects.len() as u64;
    let translations: u64 = lines
        .iter()
        .map(|(df, dm)| u64::from(df.extra) + u64::from(dm.extra) + 1)
        .sum();
    let plain = translations.saturating_mul(rects);
    (plain, 2 * sweep::sweep_work(rects, lines.len() as u64))
}

/// [`door_space_within`] the plain way, as first written, over the
/// door-line pairs `lines` ([`meeting_lines`]): every translation of every
/// pair tested against every pair of rectangles.
pub(crate) fn door_space_plain(
    fixed: &Shape,
    moving: &Shape,
    lines: &LinePairs<'_>,
) -> ConfigSpace {
    let mut boxes = Vec::new();
    for &(df, dm) in lines {
        // Door j of `moving` at t meets door i of `fixed` iff
        // t = df.start − dm.start + (i − j)·axis.
        let base = df.start - dm.start;
        let lo = -(dm.extra as i32);
        let hi = df.extra as i32;
        let mut run: Option<(GridPoint, GridPoint)> = None;
        for s in lo..=hi {
            let t = GridPoint::new(base.x + s * df.axis.x, base.y + s * df.axis.y);
            if fixed.overlap(GridPoint::default(), moving, t) == 0 {
                run = Some(match run {
                    Some((a, _)) => (a, t),
                    None => (t, t),
                });
            } else if let Some((a, b)) = run.take() {
                boxes.push(span(a, b));
            }
        }
        if let Some((a, b)) = run {
            boxes.push(span(a, b));
        }
    }
    normalise(&mut boxes);
    ConfigSpace { boxes }
}

/// The box from `a` to `b`, points of one row or column.
fn span(a: GridPoint, b: GridPoint) -> PointBox {
    PointBox {
        x0: a.x.min(b.x),
        y0: a.y.min(b.y),
        x1: a.x.max(b.x),
        y1: a.y.max(b.y),
    }
}

/// [`door_space_within`] by the sweep, over the door-line pairs `lines`
/// ([`meeting_lines`]): each pair of door lines that can meet
/// gives one run of translations, a row (horizontal doors) or a column,
/// whose overlapping parts [`sweep::free_runs`] cuts out with the shapes'
/// [`sweep::overlap_boxes`]; columns are swept as the rows of the plane
/// transposed.
pub(crate) fn door_space_sweep(
    fixed: &Shape,
    moving: &Shape,
    lines: &LinePairs<'_>,
) -> ConfigSpace {
    let (mut rows, mut columns) = (Vec::new(), Vec::new());
    for &(df, dm) in lines {
        // As in `door_space_plain`: t = base + s·axis, s from −dm.extra
        // to df.extra.
        let base = df.start - dm.start;
        let (lo, hi) = (-(dm.extra as i32), df.extra as i32);
        if df.axis.x == 1 {
            rows.push(Row {
                y: base.y,
                x0: base.x + lo,
                x1: base.x + hi,
            });
        } else {
            columns.push(Row::column(base.x, base.y + lo, base.y + hi));
        }
    }
    let overlaps = sweep::overlap_boxes(fixed, moving);
    let mut boxes = sweep::free_runs(&overlaps, &rows);
    if !columns.is_empty() {
        let across: Vec<PointBox> = overlaps.into_iter().map(sweep::transposed).collect();
        let runs = sweep::free_runs(&across, &columns);
        boxes.extend(runs.into_iter().map(sweep::transposed));
    }
    normalise(&mut boxes);
    ConfigSpace { boxes }
}

/// The points of `boxes` at which `moving` does not overlap `fixed` (at
/// the origin), as normalised runs, one or more per row of each box: by
/// whichever of [`without_overlap_plain`] and [`without_overlap_sweep`] is
/// less work by their estimates, which is charged to `work` first, with a
/// unit per box.
///
/// # Errors
/// [`OutOfWork`], with nothing built, when `work` runs out.
pub(crate) fn without_overlap_within(
    fixed: &Shape,
    moving: &Shape,
    boxes: &[PointBox],
    work: &mut Work,
) -> Result<ConfigSpace, OutOfWork> {
    let (plain, swept) = without_overlap_costs(fixed, moving, boxes);
    work.spend((boxes.len() as u64).saturating_add(plain.min(swept)))?;
    Ok(if plain <= swept {
        without_overlap_plain(fixed, moving, boxes)
    } else {
        without_overlap_sweep(fixed, moving, boxes)
    })
}

/// The work of [`without_overlap_plain`] and of [`without_overlap_sweep`]:
/// a unit per point of a box and rectangle pair; a sweep over a box per
/// pair of rectangles and the boxes' rows.
fn without_overlap_costs(fixed: &Shape, moving: &Shape, boxes: &[PointBox]) -> (u64, u64) {
    let rects = fixed.rects.len() as u64 * moving.rects.len() as u64;
    let (mut points, mut rows) = (0u64, 0u64);
    for b in boxes {
        points = points.saturating_add(b.count());
        rows += (b.y1 - b.y0) as u64 + 1;
    }
    (points.saturating_mul(rects), sweep::sweep_work(rects, rows))
}

/// [`without_overlap_within`] the plain way, as first written: every point of
/// every box tested against every pair of rectangles.
pub(crate) fn without_overlap_plain(
    fixed: &Shape,
    moving: &Shape,
    boxes: &[PointBox],
) -> ConfigSpace {
    // Runs of free points along each row of each box, so that the last
    // normalisation sorts runs rather than single points.
    let mut kept = Vec::new();
    for b in boxes {
        for y in b.y0..=b.y1 {
            let mut run: Option<i32> = None;
            for x in b.x0..=b.x1 {
                let free = fixed.overlap(GridPoint::default(), moving, GridPoint::new(x, y)) == 0;
                match (free, run) {
                    (true, None) => run = Some(x),
                    (false, Some(x0)) => {
                        kept.push(PointBox {
                            x0,
                            y0: y,
                            x1: x - 1,
                            y1: y,
                        });
                        run = None;
                    }
                    _ => {}
                }
            }
            if let Some(x0) = run {
                kept.push(PointBox {
                    x0,
                    y0: y,
                    x1: b.x1,
                    y1: y,
                });
            }
        }
    }
    normalise(&mut kept);
    ConfigSpace { boxes: kept }
}

/// [`without_overlap_within`] by the sweep: each row of each box is a run whose
/// overlapping parts [`sweep::free_runs`] cuts out.
pub(crate) fn without_overlap_sweep(
    fixed: &Shape,
    moving: &Shape,
    boxes: &[PointBox],
) -> ConfigSpace {
    let rows: Vec<Row> = boxes
        .iter()
        .flat_map(|b| {
            (b.y0..=b.y1).map(move |y| Row {
                y,
                x0: b.x0,
                x1: b.x1,
            })
        })
        .collect();
    let mut kept = sweep::free_runs(&sweep::overlap_boxes(fixed, moving), &rows);
    normalise(&mut kept);
    ConfigSpace { boxes: kept }
}
