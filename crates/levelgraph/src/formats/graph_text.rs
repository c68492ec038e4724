//! The one-line `GRAPH …` text export (`mission.txt`), for level builders
//! that read graphs in that form, documented in `docs/formats.md`,
//! section 6. It is close to the `GRAPH … edge(1,2)` notation in which
//! PhantomGrammar, the library behind Dormans' Ludoscope, writes graphs.
//!
//! One line: the word `GRAPH`, then one record per vertex, then one record
//! per edge, all separated by single spaces, ending with a newline:
//!
//! ```text
//! GRAPH u(x=0, y=0, tileX=0, tileY=0) Path(x=0, y=1, tileX=0, tileY=1) edge(0, 1, d=false)
//! ```
//!
//! - A vertex record is `Tag(x=X, y=Y, tileX=TX, tileY=TY)`. Vertices are
//!   written in increasing id order, and an edge refers to a vertex by its
//!   **index in that list** (0, 1, 2, …), which differs from the stable
//!   vertex id when the graph has holes.
//! - An edge record is `edge(A, B, d=false)` for an undirected edge and
//!   `edge(A, B, d=true)` for a directed edge from A to B.
//!
//! How our graphs map onto the format (it was made for graph rewriting on
//! a grid, where every vertex is a grid cell; our graphs usually have no
//! grid):
//!
//! - `x`, `y`: the vertex's `position` if it has one; else its grid cell
//!   (attributes [`GRID_X`] and [`GRID_Y`], both integers); else its place
//!   in `layout` (usually [`crate::drawing::force_layout`]); else 0, 0.
//!   Drawing units (one ideal edge length), rounded to two decimals, written
//!   without a fraction when whole (`3`, `-1.25`).
//! - `tileX`, `tileY`: the grid cell when the vertex has one, else `x` and
//!   `y` rounded to the nearest integer (two vertices may share a tile).
//! - Then everything is shifted by whole tiles so that the smallest `tileX`
//!   and the smallest `tileY` are 0, as on a grid whose cells are counted
//!   from 0 (a reader may index an array by tile); a graph whose cells already
//!   start at 0 does not move. `y` grows downwards, as in `mission.svg`.
//! - `Tag`: the tag name, with every character other than ASCII letters,
//!   digits, `_` and `-` replaced by `_` (`_` for an empty name), since the
//!   format has no quoting.
//! - Lost: vertex ids, attributes (other than the grid cell), cosmetic
//!   edges (the format has no such flag, and a reader would take them for
//!   corridors), edge labels and length factors.

use std::io::{self, Write};

use crate::graph::{Graph, Point, Vertex, VertexId};

/// The vertex attribute holding a vertex's grid column (an integer).
pub const GRID_X: &str = "grid_x";
/// The vertex attribute holding a vertex's grid row (an integer).
pub const GRID_Y: &str = "grid_y";

/// The one-line `GRAPH …` text of `g`. `layout` gives positions by vertex
/// id for vertices with neither a position nor a grid cell (it may be
/// empty). The whole text in memory; [`write_graph_text`] writes the same
/// bytes to a file as it goes.
pub fn to_graph_text(g: &Graph, layout: &[Option<Point>]) -> String {
    super::in_memory(|w| write_graph_text(w, g, layout))
}

