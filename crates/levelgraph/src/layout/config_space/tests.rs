//! Tests of configuration spaces: door-to-door spaces against brute force,
//! corridor spaces, negation, intersection, sampling and overlap cuts.

use super::doors::{door_space_sweep, meeting_lines};
use super::*;
use crate::layout::polygon::Transform;
use crate::layout::template::{DoorRule, RoomTemplate};

fn template(points: &[(i32, i32)], doors: DoorRule) -> RoomTemplate {
    let pts: Vec<GridPoint> = points.iter().map(|&(x, y)| GridPoint::new(x, y)).collect();
    RoomTemplate::new("t", &pts, doors, Transform::all(false).collect()).unwrap()
}

/// Brute force: every translation in a window, tested cell by cell
/// against the definition (no overlap of unit cells; some door segment
/// allowed by both shapes' door lines, on their common boundary).
fn brute(fixed: &Shape, moving: &Shape) -> std::collections::BTreeSet<GridPoint> {
    let cells = |s: &Shape, at: GridPoint| {
        let mut set = std::collections::BTreeSet::new();
        for r in &s.rects {
            for x in r.x0..r.x1 {
                for y in r.y0..r.y1 {
                    set.insert(GridPoint::new(x + at.x, y + at.y));
                }
            }
        }
        set
    };
    let a = cells(fixed, GridPoint::default());
    let b = cells(moving, GridPoint::default());
    let mut out = std::collections::BTreeSet::new();
    // The shapes are at most 9 wide: no contact beyond ±18.
    for tx in -20..=20 {
        for ty in -20..=20 {
            let t = GridPoint::new(tx, ty);
            if b.iter().any(|&c| a.contains(&(c + t))) {
                continue;
            }
            // Every door of `fixed`, as a segment; is it a door of
            // `moving` at t?
            let meets = fixed.doors.iter().any(|df| {
                (0..=df.extra as i32).any(|k| {
                    let s = GridPoint::new(df.start.x + k * df.axis.x, df.start.y + k * df.axis.y);
                    let e = GridPoint::new(
                        s.x + df.length as i32 * df.axis.x,
                        s.y + df.length as i32 * df.axis.y,
                    );
                    moving.doors.iter().any(|dm| {
                        dm.normal.x == -df.normal.x
                            && dm.normal.y == -df.normal.y
                            && dm.has_door(s - t, e - t)
                    })
                })
            });
            if meets {
                out.insert(t);
            }
        }
    }
    out
}

/// thesis_basic's 8-square (doors 2 long, 1 from corners) and
/// thesis_corridors' 2-square (doors on two opposite sides) in its
/// four turns.
fn square_and_corridors() -> (Shape, Vec<Shape>) {
    let room = template(
        &[(0, 0), (0, 8), (8, 8), (8, 0)],
        DoorRule::Overlap {
            length: 2,
            corner_distance: 1,
        },
    );
    let corridor = template(
        &[(0, 0), (0, 2), (2, 2), (2, 0)],
        DoorRule::Specific(vec![
            [GridPoint::new(0, 0), GridPoint::new(2, 0)],
            [GridPoint::new(0, 2), GridPoint::new(2, 2)],
        ]),
    );
    let r = Shape::new(0, &room, Transform::IDENTITY);
    let corridors: Vec<Shape> = Transform::all(false)
        .map(|t| Shape::new(1, &corridor, t))
        .collect();
    (r, corridors)
}

fn points(space: &ConfigSpace) -> std::collections::BTreeSet<GridPoint> {
    let mut set = std::collections::BTreeSet::new();
    for k in 0..space.weight() {
        set.insert(space.nth(k));
    }
    set
}

