//! Room templates (the "building blocks" of Ma et al. 2014, Edgar's room
//! descriptions): an outline, where doors may go, and which of the grid's
//! symmetries the room may be placed under; and [`Shape`], a template under
//! one transform with its door lines worked out, which is what the layout
//! engine places.

use super::polygon::{GridPoint, OrthoPolygon, PolygonError, Rect, Transform};
use serde::{Deserialize, Serialize};

/// Where a template allows doors.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DoorRule {
    /// Edgar's overlap mode: a door of `length` anywhere on a side, at
    /// least `corner_distance` from both ends of the side.
    Overlap {
        /// Door length in grid units (≥ 1).
        length: u32,
        /// Least distance from a door to either corner of its side.
        corner_distance: u32,
    },
    /// Edgar's specific-positions mode: exactly these door segments, each
    /// lying on one side of the outline.
    Specific(Vec<[GridPoint; 2]>),
}

/// As a person reads it: `door length 3, corner distance 1`, or
/// `doors [0, 0]–[2, 0], [0, 4]–[2, 4]`.
impl std::fmt::Display for DoorRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DoorRule::Overlap {
                length,
                corner_distance,
            } => write!(f, "door length {length}, corner distance {corner_distance}"),
            DoorRule::Specific(doors) => {
                f.write_str("doors")?;
                for (i, [a, b]) in doors.iter().enumerate() {
                    let sep = if i == 0 { " " } else { ", " };
                    write!(f, "{sep}{a}–{b}")?;
                }
                Ok(())
            }
        }
    }
}

/// Why a template is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TemplateError {
    /// The outline is not an orthogonal polygon.
    #[error("template `{name}`: {source}")]
    Outline {
        /// The template.
        name: String,
        /// What is wrong with the outline.
        source: PolygonError,
    },
    /// A door rule that can give no door at all.
    #[error("template `{name}`: {reason}")]
    Doors {
        /// The template.
        name: String,
        /// What is wrong.
        reason: DoorFault,
    },
}

/// What is wrong with a template's door rule ([`TemplateError::Doors`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DoorFault {
    /// An overlap rule with door length 0.
    #[error("door length must be at least 1")]
    ZeroLength,
    /// Specific doors, but none listed.
    #[error("no door positions given")]
    NoPositions,
    /// A listed door that is a point or not axis-parallel.
    #[error("door {}–{} is not a horizontal or vertical segment", .door[0], .door[1])]
    NotStraight {
        /// Its two ends, as given (grid units, template coordinates).
        door: [GridPoint; 2],
    },
    /// A listed door that does not lie on a side of the outline.
    #[error("door {}–{} does not lie on a side", .door[0], .door[1])]
    OffSide {
        /// Its two ends, as given.
        door: [GridPoint; 2],
    },
    /// An overlap rule whose doors fit on no side.
    #[error(
        "no side is long enough for a door: a door {length} long, at least {corner_distance} from each corner, needs a side of {} grid units",
        u64::from(*.length) + 2 * u64::from(*.corner_distance)
    )]
    NoSideLongEnough {
        /// The rule's door length (grid units).
        length: u32,
        /// The rule's corner distance (grid units).
        corner_distance: u32,
    },
    /// Any other rule that gives no door position.
    #[error("no side is long enough for a door ({rule})")]
    NoDoor {
        /// The rule.
        rule: DoorRule,
    },
}

/// A room template: a named outline with its door rule and allowed
/// transforms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomTemplate {
    /// Its name, unique within a layout problem.
    pub name: String,
    /// The outline, in the template's own coordinates.
    pub outline: OrthoPolygon,
    /// Where doors may go.
    pub doors: DoorRule,
    /// The transforms the room may be placed under (at least one).
    pub transforms: Vec<Transform>,
}

