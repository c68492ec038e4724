//! The playability checker (`levelgraph::play`) against hand-made levels,
//! and the `play` block's parse and compile errors.
//!
//! Each level is the whole right-hand side of a one-rule grammar's start
//! rule, so it reads as the level it is. The start vertex is replaced, so
//! the level's vertices get ids 1, 2, … in the order they are first
//! written; every level names them `v1`, `v2`, … in that order, and
//! [`level`] checks that the names and ids agree, so that `v(3)` in an
//! assertion is the vertex written `v3`.

use levelgraph::diagnostic::{Diagnostic, Location};
use levelgraph::grammar::play::{Directed, KeyLink, LockSpec};
use levelgraph::grammar::{self, CompiledGrammar, Grammar};
use levelgraph::graph::{EdgeId, Graph, VertexId};
use levelgraph::play::{self, Event, LockRef, PlayReport, Reason, Verdict, Wait};

use crate::common;

const TAGS: &str = "tags {\n  s \"start\"\n  entrance \"entrance\"\n  room \"room\"\n  goal \"goal\"\n  key \"key\"\n  lock \"locked room\"\n  n \"not a place\"\n}\n";

fn v(n: u32) -> VertexId {
    VertexId(n)
}

/// The level `body` (a start rule's right-hand side, vertices named `v1`,
/// `v2`, … in order) under the play block `play` (its statements, one a
/// line): the mission graph and the compiled grammar.
fn level(body: &str, play: &str) -> (Graph, CompiledGrammar) {
    let src = format!("{TAGS}rule start {{\n  (a:s) => {body}\n}}\nplay {{\n{play}\n}}\n");
    let g = grammar::load(&src, "play-test").unwrap_or_else(|e| panic!("{e}\n{src}"));
    let d = levelgraph::derive(&g, 0).expect("the start rule derives");
    let graph = d.graph;
    // The names `vN` in the order first written must be 1, 2, … and the
    // graph's ids exactly those.
    let mut names: Vec<u32> = Vec::new();
    for part in body.split("(v").skip(1) {
        let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
        let n: u32 = digits.parse().expect("vertices are named vN");
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let expected: Vec<u32> = (1..=names.len() as u32).collect();
    assert_eq!(names, expected, "name the vertices v1, v2, … in order");
    let ids: Vec<u32> = graph.vertex_ids().map(|x| x.0).collect();
    assert_eq!(ids, expected, "vertex ids follow the order written");
    (graph, g)
}

/// [`level`], checked.
fn check(body: &str, play: &str) -> (Graph, PlayReport) {
    let (graph, g) = level(body, play);
    let report = play::check(&graph, g.play().expect("a play block"));
    (graph, report)
}

/// The reason of an unfinishable level, and its message.
#[track_caller]
fn unfinishable(graph: &Graph, report: &PlayReport) -> (Reason, String) {
    match &report.verdict {
        Verdict::Unfinishable(reason) => (reason.clone(), reason.message(graph)),
        other => panic!("expected unfinishable, got {other:?}"),
    }
}

/// The edge between `a` and `b` (either way).
fn edge_between(graph: &Graph, a: u32, b: u32) -> EdgeId {
    graph
        .edges()
        .find(|(_, e)| {
            !e.cosmetic
                && ((e.source == v(a) && e.target == v(b))
                    || (e.source == v(b) && e.target == v(a)))
        })
        .map(|(id, _)| id)
        .expect("an edge between them")
}

/// A completable report's playthrough is a play: it starts at the
/// entrance, enters each place once from a place already entered, picks
/// up a key only in the place just entered, opens a lock only with a key
/// picked up before and enters a locked room or crosses a locked door only
/// once it is open; it ends on entering the last goal's place.
#[track_caller]
fn assert_plays(graph: &Graph, report: &PlayReport) {
    assert_eq!(report.verdict, Verdict::Completable);
    let place = |x: VertexId| {
        let mut at = x;
        while let Some(p) = graph.parent(at) {
            at = p;
        }
        at
    };
    let mut entered: Vec<VertexId> = Vec::new();
    let mut held: Vec<VertexId> = Vec::new();
    let mut opened: Vec<LockRef> = Vec::new();
    let mut here = None;
    for (i, event) in report.playthrough.iter().enumerate() {
        match *event {
            Event::Enter { room, from } => {
                assert!(
                    !entered.contains(&room),
                    "event {i}: {room:?} entered twice"
                );
                match from {
                    None => assert_eq!(Some(room), report.entrance.map(place), "event {i}"),
                    Some(f) => assert!(entered.contains(&f), "event {i}: from {f:?}"),
                }
                for l in &report.locks {
                    // The player starts in the entrance, locked or not.
                    if l.room == Some(room) && from.is_some() {
                        assert!(opened.contains(&l.lock), "event {i}: {room:?} still locked");
                    }
                    if let (LockRef::Door(e), Some(f)) = (l.lock, from) {
                        let edge = graph.edge(e).unwrap();
                        let ends = [place(edge.source), place(edge.target)];
                        if ends.contains(&f) && ends.contains(&room) {
                            assert!(opened.contains(&l.lock), "event {i}: door {e:?} shut");
                        }
                    }
                }
                entered.push(room);
                here = Some(room);
            }
            Event::PickUp { key, room } => {
                assert_eq!(Some(room), here, "event {i}: picked up elsewhere");
                assert_eq!(place(key), room, "event {i}");
                held.push(key);
            }
            Event::Open { lock, key } => {
                assert!(held.contains(&key), "event {i}: {key:?} not picked up yet");
                let k = report.keys.iter().find(|k| k.key == key).unwrap();
                assert!(
                    k.opens.contains(&lock),
                    "event {i}: {key:?} does not open {lock:?}"
                );
                assert!(!opened.contains(&lock), "event {i}: opened twice");
                opened.push(lock);
            }
        }
    }
    for &g in &report.goals {
        assert!(entered.contains(&place(g)), "goal {g:?} not reached");
    }
    let last = report.playthrough.iter().rev().find_map(|e| match e {
        Event::Enter { room, .. } => Some(*room),
        _ => None,
    });
    assert!(
        last.is_some_and(|r| report.goals.iter().any(|&g| place(g) == r)),
        "the playthrough ends at a goal: {:?}",
        report.playthrough
    );
}

const BASIC: &str = "entrance entrance\ngoal goal";

// ---------------------------------------------------------------------------
// Completable levels
// ---------------------------------------------------------------------------

#[test]
fn a_corridor_to_the_goal_is_completable_with_its_playthrough() {
    let (graph, report) = check("(v1:entrance) -- (v2:room) -- (v3:goal)", BASIC);
    assert_eq!(report.verdict, Verdict::Completable);
    assert_eq!(report.entrance, Some(v(1)));
    assert_eq!(report.goals, vec![v(3)]);
    assert_eq!(
        report.playthrough,
        vec![
            Event::Enter {
                room: v(1),
                from: None
            },
            Event::Enter {
                room: v(2),
                from: Some(v(1))
            },
            Event::Enter {
                room: v(3),
                from: Some(v(2))
            },
        ]
    );
    assert!(report.keys.is_empty() && report.locks.is_empty());
    assert!(report.unreachable.is_empty());
    assert_eq!(report.searched, None);
    assert_eq!(
        report.verdict_message(&graph),
        "completable: 3 steps to the goal"
    );
    assert_plays(&graph, &report);
}

#[test]
fn a_kept_key_is_picked_up_before_its_lock_is_opened() {
    // entrance 1 -- room 2 -- lock 3 -- goal 4; key 5 hangs off room 2 and
    // names lock 3 with a cosmetic edge.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room) -- (v3:lock) -- (v4:goal), (v2) -- (v5:key), (v5) ~> (v3)",
        &format!("{BASIC}\nkey key opens lock via ~>"),
    );
    assert_plays(&graph, &report);
    let pick = report
        .playthrough
        .iter()
        .position(|e| {
            *e == Event::PickUp {
                key: v(5),
                room: v(5),
            }
        })
        .expect("key 5 is picked up");
    let open = report
        .playthrough
        .iter()
        .position(|e| {
            *e == Event::Open {
                lock: LockRef::Room(v(3)),
                key: v(5),
            }
        })
        .expect("lock 3 is opened with key 5");
    let enter = report
        .playthrough
        .iter()
        .position(|e| matches!(e, Event::Enter { room, .. } if *room == v(3)))
        .unwrap();
    assert!(pick < open && open < enter, "{:?}", report.playthrough);
    assert_eq!(report.keys.len(), 1);
    assert_eq!(report.keys[0].opens, vec![LockRef::Room(v(3))]);
    assert!(!report.keys[0].small);
    assert_eq!(report.locks.len(), 1);
    assert_eq!(report.locks[0].keys, vec![v(5)]);
    assert_eq!(report.locks[0].room, Some(v(3)));
}