#[test]
fn door_spaces_equal_brute_force_on_small_shapes() {
    let overlap = |length, corner_distance| DoorRule::Overlap {
        length,
        corner_distance,
    };
    let shapes = [
        template(&[(0, 0), (0, 4), (4, 4), (4, 0)], overlap(1, 1)),
        template(
            &[(0, 0), (0, 6), (3, 6), (3, 3), (6, 3), (6, 0)],
            overlap(1, 0),
        ),
        template(
            &[
                (0, 0),
                (0, 3),
                (3, 3),
                (3, 6),
                (6, 6),
                (6, 3),
                (9, 3),
                (9, 0),
            ],
            overlap(2, 1),
        ),
        template(&[(0, 0), (0, 5), (3, 5), (3, 0)], overlap(2, 0)),
        template(
            &[(0, 0), (0, 2), (2, 2), (2, 0)],
            DoorRule::Specific(vec![
                [GridPoint::new(0, 0), GridPoint::new(2, 0)],
                [GridPoint::new(2, 0), GridPoint::new(2, 2)],
            ]),
        ),
    ];
    let mut all = Vec::new();
    for (i, t) in shapes.iter().enumerate() {
        for tr in Transform::all(false) {
            all.push(Shape::new(i, t, tr));
        }
    }
    let mut compared = 0;
    for f in &all {
        for m in &all {
            let space = door_space(f, m, None);
            assert_eq!(
                points(&space),
                brute(f, m),
                "{:?} vs {:?}",
                f.transform,
                m.transform
            );
            // The sweep, whichever way `door_space` took.
            assert_eq!(space, door_space_sweep(f, m, &meeting_lines(f, m, None)));
            compared += 1;
        }
    }
    assert_eq!(compared, 400);
}

#[test]
fn an_l_shape_cannot_sit_inside_another_ls_notch() {
    // Two small Ls: positions where one would poke into the other's
    // notch while a door lines up are excluded.
    let l = template(
        &[(0, 0), (0, 6), (3, 6), (3, 3), (6, 3), (6, 0)],
        DoorRule::Overlap {
            length: 1,
            corner_distance: 0,
        },
    );
    let s = Shape::new(0, &l, Transform::IDENTITY);
    let space = door_space(&s, &s, None);
    for k in 0..space.weight() {
        let t = space.nth(k);
        assert_eq!(s.overlap(GridPoint::default(), &s, t), 0);
    }
    assert!(!space.is_empty());
}

#[test]
fn corridor_spaces_put_rooms_a_corridor_apart() {
    // thesis_basic's 8-square and thesis_corridors' 2-square.
    let (r, corridors) = square_and_corridors();
    let space = corridor_space(&r, &r, &corridors);
    assert!(!space.is_empty());
    for k in 0..space.weight() {
        let t = space.nth(k);
        // Always exactly 2 apart along one axis, overlapping along the
        // other by at least the door and corner distances.
        let gap_x = (t.x.abs() - 8).max(0);
        let gap_y = (t.y.abs() - 8).max(0);
        assert_eq!(gap_x.max(gap_y), 2, "{t}");
        assert_eq!(gap_x.min(gap_y), 0, "{t}");
    }
    // Straight above: x from −4 to 4 (door 2 long, 1 from corners).
    assert!(space.contains(GridPoint::new(0, 10)));
    assert!(space.contains(GridPoint::new(4, 10)));
    assert!(!space.contains(GridPoint::new(5, 10)));
    assert!(!space.contains(GridPoint::new(0, 8)));
}

#[test]
fn points_of_a_row_merge_into_one_segment() {
    // Two rows of points, interleaved in x: each row becomes one box.
    let mut boxes: Vec<PointBox> = (0..10)
        .flat_map(|x| [GridPoint::new(x, 5), GridPoint::new(x, -5)])
        .map(PointBox::point)
        .collect();
    normalise(&mut boxes);
    assert_eq!(boxes.len(), 2, "{boxes:?}");
    // A corridor space between two squares: four runs of points, one
    // per side.
    let (r, corridors) = square_and_corridors();
    assert_eq!(corridor_space(&r, &r, &corridors).boxes.len(), 4);
}

#[test]
fn a_pairs_space_the_other_way_round_is_its_negation() {
    let l = template(
        &[(0, 0), (0, 6), (3, 6), (3, 3), (6, 3), (6, 0)],
        DoorRule::Overlap {
            length: 1,
            corner_distance: 0,
        },
    );
    let (square, corridors) = square_and_corridors();
    for t in Transform::all(false) {
        let ell = Shape::new(0, &l, t);
        let there = door_space(&square, &ell, None);
        let back = door_space(&ell, &square, None);
        assert_eq!(points(&there.negated()), points(&back));
        let there = corridor_space(&square, &ell, &corridors);
        let back = corridor_space(&ell, &square, &corridors);
        assert_eq!(points(&there.negated()), points(&back));
    }
}