impl RoomTemplate {
    /// A template from raw corner points, checked: the outline must be an
    /// orthogonal polygon, an overlap rule must have a door length ≥ 1 and
    /// fit on some side, specific doors must lie on sides.
    ///
    /// # Errors
    /// [`TemplateError`] naming the template.
    pub fn new(
        name: &str,
        outline: &[GridPoint],
        doors: DoorRule,
        transforms: Vec<Transform>,
    ) -> Result<Self, TemplateError> {
        let outline = OrthoPolygon::new(outline).map_err(|source| TemplateError::Outline {
            name: name.to_owned(),
            source,
        })?;
        let bad = |reason: DoorFault| TemplateError::Doors {
            name: name.to_owned(),
            reason,
        };
        let transforms = if transforms.is_empty() {
            vec![Transform::IDENTITY]
        } else {
            transforms
        };
        let t = Self {
            name: name.to_owned(),
            outline,
            doors,
            transforms,
        };
        match &t.doors {
            DoorRule::Overlap { length: 0, .. } => return Err(bad(DoorFault::ZeroLength)),
            DoorRule::Overlap { .. } => {}
            DoorRule::Specific(list) => {
                if list.is_empty() {
                    return Err(bad(DoorFault::NoPositions));
                }
                for &[a, b] in list {
                    if a == b || (a.x != b.x && a.y != b.y) {
                        return Err(bad(DoorFault::NotStraight { door: [a, b] }));
                    }
                    if side_of(&t.outline, a, b).is_none() {
                        return Err(bad(DoorFault::OffSide { door: [a, b] }));
                    }
                }
            }
        }
        if door_lines(&t.outline, &t.doors).is_empty() {
            return Err(bad(match &t.doors {
                &DoorRule::Overlap {
                    length,
                    corner_distance,
                } => DoorFault::NoSideLongEnough {
                    length,
                    corner_distance,
                },
                rule => DoorFault::NoDoor { rule: rule.clone() },
            }));
        }
        Ok(t)
    }
}

/// Where doors of one length can be on one side of a placed outline: a door
/// is the segment from `start + k·axis` to `start + (k + length)·axis` for
/// `k` in `0..=extra`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DoorLine {
    /// The lowest (leftmost or bottom) door's first end.
    pub start: GridPoint,
    /// `(1, 0)` for a horizontal side, `(0, 1)` for a vertical one.
    pub axis: GridPoint,
    /// How many more start positions follow `start` along `axis`.
    pub extra: u32,
    /// Door length.
    pub length: u32,
    /// The side's outward normal: a unit vector.
    pub normal: GridPoint,
}

impl DoorLine {
    /// Whether the door segment `a`–`b` (either order) is one of this
    /// line's doors.
    pub fn has_door(&self, a: GridPoint, b: GridPoint) -> bool {
        let (lo, hi) = if (a.x, a.y) <= (b.x, b.y) {
            (a, b)
        } else {
            (b, a)
        };
        let len = (hi.x - lo.x) + (hi.y - lo.y);
        if len != self.length as i32 {
            return false;
        }
        let along = hi - lo;
        if along.x.signum() != self.axis.x || along.y.signum() != self.axis.y {
            return false;
        }
        let d = lo - self.start;
        let k = d.x * self.axis.x + d.y * self.axis.y;
        let across = d.x * self.axis.y + d.y * self.axis.x;
        across == 0 && k >= 0 && k <= self.extra as i32
    }
}

/// The side of `outline` that contains the segment `a`–`b`, as its outward
/// normal.
fn side_of(outline: &OrthoPolygon, a: GridPoint, b: GridPoint) -> Option<GridPoint> {
    outline.sides().find_map(|(p, q)| {
        let on = |r: GridPoint| {
            r.x >= p.x.min(q.x) && r.x <= p.x.max(q.x) && r.y >= p.y.min(q.y) && r.y <= p.y.max(q.y)
        };
        (on(a) && on(b)).then(|| outward(p, q))
    })
}

/// The outward normal of the counter-clockwise side `p → q`.
fn outward(p: GridPoint, q: GridPoint) -> GridPoint {
    let d = GridPoint::new((q.x - p.x).signum(), (q.y - p.y).signum());
    GridPoint::new(d.y, -d.x)
}