#[test]
fn a_key_stored_in_a_room_lies_in_that_room() {
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room) -- (v3:lock) -- (v4:goal), (v5:key) in (v2), (v5) ~> (v3)",
        &format!("{BASIC}\nkey key opens lock via ~>"),
    );
    assert_plays(&graph, &report);
    assert_eq!(report.keys[0].room, v(2));
    assert!(report.playthrough.contains(&Event::PickUp {
        key: v(5),
        room: v(2)
    }));
    // The key is no place of its own.
    assert!(!report
        .playthrough
        .iter()
        .any(|e| matches!(e, Event::Enter { room, .. } if *room == v(5))));
}

#[test]
fn a_lock_stored_in_a_room_locks_that_room() {
    // Room 3 holds lock 6: it is locked, and key 5 (stored in room 2)
    // opens it.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room) -- (v3:room) -- (v4:goal), (v5:key) in (v2), (v6:lock) in (v3)",
        &format!("{BASIC}\nkey key opens lock"),
    );
    assert_plays(&graph, &report);
    assert_eq!(report.locks[0].lock, LockRef::Room(v(6)));
    assert_eq!(report.locks[0].room, Some(v(3)));
    assert!(report.locks[0].gates_goal);
    // Without the key the stored lock keeps the goal shut.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room) -- (v3:room) -- (v4:goal), (v5:lock) in (v3)",
        &format!("{BASIC}\nkey key opens lock"),
    );
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(
        reason,
        Reason::LockWithoutKey {
            lock: LockRef::Room(v(5)),
            before: v(4)
        }
    );
    assert_eq!(message, "goal 4 lies behind lock 5, which no key opens");
}

