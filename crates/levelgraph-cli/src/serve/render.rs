//! One seed's level as the page shows it: the pictures (mission graph,
//! layout, tile map), the play verdict, the stop reason and the trace, and
//! the graph after the first k applications with that step's match and
//! new vertices ringed, with that graph's own play verdict. Every picture
//! is made by the library writers `generate` uses, so the page shows what
//! `generate` would write.

use std::sync::Mutex;

use levelgraph::alphabet::Alphabet;
use levelgraph::formats::tilemap::{to_png, TilePalette};
use levelgraph::formats::{write_layout_svg, write_svg_shaded, Shading};
use levelgraph::geometric::GeometrySettings;
use levelgraph::pipeline::{self, Config, GenerateError, Level};
use levelgraph::play::PlayReport;
use levelgraph::{Derivation, Graph};
use serde::Serialize;

use super::state::Good;

/// The most applications the trace list sends (the slider still reaches
/// every step; a derivation of a million steps would otherwise send a
/// list of a million).
const MAX_TRACE_ROWS: usize = 2_000;

/// Ring colours of the step view: the vertices the step matched, and
/// those it created.
const MATCHED_RING: &str = "#ffb300";
const CREATED_RING: &str = "#43a047";

/// A seed's level, drawn.
#[derive(Serialize)]
pub(crate) struct Drawn {
    pub(crate) seed: u64,
    /// The seed of the attempt that made the level (differs from `seed`
    /// when the first attempts gave way: a `play` or `rooms` block's
    /// retries).
    pub(crate) level_seed: u64,
    /// The seed the level's derivation ran with: `level_seed`, or for a
    /// geometric derivation the seed of the drawing that passed (what its
    /// replay needs).
    #[serde(skip)]
    pub(crate) derivation_seed: u64,
    pub(crate) mission_svg: Option<String>,
    pub(crate) layout_svg: Option<String>,
    /// The tile map as a `data:image/png;base64,…` URL.
    pub(crate) tiles_png: Option<String>,
    /// Whether the level can be finished, in a sentence (`None` without a
    /// `play` block).
    pub(crate) verdict: Option<String>,
    pub(crate) completable: Option<bool>,
    pub(crate) stop: String,
    pub(crate) vertices: usize,
    pub(crate) edges: usize,
    pub(crate) applications: usize,
    pub(crate) trace: Vec<TraceRow>,
    /// A stage that failed (derivation, layout, tile map), in a sentence.
    pub(crate) error: Option<String>,
    /// Why the step view is not available, when it is not.
    pub(crate) no_steps: Option<String>,
}

/// One application of the trace.
#[derive(Serialize)]
pub(crate) struct TraceRow {
    /// 1-based.
    pub(crate) step: usize,
    pub(crate) rule: String,
    pub(crate) alternative: usize,
    pub(crate) matched: Vec<u32>,
    pub(crate) created: Vec<u32>,
}

/// The graph after the first `step` applications.
#[derive(Serialize)]
pub(crate) struct StepView {
    pub(crate) step: usize,
    pub(crate) mission_svg: String,
    pub(crate) vertices: usize,
    pub(crate) edges: usize,
    /// The play check of this graph, in a sentence as [`Drawn::verdict`]
    /// (`None` without a `play` block): the finished level's verdict says
    /// nothing about an unfinished graph, which may have no entrance or
    /// goal yet. Before any `place` block's content, which is placed in
    /// the finished level only.
    pub(crate) verdict: Option<String>,
    pub(crate) completable: Option<bool>,
}

/// The last levels drawn, by (generation, seed): the step slider asks for
/// the same level again and again, and the layout is the slow part.
#[derive(Default)]
pub(crate) struct Cache {
    entries: Mutex<Vec<(u64, u64, std::sync::Arc<Drawn>)>>,
}

/// How many levels the cache keeps.
const CACHED: usize = 8;

impl Cache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(u64, u64, std::sync::Arc<Drawn>)>> {
        // A request that panicked drawing left the list whole.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The level of `seed` for `good`, drawn now or earlier.
    pub(crate) fn level(&self, good: &Good, seed: u64) -> std::sync::Arc<Drawn> {
        let key = (good.generation, seed);
        if let Some((_, _, d)) = self.lock().iter().find(|(g, s, _)| (*g, *s) == key) {
            return d.clone();
        }
        // Drawn outside the lock: another seed's request need not wait.
        let drawn = std::sync::Arc::new(draw_level(good, seed));
        let mut entries = self.lock();
        entries.retain(|(g, _, _)| *g == good.generation);
        if entries.len() >= CACHED {
            entries.remove(0);
        }
        entries.push((key.0, key.1, drawn.clone()));
        drawn
    }
}

fn is_geometric(good: &Good) -> bool {
    good.grammar.model().geometry.is_some()
}

