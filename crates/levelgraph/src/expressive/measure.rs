//! One level's record: how it ended and its metrics ([`Metric`]).

use std::collections::{BTreeSet, VecDeque};

use super::metric::{round4, Metric};
use crate::canon::{self, SearchLimits};
use crate::grammar::play::{Directed, PlaySpec, VertexSelector};
use crate::graph::{Graph, VertexId};
use crate::layout::Layout;
use crate::pipeline::{GenerateError, Level};
use crate::play::level::Level as PlayLevel;
use crate::play::{Event, PlayReport, Verdict};

/// Metric values of one level, indexed by [`Metric::index`]; `None`: not
/// measured or not applicable.
pub type Values = [Option<f64>; Metric::ALL.len()];

/// How a seed's level ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Derived; the play check proved it can be finished.
    Completable,
    /// Derived; the play check proved it cannot be finished
    /// ([`Record::why`] is the reason's code, as `key_behind_own_lock`).
    Unfinishable,
    /// Derived; the play check's bounded search stopped at its limit.
    Unknown,
    /// Derived; the grammar has no `play` block, so nothing was checked.
    Unchecked,
    /// No level: the derivation failed within its limits, or the
    /// placement, layout or tile map could not be made ([`Record::why`]
    /// says which).
    Failed,
}

impl Status {
    /// Every status, in the order summaries list them.
    pub const ALL: [Status; 5] = [
        Status::Completable,
        Status::Unfinishable,
        Status::Unknown,
        Status::Unchecked,
        Status::Failed,
    ];

    /// Its word in `levels.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Completable => "completable",
            Status::Unfinishable => "unfinishable",
            Status::Unknown => "unknown",
            Status::Unchecked => "unchecked",
            Status::Failed => "failed",
        }
    }

    /// The status of a word of `levels.csv`.
    pub fn from_name(name: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// One seed's level, as a row of `levels.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The seed.
    pub seed: u64,
    /// How it ended.
    pub status: Status,
    /// Why, as a stable code: the play check's reason
    /// ([`crate::play::Reason::code`]) for an unfinishable level, the
    /// failure ([`failure_code`]) for a failed one; empty otherwise.
    pub why: String,
    /// The level's canonical hash ([`crate::canon::Canon::hash`]): equal
    /// for two seeds exactly when their levels are the same level up to
    /// vertex ids (but for a 2^-64 chance). `None` for a failed seed, or
    /// when the labelling stopped at its node limit.
    pub hash: Option<u64>,
    /// The metrics.
    pub values: Values,
}

/// A stable code for why [`crate::pipeline::generate`] made no level:
/// `derive:too_few_vertices`, `derive:stage_failed`, `derive:drawing`,
/// `place:unsupported`, `place:too_large`, `place:no_placement`,
/// `layout:limit`, `layout:problem`, `rooms`, `tiles`, `no_room_sets`,
/// `limits` or `other`.
pub fn failure_code(error: &GenerateError) -> &'static str {
    use crate::derive::DeriveError;
    use crate::place::PlaceError;
    match error {
        GenerateError::Derive { error, .. } => match error {
            DeriveError::TooFewVertices { .. } => "derive:too_few_vertices",
            DeriveError::StageFailed { .. } => "derive:stage_failed",
            DeriveError::Drawing { .. } => "derive:drawing",
            #[allow(unreachable_patterns)]
            _ => "derive:other",
        },
        GenerateError::NotPlaced { error, .. } => match error {
            PlaceError::Unsupported(_) => "place:unsupported",
            PlaceError::TooLarge { .. } => "place:too_large",
            PlaceError::NoPlacement { .. } => "place:no_placement",
            #[allow(unreachable_patterns)]
            _ => "place:other",
        },
        GenerateError::NotLaidOut { .. } => "layout:limit",
        GenerateError::Layout { .. } => "layout:problem",
        GenerateError::Rooms { .. } => "rooms",
        GenerateError::Tiles { .. } => "tiles",
        GenerateError::NoRoomSets { .. } => "no_room_sets",
        GenerateError::Limits { .. } => "limits",
        GenerateError::Unfinishable { .. } | GenerateError::GeometricGrid { .. } => "other",
        #[allow(unreachable_patterns)]
        _ => "other",
    }
}