#[test]
fn a_locked_door_opens_with_its_key() {
    // entrance 1 -- room 2 -[locked]- goal 3, key 4 in room 2.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room) -[locked]- (v3:goal), (v4:key) in (v2)",
        &format!("{BASIC}\nkey key opens -[locked]-"),
    );
    assert_plays(&graph, &report);
    let door = edge_between(&graph, 2, 3);
    assert_eq!(report.locks.len(), 1);
    assert_eq!(report.locks[0].lock, LockRef::Door(door));
    assert_eq!(report.locks[0].room, None);
    assert_eq!(report.locks[0].keys, vec![v(4)]);
    assert!(report.locks[0].gates_goal);
    assert!(report.playthrough.contains(&Event::Open {
        lock: LockRef::Door(door),
        key: v(4)
    }));
    assert_eq!(
        play::lock_name(&graph, LockRef::Door(door)),
        "the locked door room 2 -- goal 3"
    );
    // With the key behind the door, the door is its own key's lock.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room) -[locked]- (v3:goal), (v4:key) in (v3)",
        &format!("{BASIC}\nkey key opens -[locked]-"),
    );
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(reason.code(), "key_behind_own_lock");
    assert_eq!(
        message,
        "key 4 lies behind the locked door room 2 -- goal 3, the lock it opens (path entrance 1 → room 2 → goal 3)"
    );
}

#[test]
fn one_key_opens_several_locks_through_a_shared_attribute() {
    // The red key opens both red locks; the blue lock needs the blue key.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room) -- (v3:lock {color: red}) -- (v4:lock {color: red}) -- (v5:lock {color: blue}) -- (v6:goal), (v7:key {color: red}) in (v1), (v8:key {color: blue}) in (v4)",
        &format!("{BASIC}\nkey key opens lock via same color"),
    );
    assert_plays(&graph, &report);
    let red = &report.keys[0];
    assert_eq!(red.key, v(7));
    assert_eq!(
        red.opens,
        vec![LockRef::Room(v(3)), LockRef::Room(v(4))],
        "the red key opens both red locks"
    );
    assert_eq!(report.keys[1].opens, vec![LockRef::Room(v(5))]);
    assert_eq!(report.locks[2].keys, vec![v(8)]);
    // Without the blue key the blue lock is a lock without a key.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room) -- (v3:lock {color: red}) -- (v4:lock {color: red}) -- (v5:lock {color: blue}) -- (v6:goal), (v7:key {color: red}) in (v1)",
        &format!("{BASIC}\nkey key opens lock via same color"),
    );
    let (_, message) = unfinishable(&graph, &report);
    assert_eq!(message, "goal 6 lies behind lock 5, which no key opens");
}

#[test]
fn one_key_opens_several_locks_through_several_link_edges() {
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock) -- (v3:lock) -- (v4:goal), (v5:key) in (v1), (v5) ~> (v2), (v5) ~> (v3)",
        &format!("{BASIC}\nkey key opens lock via ~>"),
    );
    assert_plays(&graph, &report);
    assert_eq!(
        report.keys[0].opens,
        vec![LockRef::Room(v(2)), LockRef::Room(v(3))]
    );
    // A link the wrong way round (lock ~> key) names nothing.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock) -- (v3:lock) -- (v4:goal), (v5:key) in (v1), (v5) ~> (v2), (v3) ~> (v5)",
        &format!("{BASIC}\nkey key opens lock via ~>"),
    );
    assert_eq!(report.keys[0].opens, vec![LockRef::Room(v(2))]);
    let (_, message) = unfinishable(&graph, &report);
    assert_eq!(message, "goal 4 lies behind lock 3, which no key opens");
}

#[test]
fn a_labelled_link_edge_names_the_lock() {
    // `via -[opens]->`: only a corridor labelled `opens` from the key to
    // the lock names it; the labelled edge is a corridor too.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:key) -[opens]-> (v3:lock) -- (v4:goal), (v5:key) -- (v1), (v5) ~> (v3)",
        &format!("{BASIC}\nkey key opens lock via -[opens]->"),
    );
    assert_plays(&graph, &report);
    assert_eq!(report.keys[0].key, v(2));
    assert_eq!(report.keys[0].opens, vec![LockRef::Room(v(3))]);
    assert_eq!(
        report.keys[1].opens,
        vec![],
        "an unlabelled link names nothing"
    );
    assert_eq!(report.locks[0].keys, vec![v(2)]);
}

#[test]
fn via_same_pairs_keys_and_locks_by_value() {
    // A key opens only the locks of its own colour; a key without the
    // attribute opens nothing.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock {color: blue}) -- (v3:goal), (v1) -- (v4:lock {color: red}) -- (v5:key {color: blue}), (v6:key {color: red}) in (v1), (v7:key) in (v1)",
        &format!("{BASIC}\nkey key opens lock via same color"),
    );
    assert_plays(&graph, &report);
    let opens = |k: u32| {
        report
            .keys
            .iter()
            .find(|r| r.key == v(k))
            .unwrap()
            .opens
            .clone()
    };
    assert_eq!(opens(5), vec![LockRef::Room(v(2))]);
    assert_eq!(opens(6), vec![LockRef::Room(v(4))]);
    assert_eq!(opens(7), vec![]);
    // The playthrough must fetch the blue key behind the red lock first.
    let enter = |r: u32| {
        report
            .playthrough
            .iter()
            .position(|e| matches!(e, Event::Enter { room, .. } if *room == v(r)))
            .unwrap()
    };
    assert!(enter(4) < enter(5) && enter(5) < enter(2));
}

