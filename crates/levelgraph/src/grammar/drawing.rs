//! Each rule's own drawing (geometric derivation): positions for its pattern
//! vertices and, per right-hand alternative, for the vertices it creates; the
//! pattern edge used as the basis when fresh vertices are placed; and the
//! signed angles that tell a rotated match from a flipped one.
//!
//! A rule whose vertices have offsets `@dx,dy` (in a geometric grammar)
//! is drawn where they say. Otherwise the rule's drawing is its default
//! drawing: the pattern is laid out by
//! the same forces as the level (springs of length 1, repulsion), from a
//! start fixed by the rule's index; then each alternative's fresh vertices
//! start between their kept neighbours, pushed away from the pattern's
//! centre, and are relaxed with the pattern vertices held still. Vertices
//! mapped from the pattern therefore sit in the replacement where they sit
//! in the pattern: both sides share one drawing of the kept vertices.

use super::{CompiledAlternative, CompiledRule, End};
use crate::forces::{crossings, relax, RelaxParams, RelaxScratch, Spring};
use crate::graph::{Graph, Point};
use crate::matching::{Match, Pattern};
use crate::plane::{signed_sine, sub, Similarity, COMPASS};
use crate::rng::Rng;
use crate::settings::SpringShape;

/// Below this |sine| an angle of the rule's drawing is too flat to tell a
/// rotation from a reflection, and is not checked.
const FLAT: f64 = 0.25;

/// The work, in vertex–spring pairs per force step summed over the steps,
/// that one relaxation of a rule's drawing may do: the 3,000 steps of
/// [`rule_params`] for a rule of up to 64 vertices and 128 springs (every
/// rule of the examples), fewer for larger ones, none for a rule of
/// thousands (its start positions are its drawing). A step of the forces
/// costs about vertices × springs here, as every part of a small drawing
/// is within reach of every other: a start rule of a 1,000-room star took
/// seconds per step and minutes in all, of 100,000 rooms days.
const RELAX_WORK: u64 = 3_000 * 64 * 128;

/// The work all the rule drawings of one grammar may do together: twenty
/// relaxations of [`RELAX_WORK`]. Rules drawn after it is spent keep their
/// start positions (drawings are made in rule order, so a rule's drawing
/// depends only on the rules before it).
const GRAMMAR_DRAWING_WORK: u64 = 20 * RELAX_WORK;

/// What is left of [`GRAMMAR_DRAWING_WORK`] while a grammar's rules are
/// drawn.
struct Budget {
    left: u64,
}

impl Budget {
    /// Relaxes `pos` like [`relax`] with [`rule_params`], for as many
    /// steps as the work of one relaxation and what is left of the
    /// grammar's allow, and charges the steps made. Whether it could
    /// afford a step.
    fn relax(
        &mut self,
        pos: &mut [Point],
        active: &[usize],
        springs: &[Spring],
        shape: SpringShape,
    ) -> bool {
        let per_step = (pos.len() as u64).max(1) * (springs.len() as u64).max(1);
        let mut params = rule_params(shape);
        let affordable = RELAX_WORK.min(self.left) / per_step;
        params.max_steps = params
            .max_steps
            .min(affordable.min(u64::from(u32::MAX)) as u32);
        if params.max_steps == 0 {
            return false;
        }
        let outcome = relax(
            pos,
            &vec![0.0; pos.len()],
            active,
            springs,
            &params,
            &mut RelaxScratch::default(),
        );
        self.left -= u64::from(outcome.steps) * per_step;
        true
    }
}

/// The drawing of one rule.
#[derive(Clone, Debug)]
pub(crate) struct RuleDrawing {
    /// Position of each pattern vertex.
    pattern: Vec<Point>,
    /// The pattern edge `(u, v)` used as the basis, if the pattern has one
    /// between distinct positions.
    basis: Option<(usize, usize)>,
    /// `(at, a, b, sign)`: around pattern vertex `at`, the angle from
    /// neighbour `a` to neighbour `b` turns counter-clockwise (`sign` > 0)
    /// or clockwise in the rule's drawing; a match must agree.
    angles: Vec<(usize, usize, usize, f64)>,
    /// Per alternative: the position of each vertex it creates.
    fresh: Vec<Vec<Point>>,
    /// The centroid of the pattern's drawing.
    centre: Point,
}

