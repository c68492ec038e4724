//! Finishing a geometric derivation: room radii, scaling to
//! the ideal edge lengths, and a last relaxation toward them.

use super::host_drawing::{place_stored, relax_host, Scratch};
use super::{GeometrySettings, RelaxStats};
use crate::drawing::top_level;
use crate::forces::{Plateau, RelaxParams};
use crate::graph::{Edge, Graph, Point, VertexId};
use crate::plane::distance;
use crate::rng::Rng;

/// Root-mean-square force at or below which the finishing relaxation
/// counts as settled: a step would move a vertex by about 0.6 % of the
/// mean ideal length (`GAIN` 0.2 of the force, in units of that length).
/// With 0.01 (`forces::SETTLED`, which rule drawings keep) and the plateau
/// stop ([`PLATEAU`]) already in place, 23 of the 60 finishings of 20-room
/// levels crept on for all 60 steps at 1–2 % less energy a step,
/// moving each vertex by well under 1 % of a corridor; measured over seeds
/// 1..=60: 11 fewer steps per 20-room level, corridors 10.2 % off their
/// ideal length instead of 10.0 %, no change at 50 rooms and up (their
/// forces stay above it until the step limit).
const FINISH_SETTLED: f64 = 0.03;

/// Repulsion range of the finishing relaxation, in separations (radii plus
/// margin; [`RelaxParams::range`]): only circles closer than touching push
/// each other. Rewriting keeps `crate::forces::RANGE` (2): there the repulsion
/// spreads a neighbourhood after an application, and a shorter reach left
/// levels smaller and corridors farther from their ideal lengths
/// (`max_vertices` 100: 96.2 rooms instead of 97.5). When finishing, the
/// circles already have their sizes and the springs their ideal lengths:
/// repulsion from farther circles only held corridors past their ideals.
/// Measured over seeds 1..=200 of the default grammar grown to 20, 50 and
/// ~98 rooms: corridors 6.6 % off ideal instead of 9.7 % at 20 rooms,
/// 16.9 % instead of 18.6 % at 50, the same at ~98; every level passing
/// the self-intersection test at its first try as before; 5 % fewer
/// instructions per 20-room level (BENCHMARKS.md, geometric derivation).
const FINISH_RANGE: f64 = 1.0;

/// The finishing relaxation's plateau stop ([`Plateau`]): it stops when the
/// energy summed over the last 5 steps is at most 5 % below the sum over
/// the 5 steps before, once the root-mean-square force over the last 5
/// steps is at most 0.25 (while the drawing still contracts after the
/// scale, springs far beyond their length pull with a nearly constant
/// force and the energy is level too; that is not settled). Its energy
/// falls for a dozen steps and then jitters around a floor, which the
/// step-to-step tolerance never saw as settled, so before this stop
/// (86a97c2) every finishing ran all `finish_steps`; at 20 rooms the last
/// 40 of 60 steps took the corridors from 9.7 % to 8.3 % off their ideal
/// length on average. The bound was 0.2 until [`FINISH_RANGE`] brought the
/// corridors nearer their ideals; 0.25 gives some of that back for fewer
/// steps (seeds 1..=200 grown to 20 / 50 / ~98 rooms: finishing steps
/// 27.8 → 23.1 / 46.4 → 41.0 / 58.6 → 58.1, corridors 6.6 → 7.4 % /
/// 16.9 → 18.2 % / 290 % off ideal, still nearer than the 9.7 % / 18.6 %
/// before `FINISH_RANGE`; 0.3 went past them at 50 rooms, 18.9 %).
const PLATEAU: Plateau = Plateau {
    window: 5,
    drop: 0.05,
    calm: 0.25,
};

/// The evening-out before the scale ([`even_out`]) runs when the spread
/// of the rewriting's drawing ([`scale_spread`]: the largest factor by
/// which an edge between two rooms falls short of its desired length while
/// rewriting, over the lower median) is above this: one edge squeezed well
/// below its length. With 2 it ran on more 50-room levels: corridors
/// 14.2 % off ideal instead of 15.1 %, for 1.8 % more instructions instead
/// of 0.2 % (seeds of the default grammar grown to 50 rooms).
const EVEN_OUT_SPREAD: f64 = 3.0;

