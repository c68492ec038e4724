//! The example grammars' `play` blocks hold by construction, and a level's
//! playthrough can be played on its tile map.
//!
//! - Every level an example grammar with a `play` block derives, over
//!   10,000 seeds, is completable, leaves no place unreachable, and comes
//!   with a consistent playthrough: it starts by entering the entrance,
//!   picks up a key before opening a lock with it (a small key once),
//!   opens a room's (or door's) lock before entering through it, and ends
//!   having entered every goal. So `generate` never needs its retries for
//!   these grammars.
//! - Levels of `examples/dungeon-rooms.lg`, laid out and rasterized with
//!   the play objects as `levelgraph generate` does, are walked tile by
//!   tile: locked doors stay shut until a key their `lock` object names
//!   has been picked up, the playthrough replays in order, and the goal is
//!   reached. With a lock's key left out, the tiles shut off exactly what
//!   the report says the lock gates — the goal, for a lock that gates it.
//!   Variants with a locked door instead of a locked room, and with
//!   corridors between the rooms, replay too.
//! - And the checks can fail: a variant of the rooms example with each key
//!   behind its own lock is caught, and so is a playthrough out of order.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use levelgraph::drawing::top_level;
use levelgraph::grammar::{self, CompiledGrammar};
use levelgraph::graph::{Graph, VertexId};
use levelgraph::layout::{edgar, layout, LayoutProblem, LayoutSettings};
use levelgraph::play::{self, Event, LockRef, PlayReport};
use levelgraph::rooms::level_problem;
use levelgraph::tiles::raster::{rasterize, stored_items, RasterSettings};
use levelgraph::tiles::{TileMap, TileObject};

/// Seeds per grammar in the by-construction test. Derivation and check of
/// all six grammars together cost about 5 ms per seed in a debug build,
/// so 10,000 seeds are spread over threads.
const SEEDS: u64 = 10_000;

