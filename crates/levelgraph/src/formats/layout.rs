//! `layout.json` and `layout.svg`: a room layout (see
//! [`crate::layout`]) as a file a game reads and a picture a designer
//! looks at.
//!
//! `layout.json` (format `levelgraph.layout/1`): the problem's rooms in
//! order, each with its name (the level graph vertex id or Edgar's room
//! number), tag, template name, transform (`r0`…`r270`, `m0`…`m270`),
//! position and outline; the doors, each with its edge (the two room
//! names), the rooms or corridor it joins and its segment; the corridors.
//! Coordinates are integer grid units, y up.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};
use svg::node::element::{Group, Line, Polygon, Text};
use svg::Document;

use super::svg::{white_background, Streamed};

use crate::alphabet::Alphabet;
use crate::layout::{GridPoint, Layout, LayoutProblem, OrthoPolygon, PlacedRoom};

/// The `format` field of `layout.json`.
pub const LAYOUT_FORMAT: &str = "levelgraph.layout/1";

/// `layout.json` as a document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutDoc {
    /// Always [`LAYOUT_FORMAT`].
    pub format: String,
    /// The seed of the run that made it.
    pub seed: u64,
    /// One per room, in the problem's order.
    pub rooms: Vec<RoomDoc>,
    /// Every door.
    pub doors: Vec<DoorDoc>,
    /// Every corridor (empty without corridors).
    pub corridors: Vec<CorridorDoc>,
    /// The level's play semantics, when its grammar declares them (as in
    /// `mission.json`; rooms named by the same vertex ids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<super::play::PlayDoc>,
}

/// A placed room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomDoc {
    /// The room's name: its level-graph vertex id or Edgar room number.
    pub id: String,
    /// Its tag.
    pub tag: String,
    /// The template's name.
    pub template: String,
    /// The transform, as `r0`, `r90`, `r180`, `r270` (turned
    /// counter-clockwise) or `m…` (mirrored in x first).
    pub transform: String,
    /// Where the transformed outline's bounding-box corner went.
    pub position: GridPoint,
    /// The outline in layout coordinates, counter-clockwise.
    pub outline: Vec<GridPoint>,
}

/// A door.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoorDoc {
    /// The edge it serves, as the ids of its two rooms.
    pub edge: [String; 2],
    /// The room it opens from.
    pub room: String,
    /// The room it opens into, when there is no corridor.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub to_room: Option<String>,
    /// The corridor it opens into (an index into `corridors`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub to_corridor: Option<usize>,
    /// Its two ends.
    pub segment: [GridPoint; 2],
}

/// A corridor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorridorDoc {
    /// The edge it serves, as the ids of its two rooms.
    pub edge: [String; 2],
    /// The corridor template's name.
    pub template: String,
    /// As for rooms.
    pub transform: String,
    /// As for rooms.
    pub position: GridPoint,
    /// As for rooms.
    pub outline: Vec<GridPoint>,
}

impl LayoutDoc {
    /// The document of `layout`, a solution of `problem` found with `seed`.
    pub fn new(problem: &LayoutProblem, layout: &Layout, seed: u64) -> Self {
        let name = |r: usize| problem.rooms[r].name.clone();
        let edge = |e: usize| {
            let [a, b] = problem.edges[e];
            [name(a), name(b)]
        };
        let template = |p: &PlacedRoom| problem.templates[p.template].name.clone();
        Self {
            format: LAYOUT_FORMAT.into(),
            seed,
            rooms: layout
                .rooms
                .iter()
                .enumerate()
                .map(|(r, p)| RoomDoc {
                    id: name(r),
                    tag: problem.rooms[r].tag.clone(),
                    template: template(p),
                    transform: p.transform.name(),
                    position: p.position,
                    outline: p.outline.clone(),
                })
                .collect(),
            doors: layout
                .doors
                .iter()
                .map(|d| {
                    let [a, b] = problem.edges[d.edge];
                    DoorDoc {
                        edge: edge(d.edge),
                        room: name(d.room),
                        to_room: d
                            .corridor
                            .is_none()
                            .then(|| name(if d.room == a { b } else { a })),
                        to_corridor: d.corridor,
                        segment: d.segment,
                    }
                })
                .collect(),
            corridors: layout
                .corridors
                .iter()
                .enumerate()
                .map(|(k, c)| CorridorDoc {
                    edge: edge(k),
                    template: template(c),
                    transform: c.transform.name(),
                    position: c.position,
                    outline: c.outline.clone(),
                })
                .collect(),
            play: None,
        }
    }

