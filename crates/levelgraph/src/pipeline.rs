//! The whole pipeline as library calls: a grammar and a seed to a level.
//! The stages below each do one thing; this module chooses and chains
//! them as the `levelgraph` command does, so that a game linking the
//! library gets the same level from the same grammar and seed.
//!
//! [`generate`] is the simple path: derive a mission graph (by rewriting
//! alone, or keeping a plane drawing while rewriting), check that it can
//! be finished (the grammar's `play` block), lay it out as rooms (its
//! `rooms` block) and rasterize the layout as a tile map, giving way to
//! the level of the next [`attempt_seed`] when one cannot be proved
//! completable or laid out. [`Config`] says which stages to run and
//! overrides the grammar's derivation limits for one call.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use crate::derive::{Derivation, DeriveError};
use crate::diagnostic::Diagnostic;
use crate::geometric::GeometrySettings;
use crate::grammar::{CompiledGrammar, Limits};
use crate::graph::Graph;
use crate::layout::edgar::RoomSets;
use crate::layout::{Layout, LayoutError, LayoutProblem, LayoutSettings, LayoutStats, Prepared};
use crate::play::{PlayReport, Verdict};
use crate::rng::attempt_seed;
use crate::rooms::RoomsError;
use crate::tiles::{TileMap, TilesError};

/// What [`generate`] makes besides the mission graph, and the limits it
/// derives with. There is no `Default`: [`Config::new`] starts from the
/// documented defaults of each method below, and a caller says what it
/// wants on top.
///
/// ```
/// use levelgraph::pipeline::Config;
///
/// // Lay levels out and rasterize them; at most 25 vertices, whatever
/// // the grammar's header says.
/// let grammar = levelgraph::grammar::default_grammar();
/// let config = Config::new().with_tiles(true).with_max_vertices(25);
/// assert_eq!(config.limits(&grammar).max_vertices, 25);
/// assert_eq!(config.limits(&grammar).min_vertices, grammar.limits().min_vertices);
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    geometry: Option<GeometrySettings>,
    host: Option<Graph>,
    layout: bool,
    tiles: bool,
    room_sets: Option<RoomSets>,
    layout_settings: LayoutSettings,
    allow_unfinishable: bool,
    retries: bool,
    max_iterations: Option<u32>,
    min_vertices: Option<u32>,
    max_vertices: Option<u32>,
    max_valence: Option<Option<u32>>,
}

/// A level made by [`generate`], with what gave way before it.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Level {
    /// The seed of the attempt that made this level:
    /// [`attempt_seed`]`(seed, attempts.len() - 1)`, the seed asked for when
    /// the first attempt was kept. The room layout and tile map use it.
    pub seed: u64,
    /// The mission graph and how it was derived. For a geometric
    /// derivation `derivation.seed` is the seed of the drawing that passed.
    pub derivation: Derivation,
    /// The play check (`play` block): the verdict, a playthrough, which
    /// key opens which lock. `None` without a `play` block.
    pub play: Option<PlayReport>,
    /// The content the `place` block placed, per statement content (`key
    /// of lock 7`, `potion`): its name and the places holding it. Empty
    /// without a `place` block.
    pub placed: Vec<PlacedContent>,
    /// The room layout, when one was asked for ([`Config::with_layout`] or
    /// [`Config::with_tiles`]) and the grammar has a `rooms` block.
    pub layout: Option<(LayoutProblem, Layout)>,
    /// What the layout run did (perturbations, backtracks, work), beside
    /// [`Level::layout`].
    pub layout_stats: Option<LayoutStats>,
    /// The layout as a tile map, when asked for ([`Config::with_tiles`])
    /// and laid out.
    pub tiles: Option<TileMap>,
    /// Every attempt, in order; the last one made this level
    /// ([`Outcome::Kept`]), the others gave way.
    pub attempts: Vec<Attempt>,
    /// Wall-clock time of this level's derivation (the last attempt's), for
    /// reports. The only field that differs between runs; nothing else
    /// depends on it.
    pub derive_time: Duration,
}

/// Content the `place` block placed on a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedContent {
    /// Its name: `key of lock 7`, `potion`.
    pub name: String,
    /// The tag of the vertices placed.
    pub tag: String,
    /// The places holding one, in place order.
    pub rooms: Vec<crate::graph::VertexId>,
}

/// One attempt of [`generate`]: the level derived with
/// [`attempt_seed`]`(seed, n)` and what became of it.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Attempt {
    /// The attempt's seed.
    pub seed: u64,
    /// A geometric derivation that succeeded: how many drawings it made.
    /// `None` for a derivation by rewriting alone, or one that failed.
    pub drawing: Option<Drawing>,
    /// The play check, when it did not prove the level completable: the
    /// level was rejected ([`Outcome::Rejected`]) or kept all the same, as
    /// [`Config::allow_unfinishable`] asks.
    pub unproved: Option<Unproved>,
    /// What became of the level.
    pub outcome: Outcome,
}

/// The drawings of a geometric derivation ([`crate::geometric::derive`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drawing {
    /// Drawings made; the last passed the self-intersection test. 1 when
    /// the first passed.
    pub attempts: u32,
    /// The seed of the drawing that passed (the derivation's `seed`).
    pub seed: u64,
}

