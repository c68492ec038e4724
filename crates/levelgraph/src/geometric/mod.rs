//! Geometric derivation (PRODUCT.md section B): a derivation
//! that keeps a plane drawing of the level while it rewrites, and ends
//! with rooms as circles that can become geometry.
//!
//! - From the start every vertex has a position (the start vertex sits at
//!   the origin). Vertices mapped from the pattern keep their host
//!   positions; the vertices a rule creates are placed by carrying the
//!   rule's own drawing (module `rule_drawing`) onto the host with the
//!   similarity that takes a pattern edge (the basis) onto its image.
//! - A match whose drawing is a reflection of the rule's drawing (a
//!   *flipped* match, told by the signed angles between the pattern's edges
//!   around each mapped vertex) is never applied: re-attached
//!   neighbourhood edges would cross the substitute.
//! - After each application a few force-directed steps (module `forces`)
//!   untangle the drawing.
//! - Finishing (module `finish`): a drawing with a squeezed corridor is first
//!   relaxed as a whole at the rewriting's lengths (if that makes
//!   corridors cross, again in steps bounded so that none can); each
//!   vertex gets a room radius, the drawing is scaled by the largest
//!   factor any edge needs to reach its ideal length
//!   (the two radii plus a margin) and relaxed toward the ideals; the
//!   self-intersection test ([`check_drawing`]) then decides. A derivation that
//!   fails it is run again with the next seed of [`attempt_seed`], up to
//!   [`GeometrySettings::retries`] times, and then reported.

mod check;
mod finish;
mod host_drawing;
mod placement;
mod spatial;

use std::cell::RefCell;

pub use crate::plane::segments_cross;
pub use crate::settings::{GeometrySettings, SpringShape};
pub use check::{check_drawing, check_graph, DrawingCheck};

use crate::derive::{self, Derivation, DeriveError, StepHook};
use crate::forces::{self, RelaxParams};
use crate::grammar::RuleDrawing;
use crate::grammar::{CompiledGrammar, CompiledRule};
use crate::graph::{Graph, Point, VertexId};
use crate::matching::Match;

/// Root-mean-square force (in units of a spring's strength) at or below
/// which the relaxation after an application stops: a step would then move a
/// vertex by about 2 % of the unit length (`GAIN` 0.2 of the force).
/// Most applications leave their neighbourhood nearly balanced, and
/// relaxing it further moves nothing visibly; with 0.01
/// (`forces::SETTLED`, which rule drawings keep) nearly every relaxation ran to
/// its step limit. Measured over seeds 1..=60 of the default grammar
/// grown to 20, 50, ~97 and ~120 rooms, with the finishing's stops of
/// `finish.rs`: 44 % to 15 % fewer force steps per level (168 → 92 at 20
/// rooms, 919 → 780 at ~120), the same pass rates, levels as large or
/// larger (BENCHMARKS.md, geometric derivation).
const REWRITE_SETTLED: f64 = 0.1;

impl GeometrySettings {
    /// The relaxation after each application: unit edge length.
    fn rewrite_params(&self) -> RelaxParams {
        RelaxParams {
            shape: self.spring,
            spring: 1.0,
            repulsion: 0.05,
            base: 1.0,
            margin: 0.0,
            range: forces::RANGE,
            max_step: 0.1,
            tolerance: 1e-3,
            settled: REWRITE_SETTLED,
            max_steps: self.steps,
            plateau: None,
            planar: None,
        }
    }
}

/// The seed of a retry; defined in [`crate::rng`], where `generate`'s
/// layout retries take it from too.
pub use crate::rng::attempt_seed;

/// Force steps made by a derivation, for reports and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelaxStats {
    /// Relaxations run: one per application, plus the finishing's (its
    /// evening-out of a squeezed drawing, 1 or 2 tries when it runs, and
    /// its last relaxation).
    pub relaxations: u32,
    /// Force steps in all.
    pub steps: u64,
    /// Relaxations the step limit stopped before the energy settled.
    pub unsettled: u32,
    /// Relaxations undone because they made corridors cross.
    pub reverted: u32,
}