/// The example grammars with a `play` block, by file stem.
fn play_grammars() -> Vec<(String, CompiledGrammar)> {
    let grammars: Vec<(String, CompiledGrammar)> = crate::common::example_sources()
        .into_iter()
        .map(|(name, text)| {
            let g = grammar::load(&text, &name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            (name, g)
        })
        .filter(|(_, g)| g.play().is_some())
        .collect();
    let names: Vec<&str> = grammars.iter().map(|(n, _)| n.as_str()).collect();
    for expected in [
        "default",
        "dormans2010",
        "dungeon-rooms",
        "graph-grammar-dungeon",
        "grid-dungeon",
        "vaults",
    ] {
        assert!(
            names.contains(&expected),
            "examples/{expected}.lg has keys and locks and should have a play block; with one: {names:?}"
        );
    }
    grammars
}

/// Checks `report`'s playthrough against the report and the graph: it
/// starts by entering the entrance, enters each place from one entered
/// before, picks up a key in its place, opens a lock only with a key
/// picked up that opens it (a small key once), enters a locked room only
/// once its locks are open and crosses a locked door only once it is
/// open, and enters every goal's place. `Err` says what is wrong at which
/// event.
fn check_playthrough(graph: &Graph, report: &PlayReport) -> Result<(), String> {
    let events = &report.playthrough;
    let entrance = report.entrance.ok_or("no entrance")?;
    match events.first() {
        Some(Event::Enter { room, from: None }) if *room == entrance => {}
        other => {
            return Err(format!(
                "the playthrough starts with {other:?}, not with entering entrance {}",
                entrance.0
            ))
        }
    }
    // Locks by the place they lock, and locked doors by their ends' places.
    let mut room_locks: BTreeMap<VertexId, Vec<LockRef>> = BTreeMap::new();
    for l in &report.locks {
        if let Some(room) = l.room {
            room_locks.entry(room).or_default().push(l.lock);
        }
    }
    let locked_doors: BTreeSet<_> = report
        .locks
        .iter()
        .filter_map(|l| match l.lock {
            LockRef::Door(e) => Some(e),
            LockRef::Room(_) => None,
        })
        .collect();
    let key_report = |k: VertexId| report.keys.iter().find(|r| r.key == k);

    let mut entered: BTreeSet<VertexId> = BTreeSet::new();
    let mut picked: BTreeSet<VertexId> = BTreeSet::new();
    let mut spent: BTreeSet<VertexId> = BTreeSet::new();
    let mut opened: BTreeSet<LockRef> = BTreeSet::new();
    for (i, event) in events.iter().enumerate() {
        let at = |what: String| format!("event {i} ({event:?}): {what}");
        match *event {
            Event::Enter { room, from } => {
                if i > 0 {
                    let from = from.ok_or_else(|| at("an entry from nowhere".into()))?;
                    if !entered.contains(&from) {
                        return Err(at(format!("comes from {}, not entered yet", from.0)));
                    }
                    // Through a locked door only once it is open: when
                    // every corridor between the two places is one.
                    let doors: Vec<_> = graph
                        .edges()
                        .filter(|(_, e)| !e.cosmetic)
                        .filter(|(_, e)| {
                            let (a, b) = (top_level(graph, e.source), top_level(graph, e.target));
                            (a, b) == (from, room) || (a, b) == (room, from)
                        })
                        .map(|(id, _)| id)
                        .collect();
                    if doors.is_empty() {
                        return Err(at("no corridor joins the two places".into()));
                    }
                    if doors.iter().all(|d| locked_doors.contains(d))
                        && !doors.iter().any(|d| opened.contains(&LockRef::Door(*d)))
                    {
                        return Err(at("walks through a locked door not yet opened".into()));
                    }
                }
                for lock in room_locks.get(&room).into_iter().flatten() {
                    if !opened.contains(lock) {
                        return Err(at(format!(
                            "enters a locked room before {lock:?} is opened"
                        )));
                    }
                }
                entered.insert(room);
            }
            Event::PickUp { key, room } => {
                let k = key_report(key).ok_or_else(|| at("not a key of the report".into()))?;
                if k.room != room {
                    return Err(at(format!("the key lies in {}", k.room.0)));
                }
                if !entered.contains(&room) {
                    return Err(at("picked up in a place not entered".into()));
                }
                if !picked.insert(key) {
                    return Err(at("picked up twice".into()));
                }
            }
            Event::Open { lock, key } => {
                let k = key_report(key).ok_or_else(|| at("not a key of the report".into()))?;
                if !picked.contains(&key) {
                    return Err(at("opened with a key not picked up yet".into()));
                }
                if !k.opens.contains(&lock) {
                    return Err(at(format!("the key opens {:?}", k.opens)));
                }
                let l = report.locks.iter().find(|l| l.lock == lock);
                if !l.is_some_and(|l| l.keys.contains(&key)) {
                    return Err(at("the lock's report does not name the key".into()));
                }
                if k.small && !spent.insert(key) {
                    return Err(at("a small key used twice".into()));
                }
                opened.insert(lock);
            }
        }
    }
    for &goal in &report.goals {
        let place = top_level(graph, goal);
        if !entered.contains(&place) {
            return Err(format!(
                "the playthrough ends without entering goal {} (place {})",
                goal.0, place.0
            ));
        }
    }
    Ok(())
}

/// What the levels of one grammar over some seeds showed.
#[derive(Default)]
struct Tally {
    derived: u64,
    /// Levels with a lock.
    with_locks: u64,
    /// Levels with a lock that gates the goal.
    gated: u64,
    /// Levels whose playthrough opens a lock.
    with_opens: u64,
    /// Levels that cannot be finished, leave a place unreachable or whose
    /// playthrough is not consistent: `seed N: why`, in seed order.
    failures: Vec<String>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.derived += other.derived;
        self.with_locks += other.with_locks;
        self.gated += other.gated;
        self.with_opens += other.with_opens;
        self.failures.extend(other.failures);
    }
}

