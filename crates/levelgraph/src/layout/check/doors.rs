//! Steps 4–6 of the check: every edge has its doors, attached to the
//! right parts, each lying between its two parts and allowed by both
//! parts' door rules.

use super::cells::{raster, side_distance, units_of, Cell};
use super::{
    corridor_part, edge_ref, room_part, DoorRef, DoorRefusal, Id, Part, Placed, Violation,
};
use crate::layout::polygon::{GridPoint, Transform};
use crate::layout::template::{DoorRule, RoomTemplate};
use crate::layout::{Layout, LayoutProblem, PlacedRoom};
use std::collections::BTreeMap;

/// Steps 4–6: every edge has its doors, every door lies between its two
/// parts and is allowed by both parts' templates.
pub(super) fn check_doors(
    problem: &LayoutProblem,
    layout: &Layout,
    rooms: &[Placed<'_>],
    corridors: &[Placed<'_>],
    out: &mut Vec<Violation>,
) {
    let slots = attached_doors(problem, layout, out);
    door_counts(problem, &slots, out);
    let placed = |id: Id| -> Option<&Placed<'_>> {
        match id {
            Id::Room(i) => rooms.get(i),
            Id::Corridor(k) => corridors.get(k),
        }
    };
    let mut attached: Vec<usize> = slots.values().flatten().copied().collect();
    attached.sort_unstable();
    for i in attached {
        let door = &layout.doors[i];
        let into_id = into_of(problem, door.edge, door.room);
        let r = DoorRef {
            index: i,
            from: room_part(problem, door.room),
            into: part_of(problem, into_id),
            segment: door.segment,
        };
        // Parts missing from the layout are reported by the counts.
        let (Some(p), Some(q)) = (placed(Id::Room(door.room)), placed(into_id)) else {
            continue;
        };
        door_geometry(door.segment, r, [p, q], out);
    }
}

/// The doors that name an edge and the right room and corridor for it,
/// by (edge, room they open from); the others are reported.
fn attached_doors(
    problem: &LayoutProblem,
    layout: &Layout,
    out: &mut Vec<Violation>,
) -> BTreeMap<(usize, usize), Vec<usize>> {
    let with_corridors = problem.corridors.is_some();
    let mut slots: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (i, door) in layout.doors.iter().enumerate() {
        let Some(&[a, b]) = problem.edges.get(door.edge) else {
            out.push(Violation::DoorEdgeUnknown {
                door: i,
                edge: door.edge,
            });
            continue;
        };
        let fits = if with_corridors {
            (door.room == a || door.room == b) && door.corridor == Some(door.edge)
        } else {
            door.room == a && door.corridor.is_none()
        };
        if fits {
            slots.entry((door.edge, door.room)).or_default().push(i);
        } else {
            out.push(Violation::DoorMisattached {
                door: i,
                edge: edge_ref(problem, door.edge),
                from: room_part(problem, door.room),
                corridor: door.corridor,
            });
        }
    }
    slots
}

/// The part a door of edge `e` from room `from` opens into.
fn into_of(problem: &LayoutProblem, e: usize, from: usize) -> Id {
    if problem.corridors.is_some() {
        Id::Corridor(e)
    } else {
        let [a, b] = problem.edges[e];
        Id::Room(if from == a { b } else { a })
    }
}

/// A part by its id, named.
fn part_of(problem: &LayoutProblem, id: Id) -> Part {
    match id {
        Id::Room(i) => room_part(problem, i),
        Id::Corridor(k) => corridor_part(problem, k),
    }
}

/// Step 4: one door for every edge (without corridors), or one from each
/// of its rooms into its corridor (with them).
fn door_counts(
    problem: &LayoutProblem,
    slots: &BTreeMap<(usize, usize), Vec<usize>>,
    out: &mut Vec<Violation>,
) {
    let with_corridors = problem.corridors.is_some();
    for (e, &[a, b]) in problem.edges.iter().enumerate() {
        let froms: &[usize] = if with_corridors { &[a, b] } else { &[a] };
        for &from in froms {
            let count = slots.get(&(e, from)).map_or(0, Vec::len);
            if count == 1 {
                continue;
            }
            let (edge, from_part, into) = (
                edge_ref(problem, e),
                room_part(problem, from),
                part_of(problem, into_of(problem, e, from)),
            );
            out.push(if count == 0 {
                Violation::MissingDoor {
                    edge,
                    from: from_part,
                    into,
                }
            } else {
                Violation::DuplicateDoor {
                    edge,
                    from: from_part,
                    into,
                    count,
                }
            });
        }
    }
}

/// Steps 5–6 for one attached door `r` of `segment` between the parts
/// `p` (the room it opens from) and `q`: straight, between them, allowed
/// by both door rules.
fn door_geometry(
    segment: [GridPoint; 2],
    r: DoorRef,
    [p, q]: [&Placed<'_>; 2],
    out: &mut Vec<Violation>,
) {
    let [s, t] = segment;
    if s == t || (s.x != t.x && s.y != t.y) {
        out.push(Violation::DoorNotStraight { door: r });
        return;
    }
    let units = units_of(segment);
    let bad: Vec<&(Cell, Cell, [GridPoint; 2])> = units
        .iter()
        .filter(|(plus, minus, _)| {
            let across =
                |x: &Placed<'_>, y: &Placed<'_>| x.cells.contains(plus) && y.cells.contains(minus);
            !(across(p, q) || across(q, p))
        })
        .collect();
    if let Some(&&(_, _, first)) = bad.first() {
        out.push(Violation::DoorNotBetween {
            door: r.clone(),
            first,
            units: bad.len(),
        });
    }
    for side in [p, q] {
        let Some(template) = side.template else {
            continue;
        };
        if let Some(reason) = door_refusal(template, side.placed, segment) {
            out.push(Violation::DoorNotAllowed {
                door: r.clone(),
                by: side.part.clone(),
                template: template.name.clone(),
                reason,
            });
        }
    }
}

/// The transform undoing `t`: the one of the 8 whose composition with `t`
/// fixes both unit vectors (hence every point, as all 8 are linear).
pub(super) fn inverse(t: Transform) -> Transform {
    let basis = [GridPoint::new(1, 0), GridPoint::new(0, 1)];
    Transform::all(true)
        .find(|u| basis.iter().all(|&p| u.apply(t.apply(p)) == p))
        .expect("the 8 symmetries of the square form a group")
}

/// Why `template`'s door rule refuses the door `segment` of the part
/// `placed`, if it does: the segment is mapped back into the template's
/// coordinates and checked there.
fn door_refusal(
    template: &RoomTemplate,
    placed: &PlacedRoom,
    segment: [GridPoint; 2],
) -> Option<DoorRefusal> {
    // Placement: p ↦ transform(p) − min(transform(outline)) + position.
    let t = placed.transform;
    let turned: Vec<GridPoint> = template
        .outline
        .points()
        .iter()
        .map(|&p| t.apply(p))
        .collect();
    let min_x = turned.iter().map(|p| i64::from(p.x)).min().unwrap_or(0);
    let min_y = turned.iter().map(|p| i64::from(p.y)).min().unwrap_or(0);
    let back = inverse(t);
    let undo = |p: GridPoint| -> Option<GridPoint> {
        let x = i64::from(p.x) - i64::from(placed.position.x) + min_x;
        let y = i64::from(p.y) - i64::from(placed.position.y) + min_y;
        let q = GridPoint::new(i32::try_from(x).ok()?, i32::try_from(y).ok()?);
        Some(back.apply(q))
    };
    let (Some(u), Some(v)) = (undo(segment[0]), undo(segment[1])) else {
        return Some(match template.doors {
            DoorRule::Specific(_) => DoorRefusal::NotListed,
            DoorRule::Overlap { .. } => DoorRefusal::NotOnSide,
        });
    };
    match &template.doors {
        DoorRule::Specific(list) => {
            let listed = list
                .iter()
                .any(|&[a, b]| (a, b) == (u, v) || (b, a) == (u, v));
            (!listed).then_some(DoorRefusal::NotListed)
        }
        DoorRule::Overlap {
            length,
            corner_distance,
        } => {
            let found =
                (i64::from(u.x) - i64::from(v.x)).abs() + (i64::from(u.y) - i64::from(v.y)).abs();
            if found != i64::from(*length) {
                return Some(DoorRefusal::Length {
                    found,
                    wanted: *length,
                });
            }
            let points: Vec<Cell> = template
                .outline
                .points()
                .iter()
                .map(|p| (i64::from(p.x), i64::from(p.y)))
                .collect();
            let Ok(cells) = raster(&points) else {
                return Some(DoorRefusal::NotOnSide);
            };
            side_distance(&cells, [u, v]).map_or(Some(DoorRefusal::NotOnSide), |(before, after)| {
                let distance = before.min(after);
                (distance < i64::from(*corner_distance)).then_some(DoorRefusal::NearCorner {
                    distance,
                    wanted: *corner_distance,
                })
            })
        }
    }
}
