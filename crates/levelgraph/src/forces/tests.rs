//! Tests of the relaxation: cells and lists against plain scans, reach,
//! stops, the step bound.

use super::kernels::{off_edge, pull, push_apart, repel, separation};
use super::neighbours::Neighbours;
use super::*;
use crate::graph::Point;
use crate::plane::{distance, segments_cross};

/// The cells give every vertex the same repulsion as a scan of all
/// vertices (up to rounding: the sums run in another order).
#[test]
fn repulsion_through_cells_equals_a_full_scan() {
    let mut rng = crate::rng::Rng::seeded(5);
    for round in 0..20 {
        let n = 80 + rng.below(220);
        let side = 4.0 + 30.0 * rng.unit();
        let pos: Vec<Point> = (0..n)
            .map(|_| [side * rng.unit(), side * rng.unit()])
            .collect();
        let radius: Vec<f64> = if round % 2 == 0 {
            vec![0.0; n]
        } else {
            (0..n).map(|_| 0.1 + 0.4 * rng.unit()).collect()
        };
        let p = params(SpringShape::Sigmoid);
        let active: Vec<usize> = (0..n).collect();
        let mut near = Neighbours::default();
        near.choose(&pos, &radius, &active, &[], &p, 0.0);
        near.build(&pos, &[], &vec![true; n], active.len(), &p);
        assert!(!near.all, "round {round}: the cells are in use");
        let mut cells = vec![[0.0; 2]; n];
        repel(&pos, &radius, &active, &p, &near, &mut cells);
        near.all = true;
        let mut scan = vec![[0.0; 2]; n];
        repel(&pos, &radius, &active, &p, &near, &mut scan);
        for i in 0..n {
            for k in 0..2 {
                let (a, b) = (cells[i][k], scan[i][k]);
                assert!(
                    (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
                    "round {round} vertex {i}: {a} vs {b}"
                );
            }
        }
    }
}

fn params(shape: SpringShape) -> RelaxParams {
    RelaxParams {
        shape,
        spring: 1.0,
        repulsion: 0.05,
        base: 1.0,
        margin: 0.0,
        range: RANGE,
        max_step: 0.1,
        tolerance: 1e-4,
        settled: SETTLED,
        max_steps: 2_000,
        plateau: None,
        planar: None,
    }
}

/// One solid spring of length 1 between vertices 0 and 1.
fn unit_edge() -> [Spring; 1] {
    [Spring {
        a: 0,
        b: 1,
        length: 1.0,
        strength: 1.0,
        solid: true,
    }]
}

/// A relaxation of some vertices takes as candidates only what can
/// come within reach of them; it must move them exactly as when every
/// vertex is a candidate (found in review: vertices without radii
/// among vertices with radii, whose reach is the base length; and
/// positions far from the origin, where a capped step is rounded to
/// more than `max_step`).
#[test]
fn a_partial_relaxation_sees_everything_within_reach() {
    // Vertex 0 relaxed alone, with two far vertices (so that only the
    // candidates within reach are taken), against the same without
    // them (three vertices: every one is a candidate).
    fn check(pos: &[Point], radius: &[f64], springs: &[Spring], p: &RelaxParams) {
        let far = |x: Point| [x[0] + 1e3, x[1] + 1e3];
        let mut chosen = pos.to_vec();
        chosen.extend([far(pos[0]), far(far(pos[0]))]);
        let mut radii = radius.to_vec();
        radii.extend([0.0, 0.0]);
        relax(
            &mut chosen,
            &radii,
            &[0],
            springs,
            p,
            &mut RelaxScratch::default(),
        );
        let mut every = pos.to_vec();
        relax(
            &mut every,
            radius,
            &[0],
            springs,
            p,
            &mut RelaxScratch::default(),
        );
        assert_ne!(every[0], pos[0], "vertex 0 is moved");
        assert_eq!(chosen[0].map(f64::to_bits), every[0].map(f64::to_bits));
    }
    // Two vertices without radii among one with: they touch at the
    // base length, beyond the cell made for the radii.
    let mut p = params(SpringShape::Sigmoid);
    p.base = 2.5;
    p.max_step = 0.05;
    p.max_steps = 1;
    check(
        &[[0.0, 0.0], [3.0, 0.0], [50.0, 50.0]],
        &[0.0, 0.0, 0.5],
        &[],
        &p,
    );
    // Far from the origin a step of at most 0.1 is rounded to 0.125:
    // over 20 steps vertex 0 comes within reach of the third vertex.
    let x0 = 2f64.powi(49) + 1024.0;
    let mut p = params(SpringShape::Sigmoid);
    p.tolerance = 1e-3;
    p.settled = 0.1;
    p.max_steps = 20;
    let spring = [Spring {
        a: 0,
        b: 1,
        length: 1.0,
        strength: 1.0,
        solid: true,
    }];
    check(
        &[[x0, 0.0], [x0 + 6.0, 0.0], [x0 + 4.125, 0.25]],
        &[0.0; 3],
        &spring,
        &p,
    );
}

/// A relaxation that moves every vertex (the finishing's: neighbour
/// lists over cells, remade when the skin is used up) ends at the same
/// bits as a plain reference that looks at every pair and every
/// vertex–spring pair at every step, in index order: the lists, cells
/// and boxes only skip what is out of reach.
#[test]
fn a_relaxation_of_every_vertex_equals_a_plain_reference() {
    /// One step of the reference: the forces on every vertex, summed
    /// in the order `relax` sums them (pairs `i < j` in index order,
    /// then springs, then vertex–spring pushes per vertex in spring
    /// order), then every vertex moved. Indices, as `push_apart`
    /// takes them.
    #[allow(clippy::needless_range_loop)]
    fn reference_step(pos: &mut [Point], radius: &[f64], springs: &[Spring], p: &RelaxParams) {
        let n = pos.len();
        let mut force = vec![[0.0, 0.0]; n];
        for i in 0..n {
            let mut fi = [0.0, 0.0];
            for j in i + 1..n {
                if let Some(f) = push_apart(pos, p, i, j, separation(radius, p, i, j)) {
                    fi[0] += f[0];
                    fi[1] += f[1];
                    force[j][0] -= f[0];
                    force[j][1] -= f[1];
                }
            }
            force[i][0] += fi[0];
            force[i][1] += fi[1];
        }
        pull(pos, springs, &vec![true; n], p, &mut force);
        let range = 0.5 * p.base;
        for i in 0..n {
            for s in springs.iter().filter(|s| s.solid && i != s.a && i != s.b) {
                if let Some((t, f)) = off_edge(pos[i], pos[s.a], pos[s.b], range) {
                    force[i][0] += f[0];
                    force[i][1] += f[1];
                    force[s.a][0] -= f[0] * (1.0 - t);
                    force[s.a][1] -= f[1] * (1.0 - t);
                    force[s.b][0] -= f[0] * t;
                    force[s.b][1] -= f[1] * t;
                }
            }
        }
        for i in 0..n {
            let f = force[i];
            let len = (f[0] * f[0] + f[1] * f[1]).sqrt();
            let step = GAIN * p.base * len;
            if step > 0.0 {
                let scale = step.min(p.max_step) / len;
                pos[i][0] += f[0] * scale;
                pos[i][1] += f[1] * scale;
            }
        }
    }
    let mut rng = crate::rng::Rng::seeded(11);
    for round in 0..6 {
        // Enough vertices that the lists are made through cells.
        let n = 120 + rng.below(120);
        let side = 6.0 + 20.0 * rng.unit();
        let start: Vec<Point> = (0..n)
            .map(|_| [side * rng.unit(), side * rng.unit()])
            .collect();
        let finishing = round % 2 == 1;
        let radius: Vec<f64> = if finishing {
            (0..n).map(|_| 0.2 + 0.4 * rng.unit()).collect()
        } else {
            vec![0.0; n]
        };
        // A path through every vertex, and some chords, a few cosmetic.
        let mut springs: Vec<Spring> = (1..n)
            .map(|b| Spring {
                a: b - 1,
                b,
                length: 1.0,
                strength: 1.0,
                solid: true,
            })
            .collect();
        for _ in 0..n / 4 {
            let (a, b) = (rng.below(n), rng.below(n));
            if a != b {
                let solid = rng.below(4) != 0;
                springs.push(Spring {
                    a,
                    b,
                    length: 0.5 + rng.unit(),
                    strength: if solid { 1.0 } else { 0.5 },
                    solid,
                });
            }
        }
        let mut p = params(SpringShape::Sigmoid);
        if finishing {
            p.margin = 0.1;
            p.range = 1.0;
            p.max_step = 0.05;
        }
        // No early stop: every one of the steps is made.
        p.settled = 0.0;
        p.tolerance = -1.0;
        p.max_steps = 40;
        let active: Vec<usize> = (0..n).collect();
        let mut fast = start.clone();
        let mut scratch = RelaxScratch::default();
        let out = relax(&mut fast, &radius, &active, &springs, &p, &mut scratch);
        assert_eq!(out.steps, 40, "round {round}");
        assert!(!scratch.near.all, "round {round}: the cells are in use");
        let mut plain = start.clone();
        for _ in 0..40 {
            reference_step(&mut plain, &radius, &springs, &p);
        }
        assert_ne!(plain, start, "round {round}: the drawing moves");
        for i in 0..n {
            assert_eq!(
                fast[i].map(f64::to_bits),
                plain[i].map(f64::to_bits),
                "round {round} vertex {i}"
            );
        }
    }
}

/// The repulsion reaches `range` separations and no farther: with
/// the finishing's range of 1, circles push only when closer than
/// touching (their radii plus the margin).
#[test]
fn repulsion_reaches_its_range_and_no_farther() {
    let mut p = params(SpringShape::Sigmoid);
    p.margin = 0.5;
    let radius = [1.0, 1.0];
    // Touching at 1 + 1 + 0.5.
    let touch = separation(&radius, &p, 0, 1);
    assert_eq!(touch, 2.5);
    let push = |range: f64, d: f64| {
        let mut p = p;
        p.range = range;
        push_apart(&[[0.0, 0.0], [d, 0.0]], &p, 0, 1, touch)
    };
    for d in [2.6, 4.0, 4.9] {
        assert!(push(1.0, d).is_none(), "range 1 at {d}");
        let f = push(2.0, d).expect("range 2 reaches 5");
        assert!(f[0] < 0.0 && f[1] == 0.0, "vertex 0 pushed away: {f:?}");
    }
    assert!(push(2.0, 5.0).is_none());
    // Closer than touching: the inverse square and the contact push.
    let f = push(1.0, 2.0).expect("overlapping circles push");
    assert!(f[0] < -0.05 * (2.5f64 / 2.0).powi(2), "{f:?}");
}

/// [`relax`] of two free vertices of radius 0, both moving.
fn relax_pair(pos: &mut [Point], springs: &[Spring], p: &RelaxParams) -> RelaxOutcome {
    relax(
        pos,
        &[0.0; 2],
        &[0, 1],
        springs,
        p,
        &mut RelaxScratch::default(),
    )
}

#[test]
fn an_edge_settles_near_its_length_with_either_spring() {
    for shape in [SpringShape::Logarithmic, SpringShape::Sigmoid] {
        for start in [0.2, 3.0] {
            let mut pos = vec![[0.0, 0.0], [start, 0.0]];
            let springs = unit_edge();
            let out = relax_pair(&mut pos, &springs, &params(shape));
            assert!(out.converged, "{shape:?} from {start}: {out:?}");
            let d = distance(pos[0], pos[1]);
            assert!((d - 1.0).abs() < 0.15, "{shape:?} from {start}: length {d}");
        }
    }
}

#[test]
fn a_settled_drawing_is_left_as_it_is() {
    // One edge at its length: no spring force, and the pair's
    // repulsion (0.05 at one base length) is below the bound.
    let mut pos = vec![[0.0, 0.0], [1.0, 0.0]];
    let springs = unit_edge();
    let mut p = params(SpringShape::Sigmoid);
    p.settled = 0.1;
    let out = relax_pair(&mut pos, &springs, &p);
    assert!(out.converged && !out.moved, "{out:?}");
    assert_eq!(out.steps, 1);
    assert_eq!(pos, vec![[0.0, 0.0], [1.0, 0.0]]);
}

#[test]
fn the_plateau_stop_needs_a_calm_drawing() {
    // Two vertices far apart on a short spring: the sigmoid pulls with
    // a nearly constant force while they close in, so the energy is
    // level; that is not a plateau while the force is above `calm`.
    let springs = unit_edge();
    let mut p = params(SpringShape::Sigmoid);
    p.max_steps = 30;
    p.tolerance = 0.0;
    p.plateau = Some(Plateau {
        window: 5,
        drop: 0.05,
        calm: 0.2,
    });
    let mut pos = vec![[0.0, 0.0], [100.0, 0.0]];
    let out = relax_pair(&mut pos, &springs, &p);
    assert_eq!(out.steps, 30, "{out:?}");
    assert!(!out.converged);
    // Without the bound the level energy counts as a plateau at once.
    p.plateau = Some(Plateau {
        calm: f64::INFINITY,
        ..p.plateau.expect("set above")
    });
    let mut pos = vec![[0.0, 0.0], [100.0, 0.0]];
    let out = relax_pair(&mut pos, &springs, &p);
    assert!(out.converged && out.steps == 10, "{out:?}");
}

/// A plane drawing of `n` vertices squeezed into a square of side
/// `side` (edges of length 1 want to be several times longer): the
/// greedy triangulation, shortest pairs first, each edge kept when it
/// crosses none kept before.
fn squeezed_triangulation(
    rng: &mut crate::rng::Rng,
    n: usize,
    side: f64,
) -> (Vec<Point>, Vec<Spring>) {
    let pos: Vec<Point> = (0..n)
        .map(|_| [side * rng.unit(), side * rng.unit()])
        .collect();
    let mut pairs: Vec<(f64, usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .map(|(a, b)| (distance(pos[a], pos[b]), a, b))
        .collect();
    pairs.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut springs: Vec<Spring> = Vec::new();
    for (_, a, b) in pairs {
        let crosses = springs.iter().any(|s| {
            s.a != a
                && s.a != b
                && s.b != a
                && s.b != b
                && segments_cross(pos[a], pos[b], pos[s.a], pos[s.b])
        });
        if !crosses {
            springs.push(Spring {
                a,
                b,
                length: 1.0,
                strength: 1.0,
                solid: true,
            });
        }
    }
    (pos, springs)
}

/// The step bound ([`RelaxParams::planar`]) keeps a squeezed plane
/// drawing plane at every step, and over a relaxation of many steps
/// (neighbour lists kept between steps), where the same relaxation
/// without it makes edges cross.
#[test]
fn the_bounded_step_never_makes_edges_cross() {
    let mut rng = crate::rng::Rng::seeded(3);
    // The evening-out's relaxation, every step made.
    let mut free = params(SpringShape::Sigmoid);
    free.settled = 0.0;
    free.tolerance = -1.0;
    free.max_steps = 1;
    let bounded = RelaxParams {
        planar: Some(1.0 / 3.0),
        ..free
    };
    let mut crossed_without = 0;
    for round in 0..12 {
        let n = 20 + rng.below(60);
        let side = 0.5 + 2.0 * rng.unit();
        let (start, springs) = squeezed_triangulation(&mut rng, n, side);
        let radius = vec![0.0; n];
        let all = vec![true; n];
        let active: Vec<usize> = (0..n).collect();
        let mut movers = Vec::new();
        let mut scratch = RelaxScratch::default();
        assert_eq!(crossings(&start, &springs, &all, &mut movers), 0);
        let (mut a, mut b) = (start.clone(), start.clone());
        let mut crossed = false;
        for step in 0..30 {
            relax(&mut a, &radius, &active, &springs, &free, &mut scratch);
            crossed |= crossings(&a, &springs, &all, &mut movers) > 0;
            relax(&mut b, &radius, &active, &springs, &bounded, &mut scratch);
            let after = crossings(&b, &springs, &all, &mut movers);
            assert_eq!(after, 0, "round {round} step {step}");
        }
        crossed_without += usize::from(crossed);
        // The same 30 steps in one relaxation.
        let mut long = start.clone();
        let p = RelaxParams {
            max_steps: 30,
            ..bounded
        };
        let out = relax(&mut long, &radius, &active, &springs, &p, &mut scratch);
        assert_eq!(out.steps, 30);
        assert!(
            out.moved && long != start,
            "round {round}: the drawing moves"
        );
        assert_eq!(long, b, "round {round}: as step by step");
        let after = crossings(&long, &springs, &all, &mut movers);
        assert_eq!(after, 0, "round {round}: 30 steps at once");
    }
    // Without the bound, these drawings cross.
    assert!(crossed_without >= 6, "{crossed_without} of 12 crossed");
}

/// Odd input to the bounded step: coincident vertices, zero-length
/// edges, a vertex on an edge it is not an end of. Nothing panics,
/// positions stay finite and no crossing is added (a vertex on an
/// edge stops, and the edge's ends with it).
#[test]
fn the_bounded_step_takes_odd_drawings() {
    let spring = |a: usize, b: usize| Spring {
        a,
        b,
        length: 1.0,
        strength: 1.0,
        solid: true,
    };
    let start = vec![
        [0.0, 0.0],
        [0.0, 0.0],
        [0.5, 0.0],
        [0.25, 0.0],
        [0.3, 0.2],
        [0.3, 0.2],
        [0.1, 0.1],
    ];
    let springs = [
        spring(0, 1),
        spring(0, 2),
        spring(1, 4),
        spring(3, 4),
        spring(4, 5),
        spring(2, 5),
        spring(6, 6),
    ];
    let n = start.len();
    let all = vec![true; n];
    let mut movers = Vec::new();
    let before = crossings(&start, &springs, &all, &mut movers);
    let mut p = params(SpringShape::Sigmoid);
    p.settled = 0.0;
    p.tolerance = -1.0;
    p.max_steps = 20;
    p.planar = Some(1.0 / 3.0);
    let mut pos = start.clone();
    let active: Vec<usize> = (0..n).collect();
    relax(
        &mut pos,
        &[0.0; 7],
        &active,
        &springs,
        &p,
        &mut RelaxScratch::default(),
    );
    assert!(pos.iter().all(|q| q[0].is_finite() && q[1].is_finite()));
    assert!(crossings(&pos, &springs, &all, &mut movers) <= before);
    // Vertex 3 lies on edge 0–2: the three stay.
    for i in [0, 2, 3] {
        assert_eq!(pos[i], start[i], "vertex {i}");
    }
    assert_ne!(pos[6], start[6], "vertex 6 is free to move");
}

#[test]
fn circles_are_pushed_apart_and_pinned_vertices_stay() {
    let mut pos = vec![[0.0, 0.0], [0.5, 0.0]];
    let mut p = params(SpringShape::Sigmoid);
    p.margin = 0.1;
    relax(
        &mut pos,
        &[1.0, 1.0],
        &[1],
        &[],
        &p,
        &mut RelaxScratch::default(),
    );
    assert_eq!(pos[0], [0.0, 0.0]);
    assert!(distance(pos[0], pos[1]) >= 2.0, "{pos:?}");
}