/// One level of `g`, checked; `None` when the seed derives no level (its
/// derivation stops short of the size bounds, which `generate` reports).
fn level_tally(g: &CompiledGrammar, seed: u64) -> Option<Tally> {
    let d = levelgraph::derive(g, seed).ok()?;
    let report = play::check(&d.graph, g.play().expect("a play block"));
    let failure = if !report.is_completable() {
        Some(report.verdict_message(&d.graph))
    } else if !report.unreachable.is_empty() {
        let places: Vec<u32> = report.unreachable.iter().map(|v| v.0).collect();
        Some(format!("places no play reaches: {places:?}"))
    } else {
        check_playthrough(&d.graph, &report).err()
    };
    let opens = report
        .playthrough
        .iter()
        .any(|e| matches!(e, Event::Open { .. }));
    Some(Tally {
        derived: 1,
        with_locks: u64::from(!report.locks.is_empty()),
        gated: u64::from(report.locks.iter().any(|l| l.gates_goal)),
        with_opens: u64::from(opens),
        failures: failure
            .map(|f| format!("seed {seed}: {f}"))
            .into_iter()
            .collect(),
    })
}

/// The levels of `g` for seeds `0..seeds`, spread over up to four threads.
fn tally_levels(g: &CompiledGrammar, seeds: u64) -> Tally {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4)) as u64;
    let mut total = Tally::default();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut tally = Tally::default();
                    for seed in (t..seeds).step_by(threads as usize) {
                        if let Some(one) = level_tally(g, seed) {
                            tally.add(one);
                        }
                    }
                    tally
                })
            })
            .collect();
        for h in handles {
            total.add(h.join().expect("a checking thread"));
        }
    });
    total.failures.sort_by_key(|f| {
        f["seed ".len()..]
            .split(':')
            .next()
            .and_then(|n| n.parse::<u64>().ok())
    });
    total
}

/// 10,000 seeds of each of the six grammars: about 50 s of one core in a
/// debug build (derivation most of it), spread over the cores.
#[test]
fn every_level_of_every_example_with_a_play_block_can_be_finished() {
    let mut opens_seen = 0;
    for (name, g) in play_grammars() {
        let tally = tally_levels(&g, SEEDS);
        let derived = tally.derived;
        assert!(
            tally.failures.is_empty(),
            "{name}: {} of {derived} levels fail, e.g.\n{}",
            tally.failures.len(),
            tally.failures[..tally.failures.len().min(10)].join("\n")
        );
        // Not vacuous: most seeds give a level, most levels have a lock,
        // and a level whose goal lies behind a lock opens it on the way
        // (in vaults.lg locks shut side vaults only: nothing to open).
        assert!(
            derived >= SEEDS * 9 / 10,
            "{name}: only {derived} of {SEEDS} seeds derive"
        );
        assert!(
            tally.with_locks >= derived / 2,
            "{name}: only {} of {derived} levels have a lock",
            tally.with_locks
        );
        assert!(
            tally.with_opens >= tally.gated,
            "{name}: {} levels have a lock before the goal, {} playthroughs open one",
            tally.gated,
            tally.with_opens
        );
        opens_seen += tally.with_opens;
    }
    assert!(opens_seen > 0, "some playthrough opens a lock");
}

