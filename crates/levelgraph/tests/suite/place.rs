//! Content placement: every placement the solver gives meets the `place`
//! block (tested independently of the encoding), the analysis equals a
//! brute force over all placements on small levels, conflicts name their
//! constraints, and the same seed gives the same placements.
//!
//! The brute force rests on a model of the placement semantics written
//! here from `place-semantics.md` alone ([`Model`], [`judge`]): the level
//! read from the graph, the content the block asks for, and every
//! constraint measured per rule. Each placement it enumerates is also
//! judged by the library's own verifier ([`violations`]) and replayed by
//! the playability checker ([`play::check`] on [`apply`]); the three must
//! agree before the brute force's verdicts are compared with [`analyze`]
//! and [`Placer`].

use std::collections::{BTreeSet, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use levelgraph::derive::derive;
use levelgraph::grammar::place::{Anchor, Count, Distance, PlaceSpec, Placed};
use levelgraph::grammar::play::PlaySpec;
use levelgraph::grammar::{self, CompiledGrammar, Grammar};
use levelgraph::graph::{Edge, Graph, VertexId};
use levelgraph::place::{
    analyze, analyze_per_literal, apply, violations, ContentKind, PlaceError, Placement, Placer,
    Problem, Rule, RuleKind, Status, TooManyWays,
};
use levelgraph::play::{self, LockRef};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestError, TestRunner};

// ---------------------------------------------------------------------------
// The grammars
// ---------------------------------------------------------------------------

fn default_with_items() -> CompiledGrammar {
    let text = grammar::DEFAULT_GRAMMAR.replace(
        "  treasure  \"treasure room\"       #8e24aa terminal\n",
        "  treasure  \"treasure room\"       #8e24aa terminal\n  potion \"potion\" #00897b terminal\n  boss \"boss\" #3e2723 terminal\n",
    );
    grammar::load(&text, "default.lg").expect("loads")
}

/// The small levels' grammar: default.lg's `play` block, and locked doors
/// opened by a second key statement (its keys are tagged `dkey`: a key
/// vertex belongs to the first statement whose selector matches it, so a
/// second `key key` statement would never own a key).
const SMALL_GRAMMAR: &str = "tags { s entrance room goal lock key dkey potion boss }
rule start { (a:s) => (a:entrance) }
play {
  entrance entrance
  goal goal
  key key opens lock via ~>
  key dkey opens -[locked]-
  directed two_way
}
";

/// The small levels' grammar model (to compile with a `place` block, so
/// that every generated spec passes the block's own checks) and its
/// `play` block.
fn small() -> &'static (Grammar, PlaySpec) {
    static SMALL: OnceLock<(Grammar, PlaySpec)> = OnceLock::new();
    SMALL.get_or_init(|| {
        let g = grammar::load(SMALL_GRAMMAR, "small").unwrap_or_else(|e| panic!("{e}"));
        (g.model().clone(), g.play().expect("a play block").clone())
    })
}

/// `spec` passes the `place` block's checks in `base`.
fn checked(base: &Grammar, spec: &PlaceSpec) -> Result<(), String> {
    let mut model = base.clone();
    model.place = Some(spec.clone());
    grammar::compile(&model).map(|_| ()).map_err(|d| {
        d.iter()
            .map(|x| x.message.clone())
            .collect::<Vec<_>>()
            .join("; ")
    })
}

// ---------------------------------------------------------------------------
// The model: the level and the semantics, from place-semantics.md
// ---------------------------------------------------------------------------

/// A lock of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MLock {
    /// A locked room: the lock vertex and its place.
    Room { vertex: VertexId, place: usize },
    /// A locked door between two places.
    Door { a: usize, b: usize },
}

/// Content the level holds and the solver does not move.
#[derive(Clone, Debug)]
struct MFixed {
    tag: String,
    place: usize,
    /// For a key: the locks it opens.
    opens: Option<Vec<usize>>,
}

/// A level as placement sees it, read from the graph by the rules of
/// place-semantics.md for the play blocks of this file (`key … opens lock
/// via ~>`, `dkey … opens -[locked]-`, `directed two_way`).
#[derive(Clone, Debug)]
struct Model {
    /// Per place: its vertex and tag.
    vertex: Vec<VertexId>,
    tag: Vec<String>,
    /// Per place: its neighbours, with the door lock on the way.
    adj: Vec<Vec<(usize, Option<usize>)>>,
    locks: Vec<MLock>,
    /// Per lock: what the library calls it.
    lock_refs: Vec<LockRef>,
    /// Per place: the locked-room locks on it.
    room_locks: Vec<Vec<usize>>,
    entrance: Option<usize>,
    goals: Vec<usize>,
    fixed: Vec<MFixed>,
}

impl Model {
    fn n(&self) -> usize {
        self.vertex.len()
    }

    /// Reads `graph`; with `keys_placed`, the level's key vertices are
    /// taken out first.
    fn read(graph: &Graph, keys_placed: bool) -> Model {
        let is_key = |v: VertexId| matches!(graph.tag_name(v), "key" | "dkey");
        let top = |mut v: VertexId| {
            while let Some(p) = graph.parent(v) {
                v = p;
            }
            v
        };
        let gone = |v: VertexId| keys_placed && (is_key(v) || is_key(top(v)));
        let vertex: Vec<VertexId> = graph
            .vertices()
            .filter(|(v, x)| x.parent.is_none() && !gone(*v))
            .map(|(v, _)| v)
            .collect();
        let place_of = |v: VertexId| {
            if gone(v) {
                return None;
            }
            vertex.iter().position(|&p| p == top(v))
        };
        let n = vertex.len();
        let tag: Vec<String> = vertex
            .iter()
            .map(|&v| graph.tag_name(v).to_owned())
            .collect();
        let mut locks = Vec::new();
        let mut lock_refs = Vec::new();
        for (v, _) in graph.vertices() {
            if graph.tag_name(v) == "lock" {
                if let Some(place) = place_of(v) {
                    locks.push(MLock::Room { vertex: v, place });
                    lock_refs.push(LockRef::Room(v));
                }
            }
        }
        let mut adj = vec![Vec::new(); n];
        for (e, edge) in graph.edges() {
            if edge.cosmetic {
                continue;
            }
            let (Some(a), Some(b)) = (place_of(edge.source), place_of(edge.target)) else {
                continue;
            };
            if a == b {
                continue;
            }
            let locked =
                !edge.directed && edge.label.map(|l| graph.labels().name(l)) == Some("locked");
            let door = locked.then(|| {
                locks.push(MLock::Door { a, b });
                lock_refs.push(LockRef::Door(e));
                locks.len() - 1
            });
            adj[a].push((b, door));
            adj[b].push((a, door));
        }
        let mut room_locks = vec![Vec::new(); n];
        for (l, lock) in locks.iter().enumerate() {
            if let MLock::Room { place, .. } = lock {
                room_locks[*place].push(l);
            }
        }
        let doors: Vec<usize> = (0..locks.len())
            .filter(|&l| matches!(locks[l], MLock::Door { .. }))
            .collect();
        let mut fixed = Vec::new();
        let mut entrance = None;
        let mut goals = Vec::new();
        for (v, _) in graph.vertices() {
            let Some(place) = place_of(v) else { continue };
            let tag = graph.tag_name(v);
            let opens = match tag {
                "key" => Some(
                    graph
                        .edges()
                        .filter(|(_, e)| {
                            e.source == v && e.cosmetic && e.directed && e.label.is_none()
                        })
                        .filter_map(|(_, e)| {
                            locks.iter().position(
                                |l| matches!(l, MLock::Room { vertex, .. } if *vertex == e.target),
                            )
                        })
                        .collect::<BTreeSet<usize>>()
                        .into_iter()
                        .collect(),
                ),
                "dkey" => Some(doors.clone()),
                _ => None,
            };
            match tag {
                "entrance" => {
                    assert!(entrance.is_none(), "one entrance");
                    entrance = Some(place);
                }
                "goal" => goals.push(place),
                "key" | "dkey" => {}
                _ => continue,
            }
            fixed.push(MFixed {
                tag: tag.to_owned(),
                place,
                opens,
            });
        }
        Model {
            vertex,
            tag,
            adj,
            locks,
            lock_refs,
            room_locks,
            entrance,
            goals,
            fixed,
        }
    }

