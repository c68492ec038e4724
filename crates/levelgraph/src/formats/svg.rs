//! SVG picture of a mission graph: vertices as circles filled with their
//! alphabet colour and labelled with their tag, arrows on directed edges,
//! dashed cosmetic edges, edge labels, a title and a legend of the tags that
//! occur and of the edge kinds.

use std::io::{self, Write};

use svg::node::element::{
    Circle, Definitions, Element, Group, Line, Marker, Path, Rectangle, Text,
};
use svg::Document;

use super::svg_marks::{round, Badge, Disc, EdgeLabel, EdgeLine, Tooltip, VertexMark};
use crate::alphabet::Alphabet;
use crate::graph::{Graph, Point, VertexId};
use crate::plane::COMPASS;

/// Pixels per drawing unit (one ideal edge length).
const SCALE: f64 = 90.0;
/// Vertex circle radius, pixels.
const RADIUS: f64 = 20.0;
const MARGIN: f64 = 40.0;
const LEGEND_WIDTH: f64 = 260.0;
const TITLE_HEIGHT: f64 = 36.0;
const FONT: &str = "Helvetica, Arial, sans-serif";

/// Radius of a stored (nested) vertex's circle, pixels.
const NESTED_RADIUS: f64 = 8.0;

/// Direction `k` around a rim, starting at the bottom and turning
/// clockwise on screen (the compass directions from [1, 0], two on).
fn rim(k: usize) -> [f64; 2] {
    COMPASS[(k + 2) % COMPASS.len()]
}

/// Pixel offset of every vertex from its top-level vertex's centre: zero at
/// the top level; stored vertices, in depth-first order, sit on the rim,
/// one direction of [`rim`] each, a ring further out after every eight.
fn nested_offsets(g: &Graph) -> Vec<[f64; 2]> {
    let mut out = vec![[0.0; 2]; g.vertex_bound()];
    for top in g.vertex_ids().filter(|&v| g.parent(v).is_none()) {
        let mut stack: Vec<VertexId> = g.children(top).iter().rev().copied().collect();
        let mut k = 0usize;
        while let Some(v) = stack.pop() {
            let ring = RADIUS + (k / COMPASS.len()) as f64 * 2.0 * NESTED_RADIUS;
            let dir = rim(k);
            out[v.index()] = [dir[0] * ring, dir[1] * ring];
            k += 1;
            stack.extend(g.children(v).iter().rev().copied());
        }
    }
    out
}

/// The SVG text of `g` with vertex positions `positions` (indexed by vertex
/// id, drawing units; see [`crate::drawing::force_layout`]). Vertices
/// without a position are drawn at the origin. Stored (nested) vertices
/// are small circles on the rim of the top-level vertex they are stored in.
///
/// After a geometric derivation (top-level vertices with a room radius),
/// each room is drawn as a circle of its radius at the same scale as the
/// positions, so the picture shows the rooms as they will be laid out;
/// the scale makes the mean room radius 20 pixels.
///
/// The whole text in memory; [`write_svg`] writes the same bytes to a file
/// as it goes.
pub fn to_svg(g: &Graph, positions: &[Option<Point>], alphabet: &Alphabet, title: &str) -> String {
    to_svg_numbered(g, positions, alphabet, title, &[])
}

/// [`to_svg`] with the places of `numbered` numbered 1, 2, … in a small badge
/// at the top right of their circles (a level's playthrough: the order in
/// which the player reaches its rooms), and a legend line saying so when
/// `numbered` is not empty.
pub fn to_svg_numbered(
    g: &Graph,
    positions: &[Option<Point>],
    alphabet: &Alphabet,
    title: &str,
    numbered: &[VertexId],
) -> String {
    super::in_memory(|w| write_svg_numbered(w, g, positions, alphabet, title, numbered))
}

/// [`to_svg`] written to `w` element by element: the same bytes, with
/// memory for one element at a time (and a few numbers per vertex for
/// the frame), not for the whole picture.
///
/// # Errors
/// The first error of `w`, as it came.
pub fn write_svg<W: Write>(
    w: &mut W,
    g: &Graph,
    positions: &[Option<Point>],
    alphabet: &Alphabet,
    title: &str,
) -> io::Result<()> {
    write_svg_numbered(w, g, positions, alphabet, title, &[])
}