/// What became of an [`Attempt`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Outcome {
    /// The derivation failed within its limits. A retry's derivation that
    /// fails gives way like a level not laid out; the first or last
    /// attempt's is [`GenerateError::Derive`].
    NotDerived(DeriveError),
    /// The level could not be proved completable ([`Attempt::unproved`]
    /// says why) and gave way.
    Rejected,
    /// The layout stopped at its limits ([`LayoutError::Limit`]).
    NotLaidOut(LayoutError),
    /// The `place` block's content could not be placed on the level (no
    /// placement meets it, or the level is outside what placement
    /// decides); it gave way like a level that cannot be finished.
    NotPlaced(crate::place::PlaceError),
    /// The level was kept: the one [`generate`] returned, or the one at
    /// which an error that no other attempt would mend stopped it (a
    /// `rooms` block that does not fit the level, a layout problem that
    /// cannot be solved, a tile scale that closes a door).
    Kept,
}

/// A level that the play check did not prove completable: why, and the
/// rule that made the vertex at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unproved {
    /// The seed the level was derived with (for a geometric derivation,
    /// the seed of the drawing that passed).
    pub seed: u64,
    /// The verdict: [`Verdict::Unfinishable`] or [`Verdict::Unknown`].
    pub verdict: Verdict,
    /// The verdict in a sentence ([`Verdict::why`], naming the level's
    /// vertices).
    pub why: String,
    /// The rule that made the first vertex the reason is about
    /// ([`crate::play::maker`]), and that vertex's name; `None` when the
    /// reason names no vertex or the host graph had it.
    pub blame: Option<(String, String)>,
}

/// Why [`generate`] made no level. Every variant that stopped at an
/// attempt lists every attempt made ([`GenerateError::attempts`]), the last
/// the one that stopped it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The per-call limits do not fit the grammar (a grid larger than
    /// `max_vertices`): the compiler's errors.
    #[error("the limits of this call do not fit the grammar: {}", first_message(.diagnostics))]
    Limits {
        /// The errors.
        diagnostics: Vec<Diagnostic>,
    },
    /// A geometric derivation was asked for ([`Config::with_geometry`])
    /// of a grid grammar, whose vertices are drawn at their cells.
    #[error("grammar `{grammar}` is a grid grammar; a geometric derivation needs a start symbol, not a grid")]
    GeometricGrid {
        /// The grammar's name.
        grammar: String,
    },
    /// The derivation of the first attempt, or of the last, failed within
    /// its limits.
    #[error("{error} (seed {seed})")]
    Derive {
        /// The attempt's seed.
        seed: u64,
        /// Why it failed.
        #[source]
        error: DeriveError,
        /// Every attempt.
        attempts: Vec<Attempt>,
    },
    /// No level was proved completable within the `play` block's
    /// `retries`: every attempt was rejected or not derived.
    #[error("no level could be proved completable: {} derived, none passed", .attempts.len())]
    Unfinishable {
        /// Every attempt; [`Attempt::unproved`] of the rejected ones says
        /// why.
        attempts: Vec<Attempt>,
    },
    /// No level within the `play` block's `retries` took the `place`
    /// block's content: `error` is the last level's reason.
    #[error("no level took the `place` block's content: {error}")]
    NotPlaced {
        /// Why the last level took none.
        error: crate::place::PlaceError,
        /// Every attempt.
        attempts: Vec<Attempt>,
    },
    /// No level was laid out within the `rooms` block's `retries`: the
    /// last attempt's layout stopped at its limits too.
    #[error("no level was laid out within {} attempts: {error}", .attempts.len())]
    NotLaidOut {
        /// The last attempt's seed.
        seed: u64,
        /// Its layout's limit ([`LayoutError::Limit`]; boxed, as it is
        /// large).
        #[source]
        error: Box<LayoutError>,
        /// Every attempt.
        attempts: Vec<Attempt>,
    },
    /// The `rooms` block loads Edgar room sets (`load`) and no
    /// [`Config::with_room_sets`] gave them. The library reads no files:
    /// [`crate::layout::edgar::RoomSets::load_file`] does, for the caller.
    #[error("the rooms block loads Edgar room sets (`load`), and none were given")]
    NoRoomSets {
        /// Every attempt; the last is the first level to lay out.
        attempts: Vec<Attempt>,
    },
    /// The `rooms` block does not make a layout problem of the level (a
    /// tag no `use` line names, a name that is no template or set).
    #[error("{error}")]
    Rooms {
        /// The attempt's seed.
        seed: u64,
        /// What is wrong (boxed, as it is large).
        #[source]
        error: Box<RoomsError>,
        /// Every attempt.
        attempts: Vec<Attempt>,
    },
    /// The layout problem cannot be solved whatever the seed (rooms that
    /// cannot meet, a level that is not planar).
    #[error("{error}")]
    Layout {
        /// The attempt's seed.
        seed: u64,
        /// What is wrong ([`LayoutError::Problem`] or
        /// [`LayoutError::NotPlanar`]; boxed, as it is large).
        #[source]
        error: Box<LayoutError>,
        /// Every attempt.
        attempts: Vec<Attempt>,
    },
    /// The rasterizer could not make the tile map of the laid-out level:
    /// a `tile_scale` that closes a door ([`TilesError::Parameter`] of
    /// field `scale`) or a cave room it cannot join to its doors.
    #[error("tile map of the layout: {error}")]
    Tiles {
        /// What is wrong.
        #[source]
        error: TilesError,
        /// The scale it rasterized at: the `rooms` block's `tile_scale`,
        /// or the default.
        scale: u32,
        /// The level, laid out, without its tile map.
        level: Box<Level>,
    },
}