    /// The places of lock `l`: the locked room, or both ends of the door.
    fn lock_places(&self, l: usize) -> Vec<usize> {
        match self.locks[l] {
            MLock::Room { place, .. } => vec![place],
            MLock::Door { a, b } => vec![a, b],
        }
    }

    /// Passages from the nearest of `sources`, every lock open.
    fn distances(&self, sources: &[usize]) -> Vec<u32> {
        let mut d = vec![u32::MAX; self.n()];
        let mut queue = std::collections::VecDeque::new();
        for &s in sources {
            d[s] = 0;
            queue.push_back(s);
        }
        while let Some(p) = queue.pop_front() {
            for &(q, _) in &self.adj[p] {
                if d[q] == u32::MAX {
                    d[q] = d[p] + 1;
                    queue.push_back(q);
                }
            }
        }
        d
    }

    /// The places reached from `start` with the locks `open` open.
    fn closure(&self, start: usize, open: &[bool]) -> Vec<bool> {
        let mut reached = vec![false; self.n()];
        reached[start] = true;
        let mut stack = vec![start];
        while let Some(p) = stack.pop() {
            for &(q, door) in &self.adj[p] {
                if !reached[q]
                    && door.is_none_or(|d| open[d])
                    && self.room_locks[q].iter().all(|&l| open[l])
                {
                    reached[q] = true;
                    stack.push(q);
                }
            }
        }
        reached
    }

    /// The monotone fixpoint: reach, pick up every key reached, open its
    /// locks (never `shut`), again until nothing changes. Per phase, the
    /// places reached (phase 0: no key held).
    fn phases(
        &self,
        start: usize,
        keys: &[(usize, Vec<usize>)],
        shut: Option<usize>,
    ) -> Vec<Vec<bool>> {
        let mut open = vec![false; self.locks.len()];
        let mut out: Vec<Vec<bool>> = Vec::new();
        loop {
            let reached = self.closure(start, &open);
            if out.last() == Some(&reached) {
                return out;
            }
            for (p, opens) in keys {
                if reached[*p] {
                    for &l in opens {
                        if Some(l) != shut {
                            open[l] = true;
                        }
                    }
                }
            }
            out.push(reached);
        }
    }
}

/// What a piece of content is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum MKind {
    /// A key opening these locks.
    Key(Vec<usize>),
    Entrance,
    Goal,
    Item(String),
}

/// One kind of content to place.
#[derive(Clone, Debug)]
struct MContent {
    kind: MKind,
    tag: String,
    /// Index into `PlaceSpec::statements`.
    statement: usize,
    placed: Placed,
    count: (u32, u32),
    /// `count` is a rule (written for an item); otherwise exactly one.
    count_rule: bool,
}

/// The content `spec` asks for on `model`: one key per locked room and
/// one for every locked door (the door statement has no `via`), the
/// entrance, the goal, the items.
fn my_contents(model: &Model, spec: &PlaceSpec) -> Vec<MContent> {
    let mut out = Vec::new();
    let mut s = 0;
    let one = |kind, tag: &str, statement, placed: &Placed| MContent {
        kind,
        tag: tag.to_owned(),
        statement,
        placed: placed.clone(),
        count: (1, 1),
        count_rule: false,
    };
    if let Some(p) = &spec.keys {
        let mut doors = Vec::new();
        for (l, lock) in model.locks.iter().enumerate() {
            match lock {
                MLock::Room { .. } => out.push(one(MKind::Key(vec![l]), "key", s, p)),
                MLock::Door { .. } => doors.push(l),
            }
        }
        if !doors.is_empty() {
            out.push(one(MKind::Key(doors), "dkey", s, p));
        }
        s += 1;
    }
    if let Some(p) = &spec.entrance {
        out.push(one(MKind::Entrance, "entrance", s, p));
        s += 1;
    }
    if let Some(p) = &spec.goal {
        out.push(one(MKind::Goal, "goal", s, p));
        s += 1;
    }
    for p in &spec.items {
        let tag = p.tag.clone().expect("items have tags");
        let mut c = one(MKind::Item(tag.clone()), &tag, s, p);
        if let Some(count) = p.count {
            c.count = (count.min, count.max);
            c.count_rule = true;
        }
        out.push(c);
        s += 1;
    }
    out
}

/// A rule, as [`RuleKind`], with `Hard` for what no rule may drop
/// (exactly one key, entrance or goal; an entrance outside locked rooms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum R {
    Hard,
    Count(usize),
    In(usize),
    Distance(usize, usize),
    NotWith(usize),
    Alone(usize),
    LockFirst(usize),
    Completable,
    Reachable,
    EveryKeyNeeded,
}

fn r_of(kind: RuleKind) -> R {
    match kind {
        RuleKind::Count(s) => R::Count(s),
        RuleKind::In(s) => R::In(s),
        RuleKind::Distance(s, i) => R::Distance(s, i),
        RuleKind::NotWith(s) => R::NotWith(s),
        RuleKind::Alone(s) => R::Alone(s),
        RuleKind::LockFirst(s) => R::LockFirst(s),
        RuleKind::Completable => R::Completable,
        RuleKind::Reachable => R::Reachable,
        RuleKind::EveryKeyNeeded => R::EveryKeyNeeded,
    }
}

/// What a placement breaks, rule by rule, and the places the fixpoint
/// reaches (`None` without one entrance).
struct Judgement {
    broken: BTreeSet<R>,
    reached: Option<Vec<bool>>,
}

/// Judges placement `at` (per content, its places) by the semantics.
fn judge(m: &Model, cs: &[MContent], every_key_needed: bool, at: &[Vec<usize>]) -> Judgement {
    let mut broken = BTreeSet::new();
    let position = |k: MKind| cs.iter().position(|c| c.kind == k);
    let entrance = match position(MKind::Entrance) {
        Some(e) => match at[e].as_slice() {
            [p] => {
                if !m.room_locks[*p].is_empty() {
                    broken.insert(R::Hard);
                }
                Some(*p)
            }
            _ => None,
        },
        None => m.entrance,
    };
    let goals: Vec<usize> = match position(MKind::Goal) {
        Some(g) => at[g].clone(),
        None => m.goals.clone(),
    };
    // Keys: placed, then fixed.
    let mut keys: Vec<(usize, Vec<usize>)> = Vec::new();
    for (c, content) in cs.iter().enumerate() {
        if let MKind::Key(opens) = &content.kind {
            keys.extend(at[c].iter().map(|&p| (p, opens.clone())));
        }
    }
    for f in &m.fixed {
        if let Some(opens) = &f.opens {
            keys.push((f.place, opens.clone()));
        }
    }
    for (c, content) in cs.iter().enumerate() {
        let s = content.statement;
        let n = at[c].len() as u32;
        if n < content.count.0 || n > content.count.1 {
            broken.insert(if content.count_rule {
                R::Count(s)
            } else {
                R::Hard
            });
        }
        let p_spec = &content.placed;
        for &p in &at[c] {
            if !p_spec.rooms.is_empty() && !p_spec.rooms.contains(&m.tag[p]) {
                broken.insert(R::In(s));
            }
            for (i, d) in p_spec.distance.iter().enumerate() {
                let sources: Vec<usize> = match d.from {
                    Anchor::Entrance => entrance.into_iter().collect(),
                    Anchor::Goal => goals.clone(),
                    Anchor::Lock => match &content.kind {
                        MKind::Key(opens) => opens.iter().flat_map(|&l| m.lock_places(l)).collect(),
                        _ => unreachable!("`check` keeps `distance from lock` to keys"),
                    },
                };
                let dist = m.distances(&sources)[p];
                if dist == u32::MAX || dist < d.min || d.max.is_some_and(|x| dist > x) {
                    broken.insert(R::Distance(s, i));
                }
            }
            // (tag, counts for `alone`): placed content and the level's own
            // keys count; the level's own entrance and goal vertices only
            // for `not with` (section 20.2).
            let others = cs
                .iter()
                .enumerate()
                .filter(|&(o, _)| o != c && at[o].contains(&p))
                .map(|(_, o)| (o.tag.as_str(), true))
                .chain(
                    m.fixed
                        .iter()
                        .filter(|f| f.place == p)
                        .map(|f| (f.tag.as_str(), f.opens.is_some())),
                );
            let mut any = false;
            for (t, counts) in others {
                any |= counts;
                if p_spec.not_with.iter().any(|x| x == t) {
                    broken.insert(R::NotWith(s));
                }
            }
            if any && p_spec.alone {
                broken.insert(R::Alone(s));
            }
        }
    }
    let Some(start) = entrance else {
        broken.insert(R::Hard);
        return Judgement {
            broken,
            reached: None,
        };
    };
    let phases = m.phases(start, &keys, None);
    let reached = phases.last().expect("phase 0").clone();
    if goals.is_empty() || goals.iter().any(|&g| !reached[g]) {
        broken.insert(R::Completable);
    }
    for (c, content) in cs.iter().enumerate() {
        if matches!(content.kind, MKind::Key(_) | MKind::Item(_))
            && at[c].iter().any(|&p| !reached[p])
        {
            broken.insert(R::Reachable);
        }
    }
    // `lock first`: a key first reached in phase t has a lock seen in
    // phase t.
    for (c, content) in cs.iter().enumerate() {
        let MKind::Key(opens) = &content.kind else {
            continue;
        };
        if !content.placed.lock_first {
            continue;
        }
        for &p in &at[c] {
            let Some(t) = phases.iter().position(|r| r[p]) else {
                continue;
            };
            let r = &phases[t];
            let seen = opens.iter().any(|&l| match m.locks[l] {
                MLock::Room { place, .. } => r[place] || m.adj[place].iter().any(|&(q, _)| r[q]),
                MLock::Door { a, b } => r[a] || r[b],
            });
            if !seen {
                broken.insert(R::LockFirst(content.statement));
            }
        }
    }
    if every_key_needed {
        for l in 0..m.locks.len() {
            let shut = m.phases(start, &keys, Some(l));
            let last = shut.last().expect("phase 0");
            if !goals.is_empty() && goals.iter().all(|&g| last[g]) {
                broken.insert(R::EveryKeyNeeded);
            }
        }
    }
    Judgement {
        broken,
        reached: Some(reached),
    }
}