#[test]
fn intersection_and_sampling() {
    let a = ConfigSpace {
        boxes: vec![PointBox {
            x0: 0,
            y0: 0,
            x1: 10,
            y1: 0,
        }],
    };
    let b = ConfigSpace {
        boxes: vec![PointBox {
            x0: 4,
            y0: -5,
            x1: 4,
            y1: 5,
        }],
    };
    let c = a.intersect(&b);
    assert_eq!(c.weight(), 1);
    assert_eq!(c.nth(0), GridPoint::new(4, 0));
    assert!(a.shifted(GridPoint::new(0, 1)).intersect(&a).is_empty());
    assert_eq!(a.weight(), 11);
    assert_eq!(a.nth(10), GridPoint::new(10, 0));
    // The ends of the segment of any point: the two rooms' least
    // common wall.
    let ab = ConfigSpace {
        boxes: vec![a.boxes[0], b.boxes[0]],
    };
    assert_eq!(ab.end_of_nth(3, false), GridPoint::new(0, 0));
    assert_eq!(ab.end_of_nth(10, true), GridPoint::new(10, 0));
    assert_eq!(ab.end_of_nth(11, false), GridPoint::new(4, -5));
    assert_eq!(ab.end_of_nth(21, true), GridPoint::new(4, 5));
}

#[test]
fn cutting_out_overlaps_keeps_exactly_the_free_points() {
    // An L and a bar placed; the moving shape an L under every
    // transform; the space a box and two segments around them. The
    // cut space must hold exactly the points at which the moving shape
    // overlaps neither (brute force with `Shape::overlap`).
    let ell = template(
        &[(0, 0), (6, 0), (6, 3), (3, 3), (3, 6), (0, 6)],
        DoorRule::Overlap {
            length: 1,
            corner_distance: 0,
        },
    );
    let bar = template(
        &[(0, 0), (8, 0), (8, 2), (0, 2)],
        DoorRule::Overlap {
            length: 1,
            corner_distance: 0,
        },
    );
    let l0 = Shape::new(0, &ell, Transform::IDENTITY);
    let b0 = Shape::new(1, &bar, Transform::IDENTITY);
    let placed = [(&l0, GridPoint::new(0, 0)), (&b0, GridPoint::new(5, 4))];
    let space = ConfigSpace {
        boxes: vec![
            PointBox {
                x0: -8,
                y0: -8,
                x1: 10,
                y1: 10,
            },
            PointBox {
                x0: -3,
                y0: 6,
                x1: 12,
                y1: 6,
            },
            PointBox {
                x0: 3,
                y0: -5,
                x1: 3,
                y1: 9,
            },
        ],
    };
    for tr in Transform::all(false) {
        let moving = Shape::new(0, &ell, tr);
        let (cut, cuts, _) = space.without_overlaps(&moving, &placed);
        assert!(cuts > 0);
        let want: std::collections::BTreeSet<GridPoint> = points(&space)
            .into_iter()
            .filter(|&p| placed.iter().all(|&(s, at)| moving.overlap(p, s, at) == 0))
            .collect();
        assert_eq!(points(&cut), want, "{tr:?}");
    }
}

mod sweep_against_the_plain_way {
    //! The sweep ([`door_space_sweep`], [`without_overlap_sweep`]) against
    //! the plain way it replaced for large shapes: the same boxes in the
    //! same order, on random x-monotone outlines (notches above and
    //! below) under every transform.

    use super::super::doors::{door_space_plain, without_overlap_plain, without_overlap_sweep};
    use super::*;
    use proptest::prelude::*;