/// Force steps of the evening-out ([`even_out`]), in each of its two
/// tries. Measured when it came (seeds 1..=60 grown to ~98 / ~125 rooms,
/// evening out every level): corridors 48 % / 78 % off ideal with 10
/// steps, 45 % / 75 % with 20 or 40 (for more instructions); steps of up
/// to 0.2 instead of the rewriting's 0.1 crossed more often (183 % /
/// 306 %).
const EVEN_OUT_STEPS: u32 = 10;

/// The step bound of the evening-out's second try ([`RelaxParams::planar`],
/// after Bertault's PrEd, 1999, whose third this is, and ImPrEd,
/// Simonetto et al. 2011, which bounds a move by its direction rather than
/// in every direction, as this does): in a step, a vertex moves toward a corridor it is not
/// an end of by at most a third of its distance to it, and the corridor's
/// ends toward it likewise, so no step makes corridors cross and the try
/// keeps all its steps.
///
/// The first try's 10 steps made corridors cross and were undone on 22 of
/// the 162 levels evened out of seeds 1..=200 grown to ~98 rooms (49 of
/// 195 at ~125). Those were the worst finished: tried again with 2 steps,
/// then 1, they kept 2, 1 or none (seeds 1..=60: 189 % / 328 % off ideal
/// for the worst level at ~98 / ~125 rooms). With the bounded try no
/// evening-out is undone; over seeds 1..=200, corridors 34 % → 26 % /
/// 64 % → 30 % off ideal on average, the worst level 226 % → 57 % /
/// 623 % → 77 %, for about 1 % more instructions per level there.
///
/// Bounding the first try instead (one try) gave the same means (25 % /
/// 30 %) but left 4 / 13 levels more than 10 points worse than before, by
/// up to 56 points (the bound also slows steps that would not have
/// crossed), and changed 2 of 60 levels at 50 rooms. A bounded try of 20
/// steps: 26 % / 29 %, the worst level 57 % / 58 %, for 3–4 % more
/// instructions per level at ~98 / ~125 rooms. Shares from a quarter to
/// 0.49 gave the same means within a point (with one bounded try).
const EVEN_OUT_SHARE: f64 = 1.0 / 3.0;

/// Evens out a squeezed drawing ([`even_out`]), gives each top-level
/// vertex of `host` a radius (its tag's range from
/// `settings.tag_radius`, else `settings.room_radius`, drawn with a
/// generator seeded from `seed`), scales the drawing about the origin by
/// the largest `ideal / length` over its edges (ideal = the two radii plus
/// the margin), relaxes it toward the ideals, and puts stored vertices at
/// their rooms. `scratch`: the derivation's relaxation buffers.
pub(crate) fn finish(
    host: &mut Graph,
    settings: &GeometrySettings,
    seed: u64,
    stats: &mut RelaxStats,
    scratch: &mut Scratch,
) {
    even_out(host, settings, stats, scratch);
    // A stream of its own, so radii do not shift the derivation's draws.
    let mut rng = Rng::seeded(seed ^ 0x7261_6469_7573_0000);
    let ids: Vec<_> = host.vertex_ids().collect();
    for &v in &ids {
        let top = host.parent(v).is_none();
        let [lo, hi] = settings
            .tag_radius
            .get(host.tags().name(host.tag(v)))
            .copied()
            .unwrap_or(settings.room_radius);
        let r = if top {
            Some(lo + (hi - lo) * rng.unit())
        } else {
            None
        };
        if let Some(x) = host.vertex_mut(v) {
            x.radius = r;
        }
    }
    let mut scale: f64 = 0.0;
    let mut total = 0.0;
    let mut count = 0usize;
    for (_, a, b) in room_edges(host) {
        let (va, vb) = (host.vertex(a).expect("live"), host.vertex(b).expect("live"));
        let ideal = va.radius.unwrap_or(0.0) + vb.radius.unwrap_or(0.0) + settings.margin;
        total += ideal;
        count += 1;
        let length = distance(
            va.position.unwrap_or([0.0; 2]),
            vb.position.unwrap_or([0.0; 2]),
        );
        if length > 1e-9 {
            scale = scale.max(ideal / length);
        }
    }
    if scale > 0.0 {
        for &v in &ids {
            if let Some(x) = host.vertex_mut(v) {
                if let Some(p) = x.position.as_mut() {
                    p[0] *= scale;
                    p[1] *= scale;
                }
            }
        }
    }
    let base = if count > 0 { total / count as f64 } else { 1.0 };
    let params = RelaxParams {
        shape: settings.spring,
        spring: 1.0,
        repulsion: 0.05,
        base,
        margin: settings.margin,
        range: FINISH_RANGE,
        max_step: 0.05 * base,
        tolerance: 1e-4,
        settled: FINISH_SETTLED,
        max_steps: settings.finish_steps,
        plateau: Some(PLATEAU),
        planar: None,
    };
    let out = relax_host(host, &params, Some(settings.margin), None, scratch);
    stats.add(out);
    separate(host);
    place_stored(host);
}