impl RuleDrawing {
    /// The drawings of a grammar's rules, in order.
    pub(crate) fn for_rules(rules: &[CompiledRule]) -> Vec<Self> {
        let mut budget = Budget {
            left: GRAMMAR_DRAWING_WORK,
        };
        rules
            .iter()
            .enumerate()
            .map(|(i, r)| Self::new(r, i, &mut budget))
            .collect()
    }

    /// The default drawing of `rule`, the `index`-th rule of its grammar.
    /// Made with the sigmoid spring whatever the derivation uses: a rule's
    /// drawing is part of the grammar, not of a derivation's tuning.
    fn new(rule: &CompiledRule, index: usize, budget: &mut Budget) -> Self {
        let shape = SpringShape::Sigmoid;
        let at = |o: &[i32; 2]| [f64::from(o[0]), f64::from(o[1])];
        let pattern = match &rule.drawing {
            Some((offsets, _)) => offsets.iter().map(at).collect(),
            None => draw_pattern(&rule.pattern, index, shape, budget),
        };
        let basis = rule
            .pattern
            .edges()
            .iter()
            .filter(|e| pattern[e.source] != pattern[e.target])
            .min_by_key(|e| e.cosmetic)
            .map(|e| (e.source, e.target));
        let angles = angles(&rule.pattern, &pattern);
        let fresh = match &rule.drawing {
            Some((_, fresh)) => fresh.iter().map(|f| f.iter().map(at).collect()).collect(),
            None => rule
                .alternatives
                .iter()
                .map(|alt| draw_fresh(&rule.pattern, &pattern, alt, shape, budget))
                .collect(),
        };
        let centre = centroid(pattern.iter().copied()).unwrap_or([0.0, 0.0]);
        RuleDrawing {
            pattern,
            basis,
            angles,
            fresh,
            centre,
        }
    }

    /// Whether match `m` is a flipped image of the rule's drawing: some
    /// angle of the drawing turns the other way in the host (flipped-match
    /// elimination by signed angles between edges around mapped vertices). Host vertices
    /// without a position do not count; a host angle of exactly 0 or 180°
    /// is not flipped, however small the turn the other way.
    pub(crate) fn is_flipped(&self, host: &Graph, m: &Match) -> bool {
        let at = |i: usize| host.vertex(m.vertices[i]).and_then(|v| v.position);
        self.angles
            .iter()
            .any(|&(v, a, b, sign)| match (at(v), at(a), at(b)) {
                (Some(pv), Some(pa), Some(pb)) => signed_sine(pv, pa, pb) * sign < 0.0,
                _ => false,
            })
    }

    /// The ways alternative `alt` may be laid on the host, in order of
    /// preference: the rule's drawing, then (only when the pattern has no
    /// angle to keep, so a mirror image is no flipped match) its mirror
    /// image across the basis edge, each at full size and shrunk toward
    /// the pattern's centre.
    pub(crate) fn variants(&self) -> impl Iterator<Item = Variant> + '_ {
        let mirrors: &[bool] = if self.angles.is_empty() {
            &[false, true]
        } else {
            &[false]
        };
        [1.0, 0.6, 0.35]
            .into_iter()
            .flat_map(move |scale| mirrors.iter().map(move |&mirror| Variant { scale, mirror }))
    }

    /// Where alternative `alt` puts its fresh vertices at match `m` in
    /// `variant`: the rule's drawing carried onto the host by the
    /// similarity that takes the basis edge onto its image; without a
    /// basis (a start rule), the drawing translated onto the first pattern
    /// vertex and scaled by `unit`. `None` when the match has no positions.
    pub(crate) fn place(
        &self,
        alt: usize,
        host: &Graph,
        m: &Match,
        unit: f64,
        variant: Variant,
        out: &mut Vec<Point>,
    ) -> bool {
        let at = |i: usize| host.vertex(m.vertices[i]).and_then(|v| v.position);
        let map = self
            .basis
            .and_then(|(u, v)| {
                Similarity::between(self.pattern[u], self.pattern[v], at(u)?, at(v)?)
            })
            .or_else(|| {
                let first = at(0)?;
                Some(Similarity::translation(self.pattern[0], first, unit))
            });
        out.clear();
        let Some(map) = map else {
            return false;
        };
        let (a, b) = match self.basis {
            Some((u, v)) => (self.pattern[u], self.pattern[v]),
            None => (
                self.pattern[0],
                [self.pattern[0][0] + 1.0, self.pattern[0][1]],
            ),
        };
        let centre = self.centre;
        out.extend(self.fresh[alt].iter().map(|&p| {
            let p = if variant.mirror { reflect(p, a, b) } else { p };
            let c = if variant.mirror {
                reflect(centre, a, b)
            } else {
                centre
            };
            map.apply([
                c[0] + variant.scale * (p[0] - c[0]),
                c[1] + variant.scale * (p[1] - c[1]),
            ])
        }));
        true
    }
}

