//! The host graph's drawing as the force relaxation sees it: top-level
//! vertices in id order, edges between them as springs (a stored vertex's
//! edges act on its room), positions read from and written back to the
//! graph.

use crate::drawing::top_level;
use crate::forces::{crossings, relax, Mover, RelaxOutcome, RelaxParams, RelaxScratch, Spring};
use crate::graph::{Graph, Point, VertexId};

/// Buffers reused by every relaxation of one derivation.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    ids: Vec<VertexId>,
    slot: Vec<usize>,
    pos: Vec<Point>,
    radius: Vec<f64>,
    active: Vec<usize>,
    springs: Vec<Spring>,
    relax: RelaxScratch,
    start: Vec<Point>,
    moving: Vec<bool>,
    movers: Vec<Mover>,
}

/// Relaxes the drawing of `host`: with `around`, only those vertices and
/// their neighbours move (the neighbourhood of an application); else every
/// top-level vertex. While rewriting (`finishing` is `None`)
/// an edge's desired length is `params.base` times its length factor and
/// vertices have no radius; when finishing, `Some(margin)`: each vertex has
/// its radius and an edge's ideal length is the sum of its ends' radii
/// plus `margin`.
pub(crate) fn relax_host(
    host: &mut Graph,
    params: &RelaxParams,
    finishing: Option<f64>,
    around: Option<&[VertexId]>,
    s: &mut Scratch,
) -> RelaxOutcome {
    s.ids.clear();
    s.ids
        .extend(host.vertex_ids().filter(|&v| host.parent(v).is_none()));
    s.slot.clear();
    s.slot.resize(host.vertex_bound(), usize::MAX);
    for (i, v) in s.ids.iter().enumerate() {
        s.slot[v.index()] = i;
    }
    s.pos.clear();
    s.radius.clear();
    for &v in &s.ids {
        let x = host.vertex(v).expect("live");
        s.pos.push(x.position.unwrap_or([0.0, 0.0]));
        s.radius.push(if finishing.is_some() {
            x.radius.unwrap_or(0.0)
        } else {
            0.0
        });
    }
    s.active.clear();
    match around {
        None => s.active.extend(0..s.ids.len()),
        Some(vertices) => {
            for &v in vertices {
                if !host.contains_vertex(v) {
                    continue;
                }
                let top = top_level(host, v);
                s.active.push(s.slot[top.index()]);
                for link in host.incidences(top) {
                    let w = top_level(host, link.other);
                    s.active.push(s.slot[w.index()]);
                }
            }
            s.active.sort_unstable();
            s.active.dedup();
        }
    }
    s.springs.clear();
    for (_, e) in host.edges() {
        let (a, b) = (top_level(host, e.source), top_level(host, e.target));
        let (a, b) = (s.slot[a.index()], s.slot[b.index()]);
        if a == b {
            continue;
        }
        let length = match finishing {
            None => params.base * e.length_factor.max(0.05),
            Some(margin) => s.radius[a] + s.radius[b] + margin,
        };
        s.springs.push(crate::forces::Spring {
            a,
            b,
            length,
            strength: if e.cosmetic { 0.5 } else { 1.0 },
            solid: !e.cosmetic,
        });
    }
    s.start.clear();
    s.start.extend_from_slice(&s.pos);
    let mut out = relax(
        &mut s.pos,
        &s.radius,
        &s.active,
        &s.springs,
        params,
        &mut s.relax,
    );
    if !out.moved {
        // Settled as it was: the drawing is unchanged. (The write-back
        // below would also give a top-level vertex without a position the
        // origin; none reaches here without one: `derive` places the start
        // vertex, `derive_from` lays out the host, `after_apply` and
        // `place_stored` place what they create.)
        return out;
    }
    // `before` is counted only when needed: a derivation's drawing is
    // plane, so it is 0 unless the host came in with crossings.
    s.moving.clear();
    s.moving.resize(s.pos.len(), false);
    for &i in &s.active {
        s.moving[i] = true;
    }
    let after = crossings(&s.pos, &s.springs, &s.moving, &mut s.movers);
    if after > 0 && after > crossings(&s.start, &s.springs, &s.moving, &mut s.movers) {
        // The forces pulled a corridor across another: keep the drawing as
        // it was, which is plane (forces cannot be trusted to untangle it).
        s.pos.clear();
        s.pos.extend_from_slice(&s.start);
        out.reverted = true;
    }
    for (i, &v) in s.ids.iter().enumerate() {
        if let Some(x) = host.vertex_mut(v) {
            x.position = Some(s.pos[i]);
        }
    }
    out
}

/// Gives every stored vertex the position of the room it is stored in.
pub(crate) fn place_stored(host: &mut Graph) {
    let stored: Vec<(VertexId, Option<Point>)> = host
        .vertex_ids()
        .filter(|&v| host.parent(v).is_some())
        .map(|v| (v, host.vertex(top_level(host, v)).and_then(|x| x.position)))
        .collect();
    for (v, p) in stored {
        if let Some(x) = host.vertex_mut(v) {
            x.position = p;
        }
    }
}
