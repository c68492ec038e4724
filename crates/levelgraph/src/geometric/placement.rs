//! Choosing where an application's fresh vertices go: the first way of
//! laying the rule's drawing on the host ([`RuleDrawing::variants`]) whose
//! new corridors cross no corridor that stays, and whose fresh vertices
//! do not land on a vertex. An application with no such way is not made,
//! so the drawing stays plane while rewriting (flipped matches, which a
//! geometric derivation rejects by signed angles, are the case this
//! generalises: their substitutes cross the
//! re-attached neighbourhood).

use super::spatial::Grid;
use crate::drawing::top_level;
use crate::grammar::RuleDrawing;
use crate::grammar::{CompiledAlternative, End};
use crate::graph::{Graph, Point, VertexId};
use crate::matching::Match;
use crate::plane::{distance, norm, off_segment, segments_cross};

/// A fresh vertex closer than this (in units of the ideal edge length) to a
/// vertex that stays would sit on it.
const TOO_CLOSE: f64 = 0.1;

/// One end of a segment: a host vertex (top-level) or a fresh vertex.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Host(VertexId),
    Fresh(usize),
}

/// Buffers reused by every placement of one derivation.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) fresh: Vec<Point>,
    new: Vec<(u32, u32, Point, Point)>,
    /// Corridors that move with a vertex stored in a room.
    moved: Vec<crate::graph::EdgeId>,
    /// The host's drawing, indexed by place; stale after each application.
    pub(crate) grid: Grid,
}

/// Finds a crossing-free placement of `alt`'s fresh vertices at `m`,
/// leaving it in `scratch.fresh`. `false` when every variant crosses.
pub(crate) fn plan(
    drawing: &RuleDrawing,
    alt_index: usize,
    alt: &CompiledAlternative,
    host: &Graph,
    m: &Match,
    unit: f64,
    scratch: &mut Scratch,
) -> bool {
    for variant in drawing.variants() {
        let mut fresh = std::mem::take(&mut scratch.fresh);
        let placed = drawing.place(alt_index, host, m, unit, variant, &mut fresh);
        scratch.fresh = fresh;
        if !placed {
            // No positions to go by: anything goes.
            return true;
        }
        if !crosses(alt, host, m, unit, scratch) {
            return true;
        }
    }
    false
}

/// Whether applying `alt` at `m` lifts a kept vertex out of a room being
/// deleted (rewriting takes it to the top level).
fn lifts_stored(alt: &CompiledAlternative, host: &Graph, m: &Match) -> bool {
    if alt.deleted.is_empty() {
        return false;
    }
    m.vertices.iter().enumerate().any(|(i, &v)| {
        if alt.deleted.contains(&i) {
            return false;
        }
        let mut at = host.parent(v);
        while let Some(p) = at {
            if alt.deleted.iter().any(|&d| m.vertices[d] == p) {
                return true;
            }
            at = host.parent(p);
        }
        false
    })
}

/// Distance from `p` to the segment `a b`.
fn point_segment_distance(p: Point, a: Point, b: Point) -> f64 {
    norm(off_segment(p, a, b).1)
}