#[test]
fn the_first_matching_statement_owns_a_key() {
    // Key 5 is red: the first statement takes it (and it opens only the
    // red lock 2). The plain key 6 falls to the second statement, which
    // opens every lock, the stored lock 7 of room 3 too.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock {color: red}) -- (v3:room) -- (v4:goal), (v5:key {color: red}) in (v1), (v6:key) in (v1), (v7:lock) in (v3)",
        &format!("{BASIC}\nkey key {{color: red}} opens lock via same color\nkey key opens lock"),
    );
    assert_plays(&graph, &report);
    let red = report.keys.iter().find(|k| k.key == v(5)).unwrap();
    assert_eq!(red.opens, vec![LockRef::Room(v(2))]);
    let plain = report.keys.iter().find(|k| k.key == v(6)).unwrap();
    assert_eq!(plain.opens, vec![LockRef::Room(v(2)), LockRef::Room(v(7))]);
}

#[test]
fn every_goal_must_be_reached() {
    // Two goals: the second lies behind a lock without a key.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:goal), (v1) -- (v3:lock) -- (v4:goal)",
        &format!("{BASIC}\nkey key opens lock"),
    );
    let (_, message) = unfinishable(&graph, &report);
    assert_eq!(message, "goal 4 lies behind lock 3, which no key opens");
    // A goal stored in a room is reached in that room.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room) -- (v3:room), (v4:goal) in (v3), (v5:goal) in (v2)",
        BASIC,
    );
    assert_plays(&graph, &report);
    assert_eq!(report.goals, vec![v(4), v(5)]);
}

#[test]
fn ignored_vertices_are_no_places() {
    // The only way to the goal runs through an ignored vertex.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:n) -- (v3:goal)",
        &format!("{BASIC}\nignore n"),
    );
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(reason, Reason::Disconnected { room: v(3) });
    assert_eq!(
        message,
        "goal 3 cannot be reached: no corridor leads there from the entrance"
    );
    let (graph, report) = check("(v1:entrance) -- (v2:n) -- (v3:goal)", BASIC);
    assert_plays(&graph, &report);
}

// ---------------------------------------------------------------------------
// Each reason
// ---------------------------------------------------------------------------

#[test]
fn no_entrance() {
    let (graph, report) = check("(v1:room) -- (v2:goal)", BASIC);
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(reason, Reason::NoEntrance);
    assert_eq!(reason.code(), "no_entrance");
    assert_eq!(message, "no vertex is the entrance");
    assert_eq!(report.entrance, None);
    assert_eq!(
        report.verdict_message(&graph),
        "cannot be finished: no vertex is the entrance"
    );
}

#[test]
fn two_entrances() {
    let (graph, report) = check("(v1:entrance) -- (v2:goal) -- (v3:entrance)", BASIC);
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(reason, Reason::SeveralEntrances(vec![v(1), v(3)]));
    assert_eq!(
        message,
        "2 vertices are the entrance (entrance 1, entrance 3); a level starts at one"
    );
    assert_eq!(reason.culprits(), vec![v(1), v(3)]);
}

#[test]
fn no_goal() {
    let (graph, report) = check("(v1:entrance) -- (v2:room)", BASIC);
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(reason, Reason::NoGoal);
    assert_eq!(message, "no vertex is the goal");
    assert_eq!(report.entrance, Some(v(1)));
}

#[test]
fn goal_disconnected() {
    let (graph, report) = check("(v1:entrance) -- (v2:room), (v3:goal) -- (v4:room)", BASIC);
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(reason, Reason::Disconnected { room: v(3) });
    assert_eq!(
        message,
        "goal 3 cannot be reached: no corridor leads there from the entrance"
    );
    assert_eq!(report.unreachable, vec![v(3), v(4)]);
    // A cosmetic edge is no corridor.
    let (graph, report) = check("(v1:entrance) ~~ (v2:goal)", BASIC);
    let (_, message) = unfinishable(&graph, &report);
    assert_eq!(
        message,
        "goal 2 cannot be reached: no corridor leads there from the entrance"
    );
}

#[test]
fn goal_only_against_a_one_way_corridor() {
    // entrance 1 -- room 2 <- room 3 -- goal 4: the corridor 3 -> 2 points
    // the wrong way.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room), (v3:room) -> (v2), (v3) -- (v4:goal)",
        BASIC,
    );
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(
        reason,
        Reason::AgainstOneWay {
            room: v(4),
            corridor: edge_between(&graph, 3, 2),
            path: vec![v(1), v(2), v(3), v(4)],
        }
    );
    assert_eq!(
        message,
        "goal 4 can be reached only against the one-way corridor room 3 → room 2 (path entrance 1 → room 2 → room 3 → goal 4)"
    );
    // `directed two_way`: the corridor is walked both ways.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room), (v3:room) -> (v2), (v3) -- (v4:goal)",
        &format!("{BASIC}\ndirected two_way"),
    );
    assert_plays(&graph, &report);
    assert_eq!(report.searched, None, "two-way levels need no search");
}