/// The test above can fail: with the key hung off the room *after* its
/// lock, levels of the rooms example cannot be finished, and the tally
/// says so by seed and reason.
#[test]
fn a_key_behind_its_own_lock_is_caught() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/dungeon-rooms.lg"
    ))
    .unwrap();
    let broken = src.replacen(
        "(a) -> (l:lock) -> (b), (a) -> (k:key), (k) ~> (l)",
        "(a) -> (l:lock) -> (b), (b) -> (k:key), (k) ~> (l)",
        1,
    );
    assert_ne!(broken, src);
    let g = grammar::load(&broken, "key behind its lock").unwrap();
    let tally = tally_levels(&g, 200);
    assert!(
        tally.failures.len() as u64 >= tally.derived / 2,
        "{} of {} levels fail",
        tally.failures.len(),
        tally.derived
    );
    assert!(
        tally.failures[0].contains("lies behind")
            && tally.failures[0].contains("the lock it opens"),
        "{}",
        tally.failures[0]
    );
}

/// The playthrough check can fail: a playthrough of a rooms level with
/// its events out of order, or cut short, is refused.
#[test]
fn a_playthrough_out_of_order_is_refused() {
    let g = dungeon_rooms();
    let (graph, report) = (1..)
        .find_map(|seed| {
            let d = levelgraph::derive(&g, seed).ok()?;
            let r = play::check_level(&g, &d.graph)?;
            r.locks.iter().any(|l| l.gates_goal).then_some((d.graph, r))
        })
        .unwrap();
    assert_eq!(check_playthrough(&graph, &report), Ok(()));
    let events = &report.playthrough;
    let position = |f: &dyn Fn(&Event) -> bool| events.iter().position(f).unwrap();
    let open = position(&|e| matches!(e, Event::Open { .. }));
    let Event::Open { lock, key } = events[open] else {
        unreachable!()
    };
    let pick = position(&|e| matches!(e, Event::PickUp { key: k, .. } if *k == key));
    let LockRef::Room(locked) = lock else {
        panic!("the rooms example locks rooms")
    };
    let enter = position(&|e| matches!(e, Event::Enter { room, .. } if *room == locked));
    let with = |f: &dyn Fn(&mut Vec<Event>)| {
        let mut r = report.clone();
        f(&mut r.playthrough);
        check_playthrough(&graph, &r)
    };
    // Opened before the key is picked up.
    let err = with(&|p| {
        let e = p.remove(open);
        p.insert(pick, e);
    })
    .unwrap_err();
    assert!(err.contains("a key not picked up yet"), "{err}");
    // The locked room entered before its lock is opened.
    let err = with(&|p| {
        p.remove(open);
    })
    .unwrap_err();
    assert!(err.contains("enters a locked room before"), "{err}");
    assert!(enter > open);
    // Not starting at the entrance; stopping short of the goal.
    let err = with(&|p| {
        p.remove(0);
    })
    .unwrap_err();
    assert!(err.contains("not with entering entrance"), "{err}");
    let goal = report.goals[0];
    let at_goal = position(&|e| matches!(e, Event::Enter { room, .. } if *room == goal));
    let err = with(&|p| p.truncate(at_goal)).unwrap_err();
    assert!(err.contains("without entering goal"), "{err}");
}

// ------------------------------------------------------------ tile maps

fn dungeon_rooms() -> CompiledGrammar {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/dungeon-rooms.lg"
    );
    grammar::load(&std::fs::read_to_string(path).unwrap(), "dungeon-rooms.lg").unwrap()
}

/// A level of `g` laid out and rasterized as `levelgraph generate` does
/// with a play block: the block's raster settings without the tag
/// objects, and the play objects in their place. `None` when the layout
/// fails (the layout's own benchmark reports its rare failures).
fn played_level(
    g: &CompiledGrammar,
    seed: u64,
) -> Option<(Graph, PlayReport, LayoutProblem, TileMap)> {
    let spec = g.model().rooms.clone().expect("a rooms block");
    let d = levelgraph::derive(g, seed).expect("derivation");
    let report = play::check_level(g, &d.graph).expect("a play block");
    let problem = level_problem(&d.graph, &spec, &edgar::RoomSets::new()).unwrap();
    let (l, _) = layout(&problem, seed, &LayoutSettings::default()).ok()?;
    let mut settings = RasterSettings::for_rooms(&spec);
    settings.objects.clear();
    let items = play::tile_items(
        &report,
        &d.graph,
        &problem,
        stored_items(&d.graph, &problem),
    );
    let map = rasterize(&problem, &l, &items, &settings, seed)
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    Some((d.graph, report, problem, map))
}