/// The placements to try for content `c`: subsets of its places of a
/// size in its count. With `kept` (the rules kept), `in` and `count` that
/// are not kept are dropped, and an item takes exactly its least count
/// (or none without its count): every rule on an item holds per copy or
/// keeps other content away from it, so fewer copies never break one,
/// and if any placement meets the kept rules, one of these does.
fn options(m: &Model, c: &MContent, kept: Option<&BTreeSet<R>>) -> Vec<Vec<usize>> {
    let in_kept =
        !c.placed.rooms.is_empty() && kept.is_none_or(|k| k.contains(&R::In(c.statement)));
    let allowed: Vec<usize> = (0..m.n())
        .filter(|&p| !in_kept || c.placed.rooms.contains(&m.tag[p]))
        .collect();
    let (lo, hi) = match kept {
        None => (c.count.0 as usize, c.count.1 as usize),
        Some(k) if !c.count_rule || k.contains(&R::Count(c.statement)) => {
            (c.count.0 as usize, c.count.0 as usize)
        }
        Some(_) => (0, 0),
    };
    let mut out = Vec::new();
    for size in lo..=hi.min(allowed.len()) {
        subsets(&allowed, size, 0, &mut Vec::new(), &mut out);
    }
    out
}

fn subsets(from: &[usize], size: usize, i: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if cur.len() == size {
        out.push(cur.clone());
        return;
    }
    for j in i..from.len() {
        cur.push(from[j]);
        subsets(from, size, j + 1, cur, out);
        cur.pop();
    }
}

/// The number of placements of `opts`.
fn space(opts: &[Vec<Vec<usize>>]) -> usize {
    opts.iter()
        .fold(1usize, |acc, o| acc.saturating_mul(o.len()))
}

/// Calls `f` on every placement of `opts` (one option per content) until
/// it returns false.
fn each_placement(opts: &[Vec<Vec<usize>>], mut f: impl FnMut(&[Vec<usize>]) -> bool) {
    if opts.iter().any(Vec::is_empty) {
        return;
    }
    let mut digit = vec![0usize; opts.len()];
    loop {
        let at: Vec<Vec<usize>> = digit.iter().zip(opts).map(|(&d, o)| o[d].clone()).collect();
        if !f(&at) {
            return;
        }
        let mut i = 0;
        loop {
            if i == opts.len() {
                return;
            }
            digit[i] += 1;
            if digit[i] < opts[i].len() {
                break;
            }
            digit[i] = 0;
            i += 1;
        }
    }
}

fn placement_of(at: &[Vec<usize>]) -> Placement {
    Placement {
        at: at
            .iter()
            .map(|ps| ps.iter().map(|&p| p as u32).collect())
            .collect(),
    }
}

/// Whether some placement meets every rule of `kept` (and every hard
/// one).
fn meets(m: &Model, cs: &[MContent], spec: &PlaceSpec, kept: &BTreeSet<R>) -> bool {
    let opts: Vec<Vec<Vec<usize>>> = cs.iter().map(|c| options(m, c, Some(kept))).collect();
    let mut found = false;
    each_placement(&opts, |at| {
        let j = judge(
            m,
            cs,
            spec.every_key_needed && kept.contains(&R::EveryKeyNeeded),
            at,
        );
        found = j.broken.iter().all(|r| *r != R::Hard && !kept.contains(r));
        !found
    });
    found
}

/// The reduced space [`meets`] searches for `kept`.
fn meets_space(m: &Model, cs: &[MContent], kept: &BTreeSet<R>) -> usize {
    let opts: Vec<Vec<Vec<usize>>> = cs.iter().map(|c| options(m, c, Some(kept))).collect();
    space(&opts)
}

/// `rules` is a minimal conflict: no placement meets them all, and
/// without any one of them the rest have a placement. `Err` says what is
/// wrong; `Ok(false)`: too large a space to search, not checked.
fn check_conflict(
    m: &Model,
    cs: &[MContent],
    spec: &PlaceSpec,
    problem: &Problem,
    rules: &[Rule],
) -> Result<bool, String> {
    if rules.is_empty() {
        return Err("no rule named".into());
    }
    for r in rules {
        if !problem.rules.contains(r) {
            return Err(format!("{r:?} is not a rule of the problem"));
        }
    }
    let core: BTreeSet<R> = rules.iter().map(|r| r_of(r.kind)).collect();
    if core.len() != rules.len() {
        return Err(format!("a rule named twice: {rules:?}"));
    }
    let mut sizes = vec![meets_space(m, cs, &core)];
    for r in &core {
        let mut less = core.clone();
        less.remove(r);
        sizes.push(meets_space(m, cs, &less));
    }
    if sizes.iter().any(|&s| s > MEETS_LIMIT) {
        return Ok(false);
    }
    if meets(m, cs, spec, &core) {
        return Err(format!("the rules named do not conflict: {core:?}"));
    }
    for r in &core {
        let mut less = core.clone();
        less.remove(r);
        if !meets(m, cs, spec, &less) {
            return Err(format!(
                "not minimal: without {r:?} the rest still conflict ({core:?})"
            ));
        }
    }
    Ok(true)
}

/// The most placements the brute force enumerates on one small level.
const LIMIT: usize = 1500;
/// The most placements a conflict's check searches.
const MEETS_LIMIT: usize = 100_000;