impl Config {
    /// The defaults: derive from the start symbol (or grid), geometrically
    /// only when the grammar's header says `geometric`; no layout and no
    /// tile map; levels that cannot be proved completable rejected; the
    /// grammar's own limits.
    // No `Default`: what to build is the caller's to say; each method
    // below documents its default.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        Config {
            geometry: None,
            host: None,
            layout: false,
            tiles: false,
            room_sets: None,
            layout_settings: LayoutSettings::default(),
            allow_unfinishable: false,
            retries: true,
            max_iterations: None,
            min_vertices: None,
            max_vertices: None,
            max_valence: None,
        }
    }

    /// Derive geometrically (keep a plane drawing while rewriting) with
    /// `settings` when the grammar's header does not say `geometric`; a
    /// header's own `geometric` settings win. Default: only when the
    /// header says so. A grid grammar cannot be derived geometrically
    /// ([`GenerateError::GeometricGrid`]).
    pub fn with_geometry(mut self, settings: GeometrySettings) -> Self {
        self.geometry = Some(settings);
        self
    }

    /// Derive from `host` (its tag and label tables the grammar's, e.g.
    /// from [`crate::formats::host_for`]) instead of from the start symbol.
    /// Default: from the start symbol, or the grid.
    pub fn with_host(mut self, host: Graph) -> Self {
        self.host = Some(host);
        self
    }

    /// Lay the level out as rooms when the grammar has a `rooms` block.
    /// A level that its limits cannot lay out gives way to the next
    /// attempt's, up to the block's `retries`. Default: `false`.
    pub fn with_layout(mut self, on: bool) -> Self {
        self.layout = on;
        self
    }

    /// Lay the level out (as [`Config::with_layout`]) and rasterize the
    /// layout as a tile map, at the `rooms` block's `tile_scale` and
    /// `fill`s, with the play check's objects when there is a `play`
    /// block. Default: `false`.
    pub fn with_tiles(mut self, on: bool) -> Self {
        self.tiles = on;
        self
    }

    /// The Edgar room sets the `rooms` block's `load` lines name, read by
    /// the caller ([`RoomSets::load_file`], [`RoomSets::load_dir`]).
    /// Default: none, which is enough for a block without `load` lines.
    pub fn with_room_sets(mut self, sets: RoomSets) -> Self {
        self.room_sets = Some(sets);
        self
    }

    /// How each layout runs. Default: [`LayoutSettings::default`] (a work
    /// limit, no time limit: a `time_limit` that stops a run makes the
    /// level depend on the machine).
    pub fn with_layout_settings(mut self, settings: LayoutSettings) -> Self {
        self.layout_settings = settings;
        self
    }

    /// Keep a level that the play check cannot prove completable instead
    /// of deriving the next attempt's; its [`Attempt::unproved`] says why.
    /// Default: `false`.
    pub fn allow_unfinishable(mut self, allow: bool) -> Self {
        self.allow_unfinishable = allow;
        self
    }

    /// Whether a level that gives way (not proved completable, not placed,
    /// not laid out within its limits) is followed by the next attempt's,
    /// up to the `play` and `rooms` blocks' `retries`. `false`: one
    /// attempt, the seed's own level, whatever becomes of it — what an
    /// analysis of the grammar's range wants (`levelgraph analyze`).
    /// Default: `true`.
    pub fn with_retries(mut self, on: bool) -> Self {
        self.retries = on;
        self
    }

    /// Derivation steps (applications and skipped steps) at most, for this
    /// call. Default: the grammar's `max_iterations`.
    pub fn with_max_iterations(mut self, n: u32) -> Self {
        self.max_iterations = Some(n);
        self
    }

    /// Vertices at least: a derivation that ends with fewer fails. Default:
    /// the grammar's `min_vertices`.
    pub fn with_min_vertices(mut self, n: u32) -> Self {
        self.min_vertices = Some(n);
        self
    }

    /// Vertices at most, never exceeded. Default: the grammar's
    /// `max_vertices`.
    pub fn with_max_vertices(mut self, n: u32) -> Self {
        self.max_vertices = Some(n);
        self
    }

    /// The valence no application may raise a vertex above (unless the
    /// right-hand side itself gives it more); `None`: no limit. Default:
    /// the grammar's `max_valence`.
    pub fn with_max_valence(mut self, n: Option<u32>) -> Self {
        self.max_valence = Some(n);
        self
    }

    /// The limits a call with this configuration derives `grammar` with:
    /// the grammar's, with this configuration's overrides.
    pub fn limits(&self, grammar: &CompiledGrammar) -> Limits {
        let own = grammar.limits();
        Limits {
            max_iterations: self.max_iterations.unwrap_or(own.max_iterations),
            min_vertices: self.min_vertices.unwrap_or(own.min_vertices),
            max_vertices: self.max_vertices.unwrap_or(own.max_vertices),
            max_valence: self.max_valence.unwrap_or(own.max_valence),
        }
    }
}