/// How a rule's drawing is laid on the host: shrunk by `scale` toward the
/// pattern's centre, and mirrored across the basis edge or not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Variant {
    pub(crate) scale: f64,
    pub(crate) mirror: bool,
}

/// `p` reflected across the line through `a` and `b` (distinct).
fn reflect(p: Point, a: Point, b: Point) -> Point {
    let d = sub(b, a);
    let q = sub(p, a);
    let t = (q[0] * d[0] + q[1] * d[1]) / (d[0] * d[0] + d[1] * d[1]);
    let foot = [a[0] + t * d[0], a[1] + t * d[1]];
    [2.0 * foot[0] - p[0], 2.0 * foot[1] - p[1]]
}

/// Small-drawing forces: unit springs, gentle repulsion.
fn rule_params(shape: SpringShape) -> RelaxParams {
    RelaxParams {
        shape,
        spring: 1.0,
        repulsion: 0.1,
        base: 1.0,
        margin: 0.0,
        range: crate::forces::RANGE,
        max_step: 0.05,
        tolerance: 1e-7,
        settled: crate::forces::SETTLED,
        max_steps: 3_000,
        plateau: None,
        planar: None,
    }
}

fn draw_pattern(
    pattern: &Pattern,
    index: usize,
    shape: SpringShape,
    budget: &mut Budget,
) -> Vec<Point> {
    let n = pattern.vertices().len();
    if n <= 1 {
        return vec![[0.0, 0.0]; n];
    }
    let mut rng = Rng::seeded(0x5eed_d4a3 ^ index as u64);
    let mut pos: Vec<Point> = (0..n).map(|_| [rng.unit(), rng.unit()]).collect();
    let springs: Vec<Spring> = pattern
        .edges()
        .iter()
        .map(|e| Spring {
            a: e.source,
            b: e.target,
            length: 1.0,
            strength: 1.0,
            solid: !e.cosmetic,
        })
        .collect();
    let all: Vec<usize> = (0..n).collect();
    budget.relax(&mut pos, &all, &springs, shape);
    pos
}

/// The checked angles of a pattern drawing.
fn angles(pattern: &Pattern, pos: &[Point]) -> Vec<(usize, usize, usize, f64)> {
    let mut out = Vec::new();
    for v in 0..pattern.vertices().len() {
        let mut around: Vec<usize> = pattern
            .edges()
            .iter()
            .filter_map(|e| match (e.source == v, e.target == v) {
                (true, false) => Some(e.target),
                (false, true) => Some(e.source),
                _ => None,
            })
            .collect();
        around.sort_unstable();
        around.dedup();
        for (i, &a) in around.iter().enumerate() {
            for &b in &around[i + 1..] {
                let s = signed_sine(pos[v], pos[a], pos[b]);
                if s.abs() >= FLAT {
                    out.push((v, a, b, s.signum()));
                }
            }
        }
    }
    out
}