    /// An x-monotone orthogonal outline: columns `(width, bottom, top)`
    /// side by side, each overlapping the next in y so that the outline is
    /// simple; corners along the bottom left to right, then along the top
    /// right to left.
    fn outline(columns: &[(i32, i32, i32)]) -> Vec<GridPoint> {
        let mut xs = vec![0];
        for &(w, _, _) in columns {
            xs.push(xs.last().unwrap() + w);
        }
        let mut points = Vec::new();
        for (i, &(_, bottom, _)) in columns.iter().enumerate() {
            points.push(GridPoint::new(xs[i], bottom));
            points.push(GridPoint::new(xs[i + 1], bottom));
        }
        for (i, &(_, _, top)) in columns.iter().enumerate().rev() {
            points.push(GridPoint::new(xs[i + 1], top));
            points.push(GridPoint::new(xs[i], top));
        }
        points
    }

    /// Columns whose y ranges overlap their neighbours'.
    fn columns() -> impl Strategy<Value = Vec<(i32, i32, i32)>> {
        prop::collection::vec((1..4i32, 0..4i32, 1..5i32), 1..7).prop_map(|raw| {
            let mut out: Vec<(i32, i32, i32)> = Vec::new();
            for (w, b, h) in raw {
                let (bottom, top) = match out.last() {
                    // Start below the last top and end above the last
                    // bottom: the two columns share a wall.
                    Some(&(_, pb, pt)) => {
                        let bottom = (pb - 2 + b).min(pt - 1);
                        (bottom, (bottom + h).max(pb + 1))
                    }
                    None => (b, b + h),
                };
                out.push((w, bottom, top));
            }
            out
        })
    }

    fn shape(columns: &[(i32, i32, i32)], length: u32, corner: u32, t: usize) -> Option<Shape> {
        let doors = DoorRule::Overlap {
            length,
            corner_distance: corner,
        };
        let all: Vec<Transform> = Transform::all(true).collect();
        let tpl = RoomTemplate::new("t", &outline(columns), doors, all.clone()).ok()?;
        Some(Shape::new(0, &tpl, all[t % 8]))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// Door spaces: every door line of the moving shape, and each one
        /// alone (a corridor's door).
        #[test]
        fn door_spaces_of_the_sweep_are_the_plain_ones(
            a in columns(),
            b in columns(),
            length in 1..3u32,
            corner in 0..2u32,
            ta in 0..8usize,
            tb in 0..8usize,
        ) {
            let (Some(fixed), Some(moving)) =
                (shape(&a, length, corner, ta), shape(&b, length, corner, tb))
            else {
                return Ok(());
            };
            for door in std::iter::once(None).chain((0..moving.doors.len()).map(Some)) {
                let lines = meeting_lines(&fixed, &moving, door);
                prop_assert_eq!(
                    door_space_sweep(&fixed, &moving, &lines),
                    door_space_plain(&fixed, &moving, &lines)
                );
            }
        }

        /// Corridor spaces' last step: the free runs of every row of some
        /// boxes (areas, rows, columns, points) near the fixed shape.
        #[test]
        fn free_rows_of_the_sweep_are_the_plain_ones(
            a in columns(),
            b in columns(),
            ta in 0..8usize,
            tb in 0..8usize,
            boxes in prop::collection::vec((-12..12i32, -12..12i32, 0..8i32, 0..8i32), 0..6),
        ) {
            let (Some(fixed), Some(moving)) = (shape(&a, 1, 0, ta), shape(&b, 1, 0, tb)) else {
                return Ok(());
            };
            let boxes: Vec<PointBox> = boxes
                .into_iter()
                .map(|(x0, y0, w, h)| PointBox { x0, y0, x1: x0 + w, y1: y0 + h })
                .collect();
            prop_assert_eq!(
                without_overlap_sweep(&fixed, &moving, &boxes),
                without_overlap_plain(&fixed, &moving, &boxes)
            );
        }
    }

    #[test]
    fn the_columns_make_valid_outlines_with_notches() {
        // One case by hand: a column, one reaching lower, one higher.
        let cols = [(2, 0, 3), (1, -2, 1), (2, 0, 5)];
        let tpl = RoomTemplate::new(
            "t",
            &outline(&cols),
            DoorRule::Overlap {
                length: 1,
                corner_distance: 0,
            },
            vec![],
        )
        .unwrap();
        assert_eq!(tpl.outline.area(), 6 + 3 + 10);
        assert_eq!(tpl.outline.points().len(), 12);
    }
}