impl Level {
    /// The levels rejected before this one because they could not be
    /// proved completable, in order.
    pub fn rejected(&self) -> impl Iterator<Item = &Unproved> {
        rejected(&self.attempts)
    }
}

impl Unproved {
    /// The level of `derivation`, whose `report` is not completable.
    fn new(grammar: &CompiledGrammar, derivation: &Derivation, report: &PlayReport) -> Self {
        let graph = &derivation.graph;
        let blame = match &report.verdict {
            Verdict::Unfinishable(reason) => reason.culprits().first().and_then(|&v| {
                crate::play::maker(grammar, &derivation.trace, v)
                    .map(|rule| (rule.to_owned(), crate::play::vertex_name(graph, v)))
            }),
            _ => None,
        };
        Unproved {
            seed: derivation.seed,
            verdict: report.verdict.clone(),
            why: report.verdict.why(graph),
            blame,
        }
    }

    /// The reason in a few words, for a tally ("a key behind its own
    /// lock", "the search reached its limit").
    pub fn summary(&self) -> &'static str {
        match &self.verdict {
            Verdict::Unfinishable(reason) => reason.summary(),
            Verdict::Unknown { .. } => "the search reached its limit",
            Verdict::Completable => "completable",
        }
    }

    /// What to do about it, in a sentence.
    pub fn advice(&self) -> &'static str {
        match &self.verdict {
            Verdict::Unfinishable(reason) => reason.advice(),
            Verdict::Unknown { .. } => {
                "raise `search_limit` in the `play` block, or use fewer small keys and one-way corridors"
            }
            Verdict::Completable => "",
        }
    }

    /// [`Unproved::why`] with the rule at fault, when one is known:
    /// "…; rule `key_lock` made key 7".
    pub fn message(&self) -> String {
        match &self.blame {
            Some((rule, vertex)) => format!("{}; rule `{rule}` made {vertex}", self.why),
            None => self.why.clone(),
        }
    }

    /// The verdict in a sentence with its word, as
    /// [`PlayReport::verdict_message`]: "cannot be finished: …" or
    /// "unknown: …".
    pub fn verdict_message(&self) -> String {
        match &self.verdict {
            Verdict::Unfinishable(_) => format!("cannot be finished: {}", self.why),
            Verdict::Unknown { .. } => format!("unknown: {}", self.why),
            Verdict::Completable => "completable".to_owned(),
        }
    }
}

impl GenerateError {
    /// Every attempt made before the error, in order, the last the one
    /// that stopped it; none for [`GenerateError::Limits`] and
    /// [`GenerateError::GeometricGrid`], which stop before the first.
    pub fn attempts(&self) -> &[Attempt] {
        match self {
            GenerateError::Limits { .. } | GenerateError::GeometricGrid { .. } => &[],
            GenerateError::Derive { attempts, .. }
            | GenerateError::Unfinishable { attempts }
            | GenerateError::NotPlaced { attempts, .. }
            | GenerateError::NotLaidOut { attempts, .. }
            | GenerateError::NoRoomSets { attempts }
            | GenerateError::Rooms { attempts, .. }
            | GenerateError::Layout { attempts, .. } => attempts,
            GenerateError::Tiles { level, .. } => &level.attempts,
        }
    }
}

/// The rejected levels among `attempts`, in order.
pub fn rejected(attempts: &[Attempt]) -> impl Iterator<Item = &Unproved> {
    attempts
        .iter()
        .filter(|a| matches!(a.outcome, Outcome::Rejected))
        .filter_map(|a| a.unproved.as_ref())
}

fn first_message(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .first()
        .map_or_else(|| "invalid limits".to_owned(), |d| d.message.clone())
}