#[test]
fn lock_without_key() {
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock) -- (v3:goal)",
        &format!("{BASIC}\nkey key opens lock"),
    );
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(
        reason,
        Reason::LockWithoutKey {
            lock: LockRef::Room(v(2)),
            before: v(3)
        }
    );
    assert_eq!(reason.code(), "lock_without_key");
    assert_eq!(message, "goal 3 lies behind lock 2, which no key opens");
    assert_eq!(reason.culprits(), vec![v(2)]);
}

#[test]
fn key_behind_its_own_lock() {
    // entrance 1 -- room 2 -- lock 3 -- room 4 -- goal 5; key 6 lies in
    // room 4, behind the lock it opens.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room) -- (v3:lock) -- (v4:room) -- (v5:goal), (v6:key) in (v4), (v6) ~> (v3)",
        &format!("{BASIC}\nkey key opens lock via ~>"),
    );
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(
        reason,
        Reason::KeyBehindOwnLock {
            key: v(6),
            lock: LockRef::Room(v(3)),
            path: vec![v(1), v(2), v(3), v(4)],
        }
    );
    assert_eq!(
        message,
        "key 6 lies behind lock 3, the lock it opens (path entrance 1 → room 2 → lock 3 → room 4)"
    );
    assert_eq!(reason.culprits(), vec![v(6), v(3)]);
    assert_eq!(report.unreachable, vec![v(3), v(4), v(5)]);
}

#[test]
fn two_keys_behind_each_others_locks() {
    // entrance 1 -- lock 2 -- goal 3, entrance 1 -- lock 4; key 5 (for
    // lock 2) lies in lock 4's room, key 6 (for lock 4) in lock 2's room.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock) -- (v3:goal), (v1) -- (v4:lock), (v5:key) in (v4), (v5) ~> (v2), (v6:key) in (v2), (v6) ~> (v4)",
        &format!("{BASIC}\nkey key opens lock via ~>"),
    );
    let (reason, message) = unfinishable(&graph, &report);
    assert_eq!(
        reason,
        Reason::KeysBehindEachOther {
            chain: vec![
                Wait {
                    key: v(5),
                    opens: LockRef::Room(v(2)),
                    behind: LockRef::Room(v(4)),
                },
                Wait {
                    key: v(6),
                    opens: LockRef::Room(v(4)),
                    behind: LockRef::Room(v(2)),
                },
            ]
        }
    );
    assert_eq!(
        message,
        "keys lie behind each other's locks: key 5 (for lock 2) lies behind lock 4, key 6 (for lock 4) lies behind lock 2"
    );
    assert_eq!(reason.culprits(), vec![v(5), v(2), v(6), v(4)]);
}

#[test]
fn three_keys_behind_each_others_locks() {
    // Key 6 opens lock 2 (before the goal) and lies behind lock 4; key 7
    // opens 4 and lies behind 5; key 8 opens 5 and lies behind 2.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock) -- (v3:goal), (v1) -- (v4:lock), (v1) -- (v5:lock), (v6:key) in (v4), (v6) ~> (v2), (v7:key) in (v5), (v7) ~> (v4), (v8:key) in (v2), (v8) ~> (v5)",
        &format!("{BASIC}\nkey key opens lock via ~>"),
    );
    let (reason, message) = unfinishable(&graph, &report);
    let Reason::KeysBehindEachOther { chain } = &reason else {
        panic!("{reason:?}");
    };
    assert_eq!(chain.len(), 3, "{message}");
    assert_eq!(
        message,
        "keys lie behind each other's locks: key 6 (for lock 2) lies behind lock 4, key 7 (for lock 4) lies behind lock 5, key 8 (for lock 5) lies behind lock 2"
    );
}

// ---------------------------------------------------------------------------
// One-way corridors
// ---------------------------------------------------------------------------

#[test]
fn a_key_in_a_one_way_dead_end_traps_the_player() {
    // entrance 1 -> room 2 (a dead end holding key 3); entrance 1 -- lock
    // 4 -- goal 5. The fixpoint walks back from room 2; the player cannot.
    let body = "(v1:entrance) -> (v2:room), (v3:key) in (v2), (v1) -- (v4:lock) -- (v5:goal)";
    let (graph, report) = check(body, &format!("{BASIC}\nkey key opens lock"));
    let (reason, message) = unfinishable(&graph, &report);
    let Reason::NoOrder { explored } = reason else {
        panic!("{reason:?}");
    };
    assert_eq!(report.searched, Some(explored));
    assert_eq!(
        message,
        format!("no order of play reaches the goal: the search tried all {explored} states it can reach (small keys run out, or a one-way corridor leads away from what is still needed)")
    );
    // The fixpoint alone reaches every place.
    assert!(report.unreachable.is_empty());
    // With the corridor walked both ways it is fine.
    let (graph, report) = check(
        body,
        &format!("{BASIC}\nkey key opens lock\ndirected two_way"),
    );
    assert_plays(&graph, &report);
}

#[test]
fn a_one_way_loop_that_returns_is_fine() {
    // entrance 1 -> room 2 -> room 3 -> entrance 1, key 4 in room 3, and
    // entrance 1 -- lock 5 -- goal 6.
    let (graph, report) = check(
        "(v1:entrance) -> (v2:room) -> (v3:room) -> (v1), (v4:key) in (v3), (v1) -- (v5:lock) -- (v6:goal)",
        &format!("{BASIC}\nkey key opens lock"),
    );
    assert_plays(&graph, &report);
    assert!(report.searched.is_some(), "one-way levels are searched");
}