/// [`to_svg_numbered`] written to `w` element by element, as
/// [`write_svg`].
///
/// # Errors
/// The first error of `w`, as it came.
pub fn write_svg_numbered<W: Write>(
    w: &mut W,
    g: &Graph,
    positions: &[Option<Point>],
    alphabet: &Alphabet,
    title: &str,
    numbered: &[VertexId],
) -> io::Result<()> {
    write_svg_shaded(
        w,
        g,
        positions,
        alphabet,
        title,
        numbered,
        &Shading::default(),
    )
}

/// Rings of colour around some vertices, with a legend of what each colour
/// means: the placement analysis shades each room by whether an item can
/// be there.
#[derive(Clone, Debug, Default)]
pub struct Shading {
    /// A vertex and its ring's colour (`#rrggbb`).
    pub rings: Vec<(VertexId, String)>,
    /// The legend's heading and its lines: a colour and what it means.
    pub legend: Option<(String, Vec<(String, String)>)>,
}

/// [`write_svg_numbered`] with `shading`'s rings drawn under the vertices
/// and its legend under the tags' and edges'.
///
/// # Errors
/// The first error of `w`, as it came.
pub fn write_svg_shaded<W: Write>(
    w: &mut W,
    g: &Graph,
    positions: &[Option<Point>],
    alphabet: &Alphabet,
    title: &str,
    numbered: &[VertexId],
    shading: &Shading,
) -> io::Result<()> {
    let frame = Frame::new(g, positions);
    let legend = legend_tags(g, alphabet);
    let order_line = if numbered.is_empty() { 0.0 } else { 32.0 };
    let shade_lines = shading
        .legend
        .as_ref()
        .map_or(0.0, |(_, lines)| 48.0 + 24.0 * lines.len() as f64);
    let legend_h =
        TITLE_HEIGHT + MARGIN + 24.0 * (legend.len() + 4) as f64 + order_line + shade_lines;
    let width = frame.drawing_w + LEGEND_WIDTH;
    let height = frame.drawing_h.max(legend_h);

    let arrow = Marker::new()
        .set("id", "arrow")
        .set("viewBox", "0 0 10 10")
        .set("refX", 10)
        .set("refY", 5)
        .set("markerWidth", 7)
        .set("markerHeight", 7)
        .set("orient", "auto-start-reverse")
        .add(
            Path::new()
                .set("d", "M 0 0 L 10 5 L 0 10 z")
                .set("fill", "#37474f"),
        );
    let doc = Document::new()
        .set("viewBox", (0, 0, width.ceil(), height.ceil()))
        .set("width", width.ceil())
        .set("height", height.ceil())
        .set("font-family", FONT);
    let mut doc = Streamed::start(w, doc);
    doc.child(Definitions::new().add(arrow))?;
    doc.child(white_background())?;
    doc.child(
        Text::new(title)
            .set("x", MARGIN)
            .set("y", 26)
            .set("font-size", 16)
            .set("font-weight", "bold"),
    )?;
    doc.child_with(|w| write_edges(w, g, &frame))?;
    if !shading.rings.is_empty() {
        let mut rings = Group::new().set("opacity", 0.85);
        for (v, colour) in &shading.rings {
            let [cx, cy] = frame.centre(*v);
            rings = rings.add(
                Circle::new()
                    .set("cx", round(cx))
                    .set("cy", round(cy))
                    .set("r", round(frame.radius(*v) + 9.0))
                    .set("fill", colour.as_str()),
            );
        }
        doc.child(rings)?;
    }
    doc.child_with(|w| write_vertices(w, g, &frame, alphabet))?;
    if !numbered.is_empty() {
        doc.child_with(|w| write_badges(w, g, &frame, numbered))?;
    }
    // A whole pixel, so every legend coordinate (lx + 8, lx + 24, …) prints exactly.
    let lx = (frame.drawing_w + 10.0).ceil();
    doc.child(legend_group(lx, &legend, alphabet, !numbered.is_empty()))?;
    if let Some((heading, lines)) = &shading.legend {
        // Below the tags, the three edge lines and the order line.
        let mut y =
            TITLE_HEIGHT + MARGIN + 24.0 * (legend.len() + 4) as f64 + 8.0 + order_line + 32.0;
        let mut key = Group::new().set("font-size", 12);
        key = key.add(
            Text::new(heading.as_str())
                .set("x", lx)
                .set("y", y)
                .set("font-weight", "bold"),
        );
        for (colour, text) in lines {
            y += 24.0;
            key = key
                .add(legend_dot(lx, y).set("fill", colour.as_str()))
                .add(Text::new(text.as_str()).set("x", lx + 24.0).set("y", y));
        }
        doc.child(key)?;
    }
    doc.end()?;
    w.write_all(b"\n")
}