/// Makes a level of `grammar` with `seed`: derives a mission graph, checks
/// it can be finished (a `play` block), lays it out and rasterizes it
/// when `config` asks and the grammar has a `rooms` block.
///
/// A level that cannot be proved completable gives way to the level of
/// the next [`attempt_seed`], up to the `play` block's `retries` (unless
/// [`Config::allow_unfinishable`]); one that its limits cannot lay out,
/// up to the `rooms` block's `retries`; a retry's level that cannot be
/// derived gives way too. Every attempt is recorded in
/// [`Level::attempts`]. Same grammar, seed and configuration (without a
/// layout `time_limit`), same level.
///
/// With no limit overridden (or overrides equal to the grammar's), the
/// derivation is exactly [`derive()`]'s (or [`derive_from`]'s, with a
/// host); an override compiles the grammar again for the call with the
/// new limits.
///
/// ```
/// use levelgraph::pipeline::{self, Config};
/// use levelgraph::play::Event;
///
/// let grammar = levelgraph::load(r#"
///     grammar "keep" { min_vertices 5 max_vertices 12 }
///     tags {
///       s "start" entrance "entrance" room "room" goal "goal"
///       key "key" lock "locked room"
///     }
///     rule start { (a:s) => (a:entrance) -> (b:room) -> (c:goal) }
///     rule extend max_uses 3 { (a:room) -> (b:*) => (a) -> (x:room) -> (b) }
///     rule key_lock max_uses 1 {
///       (a:room) -> (b:room|goal)
///       => (a) -> (l:lock) -> (b), (a) -> (k:key), (k) ~> (l)
///     }
///     rooms {
///       template hall (0,0) (8,0) (8,8) (0,8)
///       use *: hall
///     }
///     play { entrance entrance goal goal key key opens lock via ~> directed two_way }
/// "#, "keep")?;
/// let level = pipeline::generate(&grammar, 7, &Config::new().with_tiles(true))?;
///
/// // The playthrough: rooms entered, keys picked up, locks opened.
/// let play = level.play.as_ref().expect("the grammar has a play block");
/// assert!(play.is_completable());
/// let keys = play.playthrough.iter().filter(|e| matches!(e, Event::PickUp { .. }));
/// assert_eq!(keys.count(), 1);
///
/// // The tile map: one room of floor per vertex at the top level.
/// let map = level.tiles.as_ref().expect("laid out and rasterized");
/// assert_eq!(map.rooms.len(), level.derivation.graph.vertex_count());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`GenerateError`]: the limits of the call do not compile, the first or
/// last derivation failed, no level was proved completable or laid out
/// within the retries, the `rooms` block or layout problem is wrong
/// whatever the level, or the tile map cannot be made at the block's
/// scale.
pub fn generate(
    grammar: &CompiledGrammar,
    seed: u64,
    config: &Config,
) -> Result<Level, GenerateError> {
    let grammar = with_limits(grammar, config.limits(grammar))?;
    let grammar = grammar.as_ref();
    let geometry = grammar
        .model()
        .geometry
        .as_ref()
        .or(config.geometry.as_ref());
    if geometry.is_some() && grammar.grid().is_some() {
        return Err(GenerateError::GeometricGrid {
            grammar: grammar.name().to_owned(),
        });
    }
    let rooms = grammar
        .model()
        .rooms
        .as_ref()
        .filter(|_| config.layout || config.tiles);
    let play_spec = grammar.play();
    let play_retries = play_spec.map_or(0, |spec| spec.retries());
    let layout_retries = rooms.map_or(0, |spec| spec.retries());
    let (play_retries, layout_retries) = if config.retries {
        (play_retries, layout_retries)
    } else {
        (0, 0)
    };
    let budget = 1 + play_retries + layout_retries;
    let no_sets = RoomSets::new();
    let mut attempts: Vec<Attempt> = Vec::new();
    let (mut n_rejected, mut n_unlaid) = (0u32, 0u32);
    loop {
        let index = attempts.len() as u32;
        let level_seed = attempt_seed(seed, index);
        let last = index + 1 == budget;
        let started = Instant::now();
        let derived = derive_level(grammar, config.host.as_ref(), level_seed, geometry);
        let derive_time = started.elapsed();
        let (derivation, drawing) = match derived {
            Ok(done) => done,
            Err(error) => {
                attempts.push(Attempt {
                    seed: level_seed,
                    drawing: None,
                    unproved: None,
                    outcome: Outcome::NotDerived(error.clone()),
                });
                // The seed asked for fails as a derivation does; a retry's
                // level that cannot be derived gives way like one not laid
                // out, unless it is the last.
                if index == 0 || last {
                    return Err(GenerateError::Derive {
                        seed: level_seed,
                        error,
                        attempts,
                    });
                }
                continue;
            }
        };
        let (derivation, placed) = match place_content(grammar, derivation, level_seed) {
            Ok(done) => done,
            Err(error) => {
                attempts.push(Attempt {
                    seed: level_seed,
                    drawing,
                    unproved: None,
                    outcome: Outcome::NotPlaced(error.clone()),
                });
                n_rejected += 1;
                if n_rejected > play_retries || last {
                    return Err(GenerateError::NotPlaced { error, attempts });
                }
                continue;
            }
        };
        let play = play_spec.map(|spec| crate::play::check(&derivation.graph, spec));
        let unproved = play
            .as_ref()
            .filter(|report| !report.is_completable())
            .map(|report| Unproved::new(grammar, &derivation, report));
        let mut attempt = Attempt {
            seed: level_seed,
            drawing,
            unproved,
            outcome: Outcome::Kept,
        };
        if attempt.unproved.is_some() && !config.allow_unfinishable {
            attempt.outcome = Outcome::Rejected;
            attempts.push(attempt);
            n_rejected += 1;
            if n_rejected > play_retries || last {
                return Err(GenerateError::Unfinishable { attempts });
            }
            continue;
        }
        let Some(spec) = rooms else {
            attempts.push(attempt);
            return Ok(Level {
                seed: level_seed,
                derivation,
                play,
                placed,
                layout: None,
                layout_stats: None,
                tiles: None,
                attempts,
                derive_time,
            });
        };
        let (layout, layout_stats) =
            match lay_out(&derivation.graph, spec, config, &no_sets, level_seed) {
                Ok(laid_out) => laid_out,
                Err(LayoutStop::Limit(error)) if n_unlaid < layout_retries && !last => {
                    attempt.outcome = Outcome::NotLaidOut(error);
                    attempts.push(attempt);
                    n_unlaid += 1;
                    continue;
                }
                Err(stop) => {
                    if let LayoutStop::Limit(error) = &stop {
                        attempt.outcome = Outcome::NotLaidOut(error.clone());
                    }
                    attempts.push(attempt);
                    return Err(stop.into_error(level_seed, attempts));
                }
            };
        attempts.push(attempt);
        let mut level = Level {
            seed: level_seed,
            derivation,
            play,
            placed,
            layout: Some(layout),
            layout_stats: Some(layout_stats),
            tiles: None,
            attempts,
            derive_time,
        };
        if config.tiles {
            let (problem, placed) = level.layout.as_ref().expect("laid out just above");
            let graph = &level.derivation.graph;
            match rasterize(
                graph,
                level.play.as_ref(),
                spec,
                problem,
                placed,
                level_seed,
            ) {
                Ok(map) => level.tiles = Some(map),
                Err((error, scale)) => {
                    return Err(GenerateError::Tiles {
                        error,
                        scale,
                        level: Box::new(level),
                    })
                }
            }
        }
        return Ok(level);
    }
}