#[test]
fn a_locked_entrance_is_entered_again_only_once_open() {
    // The player starts in entrance 1, a locked room (lock 5 stored in
    // it, which no key opens). The key of the door to the goal lies in
    // room 2, off the entrance: fetched, there is no way back in.
    let body = "(v1:entrance) -- (v2:room), (v1) -[locked]- (v3:goal), (v4:key) in (v2), (v5:lock) in (v1)";
    let play = format!("{BASIC}\nkey key opens -[locked]-\nkey key opens lock");
    let (graph, report) = check(body, &play);
    let (reason, _) = unfinishable(&graph, &report);
    assert_eq!(reason.code(), "no_order");
    // With the key at the entrance the player need not come back.
    let (graph, report) = check(&body.replace("in (v2)", "in (v1)"), &play);
    assert_plays(&graph, &report);
}

#[test]
fn a_searched_playthrough_opens_the_locks_it_walks_back_through() {
    // The entrance 1 is a locked room (lock 5 stored in it) and its key 4
    // lies in it. The player looks into room 2 and comes back into the
    // entrance through its lock, then takes the one-way corridor to the
    // goal 3.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:room), (v1) -> (v3:goal), (v4:key) in (v1), (v5:lock) in (v1)",
        &format!("{BASIC}\nkey key opens lock"),
    );
    assert_plays(&graph, &report);
    assert_eq!(
        report.playthrough,
        vec![
            Event::Enter {
                room: v(1),
                from: None
            },
            Event::PickUp {
                key: v(4),
                room: v(1)
            },
            Event::Enter {
                room: v(2),
                from: Some(v(1))
            },
            Event::Open {
                lock: LockRef::Room(v(5)),
                key: v(4)
            },
            Event::Enter {
                room: v(3),
                from: Some(v(1))
            },
        ]
    );
}

#[test]
fn a_one_way_corridor_forward_is_fine() {
    let (graph, report) = check("(v1:entrance) -> (v2:room) -> (v3:goal)", BASIC);
    assert_plays(&graph, &report);
}

// ---------------------------------------------------------------------------
// Small keys
// ---------------------------------------------------------------------------

const SMALL: &str = "entrance entrance\ngoal goal\nsmall key key opens lock";

#[test]
fn enough_small_keys() {
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock) -- (v3:lock) -- (v4:goal), (v5:key) in (v1), (v6:key) in (v1)",
        SMALL,
    );
    assert_plays(&graph, &report);
    assert!(report.keys.iter().all(|k| k.small));
    // Each small key opens one lock.
    let opens: Vec<VertexId> = report
        .playthrough
        .iter()
        .filter_map(|e| match e {
            Event::Open { key, .. } => Some(*key),
            _ => None,
        })
        .collect();
    assert_eq!(opens, vec![v(5), v(6)]);
}

#[test]
fn too_few_small_keys() {
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock) -- (v3:lock) -- (v4:goal), (v5:key) in (v1)",
        SMALL,
    );
    let (reason, _) = unfinishable(&graph, &report);
    assert_eq!(reason.code(), "no_order");
}

#[test]
fn spending_a_small_key_on_the_wrong_lock_first_is_undone() {
    // Key 6 lies at the entrance. Lock 2 is an empty dead end; lock 3
    // holds key 7, which opens lock 4 before the goal. The search tries
    // lock 2 first (its corridor is written first), finds nothing, and
    // spends the key on lock 3 instead.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock), (v1) -- (v3:lock) -- (v4:lock) -- (v5:goal), (v6:key) in (v1), (v7:key) in (v3)",
        SMALL,
    );
    assert_plays(&graph, &report);
    assert!(
        !report
            .playthrough
            .iter()
            .any(|e| matches!(e, Event::Enter { room, .. } if *room == v(2))),
        "the dead end is not part of the play: {:?}",
        report.playthrough
    );
    assert!(report.searched.unwrap() > 2, "{:?}", report.searched);
}

#[test]
fn a_search_limit_of_one_is_unknown() {
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock) -- (v3:lock) -- (v4:goal), (v5:key) in (v1), (v6:key) in (v1)",
        &format!("{SMALL}\nsearch_limit 1"),
    );
    assert_eq!(report.verdict, Verdict::Unknown { limit: 1 });
    assert_eq!(
        report.verdict_message(&graph),
        "unknown: the search for an order of play stopped at its limit of 1 state (`search_limit` in the `play` block)"
    );
    assert!(report.playthrough.is_empty());
}

// ---------------------------------------------------------------------------
// Gating and unreachable places
// ---------------------------------------------------------------------------

#[test]
fn a_lock_gates_the_goal_and_the_rooms_behind_it() {
    // entrance 1 -- lock 2 -- room 3 -- goal 4, room 3 -- room 5; key 6
    // at the entrance. Lock 2 gates the goal and rooms 3, 4, 5, not
    // itself.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock) -- (v3:room) -- (v4:goal), (v3) -- (v5:room), (v6:key) in (v1)",
        &format!("{BASIC}\nkey key opens lock"),
    );
    assert_plays(&graph, &report);
    let lock = &report.locks[0];
    assert!(lock.gates_goal);
    assert_eq!(lock.gates_rooms, vec![v(3), v(4), v(5)]);
    assert_eq!(report.idle_locks().count(), 0);
}