fn property<'o>(o: &'o TileObject, name: &str) -> Option<&'o str> {
    o.properties
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn list(value: Option<&str>) -> Vec<String> {
    value
        .unwrap_or("")
        .split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A lock on the tile map: the keys its objects name and the cells of the
/// doors they stand on.
struct TileLock {
    keys: Vec<String>,
    cells: Vec<usize>,
}

/// A tile map read as a player reads it, from its objects only.
struct TileWalk<'m> {
    map: &'m TileMap,
    entrance: usize,
    goal: usize,
    /// Key objects: name → cell.
    keys: BTreeMap<String, usize>,
    /// Lock objects by name.
    locks: BTreeMap<String, TileLock>,
}

impl<'m> TileWalk<'m> {
    fn new(map: &'m TileMap, what: &str) -> Self {
        let cell = |o: &TileObject| map.index(o.cell[0], o.cell[1]);
        let only = |kind: &str| {
            let found: Vec<&TileObject> = map.objects.iter().filter(|o| o.kind == kind).collect();
            assert_eq!(found.len(), 1, "{what}: one {kind} object");
            cell(found[0])
        };
        let (entrance, goal) = (only("entrance"), only("goal"));
        let mut keys = BTreeMap::new();
        let mut locks: BTreeMap<String, TileLock> = BTreeMap::new();
        for o in &map.objects {
            match o.kind.as_str() {
                "key" => {
                    let before = keys.insert(o.name.clone(), cell(o));
                    assert!(before.is_none(), "{what}: key {} placed twice", o.name);
                }
                "lock" => {
                    let door = map
                        .doors
                        .iter()
                        .find(|d| d.cells.contains(o.cell[0], o.cell[1]))
                        .unwrap_or_else(|| {
                            panic!("{what}: lock {} at {:?} is on no door", o.name, o.cell)
                        });
                    let r = door.cells;
                    let lock = locks.entry(o.name.clone()).or_insert_with(|| TileLock {
                        keys: list(property(o, "key")),
                        cells: Vec::new(),
                    });
                    assert_eq!(
                        lock.keys,
                        list(property(o, "key")),
                        "{what}: the objects of lock {} name the same keys",
                        o.name
                    );
                    for y in r.y..r.bottom() {
                        for x in r.x..r.right() {
                            lock.cells.push(map.index(x, y));
                        }
                    }
                }
                _ => {}
            }
        }
        // Keys and locks name each other.
        for o in map.objects.iter().filter(|o| o.kind == "key") {
            for l in list(property(o, "opens")) {
                let lock = locks
                    .get(&l)
                    .unwrap_or_else(|| panic!("{what}: key {} opens {l}, not on the map", o.name));
                assert!(
                    lock.keys.contains(&o.name),
                    "{what}: lock {l} omits key {}",
                    o.name
                );
            }
        }
        for (name, lock) in &locks {
            assert!(!lock.keys.is_empty(), "{what}: lock {name} names no key");
            for k in &lock.keys {
                assert!(
                    keys.contains_key(k),
                    "{what}: lock {name}'s key {k} is not on the map"
                );
            }
        }
        TileWalk {
            map,
            entrance,
            goal,
            keys,
            locks,
        }
    }