/// The derivation with the `place` block's content placed by the solver
/// (the first placement for the level's seed), and what went where.
/// Unchanged without a `place` block.
fn place_content(
    grammar: &CompiledGrammar,
    mut derivation: Derivation,
    seed: u64,
) -> Result<(Derivation, Vec<PlacedContent>), crate::place::PlaceError> {
    let (Some(spec), Some(play)) = (grammar.place(), grammar.play()) else {
        return Ok((derivation, Vec::new()));
    };
    let problem = crate::place::Problem::new(&derivation.graph, play, spec)?;
    let placement = crate::place::Placer::new(&problem, seed)
        .next_placement()?
        .expect("the first call finds a placement or reports the conflict");
    let placed = problem
        .contents
        .iter()
        .zip(&placement.at)
        .map(|(c, at)| PlacedContent {
            name: c.name.clone(),
            tag: c.tag.clone(),
            rooms: at.iter().map(|&p| problem.place_vertex(p)).collect(),
        })
        .collect();
    derivation.graph = crate::place::apply(&problem, &placement);
    Ok((derivation, placed))
}

/// `grammar`, compiled again with `limits` when they are not its own.
fn with_limits(
    grammar: &CompiledGrammar,
    limits: Limits,
) -> Result<Cow<'_, CompiledGrammar>, GenerateError> {
    if limits == *grammar.limits() {
        return Ok(Cow::Borrowed(grammar));
    }
    let mut model = grammar.model().clone();
    model.limits = limits;
    let compiled = crate::grammar::compile(&model)
        .map_err(|diagnostics| GenerateError::Limits { diagnostics })?;
    Ok(Cow::Owned(compiled))
}

/// Why [`lay_out`] made no layout.
enum LayoutStop {
    /// The block loads room sets and the caller gave none.
    NoRoomSets,
    /// The level and the block make no layout problem.
    Rooms(RoomsError),
    /// The problem cannot be solved whatever the seed.
    Unsolvable(LayoutError),
    /// The run stopped at its limits ([`LayoutError::Limit`]): another
    /// level may be laid out.
    Limit(LayoutError),
}

impl LayoutStop {
    /// The error [`generate`] ends with, with every attempt.
    fn into_error(self, seed: u64, attempts: Vec<Attempt>) -> GenerateError {
        match self {
            LayoutStop::NoRoomSets => GenerateError::NoRoomSets { attempts },
            LayoutStop::Rooms(error) => GenerateError::Rooms {
                seed,
                error: Box::new(error),
                attempts,
            },
            LayoutStop::Unsolvable(error) => GenerateError::Layout {
                seed,
                error: Box::new(error),
                attempts,
            },
            LayoutStop::Limit(error) => GenerateError::NotLaidOut {
                seed,
                error: Box::new(error),
                attempts,
            },
        }
    }
}

/// The room layout of `graph` under the `rooms` block `spec`, with the
/// room sets of `config` (or `no_sets` when the block loads none).
fn lay_out(
    graph: &Graph,
    spec: &crate::grammar::RoomsSpec,
    config: &Config,
    no_sets: &RoomSets,
    seed: u64,
) -> Result<((LayoutProblem, Layout), LayoutStats), LayoutStop> {
    let sets = match &config.room_sets {
        Some(sets) => sets,
        None if spec.load.is_empty() => no_sets,
        None => return Err(LayoutStop::NoRoomSets),
    };
    let problem = crate::rooms::level_problem(graph, spec, sets).map_err(LayoutStop::Rooms)?;
    // A problem that cannot be prepared is wrong whatever the seed.
    let prepared =
        Prepared::within(&problem, &config.layout_settings).map_err(LayoutStop::Unsolvable)?;
    match prepared.run(seed, &config.layout_settings) {
        Ok((layout, stats)) => Ok(((problem, layout), stats)),
        Err(error @ LayoutError::Limit { .. }) => Err(LayoutStop::Limit(error)),
        Err(error) => Err(LayoutStop::Unsolvable(error)),
    }
}

/// Derives one level with `seed`: geometrically when `geometry` is given,
/// from `host` when given.
fn derive_level(
    grammar: &CompiledGrammar,
    host: Option<&Graph>,
    seed: u64,
    geometry: Option<&GeometrySettings>,
) -> Result<(Derivation, Option<Drawing>), DeriveError> {
    match (host, geometry) {
        (host, Some(settings)) => {
            let outcome = match host {
                Some(host) => crate::geometric::derive_from(grammar, host.clone(), seed, settings),
                None => crate::geometric::derive(grammar, seed, settings),
            };
            outcome.map(|g| {
                let drawing = Drawing {
                    attempts: g.attempts,
                    seed: g.derivation.seed,
                };
                (g.derivation, Some(drawing))
            })
        }
        (Some(host), None) => {
            crate::derive::derive_from(grammar, host.clone(), seed).map(|d| (d, None))
        }
        (None, None) => crate::derive::derive(grammar, seed).map(|d| (d, None)),
    }
}