/// The pipeline's configuration: the level even when it cannot be proved
/// completable (the page says so), laid out and rasterized when the
/// grammar has a `rooms` block whose room sets could be read.
fn config(good: &Good, with_rooms: bool) -> Config {
    let mut config = Config::new().allow_unfinishable(true);
    if is_geometric(good) {
        // The header's own settings win over these, as in `generate`.
        config = config.with_geometry(GeometrySettings::default());
    }
    if let (true, Some(Ok(sets))) = (with_rooms, &good.room_sets) {
        config = config
            .with_layout(true)
            .with_tiles(true)
            .with_room_sets(sets.clone());
    }
    config
}

/// Derives, lays out and draws the level of `seed`.
fn draw_level(good: &Good, seed: u64) -> Drawn {
    let grammar = &good.grammar;
    let mut error = match &good.room_sets {
        Some(Err(message)) => Some(message.clone()),
        _ => None,
    };
    let level = match pipeline::generate(grammar, seed, &config(good, true)) {
        Ok(level) => Ok(level),
        Err(GenerateError::Tiles {
            error: e, level, ..
        }) => {
            error = Some(format!("tile map: {e}"));
            Ok(*level)
        }
        Err(GenerateError::Derive { error: e, .. }) => Err((e.to_string(), e.into_derivation())),
        Err(e) => {
            // The layout or content placement failed: show the mission
            // graph without them, and why.
            error = Some(e.to_string());
            match pipeline::generate(grammar, seed, &config(good, false)) {
                Ok(level) => Ok(level),
                Err(GenerateError::Derive { error: e, .. }) => {
                    Err((e.to_string(), e.into_derivation()))
                }
                Err(e) => return failed(seed, e.to_string()),
            }
        }
    };
    let alphabet = grammar.alphabet();
    match level {
        Ok(level) => drawn_level(good, seed, &level, &alphabet, error),
        Err((message, derivation)) => {
            let mut d = drawn_derivation(good, seed, derivation.seed, &derivation, &alphabet);
            d.error = Some(message);
            d
        }
    }
}

fn failed(seed: u64, message: String) -> Drawn {
    Drawn {
        seed,
        level_seed: seed,
        derivation_seed: seed,
        mission_svg: None,
        layout_svg: None,
        tiles_png: None,
        verdict: None,
        completable: None,
        stop: String::new(),
        vertices: 0,
        edges: 0,
        applications: 0,
        trace: Vec::new(),
        error: Some(message),
        no_steps: Some("no level was derived".to_owned()),
    }
}

/// The mission picture, counts and trace of a derivation.
fn drawn_derivation(
    good: &Good,
    seed: u64,
    level_seed: u64,
    derivation: &Derivation,
    alphabet: &Alphabet,
) -> Drawn {
    let graph = &derivation.graph;
    let title = format!("{} — seed {level_seed}", good.grammar.name());
    let svg = mission_svg(
        good,
        graph,
        level_seed,
        alphabet,
        &title,
        &[],
        &Shading::default(),
    );
    Drawn {
        seed,
        level_seed,
        derivation_seed: derivation.seed,
        mission_svg: Some(svg),
        layout_svg: None,
        tiles_png: None,
        verdict: None,
        completable: None,
        stop: derivation.stop.to_string(),
        vertices: graph.vertex_count(),
        edges: graph.edge_count(),
        applications: derivation.trace.len(),
        trace: trace_rows(derivation),
        error: None,
        no_steps: None,
    }
}

fn drawn_level(
    good: &Good,
    seed: u64,
    level: &Level,
    alphabet: &Alphabet,
    error: Option<String>,
) -> Drawn {
    let mut d = drawn_derivation(good, seed, level.seed, &level.derivation, alphabet);
    let report = level.play.as_ref();
    if report.is_some() {
        // Redrawn with the playthrough's order numbers, as mission.svg.
        let title = format!("{} — seed {}", good.grammar.name(), level.seed);
        d.mission_svg = Some(mission_svg(
            good,
            &level.derivation.graph,
            level.seed,
            alphabet,
            &title,
            &crate::entered(report),
            &Shading::default(),
        ));
    }
    d.verdict = report.map(|r| verdict(r, &level.derivation.graph));
    d.completable = report.map(|r| r.is_completable());
    if let Some((problem, layout)) = &level.layout {
        let title = format!("{} — seed {}", good.grammar.name(), level.seed);
        d.layout_svg = in_memory(|w| write_layout_svg(w, problem, layout, alphabet, &title));
    }
    if let Some(map) = &level.tiles {
        let palette = TilePalette::new(map, alphabet);
        match to_png(map, &palette, crate::level_cell_px(map.width, map.height)) {
            Ok(png) => d.tiles_png = Some(format!("data:image/png;base64,{}", base64(&png))),
            Err(e) => d.error = Some(format!("tile map picture: {e}")),
        }
    }
    d.error = error.or(d.error);
    d
}