/// The node limit of the canonical labelling of one level: far above what
/// a level needs (levels label in a few nodes), so that a pathological
/// graph costs a bounded time and is recorded without a hash.
const CANON_NODE_LIMIT: u64 = 100_000;

impl Record {
    /// The record of `seed`'s outcome. `play` is the grammar's `play`
    /// block. The layout and tile map metrics stay `None` when the level
    /// has none.
    pub fn of(
        seed: u64,
        outcome: &Result<Level, GenerateError>,
        play: Option<&PlaySpec>,
    ) -> Record {
        let level = match outcome {
            Ok(level) => level,
            Err(error) => {
                return Record {
                    seed,
                    status: Status::Failed,
                    why: failure_code(error).to_owned(),
                    hash: None,
                    values: [None; Metric::ALL.len()],
                }
            }
        };
        let graph = &level.derivation.graph;
        let (status, why) = match level.play.as_ref().map(|r| &r.verdict) {
            None => (Status::Unchecked, String::new()),
            Some(Verdict::Completable) => (Status::Completable, String::new()),
            Some(Verdict::Unfinishable(reason)) => (Status::Unfinishable, reason.code().to_owned()),
            Some(Verdict::Unknown { .. }) => (Status::Unknown, String::new()),
        };
        let mut values = [None; Metric::ALL.len()];
        mission_values(graph, play, level.play.as_ref(), &mut values);
        values[Metric::Steps.index()] = Some(level.derivation.trace.len() as f64);
        if let Some((_, layout)) = &level.layout {
            layout_values(layout, &mut values);
            if let Some(stats) = &level.layout_stats {
                values[Metric::LayoutIterations.index()] = Some(stats.iterations as f64);
            }
        }
        if let Some(map) = &level.tiles {
            let m = crate::tiles::metrics::Metrics::of(map);
            values[Metric::FloorRatio.index()] = Some(round4(m.floor_ratio));
            values[Metric::LongestPath.index()] = Some(f64::from(m.longest_path));
        }
        let (coloured, _) = canon::of_graph(graph);
        let limits = SearchLimits {
            max_nodes: CANON_NODE_LIMIT,
        };
        let hash = canon::canonical(&coloured, &limits).ok().map(|c| c.hash);
        Record {
            seed,
            status,
            why,
            hash,
            values,
        }
    }

    /// The value of `metric`.
    pub fn get(&self, metric: Metric) -> Option<f64> {
        self.values[metric.index()]
    }
}

/// A `play` block that reads every top-level vertex as a room and has no
/// entrance, goal, key or lock: the room graph of a grammar without one.
fn rooms_only() -> PlaySpec {
    let nothing = VertexSelector {
        tags: Vec::new(),
        attributes: Default::default(),
        span: None,
    };
    PlaySpec {
        entrance: nothing.clone(),
        goal: nothing,
        keys: Vec::new(),
        ignore: Vec::new(),
        directed: Directed::TwoWay,
        retries: None,
        search_limit: None,
        span: None,
        setting_spans: Default::default(),
    }
}