/// A legend line's dot, left of its text at baseline `y`; the caller
/// sets its fill (and stroke).
fn legend_dot(lx: f64, y: f64) -> Circle {
    Circle::new()
        .set("cx", lx + 8.0)
        .set("cy", y - 4.0)
        .set("r", 8)
}

/// The white rectangle under every picture (mission and layout SVG), so
/// that a viewer with a dark background shows it as drawn.
pub(super) fn white_background() -> Rectangle {
    Rectangle::new()
        .set("width", "100%")
        .set("height", "100%")
        .set("fill", "#ffffff")
}

/// An element of the `svg` crate written as it goes: its start tag, each
/// child when it is ready, its end tag; the same bytes as the crate's
/// `Display` of the element with all its children (no indentation, every
/// child on a line of its own, `<name …/>` when there is none), while only
/// one child is in memory at a time.
pub(super) struct Streamed<'w, W: Write> {
    w: &'w mut W,
    /// The element without children, as the crate writes it (`<name …/>`),
    /// until its first child is written; `None` after.
    empty: Option<String>,
    name: String,
}

impl<'w, W: Write> Streamed<'w, W> {
    /// Begins `element`, whose children are still to come (it must have
    /// none yet). Nothing is written before the first child, as an element
    /// that gets none is written `<name …/>`.
    pub(super) fn start(w: &'w mut W, element: impl Into<Element>) -> Self {
        let element: Element = element.into();
        debug_assert!(
            element.get_children().is_empty(),
            "children come one by one"
        );
        Streamed {
            w,
            name: element.get_name().to_owned(),
            empty: Some(element.to_string()),
        }
    }

    /// Writes the start tag if it is not written yet, then the line break
    /// that goes before every child.
    fn before_child(&mut self) -> io::Result<()> {
        if let Some(empty) = self.empty.take() {
            let start = empty
                .strip_suffix("/>")
                .expect("the svg crate writes an element without children as <name …/>");
            write!(self.w, "{start}>")?;
        }
        self.w.write_all(b"\n")
    }

    /// Writes `node` as the next child.
    pub(super) fn child(&mut self, node: impl std::fmt::Display) -> io::Result<()> {
        self.before_child()?;
        write!(self.w, "{node}")
    }

    /// Writes the next child with `write`, which writes an element
    /// (for one that is itself streamed).
    pub(super) fn child_with(
        &mut self,
        write: impl FnOnce(&mut W) -> io::Result<()>,
    ) -> io::Result<()> {
        self.before_child()?;
        write(self.w)
    }

    /// Writes the end tag, or the whole element as `<name …/>` when it got
    /// no child.
    pub(super) fn end(self) -> io::Result<()> {
        match self.empty {
            Some(empty) => self.w.write_all(empty.as_bytes()),
            None => write!(self.w, "\n</{}>", self.name),
        }
    }
}

/// Where the picture puts each vertex: drawing units scaled to pixels
/// (rooms of a geometric derivation at their radii), stored vertices on
/// their top-level vertex's rim, and the size of the drawing's part of
/// the picture.
struct Frame<'a> {
    g: &'a Graph,
    positions: &'a [Option<Point>],
    offsets: Vec<[f64; 2]>,
    /// Top-level radii in drawing units, when the vertices have them.
    radii: Vec<f64>,
    /// Pixels per drawing unit.
    scale: f64,
    /// The largest circle's radius, pixels: the margin around the drawing.
    widest: f64,
    /// The drawing's smallest coordinates, drawing units.
    min: [f64; 2],
    drawing_w: f64,
    drawing_h: f64,
}