/// Matches the problem's contents with the model's: per content of
/// `problem`, the model's. Fails unless they are the same content.
fn matched(problem: &Problem, m: &Model, mine: &[MContent]) -> Result<Vec<MContent>, String> {
    // The problem's locks are the model's.
    let mut lock_of = Vec::new();
    for l in &problem.locks {
        match m.lock_refs.iter().position(|x| x == l) {
            Some(i) => lock_of.push(i),
            None => return Err(format!("lock {l:?} is not in the model")),
        }
    }
    if problem.locks.len() != m.locks.len() {
        return Err(format!(
            "locks: the problem has {:?}, the model {:?}",
            problem.locks, m.lock_refs
        ));
    }
    let mut used = vec![false; mine.len()];
    let mut out = Vec::new();
    for content in &problem.contents {
        let kind = match &content.kind {
            ContentKind::Key { opens } => {
                let mut o: Vec<usize> = opens.iter().map(|&l| lock_of[l as usize]).collect();
                o.sort_unstable();
                MKind::Key(o)
            }
            ContentKind::Entrance => MKind::Entrance,
            ContentKind::Goal => MKind::Goal,
            ContentKind::Item => MKind::Item(content.tag.clone()),
        };
        let Some(i) = (0..mine.len()).find(|&i| !used[i] && mine[i].kind == kind) else {
            return Err(format!(
                "content {} ({kind:?}) is not in the model",
                content.name
            ));
        };
        used[i] = true;
        let c = &mine[i];
        if c.tag != content.tag || c.statement != content.statement || c.count != content.count {
            return Err(format!(
                "content {}: tag {} statement {} count {:?}, the model: {} {} {:?}",
                content.name,
                content.tag,
                content.statement,
                content.count,
                c.tag,
                c.statement,
                c.count
            ));
        }
        out.push(c.clone());
    }
    if let Some(i) = used.iter().position(|u| !u) {
        return Err(format!("the problem lacks {:?}", mine[i].kind));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Random small levels and place blocks
// ---------------------------------------------------------------------------

const MAX_LOCKS: usize = 3;

/// A distance range: least, and greatest (`None`: `*`).
type Range = (u32, Option<u32>);

#[derive(Clone, Debug)]
struct LevelGen {
    /// Places after the first: a locked room, and its corridor to an
    /// earlier place (index modulo), directed, a locked door.
    places: Vec<(bool, (u8, bool, bool))>,
    /// The goal: a place after the first (modulo).
    goal: u8,
    /// More corridors: ends (modulo), directed, a locked door.
    extra: Vec<(u8, u8, bool, bool)>,
    /// A lock vertex stored in a place after the first (modulo).
    stored_lock: Option<u8>,
    /// A second goal vertex, stored in a place (modulo), when the goal is
    /// not placed.
    second_goal: Option<u8>,
    /// The last place has no corridor of its own.
    isolated: bool,
    /// Where the level's own keys lie, per lock (modulo the places); the
    /// fourth is the locked doors' key.
    key_at: [u8; 4],
    /// A lock without its key in the level.
    no_key: Option<u8>,
    place_entrance: bool,
    place_goal: bool,
}

#[derive(Clone, Debug)]
struct KeysGen {
    in_room: bool,
    from_lock: Option<Range>,
    from_entrance: Option<Range>,
    lock_first: bool,
    /// `not with`, a mask over potion, boss, entrance, goal.
    not_with: u8,
    alone: bool,
}

#[derive(Clone, Debug)]
struct SpecGen {
    keys: Option<KeysGen>,
    /// `count 1..3` (else `0..2`), `in room`, `not with key`, `alone`.
    potion: Option<(bool, bool, bool, bool)>,
    /// `distance from goal`, `alone`, `not with` a mask over potion,
    /// entrance, goal, key.
    boss: Option<(Range, bool, u8)>,
    /// A placed entrance: `in room`, `distance from goal`.
    entrance: (bool, Option<Range>),
    /// A placed goal: `in` nothing, `room`, `lock`; `distance from
    /// entrance`.
    goal: (u8, Option<Range>),
    every_key_needed: bool,
}

#[derive(Clone, Debug)]
struct Case {
    level: LevelGen,
    spec: SpecGen,
    seed: u64,
}

fn range() -> impl Strategy<Value = Range> {
    (0u32..=2, prop::option::weighted(0.7, 0u32..=3)).prop_map(|(a, d)| (a, d.map(|d| a + d)))
}

fn level_gen() -> impl Strategy<Value = LevelGen> {
    (
        prop::collection::vec(
            (
                prop::bool::weighted(0.3),
                (any::<u8>(), any::<bool>(), prop::bool::weighted(0.12)),
            ),
            2..=6,
        ),
        any::<u8>(),
        prop::collection::vec(
            (
                any::<u8>(),
                any::<u8>(),
                any::<bool>(),
                prop::bool::weighted(0.2),
            ),
            0..=2,
        ),
        (
            prop::option::weighted(0.15, any::<u8>()),
            prop::option::weighted(0.1, any::<u8>()),
        ),
        prop::bool::weighted(0.05),
        any::<[u8; 4]>(),
        prop::option::weighted(0.15, 0u8..4),
        prop::bool::weighted(0.15),
        prop::bool::weighted(0.2),
    )
        .prop_map(
            |(
                places,
                goal,
                extra,
                (stored_lock, second_goal),
                isolated,
                key_at,
                no_key,
                pe,
                pg,
            )| LevelGen {
                places,
                goal,
                extra,
                stored_lock,
                second_goal,
                isolated,
                key_at,
                no_key,
                place_entrance: pe,
                place_goal: pg,
            },
        )
}

fn spec_gen() -> impl Strategy<Value = SpecGen> {
    let keys = (
        prop::bool::weighted(0.4),
        prop::option::weighted(0.35, range()),
        prop::option::weighted(0.3, range()),
        prop::bool::weighted(0.35),
        prop::sample::select(vec![0u8, 0, 0, 0, 1, 2, 4, 8]),
        prop::bool::weighted(0.1),
    )
        .prop_map(
            |(in_room, from_lock, from_entrance, lock_first, not_with, alone)| KeysGen {
                in_room,
                from_lock,
                from_entrance,
                lock_first,
                not_with,
                alone,
            },
        );
    (
        prop::option::weighted(0.8, keys),
        prop::option::weighted(
            0.6,
            (
                any::<bool>(),
                prop::bool::weighted(0.3),
                prop::bool::weighted(0.4),
                prop::bool::weighted(0.2),
            ),
        ),
        prop::option::weighted(
            0.5,
            (
                range(),
                prop::bool::weighted(0.3),
                prop::sample::select(vec![0u8, 0, 1, 2, 4, 8]),
            ),
        ),
        (
            prop::bool::weighted(0.3),
            prop::option::weighted(0.3, range()),
        ),
        (0u8..3, prop::option::weighted(0.4, range())),
        prop::bool::weighted(0.25),
    )
        .prop_map(
            |(keys, potion, boss, entrance, goal, every_key_needed)| SpecGen {
                keys,
                potion,
                boss,
                entrance,
                goal,
                every_key_needed,
            },
        )
}

fn case() -> impl Strategy<Value = Case> {
    (level_gen(), spec_gen(), any::<u64>()).prop_map(|(level, spec, seed)| Case {
        level,
        spec,
        seed,
    })
}

/// The level's graph: places are vertices `0..n` (place 0 the entrance,
/// unless placed), then stored locks and keys.
fn build_level(g: &LevelGen) -> Graph {
    let n = g.places.len() + 1;
    let goal = (!g.place_goal).then(|| 1 + usize::from(g.goal) % (n - 1));
    let mut graph = Graph::new();
    let mut locks = 0;
    let mut lock_vertices = Vec::new();
    for p in 0..n {
        let tag = if p == 0 {
            if g.place_entrance {
                "room"
            } else {
                "entrance"
            }
        } else if Some(p) == goal {
            "goal"
        } else if g.places[p - 1].0 && locks < MAX_LOCKS {
            locks += 1;
            "lock"
        } else {
            "room"
        };
        let v = graph.add_vertex_named(tag);
        if tag == "lock" {
            lock_vertices.push(v);
        }
    }
    if let Some(s) = g.stored_lock {
        if locks < MAX_LOCKS {
            locks += 1;
            let room = VertexId((1 + usize::from(s) % (n - 1)) as u32);
            let v = graph.add_vertex_named("lock");
            assert!(graph.set_parent(v, Some(room)));
            lock_vertices.push(v);
        }
    }
    if let (Some(s), false) = (g.second_goal, g.place_goal) {
        let room = VertexId((usize::from(s) % n) as u32);
        let v = graph.add_vertex_named("goal");
        assert!(graph.set_parent(v, Some(room)));
    }
    let locked = graph.labels_mut().intern("locked");
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut doors = 0;
    let tree = g
        .places
        .iter()
        .enumerate()
        .filter_map(|(i, &(_, (to, d, door)))| {
            let a = i + 1;
            (!(g.isolated && a == n - 1 && n > 3)).then(|| (a, usize::from(to) % a, d, door))
        });
    let extra = g
        .extra
        .iter()
        .map(|&(a, b, d, door)| (usize::from(a) % n, usize::from(b) % n, d, door));
    for (a, b, directed, door) in tree.chain(extra).collect::<Vec<_>>() {
        if a == b || pairs.contains(&(a.min(b), a.max(b))) {
            continue;
        }
        pairs.push((a.min(b), a.max(b)));
        let door = door && locks + doors < MAX_LOCKS;
        if door {
            doors += 1;
        }
        graph.add_edge(Edge {
            source: VertexId(a as u32),
            target: VertexId(b as u32),
            directed: directed && !door,
            cosmetic: false,
            label: door.then_some(locked),
            length_factor: 1.0,
        });
    }
    // The level's own keys: the solver takes them out when it places keys.
    for (k, &lock) in lock_vertices.iter().enumerate() {
        if g.no_key == Some(k as u8) {
            continue;
        }
        let room = VertexId((usize::from(g.key_at[k]) % n) as u32);
        let key = graph.add_vertex_named("key");
        assert!(graph.set_parent(key, Some(room)));
        graph.add_edge(Edge {
            source: key,
            target: lock,
            directed: true,
            cosmetic: true,
            label: None,
            length_factor: 1.0,
        });
    }
    if doors > 0 && g.no_key != Some(3) {
        let room = VertexId((usize::from(g.key_at[3]) % n) as u32);
        let key = graph.add_vertex_named("dkey");
        assert!(graph.set_parent(key, Some(room)));
    }
    graph
}

fn distance(from: Anchor, (min, max): Range) -> Distance {
    Distance { from, min, max }
}

fn tags_of(mask: u8, names: &[&str]) -> Vec<String> {
    (0..names.len())
        .filter(|&i| mask & (1 << i) != 0)
        .map(|i| names[i].to_owned())
        .collect()
}

/// The place block of `s` on a level that lacks an entrance (`entrance`)
/// or a goal (`goal`).
fn build_spec(s: &SpecGen, entrance: bool, goal: bool) -> PlaceSpec {
    let mut spec = PlaceSpec {
        every_key_needed: s.every_key_needed,
        ..PlaceSpec::default()
    };
    if let Some(k) = &s.keys {
        let mut distance_from = Vec::new();
        if let Some(r) = k.from_lock {
            distance_from.push(distance(Anchor::Lock, r));
        }
        if let Some(r) = k.from_entrance {
            distance_from.push(distance(Anchor::Entrance, r));
        }
        spec.keys = Some(Placed {
            rooms: if k.in_room {
                vec!["room".into()]
            } else {
                vec![]
            },
            distance: distance_from,
            lock_first: k.lock_first,
            not_with: tags_of(k.not_with, &["potion", "boss", "entrance", "goal"]),
            alone: k.alone,
            ..Placed::default()
        });
    }
    if entrance {
        spec.entrance = Some(Placed {
            rooms: if s.entrance.0 {
                vec!["room".into()]
            } else {
                vec![]
            },
            distance: s
                .entrance
                .1
                .map(|r| distance(Anchor::Goal, r))
                .into_iter()
                .collect(),
            ..Placed::default()
        });
    }
    if goal {
        spec.goal = Some(Placed {
            rooms: match s.goal.0 {
                1 => vec!["room".into()],
                2 => vec!["lock".into()],
                _ => vec![],
            },
            distance: s
                .goal
                .1
                .map(|r| distance(Anchor::Entrance, r))
                .into_iter()
                .collect(),
            ..Placed::default()
        });
    }
    if let Some((one_to_three, in_room, not_with_key, alone)) = s.potion {
        spec.items.push(Placed {
            tag: Some("potion".into()),
            count: Some(if one_to_three {
                Count { min: 1, max: 3 }
            } else {
                Count { min: 0, max: 2 }
            }),
            rooms: if in_room { vec!["room".into()] } else { vec![] },
            not_with: if not_with_key {
                vec!["key".into()]
            } else {
                vec![]
            },
            alone,
            ..Placed::default()
        });
    }
    if let Some((r, alone, not_with)) = s.boss {
        spec.items.push(Placed {
            tag: Some("boss".into()),
            distance: vec![distance(Anchor::Goal, r)],
            alone,
            not_with: tags_of(not_with, &["potion", "entrance", "goal", "key"]),
            ..Placed::default()
        });
    }
    drop_dangling(&mut spec);
    spec
}

/// Takes out `not with` tags that no content has (a dropped item).
fn drop_dangling(spec: &mut PlaceSpec) {
    let items: Vec<String> = spec.items.iter().filter_map(|p| p.tag.clone()).collect();
    let known = |t: &String| matches!(t.as_str(), "key" | "entrance" | "goal") || items.contains(t);
    if let Some(k) = &mut spec.keys {
        k.not_with.retain(known);
    }
    for p in &mut spec.items {
        p.not_with.retain(known);
    }
}

// ---------------------------------------------------------------------------
// The brute force
// ---------------------------------------------------------------------------

/// What the brute force saw over the run.
#[derive(Default)]
struct Stats {
    cases: AtomicU64,
    placements: AtomicU64,
    satisfiable: AtomicU64,
    conflicts: AtomicU64,
    conflicts_checked: AtomicU64,
    placers_listed: AtomicU64,
    trimmed: AtomicU64,
}

static STATS: OnceLock<Stats> = OnceLock::new();

fn stats() -> &'static Stats {
    STATS.get_or_init(Stats::default)
}

fn fail(msg: String) -> TestCaseError {
    TestCaseError::fail(msg)
}

/// One small level: the brute force against the verifier, the checker,
/// the analysis and the placer.
fn brute_force_agrees(case: &Case) -> Result<(), TestCaseError> {
    let (base, play) = small();
    let graph = build_level(&case.level);
    let mut spec = build_spec(&case.spec, case.level.place_entrance, case.level.place_goal);
    // Keep the brute force small: take out the potion, then the boss,
    // then the placed keys, until the placements are few enough.
    let (model, mine) = loop {
        let model = Model::read(&graph, spec.keys.is_some());
        let mine = my_contents(&model, &spec);
        let opts: Vec<Vec<Vec<usize>>> = mine.iter().map(|c| options(&model, c, None)).collect();
        if space(&opts) <= LIMIT {
            break (model, mine);
        }
        stats().trimmed.fetch_add(1, Ordering::Relaxed);
        if let Some(i) = spec
            .items
            .iter()
            .position(|p| p.tag.as_deref() == Some("potion"))
        {
            spec.items.remove(i);
        } else if !spec.items.is_empty() {
            spec.items.clear();
        } else {
            spec.keys = None;
        }
        drop_dangling(&mut spec);
    };
    checked(base, &spec).map_err(|e| fail(format!("the generated spec is refused: {e}")))?;
    stats().cases.fetch_add(1, Ordering::Relaxed);

    let problem = Problem::new(&graph, play, &spec)
        .map_err(|e| fail(format!("Problem::new refused a supported level: {e}")))?;
    if problem.place_count() != model.n()
        || (0..model.n()).any(|p| problem.place_vertex(p as u32) != model.vertex[p])
    {
        return Err(fail("the problem's places are not the model's".into()));
    }
    let cs = matched(&problem, &model, &mine).map_err(fail)?;

    // Every placement, judged three ways.
    let opts: Vec<Vec<Vec<usize>>> = cs.iter().map(|c| options(&model, c, None)).collect();
    let mut valid: Vec<Placement> = Vec::new();
    let mut error = None;
    each_placement(&opts, |at| {
        stats().placements.fetch_add(1, Ordering::Relaxed);
        let placement = placement_of(at);
        let j = judge(&model, &cs, spec.every_key_needed, at);
        let lib = violations(&problem, play, &placement);
        if j.broken.is_empty() != lib.is_empty() {
            error = Some(format!(
                "placement {:?}: the model breaks {:?}, violations() says {lib:?}",
                placement.at, j.broken
            ));
            return false;
        }
        if !j.broken.contains(&R::Hard) {
            let applied = apply(&problem, &placement);
            let report = play::check(&applied, play);
            let completable = !j.broken.contains(&R::Completable);
            if report.is_completable() != completable {
                error = Some(format!(
                    "placement {:?}: the model says completable {completable}, play::check {}",
                    placement.at,
                    report.verdict_message(&applied)
                ));
                return false;
            }
            let reached = j.reached.as_ref().expect("one entrance");
            for (p, (&v, &r)) in model.vertex.iter().zip(reached).enumerate() {
                if report.unreachable.contains(&v) == r {
                    error = Some(format!(
                        "placement {:?}: place {p} reached {r} by the model, unreachable {:?} by play::check",
                        placement.at, report.unreachable
                    ));
                    return false;
                }
            }
        }
        if j.broken.is_empty() {
            valid.push(placement);
        }
        true
    });
    if let Some(e) = error {
        return Err(fail(e));
    }

    // The classification.
    let n = model.n();
    let mut want = vec![vec![Status::Impossible; n]; cs.len()];
    if !valid.is_empty() {
        for (c, row) in want.iter_mut().enumerate() {
            for (p, status) in row.iter_mut().enumerate() {
                let holding = valid
                    .iter()
                    .filter(|v| v.at[c].contains(&(p as u32)))
                    .count();
                *status = if holding == 0 {
                    Status::Impossible
                } else if holding == valid.len() {
                    Status::Necessary
                } else {
                    Status::Possible
                };
            }
        }
    }
    let analysis = analyze(&problem);
    // The many-literals-per-call analysis and the one-call-per-literal
    // reference give the same table (and the same error).
    let reference = analyze_per_literal(&problem);
    match (&analysis, &reference) {
        (Ok(a), Ok(r)) if a.status == r.status => {}
        (Err(_), Err(_)) => {}
        _ => {
            return Err(fail(format!(
                "analyze {analysis:?} and analyze_per_literal {reference:?} differ"
            )))
        }
    }
    let mut placer = Placer::new(&problem, case.seed);
    let listed = placer.placements(1000);
    if valid.is_empty() {
        stats().conflicts.fetch_add(1, Ordering::Relaxed);
        let rules = match analysis {
            Err(PlaceError::NoPlacement { rules }) => rules,
            other => {
                return Err(fail(format!(
                    "no valid placement, but analyze gives {other:?}"
                )))
            }
        };
        let placer_rules = match listed {
            Err(PlaceError::NoPlacement { rules }) => rules,
            other => {
                return Err(fail(format!(
                    "no valid placement, but the placer gives {other:?}"
                )))
            }
        };
        let mut all_checked = true;
        for (who, rules) in [("analyze", &rules), ("the placer", &placer_rules)] {
            match check_conflict(&model, &cs, &spec, &problem, rules) {
                Ok(done) => all_checked &= done,
                Err(e) => {
                    return Err(fail(format!(
                        "{who} names {:?}: {e}",
                        rules.iter().map(|r| r.name.as_str()).collect::<Vec<_>>()
                    )))
                }
            }
        }
        if all_checked {
            stats().conflicts_checked.fetch_add(1, Ordering::Relaxed);
        }
        return Ok(());
    }
    stats().satisfiable.fetch_add(1, Ordering::Relaxed);
    let analysis =
        analysis.map_err(|e| fail(format!("valid placements exist, but analyze: {e}")))?;
    if analysis.status != want {
        return Err(fail(format!(
            "analyze: {:?}\nbrute force: {want:?}\n({} valid placements: {:?})",
            analysis.status,
            valid.len(),
            valid.iter().take(20).map(|v| &v.at).collect::<Vec<_>>()
        )));
    }
    let listed =
        listed.map_err(|e| fail(format!("valid placements exist, but the placer: {e}")))?;
    if valid.len() < 1000 {
        stats().placers_listed.fetch_add(1, Ordering::Relaxed);
        let distinct: HashSet<&Placement> = listed.iter().collect();
        if distinct.len() != listed.len() {
            return Err(fail(format!("the placer repeats a placement: {listed:?}")));
        }
        let want: HashSet<&Placement> = valid.iter().collect();
        if distinct != want {
            let extra: Vec<_> = distinct.difference(&want).map(|p| &p.at).collect();
            let missing: Vec<_> = want.difference(&distinct).map(|p| &p.at).collect();
            return Err(fail(format!(
                "the placer's placements are not the valid ones: not valid {extra:?}, missing {missing:?}"
            )));
        }
    }
    Ok(())
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // Never write a regressions file next to the sources; a failure
        // prints the minimal case instead.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// On random small levels (3 to 7 places, up to three locks: locked rooms,
/// a lock stored in a room, locked doors; a cycle sometimes; the level's
/// own keys, taken out when keys are placed) and random `place` blocks,
/// the analysis equals the brute force over every placement, the placer
/// lists exactly the valid placements, and a conflict names a minimal set
/// of rules that really conflict.
#[test]
fn the_analysis_agrees_with_brute_force_on_small_levels() {
    let started = Instant::now();
    // `PLACE_BRUTE_CASES=3000` for a longer run.
    let cases = std::env::var("PLACE_BRUTE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let mut runner = TestRunner::new(config(cases));
    let result = runner.run(&case(), |c| brute_force_agrees(&c));
    let s = stats();
    eprintln!(
        "place brute force: {} cases ({} trimmed), {} placements judged, {} satisfiable ({} listed in full by the placer), {} conflicts ({} checked minimal), {:.1} s",
        s.cases.load(Ordering::Relaxed),
        s.trimmed.load(Ordering::Relaxed),
        s.placements.load(Ordering::Relaxed),
        s.satisfiable.load(Ordering::Relaxed),
        s.placers_listed.load(Ordering::Relaxed),
        s.conflicts.load(Ordering::Relaxed),
        s.conflicts_checked.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, case)) => panic!("{why}\nminimal failing case: {case:#?}"),
        Err(e) => panic!("{e}"),
    }
}

// ---------------------------------------------------------------------------
// Levels of the default grammar
// ---------------------------------------------------------------------------

fn spec() -> PlaceSpec {
    PlaceSpec {
        keys: Some(Placed {
            rooms: vec!["room".into()],
            lock_first: true,
            ..Placed::default()
        }),
        items: vec![
            Placed {
                tag: Some("potion".into()),
                count: Some(Count { min: 2, max: 4 }),
                rooms: vec!["room".into()],
                not_with: vec!["key".into()],
                ..Placed::default()
            },
            Placed {
                tag: Some("boss".into()),
                rooms: vec!["room".into()],
                distance: vec![Distance {
                    from: Anchor::Goal,
                    min: 1,
                    max: Some(2),
                }],
                alone: true,
                ..Placed::default()
            },
        ],
        ..PlaceSpec::default()
    }
}

/// On levels of the built-in grammar (seeds 1 to 40), every placement the
/// placer gives meets every constraint — by the verifier and by this
/// file's model — the placer gives placements exactly when the analysis
/// finds the problem satisfiable, they are all different, and each lies
/// where the analysis says content can lie.
#[test]
fn placements_on_default_levels_meet_every_constraint() {
    let g = default_with_items();
    let play = g.play().unwrap().clone();
    let spec = spec();
    let mut satisfiable = 0;
    for seed in 1..=40 {
        let d = derive(&g, seed).expect("derives");
        let problem = Problem::new(&d.graph, &play, &spec).expect("supported");
        let model = Model::read(&d.graph, true);
        let cs = matched(&problem, &model, &my_contents(&model, &spec))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut placer = Placer::new(&problem, seed);
        let placements = placer.placements(20);
        let analysis = analyze(&problem);
        let (ps, a) = match (placements, analysis) {
            (Ok(ps), Ok(a)) => (ps, a),
            (
                Err(PlaceError::NoPlacement { rules }),
                Err(PlaceError::NoPlacement { rules: theirs }),
            ) => {
                for rules in [rules, theirs] {
                    if let Err(e) = check_conflict(&model, &cs, &spec, &problem, &rules) {
                        panic!("seed {seed}: {rules:?}: {e}");
                    }
                }
                continue;
            }
            (p, a) => panic!("seed {seed}: the placer gives {p:?}, analyze {a:?}"),
        };
        satisfiable += 1;
        assert!(!ps.is_empty(), "seed {seed}: satisfiable, but no placement");
        if ps.len() < 20 {
            assert_eq!(
                placer.next_placement(),
                Ok(None),
                "seed {seed}: fewer than asked, yet more"
            );
        }
        let distinct: HashSet<&Placement> = ps.iter().collect();
        assert_eq!(distinct.len(), ps.len(), "seed {seed}: a placement repeats");
        for p in &ps {
            let v = violations(&problem, &play, p);
            assert!(v.is_empty(), "seed {seed}: {v:?}");
            let at: Vec<Vec<usize>> =
                p.at.iter()
                    .map(|ps| ps.iter().map(|&q| q as usize).collect())
                    .collect();
            let j = judge(&model, &cs, spec.every_key_needed, &at);
            assert!(
                j.broken.is_empty(),
                "seed {seed}: {:?} breaks {:?}",
                p.at,
                j.broken
            );
            for (c, row) in a.status.iter().enumerate() {
                for (q, status) in row.iter().enumerate() {
                    let here = p.at[c].contains(&(q as u32));
                    match status {
                        Status::Impossible => assert!(!here, "seed {seed}: {c} in {q}"),
                        Status::Necessary => assert!(here, "seed {seed}: {c} not in {q}"),
                        Status::Possible => {}
                    }
                }
            }
        }
        // Each content has a place it can go.
        for (c, row) in a.status.iter().enumerate() {
            assert!(
                row.iter().any(|s| *s != Status::Impossible),
                "seed {seed}: content {c} can go nowhere"
            );
        }
    }
    eprintln!("default levels: {satisfiable} of 40 have a placement");
    assert!(
        satisfiable >= 36,
        "only {satisfiable} of 40 default levels have a placement"
    );
}

// ---------------------------------------------------------------------------
// Determinism
// ---------------------------------------------------------------------------

/// The same problem and seed give the same placements; another seed
/// starts elsewhere on a level with many placements.
#[test]
fn the_same_seed_gives_the_same_placements() {
    let g = default_with_items();
    let play = g.play().unwrap().clone();
    let spec = PlaceSpec {
        keys: Some(Placed::default()),
        items: vec![Placed {
            tag: Some("potion".into()),
            count: Some(Count { min: 1, max: 3 }),
            ..Placed::default()
        }],
        ..PlaceSpec::default()
    };
    let d = derive(&g, 3).expect("derives");
    let run = |seed: u64| {
        let problem = Problem::new(&d.graph, &play, &spec).expect("supported");
        let ps = Placer::new(&problem, seed)
            .placements(25)
            .expect("placements");
        assert_eq!(ps.len(), 25);
        ps
    };
    let first = run(7);
    assert_eq!(format!("{first:?}"), format!("{:?}", run(7)));
    let problem = Problem::new(&d.graph, &play, &spec).expect("supported");
    assert_eq!(analyze(&problem), analyze(&problem));
    let firsts: Vec<Placement> = (1..=8).map(|s| run(s)[0].clone()).collect();
    assert_ne!(firsts[0], firsts[1], "seeds 1 and 2 start alike");
    let distinct: HashSet<&Placement> = firsts.iter().collect();
    assert!(
        distinct.len() >= 6,
        "8 seeds give {} first placements",
        distinct.len()
    );
}

// ---------------------------------------------------------------------------
// Conflicts
// ---------------------------------------------------------------------------

/// `entrance — room — lock — goal`, a line, with the key's own vertex in
/// the room.
fn line() -> Graph {
    let mut g = Graph::new();
    let v: Vec<VertexId> = ["entrance", "room", "lock", "goal"]
        .iter()
        .map(|t| g.add_vertex_named(t))
        .collect();
    for w in v.windows(2) {
        g.connect(w[0], w[1], true);
    }
    let key = g.add_vertex_named("key");
    assert!(g.set_parent(key, Some(v[1])));
    g.add_edge(Edge {
        source: key,
        target: v[2],
        directed: true,
        cosmetic: true,
        label: None,
        length_factor: 1.0,
    });
    g
}

/// The rules in conflict, as `analyze` and a placer name them.
fn no_placement(problem: &Problem) -> [Vec<Rule>; 2] {
    let rules = match analyze(problem) {
        Err(PlaceError::NoPlacement { rules }) => rules,
        other => panic!("analyze: {other:?}"),
    };
    match Placer::new(problem, 9).next_placement() {
        Err(PlaceError::NoPlacement { rules: r }) => [rules, r],
        other => panic!("the placer: {other:?}"),
    }
}

/// A key 5 or more passages from its lock on a line of four places: the
/// conflict is that rule alone, whatever else the block asks.
#[test]
fn a_distance_no_place_meets_is_named_alone() {
    let (_, play) = small();
    let spec = PlaceSpec {
        keys: Some(Placed {
            distance: vec![Distance {
                from: Anchor::Lock,
                min: 5,
                max: None,
            }],
            lock_first: true,
            not_with: vec!["potion".into()],
            ..Placed::default()
        }),
        items: vec![
            Placed {
                tag: Some("potion".into()),
                count: Some(Count { min: 1, max: 2 }),
                not_with: vec!["key".into()],
                ..Placed::default()
            },
            Placed {
                tag: Some("boss".into()),
                distance: vec![Distance {
                    from: Anchor::Goal,
                    min: 1,
                    max: Some(3),
                }],
                ..Placed::default()
            },
        ],
        every_key_needed: true,
        ..PlaceSpec::default()
    };
    checked(&small().0, &spec).expect("a valid block");
    let problem = Problem::new(&line(), play, &spec).expect("supported");
    for rules in no_placement(&problem) {
        assert_eq!(rules.len(), 1, "{rules:?}");
        assert_eq!(rules[0].kind, RuleKind::Distance(0, 0));
        assert!(
            rules[0].name.contains("distance from lock 5..*"),
            "{}",
            rules[0].name
        );
        let message = PlaceError::NoPlacement { rules }.to_string();
        assert!(
            message.contains("distance from lock 5..* cannot hold"),
            "{message}"
        );
    }
}

/// Two distances that hold apart but not together, and a room that is
/// behind the key's own lock: each conflict names its rules.
#[test]
fn conflicting_rules_are_named_together() {
    let (_, play) = small();
    // Two places from the lock: only the entrance; one from the entrance:
    // anywhere else.
    let spec = PlaceSpec {
        keys: Some(Placed {
            distance: vec![
                Distance {
                    from: Anchor::Lock,
                    min: 2,
                    max: None,
                },
                Distance {
                    from: Anchor::Entrance,
                    min: 1,
                    max: None,
                },
            ],
            ..Placed::default()
        }),
        items: vec![Placed {
            tag: Some("potion".into()),
            count: Some(Count { min: 0, max: 2 }),
            ..Placed::default()
        }],
        ..PlaceSpec::default()
    };
    let problem = Problem::new(&line(), play, &spec).expect("supported");
    for rules in no_placement(&problem) {
        let kinds: Vec<RuleKind> = rules.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, [RuleKind::Distance(0, 0), RuleKind::Distance(0, 1)]);
        let message = PlaceError::NoPlacement { rules }.to_string();
        assert!(
            message.contains("distance from lock 2..*")
                && message.contains("distance from entrance 1..*"),
            "{message}"
        );
    }

    // The key in the locked room or the goal: behind its own lock, where
    // the player never goes and without which the goal cannot be reached.
    let spec = PlaceSpec {
        keys: Some(Placed {
            rooms: vec!["lock".into(), "goal".into()],
            ..Placed::default()
        }),
        ..PlaceSpec::default()
    };
    let problem = Problem::new(&line(), play, &spec).expect("supported");
    for rules in no_placement(&problem) {
        let kinds: Vec<RuleKind> = rules.iter().map(|r| r.kind).collect();
        assert!(
            kinds == [RuleKind::In(0), RuleKind::Completable]
                || kinds == [RuleKind::In(0), RuleKind::Reachable],
            "{rules:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Levels placement refuses
// ---------------------------------------------------------------------------

fn unsupported(play: &PlaySpec, graph: &Graph, spec: &PlaceSpec) -> String {
    match Problem::new(graph, play, spec) {
        Err(PlaceError::Unsupported(why)) => why,
        Ok(_) => panic!("supported"),
        Err(e) => panic!("{e}"),
    }
}

fn play_of(block: &str) -> PlaySpec {
    let src = format!(
        "tags {{ s entrance room goal lock key dkey potion boss }}\nrule start {{ (a:s) => (a:entrance) }}\n{block}"
    );
    grammar::load(&src, "t")
        .unwrap_or_else(|e| panic!("{e}"))
        .play()
        .expect("a play block")
        .clone()
}

/// Small keys, one-way corridors, an entrance or goal placed on a level
/// that has one, a level without one that does not place it, and a
/// locked entrance: `Unsupported`, saying why.
#[test]
fn levels_outside_the_encoding_are_refused() {
    let keys = PlaceSpec {
        keys: Some(Placed::default()),
        ..PlaceSpec::default()
    };
    let (_, play) = small();
    let small_keys = play_of(
        "play {\n  entrance entrance\n  goal goal\n  small key key opens lock\n  directed two_way\n}\n",
    );
    let mut g = line();
    // Keys placed or not, the level's keys are small.
    let why = unsupported(&small_keys, &g, &PlaceSpec::default());
    assert!(why.contains("small keys"), "{why}");
    let one_way = play_of(
        "play {\n  entrance entrance\n  goal goal\n  key key opens lock via ~>\n  directed one_way\n}\n",
    );
    let why = unsupported(&one_way, &g, &keys);
    assert!(why.contains("one-way"), "{why}");
    // Undirected corridors only: `one_way` reads them both ways.
    let mut undirected = Graph::new();
    let e = undirected.add_vertex_named("entrance");
    let goal = undirected.add_vertex_named("goal");
    undirected.connect(e, goal, false);
    assert!(Problem::new(&undirected, &one_way, &keys).is_ok());

    let placed_entrance = PlaceSpec {
        entrance: Some(Placed::default()),
        ..PlaceSpec::default()
    };
    let why = unsupported(play, &g, &placed_entrance);
    assert!(why.contains("has an entrance already"), "{why}");
    let placed_goal = PlaceSpec {
        goal: Some(Placed::default()),
        ..PlaceSpec::default()
    };
    let why = unsupported(play, &g, &placed_goal);
    assert!(why.contains("has a goal already"), "{why}");

    // No entrance, none placed.
    let entrance = g.vertex_ids().next().expect("vertex 0");
    let room = g.tags_mut().intern("room");
    g.set_tag(entrance, room);
    let why = unsupported(play, &g, &PlaceSpec::default());
    assert!(why.contains("no entrance"), "{why}");
    assert!(Problem::new(&g, play, &placed_entrance).is_ok());

    // Two key statements naming the same key tag: a key vertex belongs to
    // the first, so a key placed for the locked door would open nothing.
    let shadowed = play_of(
        "play {\n  entrance entrance\n  goal goal\n  key key opens lock via ~>\n  key key opens -[locked]-\n  directed two_way\n}\n",
    );
    let mut door = Graph::new();
    let e = door.add_vertex_named("entrance");
    let goal = door.add_vertex_named("goal");
    let label = door.labels_mut().intern("locked");
    door.add_edge(Edge {
        source: e,
        target: goal,
        directed: false,
        cosmetic: false,
        label: Some(label),
        length_factor: 1.0,
    });
    let why = unsupported(&shadowed, &door, &keys);
    assert!(
        why.contains("would belong to the `play` block's key statement 1"),
        "{why}"
    );
    // With a tag of its own, the door key is placed, and opens the door.
    let problem = Problem::new(&door, play, &keys).expect("supported");
    let ps = Placer::new(&problem, 1).placements(10).expect("placements");
    assert_eq!(ps.len(), 1, "{ps:?}");
    assert!(violations(&problem, play, &ps[0]).is_empty());

    // A locked entrance.
    let mut locked = line();
    let lock = locked.add_vertex_named("lock");
    assert!(locked.set_parent(lock, Some(VertexId(0))));
    let why = unsupported(play, &locked, &PlaceSpec::default());
    assert!(why.contains("locked room"), "{why}");
}

/// A level too large to encode is refused before the encoding is built,
/// with the estimate and the limit: a line of 301 rooms with 150 locked
/// rooms would unroll 152 phases over 301 zones.
#[test]
fn a_level_too_large_to_encode_is_refused() {
    use levelgraph::graph::Graph;
    use levelgraph::place::{PlaceError, MAX_VARIABLES};
    let text = "grammar \"g\" { start entrance }\ntags { entrance room goal lock key }\nrule r { (a:entrance) => (a) }\nplay { entrance entrance goal goal key key opens lock via ~> directed two_way }\n";
    let g = levelgraph::grammar::load(text, "g").unwrap();
    let mut level = Graph::new();
    let mut last = level.add_vertex_named("entrance");
    for i in 0..300 {
        let tag = match i {
            299 => "goal",
            _ if i % 2 == 0 => "lock",
            _ => "room",
        };
        let v = level.add_vertex_named(tag);
        level.connect(last, v, false);
        last = v;
    }
    let spec = PlaceSpec {
        keys: Some(Placed::default()),
        ..PlaceSpec::default()
    };
    match Problem::new(&level, g.play().unwrap(), &spec) {
        Err(PlaceError::TooLarge { estimated, limit }) => {
            assert_eq!(limit, MAX_VARIABLES);
            assert!(estimated > limit);
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

/// A level with too many ways round its locks for the minimal lock sets
/// (a ladder of seven rungs, each crossable by either of two locked
/// doors: 2^7 sets at its top) falls back to unrolling reachability step
/// by step, and still places and classifies as the reference does.
#[test]
fn many_ways_round_the_locks_fall_back_to_unrolling() {
    let (_, play) = small();
    let mut level = Graph::new();
    let entrance = level.add_vertex_named("entrance");
    let first = level.add_vertex_named("room");
    level.connect(entrance, first, false);
    let locked = level.labels_mut().intern("locked");
    let mut below = first;
    for _ in 0..7 {
        // Two doors from `below` up: straight into `above`, and into a
        // side room open to it.
        let above = level.add_vertex_named("room");
        let side = level.add_vertex_named("room");
        level.connect(side, above, false);
        for target in [above, side] {
            level.add_edge(Edge {
                source: below,
                target,
                directed: false,
                cosmetic: false,
                label: Some(locked),
                length_factor: 1.0,
            });
        }
        below = above;
    }
    let goal = level.add_vertex_named("goal");
    level.connect(below, goal, false);
    let spec = PlaceSpec {
        keys: Some(Placed::default()),
        ..PlaceSpec::default()
    };
    let problem = Problem::new(&level, play, &spec).unwrap_or_else(|e| panic!("{e}"));
    let mut placer = Placer::new(&problem, 1);
    assert!(
        !placer.by_lock_sets(),
        "14 doors in parallel pairs: too many sets"
    );
    assert_eq!(placer.unrolled_by(), Some(TooManyWays::SetsPerZone));
    let placements = placer.placements(20).unwrap_or_else(|e| panic!("{e}"));
    assert!(!placements.is_empty());
    for p in &placements {
        assert_eq!(violations(&problem, play, p), Vec::<String>::new());
    }
    let fast = analyze(&problem).unwrap_or_else(|e| panic!("{e}"));
    let reference = analyze_per_literal(&problem).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(fast.status, reference.status);
}