/// The graph metrics of `graph` (see [`Metric`] for each formula).
fn mission_values(
    graph: &Graph,
    spec: Option<&PlaySpec>,
    report: Option<&PlayReport>,
    values: &mut Values,
) {
    let fallback;
    let spec = match spec {
        Some(spec) => spec,
        None => {
            fallback = rooms_only();
            &fallback
        }
    };
    let level = PlayLevel::new(graph, spec);
    let rooms = level.places.len();
    // Each room's corridors once, with the room at their other end, both
    // ways whatever their direction.
    let mut ways: Vec<Vec<(u32, u32)>> = vec![Vec::new(); rooms];
    for (p, list) in ways.iter_mut().enumerate() {
        for step in level.out[p].iter().chain(&level.into[p]) {
            list.push((step.passage, step.to));
        }
        list.sort_unstable();
        list.dedup();
    }
    let set = |values: &mut Values, m: Metric, x: f64| values[m.index()] = Some(x);
    set(values, Metric::Vertices, graph.vertex_count() as f64);
    set(values, Metric::Rooms, rooms as f64);
    let corridors = level.passages.len();
    set(values, Metric::Corridors, corridors as f64);
    let components = count_components(&ways);
    set(
        values,
        Metric::Cycles,
        (corridors + components) as f64 - rooms as f64,
    );

    let entrance = level.entrance.as_ref().ok().copied();
    let goals: Vec<u32> = level.goals.iter().map(|&(_, p)| p).collect();
    let dead_ends = (0..rooms as u32)
        .filter(|&p| ways[p as usize].len() == 1 && Some(p) != entrance && !goals.contains(&p))
        .count();
    set(values, Metric::DeadEnds, dead_ends as f64);

    if let Some(report) = report {
        set(values, Metric::Keys, report.keys.len() as f64);
        set(values, Metric::Locks, report.locks.len() as f64);
        let gating = report
            .locks
            .iter()
            .filter(|l| l.gates_goal || !l.gates_rooms.is_empty())
            .count();
        set(values, Metric::GatingLocks, gating as f64);
        if let Some((entered, again)) = report
            .is_completable()
            .then(|| walk(&level, &report.playthrough))
            .flatten()
        {
            set(values, Metric::Playthrough, entered as f64);
            set(values, Metric::Backtracking, again as f64);
        }
    }

    let Some(start) = entrance else { return };
    let (depth, children) = breadth_first(&ways, start);
    let parents = children.iter().filter(|&&c| c > 0).count();
    if parents > 0 {
        let total: u32 = children.iter().sum();
        set(
            values,
            Metric::Branching,
            round4(f64::from(total) / parents as f64),
        );
    }
    let far = goals.iter().map(|&g| depth[g as usize]).max();
    if let Some(Some(d)) = far.filter(|_| goals.iter().all(|&g| depth[g as usize].is_some())) {
        set(values, Metric::Distance, f64::from(d));
        set(
            values,
            Metric::Linearity,
            round4(f64::from(d + 1) / rooms as f64),
        );
    }
}

/// Connected components of the room graph (an isolated room is one).
fn count_components(ways: &[Vec<(u32, u32)>]) -> usize {
    let mut sets = crate::union_find::UnionFind::new(ways.len());
    for (p, list) in ways.iter().enumerate() {
        for &(_, q) in list {
            sets.union(p, q as usize);
        }
    }
    sets.sets()
}

/// Breadth-first search of the room graph from `start`, neighbours in
/// corridor order: each room's depth (`None`: not reached) and each
/// room's number of children in the search tree.
fn breadth_first(ways: &[Vec<(u32, u32)>], start: u32) -> (Vec<Option<u32>>, Vec<u32>) {
    let mut depth = vec![None; ways.len()];
    let mut children = vec![0u32; ways.len()];
    let mut queue = VecDeque::from([start]);
    depth[start as usize] = Some(0);
    while let Some(p) = queue.pop_front() {
        let d = depth[p as usize].expect("queued rooms have a depth");
        for &(_, q) in &ways[p as usize] {
            if depth[q as usize].is_none() {
                depth[q as usize] = Some(d + 1);
                children[p as usize] += 1;
                queue.push_back(q);
            }
        }
    }
    (depth, children)
}

/// The most room visits [`walk`] spends on its searches; a level that
/// needs more gets no playthrough metrics.
const WALK_BUDGET: usize = 4_000_000;