/// A level whose drawing passed the self-intersection test.
#[derive(Clone, Debug)]
pub struct GeometricDerivation {
    /// The derivation of the attempt that passed; its graph has a
    /// position for every vertex and a radius for every top-level vertex
    /// (stored vertices sit at their room's position, without a radius).
    /// `derivation.seed` is that attempt's seed.
    pub derivation: Derivation,
    /// The seed asked for.
    pub seed: u64,
    /// Attempts made, 1 when the first passed.
    pub attempts: u32,
    /// Force steps of the passing attempt.
    pub relax: RelaxStats,
}

/// A geometric derivation of `grammar` with `seed`, from one start vertex
/// at the origin. Grid grammars are derived on their grid and are not
/// geometric (their cells are their positions): use [`crate::derive()`].
///
/// # Errors
/// The errors of [`crate::derive()`] when the rewriting fails its limits
/// (at once: a retry would not be a fair sample of the grammar);
/// [`DeriveError::Drawing`] when no attempt's drawing passes.
pub fn derive(
    grammar: &CompiledGrammar,
    seed: u64,
    settings: &GeometrySettings,
) -> Result<GeometricDerivation, DeriveError> {
    derive_from(grammar, start_at_origin(grammar), seed, settings)
}

/// The geometric derivation of `grammar` from the start symbol as it was
/// after its first `applications` applications, drawing included: the
/// step-by-step view of a level that [`derive()`] made. `drawing_seed` is
/// the seed of the drawing that passed (the level's `derivation.seed`,
/// which is [`derive()`]'s seed when its first drawing passed). Like
/// [`crate::derive::replay`], it runs the same derivation again — the same
/// rules, matches and placements, since every choice comes from the seed
/// and the drawing so far — and stops it before application
/// `applications + 1`; the final relaxation of a finished drawing is not
/// run, so positions may differ slightly from the level's.
pub fn replay(
    grammar: &CompiledGrammar,
    drawing_seed: u64,
    settings: &GeometrySettings,
    applications: usize,
) -> Derivation {
    let mut hook = Hook::new(grammar.rules(), grammar.rule_drawings(), settings);
    derive::replay_with_hook(
        grammar,
        start_at_origin(grammar),
        drawing_seed,
        Some(&mut hook),
        applications,
    )
}

/// One start-symbol vertex at the origin: where a geometric derivation
/// begins.
fn start_at_origin(grammar: &CompiledGrammar) -> Graph {
    let mut host = Graph::with_symbols(grammar.tags().clone(), grammar.labels().clone());
    let start = host.add_vertex(grammar.start());
    if let Some(v) = host.vertex_mut(start) {
        v.position = Some([0.0, 0.0]);
    }
    host
}

/// The rules whose pattern matches the start vertex alone (the start
/// rules), and whether any of them can be applied there by a geometric
/// derivation: `Some(false)` when every alternative of every start rule is
/// held back by placement (its own new corridors cross, as a right-hand
/// side that is not planar must), so that every level would be the start
/// vertex alone; `None` when no rule matches the start vertex (another
/// finding) or the grammar is a grid grammar. The placement does not
/// depend on the seed: the host is one vertex at the origin.
pub(crate) fn start_can_be_drawn(
    grammar: &CompiledGrammar,
    settings: &GeometrySettings,
) -> Option<bool> {
    if grammar.grid().is_some() {
        return None;
    }
    let host = start_at_origin(grammar);
    let hook = Hook::new(grammar.rules(), grammar.rule_drawings(), settings);
    let mut any_match = false;
    for (r, rule) in grammar.rules().iter().enumerate() {
        for m in rule.pattern.find_all(&host) {
            any_match = true;
            if (0..rule.alternatives.len()).any(|alt| hook.has_placement(r, alt, &host, &m)) {
                return Some(true);
            }
        }
    }
    any_match.then_some(false)
}