    /// The cells reached from the entrance over 4-connected passable
    /// tiles, holding `held`: a lock's door cells are passable once a key
    /// it names is held.
    fn reach(&self, held: &BTreeSet<String>) -> Vec<bool> {
        let map = self.map;
        let mut shut = vec![false; map.cells.len()];
        for lock in self.locks.values() {
            if !lock.keys.iter().any(|k| held.contains(k)) {
                for &c in &lock.cells {
                    shut[c] = true;
                }
            }
        }
        let mut reached = vec![false; map.cells.len()];
        let mut queue = VecDeque::from([self.entrance]);
        reached[self.entrance] = true;
        let (w, h) = (map.width as usize, map.height as usize);
        while let Some(c) = queue.pop_front() {
            let (x, y) = (c % w, c / w);
            let mut next = Vec::with_capacity(4);
            if x > 0 {
                next.push(c - 1);
            }
            if x + 1 < w {
                next.push(c + 1);
            }
            if y > 0 {
                next.push(c - w);
            }
            if y + 1 < h {
                next.push(c + w);
            }
            for n in next {
                if !reached[n] && !shut[n] && map.cells[n].is_passable() {
                    reached[n] = true;
                    queue.push_back(n);
                }
            }
        }
        reached
    }

    /// A player's free walk: pick up every key reached (but `missing`),
    /// until no new key is reached. The cells reached at the end.
    fn explore(&self, missing: &[String]) -> Vec<bool> {
        let mut held = BTreeSet::new();
        loop {
            let reached = self.reach(&held);
            let new: Vec<String> = self
                .keys
                .iter()
                .filter(|(k, &c)| reached[c] && !held.contains(*k) && !missing.contains(k))
                .map(|(k, _)| k.clone())
                .collect();
            if new.is_empty() {
                return reached;
            }
            held.extend(new);
        }
    }
}

/// The floor cells of room `i`: passable cells whose centres lie inside
/// its outline.
fn floor(map: &TileMap, i: usize) -> Vec<usize> {
    let room = &map.rooms[i];
    let outline = &room.outline;
    let b = room.bounds;
    let mut out = Vec::new();
    for y in b.y..b.bottom() {
        for x in b.x..b.right() {
            // Ray to the right from the centre (2x+1, 2y+1), doubled.
            let (px, py) = (2 * i64::from(x) + 1, 2 * i64::from(y) + 1);
            let crossings = (0..outline.len())
                .filter(|&j| {
                    let (a, c) = (outline[j], outline[(j + 1) % outline.len()]);
                    let (ax, ay, cy) = (
                        2 * i64::from(a[0]),
                        2 * i64::from(a[1]),
                        2 * i64::from(c[1]),
                    );
                    a[0] == c[0] && ax > px && ay.min(cy) < py && py < ay.max(cy)
                })
                .count();
            if crossings % 2 == 1 && map.get(x.into(), y.into()).is_some_and(|t| t.is_passable()) {
                out.push(map.index(x, y));
            }
        }
    }
    out
}

fn lock_name(graph: &Graph, lock: LockRef) -> String {
    match lock {
        LockRef::Room(v) => v.0.to_string(),
        LockRef::Door(e) => {
            let e = graph.edge(e).expect("a live corridor");
            format!("{}-{}", e.source.0, e.target.0)
        }
    }
}