/// Relaxes the whole drawing at the rewriting's lengths before it is
/// scaled, when one edge is squeezed ([`EVEN_OUT_SPREAD`]).
///
/// The rewriting relaxes only around each application, so where a level
/// grows into a crowded corner a corridor can end up at 0.1–0.3 of its
/// length; the finishing scales the whole drawing by the factor that edge
/// needs (20–38 at ~98 rooms, against 2–4 for the median edge), and its
/// relaxation, whose steps are a twentieth of a corridor, cannot pull
/// every other corridor back from several times its ideal length. A few
/// steps of the rewriting's relaxation with every vertex moving spread
/// the crowded corner first. A relaxation that makes corridors cross is
/// undone (as every relaxation is) and run again with its steps bounded
/// so that none can ([`EVEN_OUT_SHARE`]). Stored vertices are left where
/// they were: the finishing puts them at their rooms at its end.
///
/// Measured over seeds 1..=60 of the default grammar grown to 20 / 50 /
/// ~98 / ~125 rooms (`GEO_GROWN` in `benches/geometric.rs`), when it came
/// (df7de30, 60 finishing steps): corridors 8 % (unchanged) / 21 → 15 % /
/// 266 → 50 % / 410 → 79 % off their ideal length, every level passing
/// at its first try as before, for about a third more time per level at
/// ~98 rooms and up (a whole-drawing step there costs what a dozen steps
/// around an application do; BENCHMARKS.md, geometric derivation). With
/// 120 finishing steps and the bounded second try: 8 % / 14 % / 27 % /
/// 30 % (37 % / 56 % at ~98 / ~125 rooms without it), the worst level
/// 57 % / 58 % off (189 % / 328 %); the levels whose first try is kept,
/// every one at 20 and 50 rooms, come out with the same bits as before.
fn even_out(
    host: &mut Graph,
    settings: &GeometrySettings,
    stats: &mut RelaxStats,
    scratch: &mut Scratch,
) {
    if scale_spread(host) <= EVEN_OUT_SPREAD {
        return;
    }
    let mut params = settings.rewrite_params();
    params.max_steps = EVEN_OUT_STEPS;
    for planar in [None, Some(EVEN_OUT_SHARE)] {
        params.planar = planar;
        let out = relax_host(host, &params, None, None, scratch);
        stats.add(out);
        if !out.reverted {
            return;
        }
    }
}

/// The edges between two different top-level vertices (rooms), with those
/// two: the corridors and cosmetic edges of the drawing the finishing
/// sizes. Self-loops and edges to a vertex stored in the same room are
/// left out.
fn room_edges(host: &Graph) -> impl Iterator<Item = (&Edge, VertexId, VertexId)> + '_ {
    host.edges().filter_map(move |(_, e)| {
        let (a, b) = (top_level(host, e.source), top_level(host, e.target));
        (a != b).then_some((e, a, b))
    })
}

/// How unevenly the rewriting's drawing is scaled: over the edges between
/// rooms ([`room_edges`], cosmetic ones too), the factor by which each
/// falls short of its desired length while rewriting (`length_factor /
/// length`, with the rewriting's floor of 0.05 on length factors), the
/// largest over the lower median. 1 for a drawing whose edges are all in
/// proportion, large when one is squeezed; 0 without edges. Edges whose
/// factor is not finite (an infinite length factor, set through the API)
/// are left out.
fn scale_spread(host: &Graph) -> f64 {
    let mut factors: Vec<f64> = room_edges(host)
        .filter_map(|(e, a, b)| {
            let length = distance(host.vertex(a)?.position?, host.vertex(b)?.position?);
            // The rewriting's own floor on length factors (`relax_host`).
            Some(e.length_factor.max(0.05) / length.max(1e-9))
        })
        .filter(|f| f.is_finite())
        .collect();
    if factors.is_empty() {
        return 0.0;
    }
    let largest = factors.iter().fold(0.0f64, |m, &f| m.max(f));
    // The lower median: with two edges, [1, 10] is a spread of 10.
    let middle = (factors.len() - 1) / 2;
    let (_, median, _) = factors.select_nth_unstable_by(middle, f64::total_cmp);
    largest / *median
}