/// A geometric derivation from a given host graph. Host vertices without a
/// position get one from [`crate::drawing::force_layout`] first.
///
/// # Errors
/// As [`derive()`].
pub fn derive_from(
    grammar: &CompiledGrammar,
    mut host: Graph,
    seed: u64,
    settings: &GeometrySettings,
) -> Result<GeometricDerivation, DeriveError> {
    // A position that is not finite (NaN or infinite, from a host file)
    // counts as missing.
    for v in host.vertex_ids().collect::<Vec<_>>() {
        if let Some(x) = host.vertex_mut(v) {
            if x.position
                .is_some_and(|p| !(p[0].is_finite() && p[1].is_finite()))
            {
                x.position = None;
            }
        }
    }
    if host.vertices().any(|(_, v)| v.position.is_none()) {
        let layout =
            crate::drawing::force_layout(&host, &crate::drawing::ForceConfig::for_picture(seed));
        for v in host.vertex_ids().collect::<Vec<_>>() {
            if let Some(x) = host.vertex_mut(v) {
                if x.position.is_none() {
                    x.position = layout[v.index()];
                }
            }
        }
    }
    let drawings = grammar.rule_drawings();
    let mut last = None;
    for attempt in 0..=settings.retries {
        let s = attempt_seed(seed, attempt);
        let mut hook = Hook::new(grammar.rules(), drawings, settings);
        let mut d = derive::derive_with_hook(grammar, host.clone(), s, &mut hook)?;
        finish::finish(
            &mut d.graph,
            settings,
            s,
            &mut hook.stats,
            &mut hook.relax_scratch,
        );
        let check = check_graph(&d.graph);
        if check.passes() {
            return Ok(GeometricDerivation {
                derivation: d,
                seed,
                attempts: attempt + 1,
                relax: hook.stats,
            });
        }
        last = Some((check, d));
    }
    let (check, derivation) = last.expect("at least one attempt");
    Err(DeriveError::Drawing {
        seed,
        attempts: settings.retries + 1,
        crossings: check.crossings.len(),
        overlaps: check.overlaps.len(),
        derivation: Box::new(derivation),
    })
}

/// What the derivation loop asks of the geometry: whether a match is
/// flipped or has no plane placement, and to draw what an application
/// created.
pub(crate) struct Hook<'a> {
    rules: &'a [CompiledRule],
    drawings: &'a [RuleDrawing],
    params: RelaxParams,
    pub(crate) stats: RelaxStats,
    relax_scratch: host_drawing::Scratch,
    placement: RefCell<placement::Scratch>,
    /// The placements found since the last application, for the match
    /// last asked about.
    planned: RefCell<Planned>,
    around: Vec<VertexId>,
}

/// The placements [`Hook::has_placement`] found for one match, per rule
/// and alternative, so that [`Hook::before_apply`] takes the chosen one
/// instead of working it out again (at 20–50 rooms almost every match is
/// placed at the first try, so this was half of all placement checks).
/// Valid until the host changes: cleared after every application.
#[derive(Debug, Default)]
struct Planned {
    vertices: Vec<VertexId>,
    edges: Vec<crate::graph::EdgeId>,
    /// `(rule, alternative, start, end)`: the fresh positions are
    /// `points[start..end]`.
    found: Vec<(usize, usize, usize, usize)>,
    points: Vec<Point>,
}

impl Planned {
    fn clear(&mut self) {
        self.vertices.clear();
        self.edges.clear();
        self.found.clear();
        self.points.clear();
    }

    /// Forgets what was found unless it was found for `m`.
    fn about(&mut self, m: &Match) {
        if self.vertices != m.vertices || self.edges != m.edges {
            self.clear();
            self.vertices.extend_from_slice(&m.vertices);
            self.edges.extend_from_slice(&m.edges);
        }
    }

    fn record(&mut self, r: usize, alt: usize, fresh: &[Point]) {
        let start = self.points.len();
        self.points.extend_from_slice(fresh);
        self.found.push((r, alt, start, self.points.len()));
    }