/// Replays `report`'s playthrough on the tile map: every key picked up
/// where the walk reaches it, every lock opened with a key held and its
/// door then reached, every room entered has reached floor, and the goal
/// is reached at the end.
fn replay(
    graph: &Graph,
    report: &PlayReport,
    problem: &LayoutProblem,
    walk: &TileWalk<'_>,
    what: &str,
) {
    let map = walk.map;
    let room_of = |v: VertexId| {
        problem
            .rooms
            .iter()
            .position(|r| r.name == v.0.to_string())
            .unwrap_or_else(|| panic!("{what}: place {} has no room", v.0))
    };
    let mut held: BTreeSet<String> = BTreeSet::new();
    let mut reached = walk.reach(&held);
    for (i, event) in report.playthrough.iter().enumerate() {
        let at = format!("{what}, event {i} {event:?}");
        match *event {
            Event::Enter { room, .. } => {
                let cells = floor(map, room_of(room));
                assert!(!cells.is_empty(), "{at}: the room has floor");
                assert!(
                    cells.iter().any(|&c| reached[c]),
                    "{at}: no floor of the room is reached"
                );
            }
            Event::PickUp { key, .. } => {
                let name = key.0.to_string();
                let &c = walk
                    .keys
                    .get(&name)
                    .unwrap_or_else(|| panic!("{at}: no key object {name}"));
                assert!(reached[c], "{at}: the key's tile is not reached");
                held.insert(name);
                reached = walk.reach(&held);
            }
            Event::Open { lock, key } => {
                let (name, key) = (lock_name(graph, lock), key.0.to_string());
                let l = walk
                    .locks
                    .get(&name)
                    .unwrap_or_else(|| panic!("{at}: no lock object {name}"));
                assert!(held.contains(&key), "{at}: the key is not held");
                assert!(
                    l.keys.contains(&key),
                    "{at}: the lock's objects do not name key {key}"
                );
                assert!(
                    l.cells.iter().any(|&c| reached[c]),
                    "{at}: no door of the lock is reached with its key held"
                );
            }
        }
    }
    assert!(
        reached[walk.goal],
        "{what}: the goal's tile is not reached after the playthrough"
    );
}

/// Levels laid out, shut off by a missing key's lock: the goal, and other
/// rooms.
#[derive(Default)]
struct TileTally {
    levels: usize,
    shut_goal: usize,
    shut_rooms: usize,
}

/// Every level of `g` over `seeds` laid out, rasterized with its play
/// objects, and walked on its tiles (see the module docs).
fn walk_levels(g: &CompiledGrammar, name: &str, seeds: impl IntoIterator<Item = u64>) -> TileTally {
    let mut tally = TileTally::default();
    for seed in seeds {
        let Some((graph, report, problem, map)) = played_level(g, seed) else {
            continue;
        };
        tally.levels += 1;
        let what = format!("{name} seed {seed}");
        assert!(
            report.is_completable(),
            "{what}: {}",
            report.verdict_message(&graph)
        );
        let walk = TileWalk::new(&map, &what);
        assert_eq!(
            walk.keys.len(),
            report.keys.len(),
            "{what}: a key object per key"
        );
        assert_eq!(
            walk.locks.len(),
            report.locks.len(),
            "{what}: lock objects per lock"
        );
        assert_eq!(
            map.objects
                .iter()
                .find(|o| o.kind == "entrance")
                .map(|o| o.name.clone()),
            report.entrance.map(|v| v.0.to_string()),
            "{what}"
        );
        replay(&graph, &report, &problem, &walk, &what);

        // Walking freely, every room's floor and the goal are reached.
        let all = walk.explore(&[]);
        assert!(all[walk.goal], "{what}: the free walk misses the goal");
        for i in 0..map.rooms.len() {
            assert!(
                floor(&map, i).iter().any(|&c| all[c]),
                "{what}: room {} is not reached",
                map.rooms[i].name
            );
        }

        // The converse: without a lock's keys, the tiles shut off what the
        // report says the lock gates, and nothing else. (Each key of this
        // grammar opens one lock.)
        for lock in &report.locks {
            let name = lock_name(&graph, lock.lock);
            let keys = &walk.locks[&name].keys;
            for k in &report.keys {
                if keys.contains(&k.key.0.to_string()) {
                    assert_eq!(
                        k.opens,
                        [lock.lock],
                        "{what}: key {} opens one lock",
                        k.key.0
                    );
                }
            }
            let reached = walk.explore(keys);
            assert_eq!(
                reached[walk.goal], !lock.gates_goal,
                "{what}: without the keys of lock {name} (gates the goal: {}), the goal's tile is reached: {}",
                lock.gates_goal, reached[walk.goal]
            );
            for (i, room) in problem.rooms.iter().enumerate() {
                let v = VertexId(room.name.parse().expect("rooms named by vertex id"));
                let gated = lock.room == Some(v) || lock.gates_rooms.contains(&v);
                let floor_reached = floor(&map, i).iter().any(|&c| reached[c]);
                assert_eq!(
                    floor_reached, !gated,
                    "{what}: without the keys of lock {name}, room {} is reached: {floor_reached}",
                    room.name
                );
            }
            tally.shut_goal += usize::from(lock.gates_goal);
            tally.shut_rooms += lock.gates_rooms.len();
        }
    }
    tally
}