/// The walk of a player who goes straight for each key the playthrough
/// uses, in the order it picks them up, then to the goals: `(rooms
/// entered, rooms entered again)`, the entrance counted once; `None` past
/// [`WALK_BUDGET`] or when a way is not found (small keys are treated as
/// kept). Each leg is a shortest way through the rooms and corridors
/// whose locks the keys held open; a key lying in a room on the way is
/// picked up in passing.
fn walk(level: &PlayLevel, playthrough: &[Event]) -> Option<(usize, usize)> {
    let place = |v| level.places.binary_search(&v).ok().map(|p| p as u32);
    let used: BTreeSet<VertexId> = playthrough
        .iter()
        .filter_map(|e| match *e {
            Event::Open { key, .. } => Some(key),
            _ => None,
        })
        .collect();
    let mut targets: Vec<u32> = Vec::new();
    for event in playthrough {
        if let Event::PickUp { key, room } = *event {
            if used.contains(&key) {
                targets.push(place(room)?);
            }
        }
    }
    targets.extend(level.goals.iter().map(|&(_, p)| p));
    let mut open = vec![false; level.locks.len()];
    let mut seen = vec![false; level.places.len()];
    let mut at = *level.entrance.as_ref().ok()?;
    let mut enter = |p: u32, open: &mut Vec<bool>, entered: &mut usize, again: &mut usize| {
        *entered += 1;
        if seen[p as usize] {
            *again += 1;
        }
        seen[p as usize] = true;
        for &k in &level.keys_at[p as usize] {
            for &l in level.opens(k) {
                open[l as usize] = true;
            }
        }
    };
    let (mut entered, mut again) = (0, 0);
    enter(at, &mut open, &mut entered, &mut again);
    let mut budget = WALK_BUDGET;
    for target in targets {
        for p in way(level, &open, at, target, &mut budget)? {
            enter(p, &mut open, &mut entered, &mut again);
        }
        at = target;
    }
    Some((entered, again))
}

/// The rooms after `from` on a shortest way to `to` (breadth first,
/// steps in corridor order) entering only rooms and corridors whose locks
/// are `open`, charging each room expanded to `budget`; `None` when the
/// budget runs out or there is no way.
fn way(
    level: &PlayLevel,
    open: &[bool],
    from: u32,
    to: u32,
    budget: &mut usize,
) -> Option<Vec<u32>> {
    let passable = |step: &crate::play::level::Step| {
        level.passages[step.passage as usize]
            .lock
            .is_none_or(|l| open[l as usize])
            && level.place_locks[step.to as usize]
                .iter()
                .all(|&l| open[l as usize])
    };
    let mut before: Vec<Option<u32>> = vec![None; level.places.len()];
    before[from as usize] = Some(from);
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        *budget = budget.checked_sub(1)?;
        if p == to {
            let mut path = Vec::new();
            let mut q = to;
            while q != from {
                path.push(q);
                q = before[q as usize].expect("reached rooms have a predecessor");
            }
            path.reverse();
            return Some(path);
        }
        for step in &level.out[p as usize] {
            if before[step.to as usize].is_none() && passable(step) {
                before[step.to as usize] = Some(p);
                queue.push_back(step.to);
            }
        }
    }
    None
}

/// The layout metrics: bounding box, density, corridor rooms.
fn layout_values(layout: &Layout, values: &mut Values) {
    let parts = layout.rooms.iter().chain(&layout.corridors);
    let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
    let mut area: i64 = 0;
    for part in parts {
        for p in &part.outline {
            let (x, y) = (i64::from(p.x), i64::from(p.y));
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        area += shoelace(&part.outline);
    }
    if x0 > x1 {
        return;
    }
    let (w, h) = (x1 - x0, y1 - y0);
    values[Metric::Width.index()] = Some(w as f64);
    values[Metric::Height.index()] = Some(h as f64);
    if w > 0 && h > 0 {
        values[Metric::Density.index()] = Some(round4(area as f64 / (w * h) as f64));
    }
    values[Metric::LayoutCorridors.index()] = Some(layout.corridors.len() as f64);
}

/// The area of a simple polygon (shoelace formula), whatever its
/// orientation.
fn shoelace(outline: &[crate::layout::GridPoint]) -> i64 {
    let n = outline.len();
    let twice: i64 = (0..n)
        .map(|i| {
            let (a, b) = (outline[i], outline[(i + 1) % n]);
            i64::from(a.x) * i64::from(b.y) - i64::from(b.x) * i64::from(a.y)
        })
        .sum();
    twice.abs() / 2
}