    /// The placement found for alternative `alt` of rule `r` at `m`.
    fn get(&self, r: usize, alt: usize, m: &Match) -> Option<&[Point]> {
        if self.vertices != m.vertices || self.edges != m.edges {
            return None;
        }
        self.found
            .iter()
            .find(|f| f.0 == r && f.1 == alt)
            .map(|&(_, _, start, end)| &self.points[start..end])
    }
}

impl<'a> Hook<'a> {
    fn new(
        rules: &'a [CompiledRule],
        drawings: &'a [RuleDrawing],
        settings: &GeometrySettings,
    ) -> Self {
        // Fresh buffers per derivation. (Lending the last derivation's
        // through a thread-local measured 2.9 % on the geometric
        // benchmark, within its noise, 2026-11-28: not kept.)
        Hook {
            rules,
            drawings,
            params: settings.rewrite_params(),
            stats: RelaxStats::default(),
            relax_scratch: host_drawing::Scratch::default(),
            placement: RefCell::new(placement::Scratch::default()),
            planned: RefCell::new(Planned::default()),
            around: Vec::new(),
        }
    }
}

impl StepHook for Hook<'_> {
    /// Whether rule `r` may not be applied at `m` because the match is flipped.
    fn is_flipped(&self, r: usize, host: &Graph, m: &Match) -> bool {
        self.drawings[r].is_flipped(host, m)
    }

    /// Whether alternative `alt` of rule `r` has a placement at `m` that
    /// keeps the drawing plane; the placement is kept for [`Hook::after_apply`].
    fn has_placement(&self, r: usize, alt: usize, host: &Graph, m: &Match) -> bool {
        let mut scratch = self.placement.borrow_mut();
        let placed = placement::plan(
            &self.drawings[r],
            alt,
            &self.rules[r].alternatives[alt],
            host,
            m,
            self.params.base,
            &mut scratch,
        );
        if placed {
            let mut planned = self.planned.borrow_mut();
            planned.about(m);
            planned.record(r, alt, &scratch.fresh);
        }
        placed
    }

    /// Works out the placement of alternative `alt` of rule `r` at `m`,
    /// before the host changes (or takes the one [`Hook::has_placement`]
    /// found).
    fn before_apply(&mut self, r: usize, alt: usize, m: &Match, host: &Graph) {
        let planned = self.planned.get_mut();
        if let Some(points) = planned.get(r, alt, m) {
            let fresh = &mut self.placement.get_mut().fresh;
            fresh.clear();
            fresh.extend_from_slice(points);
            return;
        }
        if !self.has_placement(r, alt, host, m) {
            // Not allowed by `has_placement`, so not drawn; a placement
            // without positions leaves the vertices at the origin.
            self.placement.get_mut().fresh.clear();
        }
    }

    /// Puts the vertices the application at `m` created (`created`, in the
    /// alternative's order) where [`Hook::before_apply`] placed them, then
    /// relaxes the drawing around them: the matched and created vertices
    /// and their neighbours move, the rest of the level stays.
    fn after_apply(&mut self, m: &Match, created: &[VertexId], host: &mut Graph) {
        self.placement.get_mut().grid.invalidate();
        self.planned.get_mut().clear();
        let fresh = &self.placement.get_mut().fresh;
        for (j, &v) in created.iter().enumerate() {
            let p: Point = fresh.get(j).copied().unwrap_or([0.0, 0.0]);
            if let Some(x) = host.vertex_mut(v) {
                x.position = Some(p);
            }
        }
        let mut around = std::mem::take(&mut self.around);
        around.clear();
        around.extend_from_slice(&m.vertices);
        around.extend_from_slice(created);
        let out = host_drawing::relax_host(
            host,
            &self.params,
            None,
            Some(&around),
            &mut self.relax_scratch,
        );
        self.around = around;
        // Stored vertices sit at their rooms, so that a pattern naming one
        // reads where it is now.
        host_drawing::place_stored(host);
        self.stats.add(out);
    }
}

impl RelaxStats {
    fn add(&mut self, out: forces::RelaxOutcome) {
        self.relaxations += 1;
        self.steps += u64::from(out.steps);
        self.unsettled += u32::from(!out.converged);
        self.reverted += u32::from(out.reverted);
    }
}