/// [`to_graph_text`] written to `w` a record at a time. Two passes over the
/// vertices, the first for the shift (the smallest tile), so memory is a
/// vertex's index in the list per vertex id, not the text.
///
/// # Errors
/// The first error of `w`, as it came.
pub fn write_graph_text<W: Write>(
    w: &mut W,
    g: &Graph,
    layout: &[Option<Point>],
) -> io::Result<()> {
    let places = || g.vertices().map(|(id, v)| place(id, v, layout));
    let shift_x = places().map(|p| p.tile.0).min().unwrap_or(0);
    let shift_y = places().map(|p| p.tile.1).min().unwrap_or(0);
    w.write_all(b"GRAPH")?;
    for ((_, v), p) in g.vertices().zip(places()) {
        // Whole-tile shifts; rounding again keeps the decimals short.
        write!(
            w,
            " {}(x={}, y={}, tileX={}, tileY={})",
            tag_name(g.tags().name(v.tag)),
            number(coordinate(p.x - shift_x as f64)),
            number(coordinate(p.y - shift_y as f64)),
            p.tile.0.saturating_sub(shift_x),
            p.tile.1.saturating_sub(shift_y),
        )?;
    }
    // An edge names its ends by their index in the vertex list.
    let mut index = vec![u32::MAX; g.vertex_bound()];
    for (i, (id, _)) in g.vertices().enumerate() {
        index[id.index()] = i as u32;
    }
    for (_, e) in g.edges().filter(|(_, e)| !e.cosmetic) {
        write!(
            w,
            " edge({}, {}, d={})",
            index[e.source.index()],
            index[e.target.index()],
            e.directed
        )?;
    }
    w.write_all(b"\n")
}

/// Where a vertex goes, before the shift: `x`, `y` in drawing units and
/// its tile.
struct Place {
    x: f64,
    y: f64,
    tile: (i64, i64),
}

/// The place of vertex `id` (`v`): its position, else its grid cell, else
/// its place in `layout`, else the origin (the module docs).
fn place(id: VertexId, v: &Vertex, layout: &[Option<Point>]) -> Place {
    let cell = grid_cell(v);
    let (x, y) = v
        .position
        .filter(|p| p[0].is_finite() && p[1].is_finite())
        .map(|p| (coordinate(p[0]), coordinate(p[1])))
        .or_else(|| cell.map(|(cx, cy)| (cx as f64, cy as f64)))
        .or_else(|| {
            layout
                .get(id.index())
                .copied()
                .flatten()
                .filter(|p| p[0].is_finite() && p[1].is_finite())
                .map(|p| (coordinate(p[0]), coordinate(p[1])))
        })
        .unwrap_or((0.0, 0.0));
    let tile = cell.unwrap_or((x.round() as i64, y.round() as i64));
    Place { x, y, tile }
}

/// The grid cell of `v`: its cell in grid mode, else its `grid_x` and
/// `grid_y` attributes when both are integers.
fn grid_cell(v: &Vertex) -> Option<(i64, i64)> {
    if let Some([x, y]) = v.cell {
        return Some((i64::from(x), i64::from(y)));
    }
    let read = |key: &str| v.attributes.get(key)?.trim().parse::<i64>().ok();
    Some((read(GRID_X)?, read(GRID_Y)?))
}

/// `v` rounded to two decimals (0 when that overflows).
fn coordinate(v: f64) -> f64 {
    let r = (v * 100.0).round() / 100.0;
    if r.is_finite() {
        r
    } else {
        0.0
    }
}

/// Shortest decimal form: `3`, `-1.25`; never `-0`.
fn number(v: f64) -> String {
    if v == 0.0 {
        "0".to_owned()
    } else {
        format!("{v}")
    }
}

/// `name` with characters the format cannot carry replaced by `_`.
fn tag_name(name: &str) -> String {
    if name.is_empty() {
        return "_".to_owned();
    }
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_never_negative_zero() {
        assert_eq!(number(coordinate(1.0)), "1");
        assert_eq!(number(coordinate(-0.001)), "0");
        assert_eq!(number(coordinate(2.345_678)), "2.35");
        assert_eq!(number(coordinate(-1.25)), "-1.25");
        assert_eq!(coordinate(f64::MAX), 0.0);
    }

    #[test]
    fn tag_names_lose_what_the_format_cannot_carry() {
        assert_eq!(tag_name("boss-room"), "boss-room");
        assert_eq!(tag_name("a(b), c"), "a_b___c");
        assert_eq!(tag_name(""), "_");
    }
}