impl<'a> Frame<'a> {
    fn new(g: &'a Graph, positions: &'a [Option<Point>]) -> Self {
        let radii: Vec<f64> = g
            .vertices()
            .filter(|(_, v)| v.parent.is_none())
            .filter_map(|(_, v)| v.radius)
            .filter(|r| r.is_finite() && *r > 0.0)
            .collect();
        let scale = if radii.is_empty() {
            SCALE
        } else {
            RADIUS * radii.len() as f64 / radii.iter().sum::<f64>()
        };
        let mut frame = Frame {
            g,
            positions,
            offsets: nested_offsets(g),
            radii,
            scale,
            widest: RADIUS,
            min: [0.0; 2],
            drawing_w: 0.0,
            drawing_h: 0.0,
        };
        frame.widest = g
            .vertex_ids()
            .map(|v| frame.radius(v))
            .fold(RADIUS, f64::max);
        let (mut min, mut max) = ([f64::MAX; 2], [f64::MIN; 2]);
        for v in g.vertex_ids() {
            let p = frame.at(v);
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        if g.vertex_count() == 0 {
            (min, max) = ([0.0; 2], [0.0; 2]);
        }
        frame.min = min;
        frame.drawing_w = (max[0] - min[0]) * scale + 2.0 * (MARGIN + frame.widest);
        frame.drawing_h = (max[1] - min[1]) * scale + 2.0 * (MARGIN + frame.widest) + TITLE_HEIGHT;
        frame
    }

    /// A vertex's circle radius, pixels.
    fn radius(&self, v: VertexId) -> f64 {
        match self.g.vertex(v) {
            Some(x) if x.parent.is_some() => NESTED_RADIUS,
            Some(x) => x
                .radius
                .filter(|r| r.is_finite() && *r > 0.0 && !self.radii.is_empty())
                .map_or(RADIUS, |r| r * self.scale),
            None => RADIUS,
        }
    }

    /// A vertex's position in drawing units (the origin without one).
    fn at(&self, v: VertexId) -> Point {
        self.positions
            .get(v.index())
            .copied()
            .flatten()
            .unwrap_or([0.0, 0.0])
    }

    /// Pixel centre of a vertex's circle.
    fn centre(&self, v: VertexId) -> [f64; 2] {
        let p = self.at(v);
        let px = [
            MARGIN + self.widest + (p[0] - self.min[0]) * self.scale,
            TITLE_HEIGHT + MARGIN + self.widest + (p[1] - self.min[1]) * self.scale,
        ];
        let o = self.offsets[v.index()];
        [px[0] + o[0], px[1] + o[1]]
    }
}

/// The tags that occur in `g`, in alphabet order, then those the
/// alphabet lacks in order of first use.
fn legend_tags<'a>(g: &'a Graph, alphabet: &'a Alphabet) -> Vec<&'a str> {
    let mut used_tags: Vec<&str> = Vec::new();
    for (_, v) in g.vertices() {
        let name = g.tags().name(v.tag);
        if !used_tags.contains(&name) {
            used_tags.push(name);
        }
    }
    let mut legend: Vec<&str> = alphabet
        .tags
        .iter()
        .map(|t| t.name.as_str())
        .filter(|n| used_tags.contains(n))
        .collect();
    legend.extend(used_tags.iter().filter(|n| alphabet.style(n).is_none()));
    legend
}

/// Every edge as a line from rim to rim (arrowhead when directed, dashed
/// when cosmetic) with its label at the middle, in a group written edge by
/// edge.
fn write_edges<W: Write>(w: &mut W, g: &Graph, frame: &Frame) -> io::Result<()> {
    let group = Group::new().set("stroke", "#37474f").set("stroke-width", 2);
    let mut edges = Streamed::start(w, group);
    for (_, e) in g.edges() {
        let (a, b) = (frame.centre(e.source), frame.centre(e.target));
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        // Stop lines at the circles' rims so arrowheads stay visible.
        let (ux, uy) = (dx / len, dy / len);
        let trim_a = frame.radius(e.source).min(len / 2.0);
        let trim_b = frame.radius(e.target).min(len / 2.0);
        edges.child(EdgeLine {
            from: [round(a[0] + ux * trim_a), round(a[1] + uy * trim_a)],
            to: [round(b[0] - ux * trim_b), round(b[1] - uy * trim_b)],
            directed: e.directed,
            cosmetic: e.cosmetic,
        })?;
        if let Some(l) = e.label {
            edges.child(EdgeLabel {
                label: g.labels().name(l),
                at: [round((a[0] + b[0]) / 2.0), round((a[1] + b[1]) / 2.0 - 4.0)],
            })?;
        }
    }
    edges.end()
}

/// Every vertex as a labelled circle: top-level vertices first, so stored
/// ones are drawn on top of them; a group written vertex by vertex.
fn write_vertices<W: Write>(
    w: &mut W,
    g: &Graph,
    frame: &Frame,
    alphabet: &Alphabet,
) -> io::Result<()> {
    let mut nodes = Streamed::start(w, Group::new());
    let order = g
        .vertices()
        .filter(|(_, v)| v.parent.is_none())
        .chain(g.vertices().filter(|(_, v)| v.parent.is_some()));
    for (id, v) in order {
        let tag = g.tags().name(v.tag);
        let fill = alphabet.color(tag);
        let (disc, label) = match v.parent {
            // Too small for the tag: its first letter, and the tag in the tooltip.
            Some(_) => (
                Disc {
                    radius: NESTED_RADIUS,
                    stroke_width: 1.0,
                    font: 8,
                    baseline: 3.0,
                },
                tag.char_indices()
                    .nth(1)
                    .map_or(tag, |(end, _)| &tag[..end]),
            ),
            None => (
                Disc {
                    radius: frame.radius(id),
                    stroke_width: 1.5,
                    font: if tag.chars().count() > 6 { 8 } else { 10 },
                    baseline: 3.5,
                },
                tag,
            ),
        };
        nodes.child(VertexMark {
            centre: frame.centre(id),
            disc,
            fill,
            text_fill: Alphabet::text_color(fill),
            label,
            tooltip: Tooltip {
                id,
                tag,
                parent: v.parent,
            },
        })?;
    }
    nodes.end()
}

/// The numbers 1, 2, … of `numbered` in badges at the top right of their
/// circles, a group written badge by badge.
fn write_badges<W: Write>(
    w: &mut W,
    g: &Graph,
    frame: &Frame,
    numbered: &[VertexId],
) -> io::Result<()> {
    let group = Group::new()
        .set("font-size", 9)
        .set("text-anchor", "middle");
    let mut badges = Streamed::start(w, group);
    for (i, &v) in numbered.iter().enumerate() {
        if !g.contains_vertex(v) {
            continue;
        }
        let c = frame.centre(v);
        let r = frame.radius(v) * std::f64::consts::FRAC_1_SQRT_2;
        badges.child(Badge {
            n: i + 1,
            at: [round(c[0] + r), round(c[1] - r)],
        })?;
    }
    badges.end()
}

/// The legend at `lx` pixels: the tags with their colours and
/// descriptions, the edge kinds, and the playthrough's numbering when
/// `numbered`.
fn legend_group(lx: f64, legend: &[&str], alphabet: &Alphabet, numbered: bool) -> Group {
    let mut y = TITLE_HEIGHT + MARGIN;
    let mut key = Group::new().set("font-size", 12);
    key = key.add(
        Text::new("Tags")
            .set("x", lx)
            .set("y", y)
            .set("font-weight", "bold"),
    );
    for name in legend {
        y += 24.0;
        let fill = alphabet.color(name);
        let description = alphabet.style(name).map_or("", |s| s.description.as_str());
        let text = if description.is_empty() || description == *name {
            (*name).to_owned()
        } else {
            format!("{name} — {description}")
        };
        key = key
            .add(legend_dot(lx, y).set("fill", fill).set("stroke", "#263238"))
            .add(Text::new(text).set("x", lx + 24.0).set("y", y));
    }
    y += 32.0;
    key = key.add(
        Text::new("Edges")
            .set("x", lx)
            .set("y", y)
            .set("font-weight", "bold"),
    );
    for (text, dashed, directed) in [
        ("corridor", false, false),
        ("directed", false, true),
        ("cosmetic (not a corridor)", true, false),
    ] {
        y += 24.0;
        let mut line = Line::new()
            .set("x1", lx)
            .set("y1", y - 4.0)
            .set("x2", lx + 18.0)
            .set("y2", y - 4.0)
            .set("stroke", if dashed { "#78909c" } else { "#37474f" })
            .set("stroke-width", 2);
        if dashed {
            line = line.set("stroke-dasharray", "6 4");
        }
        if directed {
            line = line.set("marker-end", "url(#arrow)");
        }
        key = key
            .add(line)
            .add(Text::new(text).set("x", lx + 24.0).set("y", y));
    }
    if numbered {
        y += 32.0;
        key = key
            .add(
                legend_dot(lx, y)
                    .set("fill", "#ffffff")
                    .set("stroke", "#263238"),
            )
            .add(
                Text::new("1")
                    .set("x", lx + 8.0)
                    .set("y", y - 1.0)
                    .set("font-size", 9)
                    .set("text-anchor", "middle"),
            )
            .add(
                Text::new("order of the playthrough")
                    .set("x", lx + 24.0)
                    .set("y", y),
            );
    }
    key
}