/// The tile map of a laid-out level at the `rooms` block's settings; with
/// a play report its objects say what each key, lock, entrance and goal
/// is, instead of marking rooms by their tag's name. The error comes with
/// the scale it was rasterized at.
fn rasterize(
    graph: &Graph,
    play: Option<&PlayReport>,
    spec: &crate::grammar::RoomsSpec,
    problem: &LayoutProblem,
    layout: &Layout,
    seed: u64,
) -> Result<TileMap, (TilesError, u32)> {
    use crate::tiles::raster::{stored_items, RasterSettings};
    let mut items = stored_items(graph, problem);
    let mut settings = RasterSettings::for_rooms(spec);
    if let Some(report) = play {
        settings.objects.clear();
        items = crate::play::tile_items(report, graph, problem, items);
    }
    crate::tiles::raster::rasterize(problem, layout, &items, &settings, seed)
        .map_err(|error| (error, settings.scale))
}

/// Derives a mission graph with `seed`: by rewriting alone
/// ([`crate::derive::derive`]), or, when the grammar's header says
/// `geometric`, keeping a plane drawing while rewriting
/// ([`crate::geometric::derive`], with the header's settings; the
/// result's `seed` is then the attempt's seed, and the graph has positions
/// and room radii).
///
/// # Errors
/// [`DeriveError::TooFewVertices`] when it ends below `min_vertices`;
/// [`DeriveError::StageFailed`] when a recipe stage cannot make its minimum;
/// [`DeriveError::Drawing`] when no geometric attempt's drawing passes.
pub fn derive(grammar: &CompiledGrammar, seed: u64) -> Result<Derivation, DeriveError> {
    match &grammar.model().geometry {
        Some(settings) => crate::geometric::derive(grammar, seed, settings).map(|g| g.derivation),
        None => crate::derive::derive(grammar, seed),
    }
}