/// The door lines of an outline under a door rule.
pub(crate) fn door_lines(outline: &OrthoPolygon, rule: &DoorRule) -> Vec<DoorLine> {
    let mut out = Vec::new();
    match rule {
        DoorRule::Overlap {
            length,
            corner_distance,
        } => {
            for (p, q) in outline.sides() {
                let (lo, hi) = if (p.x, p.y) <= (q.x, q.y) {
                    (p, q)
                } else {
                    (q, p)
                };
                let side = i64::from((hi.x - lo.x) + (hi.y - lo.y));
                let room = side - 2 * i64::from(*corner_distance) - i64::from(*length);
                if room < 0 {
                    continue;
                }
                let axis = GridPoint::new((hi.x - lo.x).signum(), (hi.y - lo.y).signum());
                let c = *corner_distance as i32;
                out.push(DoorLine {
                    start: GridPoint::new(lo.x + axis.x * c, lo.y + axis.y * c),
                    axis,
                    extra: room as u32,
                    length: *length,
                    normal: outward(p, q),
                });
            }
        }
        DoorRule::Specific(list) => {
            for &[a, b] in list {
                let Some(normal) = side_of(outline, a, b) else {
                    continue;
                };
                let (lo, hi) = if (a.x, a.y) <= (b.x, b.y) {
                    (a, b)
                } else {
                    (b, a)
                };
                out.push(DoorLine {
                    start: lo,
                    axis: GridPoint::new((hi.x - lo.x).signum(), (hi.y - lo.y).signum()),
                    extra: 0,
                    length: ((hi.x - lo.x) + (hi.y - lo.y)) as u32,
                    normal,
                });
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// A template under one transform, at the origin (its bounding box starts
/// at `(0, 0)`), with what the layout engine needs precomputed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Index of the template in the problem's list.
    pub template: usize,
    /// The transform applied to the template's outline.
    pub transform: Transform,
    /// The transformed outline, moved to the origin.
    pub outline: OrthoPolygon,
    /// The outline cut into rectangles.
    pub rects: Vec<Rect>,
    /// The transformed door lines.
    pub doors: Vec<DoorLine>,
    /// Area in square grid units.
    pub area: i64,
    /// Twice the centre of the bounding box (integer).
    pub centre2: GridPoint,
    /// The bounding box (from `(0, 0)`).
    pub bounds: Rect,
}

impl Shape {
    /// `template` under `transform`.
    pub fn new(index: usize, template: &RoomTemplate, transform: Transform) -> Self {
        let raw: Vec<GridPoint> = template
            .outline
            .points()
            .iter()
            .map(|&p| transform.apply(p))
            .collect();
        let moved = OrthoPolygon::new(&raw).expect("a transform keeps a valid polygon valid");
        let b = moved.bounds();
        let shift = GridPoint::new(-b.x0, -b.y0);
        let outline = moved.translated(shift);
        let doors_rule = match &template.doors {
            DoorRule::Overlap { .. } => template.doors.clone(),
            DoorRule::Specific(list) => DoorRule::Specific(
                list.iter()
                    .map(|&[a, b]| [transform.apply(a) + shift, transform.apply(b) + shift])
                    .collect(),
            ),
        };
        let doors = door_lines(&outline, &doors_rule);
        let rects = outline.rectangles();
        let area = outline.area();
        let bb = outline.bounds();
        Self {
            template: index,
            transform,
            rects,
            doors,
            area,
            centre2: GridPoint::new(bb.x0 + bb.x1, bb.y0 + bb.y1),
            bounds: bb,
            outline,
        }
    }

    /// Area of the intersection of this shape at `at` with `other` at
    /// `other_at`.
    pub fn overlap(&self, at: GridPoint, other: &Shape, other_at: GridPoint) -> i64 {
        let shift = other_at - at;
        // Most pairs in a layout are far apart: one box test settles them.
        let (a, b) = (self.bounds, other.bounds);
        if a.x1 <= b.x0 + shift.x
            || b.x1 + shift.x <= a.x0
            || a.y1 <= b.y0 + shift.y
            || b.y1 + shift.y <= a.y0
        {
            return 0;
        }
        let mut sum = 0;
        for r in &self.rects {
            for s in &other.rects {
                sum += r.overlap(s, shift);
            }
        }
        sum
    }

    /// The L∞ gap between this shape at `at` and `other` at `other_at`: 0
    /// when they touch or overlap.
    pub fn gap(&self, at: GridPoint, other: &Shape, other_at: GridPoint) -> i32 {
        let shift = other_at - at;
        let mut best = i32::MAX;
        for r in &self.rects {
            for s in &other.rects {
                best = best.min(r.gap(s, shift));
            }
        }
        best
    }
}

/// How often one template may appear among the rooms of a layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RepeatMode {
    /// Any number of times.
    #[default]
    Allow,
    /// Never in two rooms joined by an edge.
    NoImmediate,
    /// At most once in the whole layout.
    NoRepeat,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn door_rules_display_as_a_person_reads_them() {
        let overlap = DoorRule::Overlap {
            length: 7,
            corner_distance: 1,
        };
        assert_eq!(overlap.to_string(), "door length 7, corner distance 1");
        let p = GridPoint::new;
        let specific = DoorRule::Specific(vec![[p(0, 0), p(2, 0)], [p(0, 4), p(2, 4)]]);
        assert_eq!(specific.to_string(), "doors [0, 0]–[2, 0], [0, 4]–[2, 4]");
    }

    fn pts(p: &[(i32, i32)]) -> Vec<GridPoint> {
        p.iter().map(|&(x, y)| GridPoint::new(x, y)).collect()
    }

    #[test]
    fn overlap_mode_door_lines_keep_off_the_corners() {
        // thesis_basic's 8-square: door length 2, corner distance 1.
        let t = RoomTemplate::new(
            "8-square",
            &pts(&[(0, 0), (0, 8), (8, 8), (8, 0)]),
            DoorRule::Overlap {
                length: 2,
                corner_distance: 1,
            },
            vec![],
        )
        .unwrap();
        let lines = door_lines(&t.outline, &t.doors);
        assert_eq!(lines.len(), 4);
        let bottom = lines
            .iter()
            .find(|l| l.normal == GridPoint::new(0, -1))
            .unwrap();
        assert_eq!(bottom.start, GridPoint::new(1, 0));
        assert_eq!(bottom.extra, 4); // starts 1..=5, doors up to x = 7
        assert!(bottom.has_door(GridPoint::new(5, 0), GridPoint::new(7, 0)));
        assert!(bottom.has_door(GridPoint::new(3, 0), GridPoint::new(1, 0)));
        assert!(!bottom.has_door(GridPoint::new(6, 0), GridPoint::new(8, 0)));
        assert!(!bottom.has_door(GridPoint::new(0, 0), GridPoint::new(2, 0)));
        assert!(!bottom.has_door(GridPoint::new(2, 0), GridPoint::new(3, 0)));
        let right = lines
            .iter()
            .find(|l| l.normal == GridPoint::new(1, 0))
            .unwrap();
        assert_eq!(right.start, GridPoint::new(8, 1));
        assert_eq!(right.axis, GridPoint::new(0, 1));
    }

    #[test]
    fn specific_doors_must_lie_on_sides() {
        let square = pts(&[(0, 0), (0, 2), (2, 2), (2, 0)]);
        let ok = RoomTemplate::new(
            "c",
            &square,
            DoorRule::Specific(vec![[GridPoint::new(0, 0), GridPoint::new(2, 0)]]),
            vec![],
        );
        assert!(ok.is_ok());
        let off = RoomTemplate::new(
            "c",
            &square,
            DoorRule::Specific(vec![[GridPoint::new(0, 1), GridPoint::new(2, 1)]]),
            vec![],
        );
        assert!(matches!(off, Err(TemplateError::Doors { .. })));
        let too_long = RoomTemplate::new(
            "c",
            &square,
            DoorRule::Overlap {
                length: 2,
                corner_distance: 1,
            },
            vec![],
        );
        assert!(matches!(too_long, Err(TemplateError::Doors { .. })));
    }

    #[test]
    fn shapes_turn_doors_with_the_outline() {
        // A 4 × 2 corridor with doors on its short ends, turned a quarter:
        // 2 wide, 4 high, doors now on the left and right... of a 2 × 4
        // box, i.e. at y = 0 and y = 4 become x = 0 and x = 2 sides.
        let t = RoomTemplate::new(
            "corridor",
            &pts(&[(0, 0), (0, 4), (2, 4), (2, 0)]),
            DoorRule::Specific(vec![
                [GridPoint::new(0, 0), GridPoint::new(2, 0)],
                [GridPoint::new(0, 4), GridPoint::new(2, 4)],
            ]),
            Transform::all(false).collect(),
        )
        .unwrap();
        let s = Shape::new(
            0,
            &t,
            Transform {
                rotation: 1,
                mirror: false,
            },
        );
        assert_eq!(s.outline.bounds().x1, 4);
        assert_eq!(s.outline.bounds().y1, 2);
        let normals: Vec<_> = s.doors.iter().map(|d| d.normal).collect();
        assert!(normals.contains(&GridPoint::new(1, 0)));
        assert!(normals.contains(&GridPoint::new(-1, 0)));
        assert!(s.doors.iter().all(|d| d.length == 2 && d.extra == 0));
    }
}