    /// The document with `report`, a play report on the level graph the
    /// problem was made from, as its `play` section.
    pub fn with_play(
        mut self,
        report: &crate::play::PlayReport,
        graph: &crate::graph::Graph,
    ) -> Self {
        self.play = Some(super::play::PlayDoc::new(report, graph));
        self
    }

    /// Pretty JSON text with a final newline; points (`[x, y]`) on one
    /// line each. The whole text in memory; [`LayoutDoc::write_json`]
    /// writes the same bytes to a file as it goes.
    pub fn to_json(&self) -> String {
        super::in_memory(|w| self.write_json(w))
    }

    /// [`LayoutDoc::to_json`] written to `w` as it goes.
    ///
    /// # Errors
    /// The first error of `w`, as it came.
    pub fn write_json<W: Write>(&self, w: W) -> io::Result<()> {
        super::number_arrays::write_pretty(w, self)
    }
}

/// `pretty` with every array that holds only numbers written on one line
/// (`[\n  3,\n  4\n]` becomes `[3, 4]`); strings are left alone: the plain
/// reference for [`LayoutDoc::write_json`]'s formatter, which writes its
/// output as it goes.
#[cfg(test)]
fn inline_number_arrays(pretty: &str) -> String {
    let mut out = String::with_capacity(pretty.len());
    let mut rest = pretty;
    while let Some(open) = rest.find(['[', '"']) {
        out.push_str(&rest[..open]);
        rest = &rest[open..];
        if rest.starts_with('"') {
            // Copy a string literal whole (it may contain brackets).
            let mut end = 1;
            let bytes = rest.as_bytes();
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            let end = (end + 1).min(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        let close = rest.find(']').unwrap_or(rest.len() - 1);
        let inner = &rest[1..close];
        let numbers = !inner.trim().is_empty()
            && inner.chars().all(|c| {
                c.is_ascii_digit() || matches!(c, '-' | ',' | '.' | ' ' | '\n' | 'e' | 'E' | '+')
            });
        if numbers {
            let items: Vec<&str> = inner.split(',').map(str::trim).collect();
            out.push('[');
            out.push_str(&items.join(", "));
            out.push(']');
            rest = &rest[close + 1..];
        } else {
            out.push('[');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Pixels per grid unit.
const CELL: f64 = 12.0;
const MARGIN: f64 = 24.0;
const FONT: &str = "Helvetica, Arial, sans-serif";

/// The SVG text of a layout: rooms filled with their tag's colour from
/// `alphabet` and labelled with id and tag, corridors grey, doors as thick
/// dark segments; y grows up in the layout and down on screen, so the
/// picture is flipped to keep the layout's orientation. The whole text in
/// memory; [`write_layout_svg`] writes the same bytes to a file as it goes.
pub fn layout_svg(
    problem: &LayoutProblem,
    layout: &Layout,
    alphabet: &Alphabet,
    title: &str,
) -> String {
    super::in_memory(|w| write_layout_svg(w, problem, layout, alphabet, title))
}

/// [`layout_svg`] written to `w` element by element.
///
/// # Errors
/// The first error of `w`, as it came.
pub fn write_layout_svg<W: Write>(
    w: &mut W,
    problem: &LayoutProblem,
    layout: &Layout,
    alphabet: &Alphabet,
    title: &str,
) -> io::Result<()> {
    write_layout_svg_shaded(w, problem, layout, alphabet, title, &[])
}

/// [`write_layout_svg`] with a thick outline of colour around some rooms
/// (`outlines`: the room's index in `problem.rooms` and a `#rrggbb`
/// colour), drawn over the rooms and under the doors: the placement
/// analysis marks each room by whether an item can be there.
///
/// # Errors
/// The first error of `w`, as it came.
pub fn write_layout_svg_shaded<W: Write>(
    w: &mut W,
    problem: &LayoutProblem,
    layout: &Layout,
    alphabet: &Alphabet,
    title: &str,
    outlines: &[(usize, String)],
) -> io::Result<()> {
    let all = layout.rooms.iter().chain(&layout.corridors);
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for p in all.flat_map(|r| r.outline.iter()) {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
    }
    if x0 > x1 {
        (x0, y0, x1, y1) = (0, 0, 1, 1);
    }
    let px = |p: GridPoint| {
        (
            MARGIN + f64::from(p.x - x0) * CELL,
            MARGIN + 28.0 + f64::from(y1 - p.y) * CELL,
        )
    };
    let width = 2.0 * MARGIN + f64::from(x1 - x0) * CELL;
    let height = 2.0 * MARGIN + 28.0 + f64::from(y1 - y0) * CELL;
    let points = |outline: &[GridPoint]| {
        outline
            .iter()
            .map(|&p| {
                let (x, y) = px(p);
                format!("{x},{y}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let doc = Document::new()
        .set("xmlns", "http://www.w3.org/2000/svg")
        .set("width", width)
        .set("height", height)
        .set("viewBox", (0.0, 0.0, width, height));
    let mut doc = Streamed::start(w, doc);
    doc.child(white_background())?;
    doc.child(
        Text::new(title)
            .set("x", MARGIN)
            .set("y", 24.0)
            .set("font-family", FONT)
            .set("font-size", 16),
    )?;
    doc.child_with(|w| {
        let mut corridors = Streamed::start(w, Group::new().set("class", "corridors"));
        for c in &layout.corridors {
            corridors.child(
                Polygon::new()
                    .set("points", points(&c.outline))
                    .set("fill", "#d6d6d6")
                    .set("stroke", "#555555")
                    .set("stroke-width", 1),
            )?;
        }
        corridors.end()
    })?;
    doc.child_with(|w| {
        let mut rooms = Streamed::start(w, Group::new().set("class", "rooms"));
        for (r, placed) in layout.rooms.iter().enumerate() {
            let fill = alphabet.color(&problem.rooms[r].tag);
            rooms.child(
                Polygon::new()
                    .set("points", points(&placed.outline))
                    .set("fill", fill)
                    .set("stroke", "#222222")
                    .set("stroke-width", 1.5),
            )?;
        }
        rooms.end()
    })?;
    if !outlines.is_empty() {
        let mut group = Group::new().set("class", "shading");
        for (r, colour) in outlines {
            if let Some(placed) = layout.rooms.get(*r) {
                group = group.add(
                    Polygon::new()
                        .set("points", points(&placed.outline))
                        .set("fill", "none")
                        .set("stroke", colour.as_str())
                        .set("stroke-width", 6),
                );
            }
        }
        doc.child(group)?;
    }
    doc.child_with(|w| {
        let mut doors = Streamed::start(w, Group::new().set("class", "doors"));
        for d in &layout.doors {
            let (ax, ay) = px(d.segment[0]);
            let (bx, by) = px(d.segment[1]);
            doors.child(
                Line::new()
                    .set("x1", ax)
                    .set("y1", ay)
                    .set("x2", bx)
                    .set("y2", by)
                    .set("stroke", "#7a3e00")
                    .set("stroke-width", 5)
                    .set("stroke-linecap", "butt"),
            )?;
        }
        doors.end()
    })?;
    // Labels after every room, so no room covers another's label.
    doc.child_with(|w| {
        let mut labels = Streamed::start(w, Group::new().set("class", "labels"));
        for (r, placed) in layout.rooms.iter().enumerate() {
            labels.child(room_label(&problem.rooms[r], placed, alphabet, px))?;
        }
        labels.end()
    })?;
    doc.end()?;
    w.write_all(b"\n")
}

/// A room's label, id and tag, at the centre of its outline's largest
/// rectangle, which is inside it; `px` gives a grid point's pixel.
fn room_label(
    spec: &crate::layout::RoomSpec,
    placed: &PlacedRoom,
    alphabet: &Alphabet,
    px: impl Fn(GridPoint) -> (f64, f64),
) -> Text {
    let fill = alphabet.color(&spec.tag);
    let centre = OrthoPolygon::new(&placed.outline)
        .ok()
        .and_then(|p| {
            p.rectangles()
                .into_iter()
                .max_by_key(|r| i64::from(r.x1 - r.x0) * i64::from(r.y1 - r.y0))
        })
        .map_or((0.0, 0.0), |r| {
            let (ax, ay) = px(GridPoint::new(r.x0, r.y0));
            let (bx, by) = px(GridPoint::new(r.x1, r.y1));
            ((ax + bx) / 2.0, (ay + by) / 2.0)
        });
    let label = if spec.tag == spec.name {
        spec.name.clone()
    } else {
        format!("{} {}", spec.name, spec.tag)
    };
    Text::new(label)
        .set("x", centre.0)
        .set("y", centre.1 + 4.0)
        .set("text-anchor", "middle")
        .set("font-family", FONT)
        .set("font-size", 11)
        .set("fill", Alphabet::text_color(fill))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_arrays_go_on_one_line_and_strings_stay() {
        let pretty = "{\n  \"a\": [\n    3,\n    -4\n  ],\n  \"b\": \"[1,\\\"2]\",\n  \"c\": [\n    [\n      1,\n      2\n    ]\n  ],\n  \"d\": []\n}";
        let inlined = inline_number_arrays(pretty);
        assert_eq!(
            inlined,
            "{\n  \"a\": [3, -4],\n  \"b\": \"[1,\\\"2]\",\n  \"c\": [\n    [1, 2]\n  ],\n  \"d\": []\n}"
        );
        let back: serde_json::Value = serde_json::from_str(&inlined).unwrap();
        let before: serde_json::Value = serde_json::from_str(pretty).unwrap();
        assert_eq!(back, before);
    }

    /// The formatter that writes `layout.json` as it goes gives the bytes
    /// of the plain reference (pretty text, then number arrays joined):
    /// points, outlines, segments of points, arrays of ids, empty arrays,
    /// strings with brackets, and the play section's objects in arrays.
    #[test]
    fn streamed_layout_json_is_the_reference() {
        use super::super::play::{EventDoc, KeyDoc, LockDoc, LockEntryDoc, PlayDoc};
        let p = GridPoint::new;
        let doc = LayoutDoc {
            format: LAYOUT_FORMAT.into(),
            seed: 3,
            rooms: vec![RoomDoc {
                id: "0".into(),
                tag: "[room]".into(),
                template: "t, \"1\"".into(),
                transform: "r90".into(),
                position: p(-2, 5),
                outline: vec![p(0, 0), p(4, 0), p(4, -3), p(0, -3)],
            }],
            doors: vec![DoorDoc {
                edge: ["0".into(), "1".into()],
                room: "0".into(),
                to_room: None,
                to_corridor: Some(0),
                segment: [p(1, 0), p(2, 0)],
            }],
            corridors: vec![],
            play: Some(PlayDoc {
                verdict: "completable".into(),
                reason: None,
                reason_code: None,
                entrance: Some(0),
                goals: vec![1, 2],
                keys: vec![KeyDoc {
                    key: 3,
                    room: 0,
                    small: false,
                    opens: vec![LockDoc::Door([0, 1]), LockDoc::Vertex(4)],
                }],
                locks: vec![LockEntryDoc {
                    lock: LockDoc::Vertex(4),
                    room: Some(4),
                    keys: vec![3],
                    gates_goal: true,
                    gates: vec![],
                }],
                unreachable: vec![],
                searched: None,
                playthrough: vec![
                    EventDoc::Enter {
                        room: 0,
                        from: None,
                    },
                    EventDoc::Open {
                        lock: LockDoc::Door([0, 1]),
                        key: 3,
                    },
                ],
            }),
        };
        let mut reference = inline_number_arrays(&serde_json::to_string_pretty(&doc).unwrap());
        reference.push('\n');
        assert_eq!(doc.to_json(), reference);
    }
}