/// Scales the drawing about the origin by the smallest factor that leaves
/// no two circles overlapping (when the relaxation left some closer than
/// their radii): a uniform scale keeps every angle, so it cannot make two
/// corridors cross. Circles at one point cannot be separated this way and
/// are left to the self-intersection test.
fn separate(host: &mut Graph) {
    let rooms: Vec<(Point, f64)> = host
        .vertices()
        .filter(|(_, v)| v.parent.is_none())
        .filter_map(|(_, v)| Some((v.position?, v.radius.unwrap_or(0.0))))
        .collect();
    let mut scale: f64 = 1.0;
    for (i, &(p, r)) in rooms.iter().enumerate() {
        for &(q, s) in &rooms[i + 1..] {
            let d = distance(p, q);
            if d > 1e-9 && d < r + s {
                scale = scale.max((r + s) / d);
            }
        }
    }
    if scale > 1.0 {
        // A hair more, so that rounding cannot leave a pair just touching.
        let scale = scale * (1.0 + 1e-9);
        let ids: Vec<_> = host.vertex_ids().collect();
        for v in ids {
            if let Some(p) = host.vertex_mut(v).and_then(|x| x.position.as_mut()) {
                p[0] *= scale;
                p[1] *= scale;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path of rooms at unit spacing along x, with its last edge
    /// `last` long; every edge of length factor 1.
    fn path_with_last_edge(last: f64) -> Graph {
        let mut g = Graph::new();
        let xs = [0.0, 1.0, 2.0, 3.0, 4.0, 4.0 + last];
        let ids: Vec<_> = xs.iter().map(|_| g.add_vertex_named("room")).collect();
        for (&v, &x) in ids.iter().zip(&xs) {
            g.vertex_mut(v).unwrap().position = Some([x, 0.0]);
        }
        for pair in ids.windows(2) {
            g.connect(pair[0], pair[1], false);
        }
        g
    }

    fn positions(g: &Graph) -> Vec<Point> {
        g.vertices().filter_map(|(_, v)| v.position).collect()
    }

    #[test]
    fn a_squeezed_edge_is_evened_out_before_the_scale() {
        let settings = GeometrySettings::default();
        let mut scratch = Scratch::default();
        let mut stats = RelaxStats::default();
        // 0.1 long against 1 for the median edge: a spread of 10.
        let mut g = path_with_last_edge(0.1);
        let before = scale_spread(&g);
        assert!((before - 10.0).abs() < 1e-9, "{before}");
        even_out(&mut g, &settings, &mut stats, &mut scratch);
        let after = scale_spread(&g);
        assert!(after < before / 2.0, "spread {before} -> {after}");
        assert_eq!(stats.relaxations, 1);
        assert!(stats.steps >= 1 && stats.steps <= u64::from(EVEN_OUT_STEPS));
    }

    #[test]
    fn a_drawing_in_proportion_is_left_as_it_is() {
        let settings = GeometrySettings::default();
        let mut scratch = Scratch::default();
        let mut stats = RelaxStats::default();
        // 0.5 long: a spread of 2, below EVEN_OUT_SPREAD.
        let mut g = path_with_last_edge(0.5);
        assert!(scale_spread(&g) <= EVEN_OUT_SPREAD);
        let before = positions(&g);
        even_out(&mut g, &settings, &mut stats, &mut scratch);
        assert_eq!(positions(&g), before);
        assert_eq!(stats.relaxations, 0);
        // No edges: nothing to measure, nothing done.
        let mut lone = Graph::new();
        let v = lone.add_vertex_named("room");
        lone.vertex_mut(v).unwrap().position = Some([0.0, 0.0]);
        assert_eq!(scale_spread(&lone), 0.0);
        even_out(&mut lone, &settings, &mut stats, &mut scratch);
        assert_eq!(stats.relaxations, 0);
    }

    /// Rooms at `points`, joined by `edges` (ends, length factor).
    fn rooms(points: &[Point], edges: &[(usize, usize, f64)]) -> (Graph, Vec<VertexId>) {
        let mut g = Graph::new();
        let ids: Vec<_> = points.iter().map(|_| g.add_vertex_named("room")).collect();
        for (&v, &p) in ids.iter().zip(points) {
            g.vertex_mut(v).unwrap().position = Some(p);
        }
        for &(a, b, factor) in edges {
            let e = g.connect(ids[a], ids[b], false);
            g.set_length_factor(e, factor);
        }
        (g, ids)
    }

    #[test]
    fn the_spread_is_the_largest_shortfall_over_the_lower_median() {
        let line = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.5, 0.0]];
        // An edge of length factor 0.5 drawn 0.5 long is in proportion.
        let (g, _) = rooms(&line, &[(0, 1, 1.0), (1, 2, 1.0), (2, 3, 0.5)]);
        assert!((scale_spread(&g) - 1.0).abs() < 1e-12);
        // Length factors count from the rewriting's floor of 0.05: a factor
        // of 0.01 drawn 0.0125 long falls short 4 times.
        let (g, _) = rooms(
            &[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0125, 0.0]],
            &[(0, 1, 1.0), (1, 2, 1.0), (2, 3, 0.01)],
        );
        assert!(
            (scale_spread(&g) - 4.0).abs() < 1e-9,
            "{}",
            scale_spread(&g)
        );
        // Two edges, 1 and 0.1 long: the lower median is 1, so 10.
        let (g, _) = rooms(&line[..3], &[(0, 1, 1.0), (1, 2, 1.0)]);
        assert!((scale_spread(&g) - 1.0).abs() < 1e-12);
        let (g, _) = rooms(
            &[[0.0, 0.0], [1.0, 0.0], [1.1, 0.0]],
            &[(0, 1, 1.0), (1, 2, 1.0)],
        );
        assert!(
            (scale_spread(&g) - 10.0).abs() < 1e-9,
            "{}",
            scale_spread(&g)
        );
        // Self-loops and edges to a vertex stored in the same room do not
        // count; an infinite length factor is left out; a zero-length edge
        // is as squeezed as can be.
        let (mut g, ids) = rooms(&line[..3], &[(0, 1, 1.0), (1, 2, 1.0), (0, 0, 1.0)]);
        let stored = g.add_vertex_named("room");
        g.vertex_mut(stored).unwrap().position = Some([9.0, 9.0]);
        assert!(g.set_parent(stored, Some(ids[2])));
        g.connect(stored, ids[2], false);
        let far = g.connect(ids[0], ids[2], false);
        g.set_length_factor(far, f64::INFINITY);
        assert!(
            (scale_spread(&g) - 1.0).abs() < 1e-12,
            "{}",
            scale_spread(&g)
        );
        let (g, _) = rooms(
            &[[0.0, 0.0], [1.0, 0.0], [1.0, 0.0]],
            &[(0, 1, 1.0), (1, 2, 1.0)],
        );
        assert!(scale_spread(&g) > 1e8);
    }

    #[test]
    fn separation_scales_uniformly_until_no_circles_overlap() {
        let mut g = Graph::new();
        let pts = [[0.0, 0.0], [1.0, 0.0], [0.0, 3.0]];
        let ids: Vec<_> = pts.iter().map(|_| g.add_vertex_named("room")).collect();
        for (&v, &p) in ids.iter().zip(&pts) {
            let x = g.vertex_mut(v).unwrap();
            x.position = Some(p);
            x.radius = Some(1.0);
        }
        separate(&mut g);
        let at = |i: usize| g.vertex(ids[i]).unwrap().position.unwrap();
        // The closest pair (1 apart, radii 1 + 1) sets the factor: 2.
        assert!(distance(at(0), at(1)) >= 2.0);
        assert!((distance(at(0), at(1)) - 2.0).abs() < 1e-6);
        // Uniform: every distance grows by the same factor.
        assert!((distance(at(0), at(2)) / 3.0 - 2.0).abs() < 1e-6);
        // Nothing to do when nothing overlaps.
        let before: Vec<_> = (0..3).map(at).collect();
        separate(&mut g);
        let after: Vec<_> = (0..3)
            .map(|i| g.vertex(ids[i]).unwrap().position.unwrap())
            .collect();
        assert_eq!(before, after);
    }
}