/// Whether the placement in `scratch.fresh` makes a new corridor cross a
/// corridor that stays (or another new one), or puts a fresh vertex on a
/// vertex that stays.
fn crosses(
    alt: &CompiledAlternative,
    host: &Graph,
    m: &Match,
    unit: f64,
    scratch: &mut Scratch,
) -> bool {
    let fresh = &scratch.fresh;
    let deleted = |v: VertexId| alt.deleted.iter().any(|&d| m.vertices[d] == v);
    let stored_fresh = |j: usize| alt.added_inside.iter().any(|&(c, _)| c == End::Fresh(j));
    let id = |e: Side| match e {
        Side::Host(v) => v.0,
        Side::Fresh(j) => u32::MAX - j as u32,
    };
    let pos = |v: VertexId| host.vertex(v).and_then(|x| x.position);
    // A vertex taken out of its room (or out of a room being deleted)
    // would start at a stale spot, on top of the room: held back.
    if !alt.removed_inside.is_empty() || lifts_stored(alt, host, m) {
        return true;
    }
    // The new corridors.
    scratch.new.clear();
    scratch.moved.clear();
    for e in alt.added_edges.iter().filter(|e| !e.cosmetic) {
        let mut ends = [Side::Fresh(0); 2];
        let mut points = [[0.0; 2]; 2];
        let mut skip = false;
        for (k, end) in [e.source, e.target].into_iter().enumerate() {
            match end {
                End::Kept(i) => {
                    let v = top_level(host, m.vertices[i]);
                    match pos(v) {
                        Some(p) => {
                            ends[k] = Side::Host(v);
                            points[k] = p;
                        }
                        None => skip = true,
                    }
                }
                End::Fresh(j) if stored_fresh(j) => skip = true,
                End::Fresh(j) => {
                    ends[k] = Side::Fresh(j);
                    points[k] = fresh[j];
                }
            }
        }
        if !skip && ends[0] != ends[1] {
            scratch
                .new
                .push((id(ends[0]), id(ends[1]), points[0], points[1]));
        }
    }
    // A kept vertex stored in a room takes its corridors there: they are
    // new segments from the room, and their old ones go.
    for &(child, parent) in &alt.added_inside {
        let End::Kept(c) = child else {
            continue;
        };
        let v = m.vertices[c];
        if !host.children(v).is_empty() {
            // What it stores moves too; not worked out: held back.
            return true;
        }
        let (room, at) = match parent {
            End::Kept(p) => {
                let r = top_level(host, m.vertices[p]);
                match pos(r) {
                    Some(at) => (Side::Host(r), at),
                    None => continue,
                }
            }
            End::Fresh(j) => (Side::Fresh(j), fresh[j]),
        };
        for link in host.incidences(v) {
            if link.kind.is_cosmetic() || alt.removed_edges.iter().any(|&j| m.edges[j] == link.edge)
            {
                continue;
            }
            scratch.moved.push(link.edge);
            let w = top_level(host, link.other);
            if Side::Host(w) == room || deleted(link.other) {
                continue;
            }
            if let Some(q) = pos(w) {
                scratch.new.push((id(room), w.0, at, q));
            }
        }
    }
    let moved = &scratch.moved;
    let new = &scratch.new;
    if new.is_empty() && fresh.is_empty() {
        return false;
    }
    // Everything new lies in this box, grown by the nearness margin: a
    // vertex or corridor outside it can neither be crossed nor be near.
    let near = TOO_CLOSE * unit;
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for p in fresh
        .iter()
        .chain(new.iter().flat_map(|(_, _, pa, pb)| [pa, pb]))
    {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k] - near);
            hi[k] = hi[k].max(p[k] + near);
        }
    }
    for (i, &(a, b, pa, pb)) in new.iter().enumerate() {
        for &(c, d, pc, pd) in &new[i + 1..] {
            if a != c && a != d && b != c && b != d && segments_cross(pa, pb, pc, pd) {
                return true;
            }
        }
    }
    let grid = &mut scratch.grid;
    grid.refresh(host, unit);
    // Fresh vertices on vertices that stay, and new corridors through them.
    // New vertices stored in a room end at the room: they sit on nothing.
    let loose = |j: &usize| !stored_fresh(*j);
    let on_a_room = grid.any_room(lo, hi, |v, p| {
        let stored_now = alt
            .added_inside
            .iter()
            .any(|&(c, _)| matches!(c, End::Kept(i) if m.vertices[i] == v));
        !deleted(v)
            && !stored_now
            && ((0..fresh.len())
                .filter(loose)
                .any(|j| distance(fresh[j], p) < near)
                || new.iter().any(|&(a, b, pa, pb)| {
                    a != v.0 && b != v.0 && point_segment_distance(p, pa, pb) < near
                }))
    });
    if on_a_room {
        return true;
    }
    // New corridors across corridors that stay, and fresh vertices on them
    // (nearly on one, a vertex would sit on the corridor in the picture
    // and a rounding error away from crossing it).
    grid.any_corridor(lo, hi, |c| {
        let [pc, pd] = c.at;
        let ([c0, d0], [c1, d1]) = (c.rooms, c.ends);
        if alt.removed_edges.iter().any(|&j| m.edges[j] == c.id)
            || moved.contains(&c.id)
            || deleted(c1)
            || deleted(d1)
        {
            return false;
        }
        (0..fresh.len())
            .filter(loose)
            .any(|j| point_segment_distance(fresh[j], pc, pd) < near)
            || new.iter().any(|&(a, b, pa, pb)| {
                a != c0.0 && a != d0.0 && b != c0.0 && b != d0.0 && segments_cross(pa, pb, pc, pd)
            })
    })
}