/// [`derive()`] from a given host graph (its tag and label tables the
/// grammar's or extending them, `Graph::with_symbols`).
///
/// # Errors
/// As [`derive()`].
pub fn derive_from(
    grammar: &CompiledGrammar,
    host: Graph,
    seed: u64,
) -> Result<Derivation, DeriveError> {
    match &grammar.model().geometry {
        Some(settings) => {
            crate::geometric::derive_from(grammar, host, seed, settings).map(|g| g.derivation)
        }
        None => crate::derive::derive_from(grammar, host, seed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::MissionDoc;

    const DUNGEON: &str = include_str!("../../../examples/dungeon-rooms.lg");
    const LOCK_AND_KEY: &str = include_str!("../../../examples/lock-and-key.lg");
    const GRID: &str = include_str!("../../../examples/grid-dungeon.lg");

    /// A derivation as bytes: its mission graph document and trace.
    fn bytes(d: &Derivation) -> String {
        format!(
            "{} {} {}",
            MissionDoc::from_derivation(d).to_json(),
            d.trace.len(),
            d.stop
        )
    }

    #[test]
    fn a_game_gets_a_laid_out_finishable_tile_map() {
        let grammar = crate::load(DUNGEON, "dungeon-rooms").unwrap();
        for seed in 0..5 {
            let level = generate(&grammar, seed, &Config::new().with_tiles(true)).unwrap();
            let play = level.play.as_ref().unwrap();
            assert!(play.is_completable(), "seed {seed}");
            assert!(!play.playthrough.is_empty());
            let (problem, layout) = level.layout.as_ref().unwrap();
            assert_eq!(layout.rooms.len(), problem.rooms.len());
            let map = level.tiles.as_ref().unwrap();
            assert_eq!(map.rooms.len(), problem.rooms.len());
            // The entrance, the goal and every key and lock are objects.
            assert!(map.objects.len() >= 2 + play.keys.len(), "seed {seed}");
            let last = level.attempts.last().unwrap();
            assert!(matches!(last.outcome, Outcome::Kept));
            assert_eq!(last.seed, level.seed);
            assert_eq!(
                level.seed,
                attempt_seed(seed, level.attempts.len() as u32 - 1)
            );
        }
    }

    #[test]
    fn without_overrides_the_level_is_the_grammars_own_derivation() {
        let grammar = crate::grammar::default_grammar();
        // Overrides equal to the grammar's limits change nothing either.
        let same = Config::new()
            .with_max_vertices(grammar.limits().max_vertices)
            .with_max_valence(grammar.limits().max_valence);
        for seed in 0..30 {
            let level = generate(&grammar, seed, &Config::new()).unwrap();
            let own = crate::derive(&grammar, level.seed).unwrap();
            assert_eq!(bytes(&level.derivation), bytes(&own), "seed {seed}");
            let again = generate(&grammar, seed, &same).unwrap();
            assert_eq!(bytes(&again.derivation), bytes(&own), "seed {seed}");
        }
    }

    #[test]
    fn a_limit_that_does_not_bind_keeps_the_level() {
        // lock-and-key stops at max_vertices 20 long before 1,000 steps:
        // the grammar compiled again with another max_iterations derives
        // the same levels.
        let grammar = crate::load(LOCK_AND_KEY, "lock-and-key").unwrap();
        let config = Config::new().with_max_iterations(5_000);
        assert_eq!(config.limits(&grammar).max_iterations, 5_000);
        for seed in 0..30 {
            let level = generate(&grammar, seed, &config).unwrap();
            let own = generate(&grammar, seed, &Config::new()).unwrap();
            assert_eq!(level.seed, own.seed);
            assert_eq!(
                bytes(&level.derivation),
                bytes(&own.derivation),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn a_max_vertices_override_caps_the_level() {
        let grammar = crate::load(LOCK_AND_KEY, "lock-and-key").unwrap();
        let small = Config::new().with_max_vertices(12);
        for seed in 0..30 {
            let own = generate(&grammar, seed, &Config::new()).unwrap();
            let capped = generate(&grammar, seed, &small).unwrap();
            assert!(own.derivation.graph.vertex_count() > 12, "seed {seed}");
            let n = capped.derivation.graph.vertex_count();
            assert!((8..=12).contains(&n), "seed {seed}: {n} vertices");
            assert!(capped.play.as_ref().unwrap().is_completable());
        }
        // The grammar itself is unchanged.
        assert_eq!(grammar.limits().max_vertices, 20);
        // A min_vertices above what can be made fails as a derivation.
        let err = generate(&grammar, 1, &Config::new().with_min_vertices(30)).unwrap_err();
        match err {
            GenerateError::Derive {
                error: DeriveError::TooFewVertices { min_vertices, .. },
                ref attempts,
                ..
            } => {
                assert_eq!(min_vertices, 30);
                assert_eq!(attempts.len(), 1);
            }
            other => panic!("{other}"),
        }
    }

    #[test]
    fn limits_that_do_not_fit_the_grammar_are_an_error() {
        // A 7 × 9 grid is larger than 10 vertices.
        let grammar = crate::load(GRID, "grid-dungeon").unwrap();
        let err = generate(&grammar, 1, &Config::new().with_max_vertices(10)).unwrap_err();
        assert!(matches!(err, GenerateError::Limits { .. }), "{err}");
        assert!(err.attempts().is_empty());
        let geometric = Config::new().with_geometry(GeometrySettings::default());
        let err = generate(&grammar, 1, &geometric).unwrap_err();
        assert!(matches!(err, GenerateError::GeometricGrid { .. }), "{err}");
    }

    #[test]
    fn unfinishable_levels_give_way_and_can_be_kept() {
        let text = r#"
            grammar "shut" { min_vertices 4 }
            tags { s "start" entrance "entrance" goal "goal" key "key" lock "lock" }
            rule start {
              (a:s) => (a:entrance) -> (l:lock) -> (g:goal), (g) -> (k:key), (k) ~> (l)
            }
            play { entrance entrance goal goal key key opens lock via ~> retries 2 }
        "#;
        let grammar = crate::load(text, "shut").unwrap();
        let err = generate(&grammar, 5, &Config::new()).unwrap_err();
        let GenerateError::Unfinishable { attempts } = &err else {
            panic!("{err}");
        };
        assert_eq!(attempts.len(), 3);
        let rejected: Vec<&Unproved> = rejected(attempts).collect();
        assert_eq!(rejected.len(), 3);
        assert_eq!(rejected[0].summary(), "a key behind its own lock");
        assert_eq!(rejected[0].seed, 5);
        assert!(
            rejected[0].message().contains("rule `start` made"),
            "{}",
            rejected[0].message()
        );
        let kept = generate(&grammar, 5, &Config::new().allow_unfinishable(true)).unwrap();
        assert_eq!(kept.seed, 5);
        assert_eq!(kept.attempts.len(), 1);
        let unproved = kept.attempts[0].unproved.as_ref().unwrap();
        assert!(unproved
            .verdict_message()
            .starts_with("cannot be finished: "));
        assert_eq!(kept.rejected().count(), 0);
    }

    #[test]
    fn a_rooms_block_that_loads_sets_needs_them_given() {
        let text = DUNGEON.replacen("rooms {\n", "rooms {\n  load \"sets\"\n", 1);
        let grammar = crate::load(&text, "dungeon-rooms").unwrap();
        let config = Config::new().with_layout(true);
        let err = generate(&grammar, 3, &config).unwrap_err();
        assert!(matches!(err, GenerateError::NoRoomSets { .. }), "{err}");
        // Its `use` lines name no loaded set: empty sets will do, and the
        // level is the one without `load`.
        let given = generate(&grammar, 3, &config.with_room_sets(RoomSets::new())).unwrap();
        let plain = crate::load(DUNGEON, "dungeon-rooms").unwrap();
        let own = generate(&plain, 3, &Config::new().with_layout(true)).unwrap();
        assert_eq!(given.layout, own.layout);
        // Without a layout asked for, nothing is loaded or laid out.
        let bare = generate(&grammar, 3, &Config::new()).unwrap();
        assert!(bare.layout.is_none() && bare.tiles.is_none());
    }
}