#[test]
fn playthroughs_replay_on_the_tile_maps_of_the_rooms_example() {
    // 40 levels cost about 10 s in a debug build, most of it a few slow
    // layouts.
    let TileTally {
        levels,
        shut_goal,
        shut_rooms,
    } = walk_levels(&dungeon_rooms(), "dungeon-rooms", 1..=40);
    assert!(levels >= 36, "only {levels} of 40 levels were laid out");
    assert!(
        shut_goal > 0,
        "some lock gates the goal, so a missing key keeps it out of reach"
    );
    assert!(shut_rooms > 0, "some lock gates rooms besides its own");
}

/// The rooms example, optionally with a locked door instead of a locked
/// room (any key opens it; one per level) and with corridors between the
/// rooms.
fn rooms_variant(locked_door: bool, corridors: bool) -> CompiledGrammar {
    let mut src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/dungeon-rooms.lg"
    ))
    .unwrap();
    let mut edit = |from: &str, to: &str| {
        assert!(
            src.contains(from),
            "dungeon-rooms.lg no longer has {from:?}"
        );
        src = src.replacen(from, to, 1);
    };
    if locked_door {
        edit(
            "rule key_lock weight 2 max_uses 2 {\n  (a:room) -> (b:room|goal !lock)\n  =>\n  (a) -> (l:lock) -> (b), (a) -> (k:key), (k) ~> (l)\n}",
            "rule key_lock weight 2 max_uses 1 {\n  (a:room) -> (b:room|goal)\n  =>\n  (a) -[locked]-> (b), (a) -> (k:key)\n}",
        );
        edit("key key opens lock via ~>", "key key opens -[locked]->");
    }
    if corridors {
        edit(
            "  set basic:",
            "  template cor (0,0) (2,0) (2,4) (0,4) doors (0,0) (2,0), (0,4) (2,4)\n  corridors: cor\n  set basic:",
        );
    }
    grammar::load(&src, "rooms variant").unwrap()
}

/// A locked door instead of a locked room: the `lock` object stands on the
/// door between the two rooms, and the walk passes it only with the key.
#[test]
fn a_locked_door_replays_on_the_tile_map() {
    // Seeds past 5, whose layout alone takes 7 s in a debug build.
    let tally = walk_levels(&rooms_variant(true, false), "locked door", 6..=15);
    assert!(
        tally.levels >= 8,
        "only {} of 10 levels were laid out",
        tally.levels
    );
    assert!(tally.shut_goal > 0, "some locked door gates the goal");
}

/// With corridors between the rooms, a locked room's lock objects stand on
/// its doors into the corridors, and a locked door's on the door from its
/// first room into the corridor. (The lock object of a locked door was
/// missing: it was looked for on a door naming both rooms, and a door
/// into a corridor names one.)
#[test]
fn locks_replay_on_tile_maps_with_corridors() {
    for (locked_door, name) in [(false, "corridors"), (true, "corridors, locked door")] {
        // Not seed 5: the locked-door level is not laid out before the
        // layout's time limit, 20 s.
        let seeds = (1..=11).filter(|&s| s != 5);
        let tally = walk_levels(&rooms_variant(locked_door, true), name, seeds);
        assert!(
            tally.levels >= 8,
            "{name}: only {} of 10 levels were laid out",
            tally.levels
        );
        assert!(tally.shut_goal > 0, "{name}: some lock gates the goal");
    }
}