/// Whether `graph` can be finished, in a sentence, from its play check.
fn verdict(report: &PlayReport, graph: &Graph) -> String {
    if report.is_completable() {
        format!(
            "can be finished in {} steps of play",
            report.playthrough.len()
        )
    } else {
        format!(
            "cannot be proved completable: {}",
            report.verdict.why(graph)
        )
    }
}

/// The graph after the first `step` applications of the level of `seed`
/// (derived with the level's own seed; a geometric derivation with its
/// drawing's), with the vertices application `step` matched and created
/// ringed; `None` when no level was derived.
pub(crate) fn step_view(good: &Good, drawn: &Drawn, step: usize) -> Option<StepView> {
    if drawn.no_steps.is_some() {
        return None;
    }
    let step = step.min(drawn.applications);
    let derivation = match &good.grammar.model().geometry {
        Some(settings) => {
            levelgraph::geometric::replay(&good.grammar, drawn.derivation_seed, settings, step)
        }
        None => levelgraph::derive::replay(&good.grammar, drawn.level_seed, step),
    };
    let graph = &derivation.graph;
    let mut shading = Shading::default();
    if let Some(a) = step.checked_sub(1).and_then(|i| derivation.trace.get(i)) {
        for &v in a.matched.iter().filter(|v| graph.vertex(**v).is_some()) {
            shading.rings.push((v, MATCHED_RING.to_owned()));
        }
        for &v in a.created {
            shading.rings.push((v, CREATED_RING.to_owned()));
        }
        shading.legend = Some((
            format!("Step {step}: rule {}", a.rule),
            vec![
                (MATCHED_RING.to_owned(), "matched (kept)".to_owned()),
                (CREATED_RING.to_owned(), "created".to_owned()),
            ],
        ));
    }
    let title = format!(
        "{} — seed {}, after {step} of {} applications",
        good.grammar.name(),
        drawn.level_seed,
        drawn.applications
    );
    let alphabet = good.grammar.alphabet();
    let svg = mission_svg(
        good,
        graph,
        drawn.level_seed,
        &alphabet,
        &title,
        &[],
        &shading,
    );
    // The same check as the finished level's: bounded by the `play`
    // block's `search_limit`, and cheap beside the replay above.
    let report = levelgraph::play::check_level(&good.grammar, graph);
    Some(StepView {
        step,
        mission_svg: svg,
        vertices: graph.vertex_count(),
        edges: graph.edge_count(),
        verdict: report.as_ref().map(|r| verdict(r, graph)),
        completable: report.as_ref().map(PlayReport::is_completable),
    })
}

fn mission_svg(
    good: &Good,
    graph: &Graph,
    seed: u64,
    alphabet: &Alphabet,
    title: &str,
    numbered: &[levelgraph::VertexId],
    shading: &Shading,
) -> String {
    let positions = crate::picture_positions(graph, is_geometric(good), true, seed);
    in_memory(|w| write_svg_shaded(w, graph, &positions, alphabet, title, numbered, shading))
        .unwrap_or_default()
}

/// What `write` writes, as text (`None` if it fails or is not UTF-8).
fn in_memory(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> Option<String> {
    let mut bytes = Vec::new();
    write(&mut bytes).ok()?;
    String::from_utf8(bytes).ok()
}

fn trace_rows(derivation: &Derivation) -> Vec<TraceRow> {
    derivation
        .trace
        .iter()
        .take(MAX_TRACE_ROWS)
        .enumerate()
        .map(|(i, a)| TraceRow {
            step: i + 1,
            rule: a.rule.to_string(),
            alternative: a.alternative,
            matched: a.matched.iter().map(|v| v.0).collect(),
            created: a.created.iter().map(|v| v.0).collect(),
        })
        .collect()
}

/// Standard base64 (RFC 4648, with padding), for the tile map's data URL.
pub(crate) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> shift & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{base64, draw_level, step_view, Good};

    /// A step's verdict is its own graph's: the start graph of the default
    /// grammar has no entrance yet, though the finished level can be
    /// finished; the last step's graph is the level's and gets its verdict.
    #[test]
    fn a_step_has_its_own_play_verdict() {
        let text = include_str!("../../../../examples/default.lg");
        let good = Good {
            generation: 1,
            grammar: levelgraph::grammar::load(text, "default").unwrap(),
            room_sets: None,
        };
        let drawn = draw_level(&good, 5);
        assert_eq!(drawn.completable, Some(true), "{:?}", drawn.verdict);
        let start = step_view(&good, &drawn, 0).unwrap();
        assert_eq!(start.completable, Some(false));
        let said = start.verdict.unwrap();
        assert!(said.contains("no vertex is the entrance"), "{said}");
        let last = step_view(&good, &drawn, drawn.applications).unwrap();
        assert_eq!(last.completable, Some(true));
        assert_eq!(last.verdict, drawn.verdict);
    }

    #[test]
    fn base64_is_rfc_4648() {
        // RFC 4648 section 10's test vectors.
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, coded) in cases {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }
}