/// Positions of the fresh vertices of `alt`, with the kept pattern vertices
/// held at `pattern`.
fn draw_fresh(
    pattern: &Pattern,
    at: &[Point],
    alt: &CompiledAlternative,
    shape: SpringShape,
    budget: &mut Budget,
) -> Vec<Point> {
    let np = at.len();
    let nf = alt.fresh.len();
    if nf == 0 {
        return Vec::new();
    }
    let index = |e: End| match e {
        End::Kept(i) => i,
        End::Fresh(j) => np + j,
    };
    // As flags: a large pattern's edges each looked up in a list was
    // quadratic.
    let mut deleted = vec![false; np];
    for &i in &alt.deleted {
        deleted[i] = true;
    }
    let mut removed = vec![false; pattern.edges().len()];
    for &j in &alt.removed_edges {
        removed[j] = true;
    }
    let kept = |i: usize| i >= np || !deleted[i];
    let mut springs: Vec<Spring> = pattern
        .edges()
        .iter()
        .enumerate()
        .filter(|&(j, e)| !removed[j] && kept(e.source) && kept(e.target))
        .map(|(_, e)| (e.source, e.target, e.cosmetic, 1.0))
        .chain(alt.added_edges.iter().map(|e| {
            (
                index(e.source),
                index(e.target),
                e.cosmetic,
                e.length.unwrap_or(1.0),
            )
        }))
        .map(|(a, b, cosmetic, length)| Spring {
            a,
            b,
            length,
            strength: 1.0,
            solid: !cosmetic,
        })
        .collect();
    springs.retain(|s| kept(s.a) && kept(s.b));
    let centre = centroid(
        at.iter()
            .enumerate()
            .filter(|&(i, _)| kept(i))
            .map(|(_, p)| *p),
    )
    .unwrap_or([0.0, 0.0]);
    // One side for every new vertex: the left of the pattern's first edge.
    // (Each vertex's own left would put a cycle's two new vertices on
    // opposite sides of the edge they go round, their corridor across it.)
    let left = pattern
        .edges()
        .iter()
        .map(|e| sub(at[e.target], at[e.source]))
        .find(|d| d[0] != 0.0 || d[1] != 0.0)
        .map_or([0.0, 1.0], |d| {
            let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
            [-d[1] / len, d[0] / len]
        });
    // The drawing from the left side, else from the right; the first
    // whose corridors do not cross (else the last tried).
    let mut pos = Vec::new();
    for side in [left, [-left[0], -left[1]]] {
        pos = fresh_start(at, &springs, nf, centre, side);
        // Deleted pattern vertices are gone from the replacement: far
        // away, so they push nothing.
        for (i, p) in pos.iter_mut().enumerate().take(np) {
            if !kept(i) {
                *p = [1e9 + i as f64 * 1e3, 1e9];
            }
        }
        let fresh: Vec<usize> = (np..np + nf).collect();
        // A drawing the budget cannot relax is kept as it starts, its
        // crossings not counted: that count (over every pair of corridors)
        // would cost what the budget saved.
        if !budget.relax(&mut pos, &fresh, &springs, shape)
            || crossings(&pos, &springs, &vec![true; pos.len()], &mut Vec::new()) == 0
        {
            break;
        }
    }
    pos.split_off(np)
}

/// Start positions of an alternative's new vertices (after the `np` pattern
/// vertices at `at`): each between its kept neighbours, half a unit away
/// from the pattern's centre and a third of a unit toward `side`.
fn fresh_start(
    at: &[Point],
    springs: &[Spring],
    nf: usize,
    centre: Point,
    side: Point,
) -> Vec<Point> {
    let np = at.len();
    let mut pos: Vec<Point> = at.to_vec();
    // Each vertex's neighbours in spring order (a scan of every spring for
    // each new vertex was quadratic in a large rule).
    let mut around: Vec<Vec<usize>> = vec![Vec::new(); np + nf];
    for s in springs {
        around[s.a].push(s.b);
        around[s.b].push(s.a);
    }
    for j in 0..nf {
        let me = np + j;
        let neighbours = |placed: &[Point], kept_only: bool| {
            around[me]
                .iter()
                .filter(|&&other| other < np || (!kept_only && other < me))
                .map(|&other| placed[other])
                .collect::<Vec<Point>>()
        };
        // Between its kept neighbours; without any, beside the new ones
        // already started (a room hanging off a new room starts beyond
        // it, not at the pattern's centre).
        let kept = neighbours(&pos, true);
        let near = if kept.is_empty() {
            neighbours(&pos, false)
        } else {
            kept
        };
        let c = centroid(near.into_iter()).unwrap_or(centre);
        let out = sub(c, centre);
        let len = (out[0] * out[0] + out[1] * out[1]).sqrt();
        let (ux, uy) = if len > 1e-9 {
            (out[0] / len, out[1] / len)
        } else {
            // At the centre (a start rule, or between two vertices
            // symmetric about it): the j-th of eight compass directions,
            // so that new vertices start in order around it.
            let d = COMPASS[j % COMPASS.len()];
            let ring = 1.0 + (j / COMPASS.len()) as f64;
            (d[0] * ring, d[1] * ring)
        };
        pos.push([
            c[0] + 0.5 * ux + 0.35 * side[0],
            c[1] + 0.5 * uy + 0.35 * side[1],
        ]);
    }
    pos
}

fn centroid(points: impl Iterator<Item = Point>) -> Option<Point> {
    let mut sum = [0.0, 0.0];
    let mut n = 0usize;
    for p in points {
        sum[0] += p[0];
        sum[1] += p[1];
        n += 1;
    }
    (n > 0).then(|| [sum[0] / n as f64, sum[1] / n as f64])
}