#[test]
fn a_lock_off_the_way_gates_its_rooms_but_not_the_goal() {
    let (graph, report) = check(
        "(v1:entrance) -- (v2:goal), (v1) -- (v3:lock) -- (v4:room), (v5:key) in (v1)",
        &format!("{BASIC}\nkey key opens lock"),
    );
    assert_plays(&graph, &report);
    let lock = &report.locks[0];
    assert!(!lock.gates_goal);
    assert_eq!(lock.gates_rooms, vec![v(4)]);
}

#[test]
fn a_lock_bypassed_by_a_cycle_gates_nothing() {
    // entrance 1 -- lock 2 -- goal 3, and entrance 1 -- room 4 -- goal 3.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:lock) -- (v3:goal), (v1) -- (v4:room) -- (v3), (v5:key) in (v1)",
        &format!("{BASIC}\nkey key opens lock"),
    );
    assert_plays(&graph, &report);
    let lock = &report.locks[0];
    assert!(!lock.gates_goal);
    assert!(lock.gates_rooms.is_empty());
    let idle: Vec<LockRef> = report.idle_locks().map(|l| l.lock).collect();
    assert_eq!(idle, vec![LockRef::Room(v(2))]);
}

#[test]
fn unreachable_lists_places_behind_a_keys_own_lock() {
    // The goal is reachable; the side branch behind lock 3 holds its own
    // key.
    let (graph, report) = check(
        "(v1:entrance) -- (v2:goal), (v1) -- (v3:lock) -- (v4:room) -- (v5:room), (v6:key) in (v5)",
        &format!("{BASIC}\nkey key opens lock"),
    );
    assert_plays(&graph, &report);
    assert_eq!(report.unreachable, vec![v(3), v(4), v(5)]);
    // The lock opens in no play: what it gates is what lies behind it,
    // the rooms its own key waits in.
    assert_eq!(report.locks[0].gates_rooms, vec![v(4), v(5)]);
    assert!(!report.locks[0].gates_goal);
    assert_eq!(report.idle_locks().count(), 0);
}

// ---------------------------------------------------------------------------
// The block's parse and compile errors
// ---------------------------------------------------------------------------

const GRAMMAR: &str = "tags { s \"start\" entrance \"\" goal \"\" key \"\" lock \"\" }\nrule start { (a:s) => (a:entrance) -- (b:goal) }\n";

/// The single error of a grammar whose `play` block is `block`, which must
/// fail: message, 1-based line and column (the block starts on line 3),
/// and a fragment of the hint.
#[track_caller]
fn play_error(block: &str, message: &str, line: usize, column: usize, hint: &str) {
    let src = format!("{GRAMMAR}{block}");
    let diags: Vec<Diagnostic> = match grammar::load(&src, "t") {
        Ok(_) => panic!("grammar unexpectedly loaded:\n{src}"),
        Err(e) => e.diagnostics,
    };
    assert_eq!(diags.len(), 1, "expected one error, got {diags:#?}");
    let d = &diags[0];
    assert_eq!(d.message, message);
    let lc = d.line_col(&src).expect("located by span");
    assert_eq!(
        (lc.line, lc.column),
        (line, column),
        "position of `{message}`"
    );
    let got = d.hint.as_deref().unwrap_or("");
    assert!(got.contains(hint), "hint {got:?} lacks {hint:?}");
}

#[test]
fn play_block_errors_are_located() {
    // A block left open is reported at the next top-level word, with
    // where its `{` is.
    play_error(
        "play {\n  entrance entrance\n  goal goal\n\nrule x { (a:goal) -- (b:entrance) => (a) -- (b) }\n",
        "the `play` block is not closed: expected `}` before `rule`",
        7,
        1,
        "its `{` is at line 3, column 6",
    );
    play_error(
        "play {\n  entrance entrance\n  goal boss\n}\n",
        "the `play` block names tag `boss`, which `tags` does not declare",
        5,
        8,
        "declare it in the `tags` block",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  key key opens door\n}\n",
        "the `play` block names tag `door`, which `tags` does not declare",
        6,
        17,
        "",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  treasure chest\n}\n",
        "unknown statement `treasure` in the `play` block",
        6,
        3,
        "a `play` block holds: ",
    );
    play_error(
        "play {\n  entrance entrance\n}\n",
        "the `play` block has no `goal`",
        3,
        1,
        "`goal` is missing",
    );
    play_error(
        "play {\n  goal goal\n}\n",
        "the `play` block has no `entrance`",
        3,
        1,
        "`entrance` is missing",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  key key opens -[locked]- via ~>\n}\n",
        "a key cannot name a locked door by an edge: the door is an edge itself",
        6,
        3,
        "leave out `via`",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  key key opens -[locked]- via same color\n}\n",
        "a key cannot name a locked door by attribute `color`: edges carry no attributes",
        6,
        3,
        "leave out `via`",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  directed sideways\n}\n",
        "unknown corridor mode `sideways`",
        6,
        12,
        "`directed two_way`",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  retries 10001\n}\n",
        "retries 10001 is above the most accepted, 10000",
        6,
        3,
        "",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  search_limit 0\n}\n",
        "search_limit 0 is outside 1 to 10000000",
        6,
        3,
        "",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  search_limit 10000001\n}\n",
        "search_limit 10000001 is outside 1 to 10000000",
        6,
        3,
        "",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  small lock key opens lock\n}\n",
        "expected `key` (`small key TAG opens …`), found `lock`",
        6,
        9,
        "",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  key key opens ~> \n}\n",
        "a locked door is a labelled corridor: `-[locked]-` or `-[locked]->`",
        6,
        17,
        "",
    );
    play_error(
        "play {\n  entrance entrance\n  entrance goal\n  goal goal\n}\n",
        "`entrance` is set twice",
        5,
        3,
        "it is first set at line 4",
    );
    play_error(
        "play {\n  entrance entrance\n  goal goal\n  ignore wall\n}\n",
        "`ignore` names tag `wall`, which `tags` does not declare",
        6,
        3,
        "",
    );
}

#[test]
fn play_blocks_round_trip_through_json() {
    let src = format!(
        "{TAGS}rule start {{ (a:s) => (a:entrance) -- (b:goal) }}\nplay {{\n  entrance entrance\n  goal goal {{level: last}}\n  key key {{color: red}} opens lock via same color\n  key key opens lock via ~[opens]~>\n  small key key opens -[locked]->\n  ignore n\n  directed two_way\n  retries 7\n  search_limit 1000\n}}\n"
    );
    let model = grammar::parse(&src, "t").unwrap();
    let play = model.play.as_ref().expect("a play block");
    assert_eq!(play.keys.len(), 3);
    assert_eq!(play.directed, Directed::TwoWay);
    assert_eq!((play.retries, play.search_limit), (Some(7), Some(1000)));
    assert!(play.keys[2].small);
    assert!(matches!(&play.keys[0].via, Some(KeyLink::Same(a)) if a == "color"));
    assert!(
        matches!(&play.keys[1].via, Some(KeyLink::Edge(l)) if l.cosmetic && l.directed && l.label.as_deref() == Some("opens"))
    );
    assert!(matches!(&play.keys[2].opens, LockSpec::Door(d) if d.directed && d.label == "locked"));
    let json = model.to_json();
    let back = Grammar::from_json(&json).unwrap();
    assert_eq!(back.to_json(), json, "the JSON form is stable");
    assert_eq!(common::without_spans(&model), back);
    grammar::load_json(&json).expect("the JSON form compiles");
}

#[test]
fn json_play_errors_name_the_field() {
    let src = format!(
        "{TAGS}rule start {{ (a:s) => (a:entrance) -- (b:goal) }}\nplay {{\n  entrance entrance\n  goal goal\n  key key opens lock\n  key key opens lock\n  ignore n\n  search_limit 5\n}}\n"
    );
    let model = grammar::parse(&src, "t").unwrap();
    let errors_of = |edit: &dyn Fn(&mut Grammar)| {
        let mut m = model.clone();
        edit(&mut m);
        grammar::load_json(&m.to_json()).unwrap_err().diagnostics
    };
    let diags = errors_of(&|m| m.play.as_mut().unwrap().keys[0].key.tags = vec!["chest".into()]);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(
        diags[0].message,
        "the `play` block names tag `chest`, which `tags` does not declare"
    );
    assert_eq!(
        diags[0].location,
        Location::Field("play.keys[0].key".into())
    );
    let diags = errors_of(&|m| {
        if let LockSpec::Room(sel) = &mut m.play.as_mut().unwrap().keys[1].opens {
            sel.tags = vec!["vault".into()];
        }
    });
    assert_eq!(
        diags[0].location,
        Location::Field("play.keys[1].opens.room".into())
    );
    let diags = errors_of(&|m| m.play.as_mut().unwrap().goal.tags.clear());
    assert_eq!(
        diags[0].message,
        "a play selector needs a tag, alternatives `a|b` or `*`"
    );
    assert_eq!(diags[0].location, Location::Field("play.goal".into()));
    let diags = errors_of(&|m| m.play.as_mut().unwrap().ignore = vec!["n".into(), "wall".into()]);
    assert_eq!(diags[0].location, Location::Field("play.ignore[1]".into()));
    let diags = errors_of(&|m| m.play.as_mut().unwrap().search_limit = Some(0));
    assert_eq!(
        diags[0].location,
        Location::Field("play.search_limit".into())
    );
    let diags = errors_of(&|m| {
        m.play.as_mut().unwrap().keys[0].opens =
            LockSpec::Door(levelgraph::grammar::play::DoorSelector {
                label: "locked".into(),
                directed: false,
                span: None,
            });
        m.play.as_mut().unwrap().keys[0].via = Some(KeyLink::Same("color".into()));
    });
    assert_eq!(
        diags[0].location,
        Location::Field("play.keys[0].via".into())
    );
}

#[test]
fn a_searched_playthrough_ends_at_the_goal() {
    // The one-way corridor to room 2 sends the level to the search; room
    // 4 lies past the goal and is no part of the play.
    let (graph, report) = check(
        "(v1:entrance) -> (v2:room), (v1) -- (v3:goal) -- (v4:room)",
        BASIC,
    );
    assert!(report.searched.is_some());
    assert_plays(&graph, &report);
}
