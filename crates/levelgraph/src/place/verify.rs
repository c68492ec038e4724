//! An independent test of a placement, not through the encoding: the
//! placed level is read again by the playability checker and every
//! constraint is measured on it directly. Tests and the benchmark hold
//! every placement the solver (or a peer) gives to it.

use super::problem::{ContentKind, Problem, FAR};
use super::{apply, Placement};
use crate::grammar::place::Anchor;
use crate::grammar::play::PlaySpec;

/// What `placement` breaks, in words; empty when it meets every
/// constraint of the `place` block and the level can be finished.
pub fn violations(problem: &Problem, play: &PlaySpec, placement: &Placement) -> Vec<String> {
    let mut out = Vec::new();
    if placement.at.len() != problem.contents.len() {
        out.push("the placement does not list every content".into());
        return out;
    }
    let graph = apply(problem, placement);
    let report = crate::play::check(&graph, play);
    if !report.is_completable() {
        out.push(format!(
            "the level cannot be finished: {}",
            report.verdict.why(&graph)
        ));
    }
    let statements = problem.spec.statements();
    let holds = |tag: &str, p: u32, except: usize| {
        problem
            .contents
            .iter()
            .enumerate()
            .any(|(o, other)| o != except && other.tag == tag && placement.at[o].contains(&p))
            || problem.fixed.iter().any(|f| f.tag == tag && f.place == p)
    };
    let anything_else = |p: u32, except: usize| {
        problem
            .contents
            .iter()
            .enumerate()
            .any(|(o, _)| o != except && placement.at[o].contains(&p))
            || problem
                .fixed
                .iter()
                .any(|f| f.place == p && f.opens.is_some())
    };
    for (c, content) in problem.contents.iter().enumerate() {
        let (name, _, spec) = &statements[content.statement];
        let at = &placement.at[c];
        let n = at.len() as u32;
        if n < content.count.0 || n > content.count.1 {
            out.push(format!(
                "{}: {n} placed, not {}..{}",
                content.name, content.count.0, content.count.1
            ));
        }
        for &p in at {
            let room = problem.place_vertex(p);
            let tag = problem.graph.tag_name(room);
            if !spec.rooms.is_empty() && !spec.rooms.iter().any(|t| t == tag) {
                out.push(format!(
                    "{} in {tag} {}: not in {}",
                    content.name,
                    room.0,
                    spec.rooms.join("|")
                ));
            }
            for d in &spec.distance {
                let dist = distance(problem, placement, c, d.from, p);
                if dist == FAR || dist < d.min || d.max.is_some_and(|m| dist > m) {
                    out.push(format!(
                        "`{name}`: {} at distance {dist} from {}",
                        content.name,
                        d.from.word()
                    ));
                }
            }
            for t in &spec.not_with {
                if holds(t, p, c) {
                    out.push(format!(
                        "`{name}`: {} shares place {} with {t}",
                        content.name, room.0
                    ));
                }
            }
            if spec.alone && anything_else(p, c) {
                out.push(format!(
                    "`{name}`: {} is not alone in place {}",
                    content.name, room.0
                ));
            }
            if matches!(content.kind, ContentKind::Key { .. } | ContentKind::Item)
                && report.unreachable.contains(&room)
            {
                out.push(format!(
                    "{} lies in place {}, which cannot be reached",
                    content.name, room.0
                ));
            }
            // The player starts outside every lock: `play::check` would
            // search a start in a locked room, which the encoding (and
            // the semantics) rule out.
            if content.kind == ContentKind::Entrance
                && !problem.level.place_locks[p as usize].is_empty()
            {
                out.push(format!(
                    "the entrance lies in place {}, a locked room",
                    room.0
                ));
            }
        }
    }
    if problem.spec.every_key_needed {
        for lock in &report.locks {
            if !lock.gates_goal {
                out.push(format!(
                    "`every key needed`: the goal can be reached around {}",
                    crate::play::lock_name(&graph, lock.lock)
                ));
            }
        }
    }
    out.extend(lock_first(problem, placement));
    out
}

/// The distance of place `p` from an anchor, the anchor placed or fixed.
fn distance(problem: &Problem, placement: &Placement, c: usize, anchor: Anchor, p: u32) -> u32 {
    let dist = match problem.anchor_distances(c, anchor) {
        Some(d) => d,
        None => {
            let kind = match anchor {
                Anchor::Entrance => ContentKind::Entrance,
                _ => ContentKind::Goal,
            };
            let a = problem
                .contents
                .iter()
                .position(|o| o.kind == kind)
                .expect("an anchor is fixed or placed");
            problem.distances_from(&placement.at[a])
        }
    };
    dist[p as usize]
}

/// `lock first`, played out place by place (not zone by zone): in each
/// round the player reaches what the keys held open, picks up the keys
/// there, and each key picked up for the first time must have one of its
/// locks in sight — reached, or next to a place reached.
fn lock_first(problem: &Problem, placement: &Placement) -> Vec<String> {
    let statements = problem.spec.statements();
    let wants: Vec<usize> = (0..problem.contents.len())
        .filter(|&c| statements[problem.contents[c].statement].2.lock_first)
        .collect();
    if wants.is_empty() {
        return Vec::new();
    }
    let level = &problem.level;
    let n = level.places.len();
    // Keys: (place, locks opened, content index if placed).
    let mut keys: Vec<(u32, Vec<u32>, Option<usize>)> = Vec::new();
    for (c, content) in problem.contents.iter().enumerate() {
        if let ContentKind::Key { opens } = &content.kind {
            for &p in &placement.at[c] {
                keys.push((p, opens.clone(), Some(c)));
            }
        }
    }
    for f in &problem.fixed {
        if let Some(opens) = &f.opens {
            keys.push((f.place, opens.clone(), None));
        }
    }
    let entrance = match problem
        .contents
        .iter()
        .position(|c| c.kind == ContentKind::Entrance)
    {
        Some(e) => placement.at[e][0],
        None => problem.entrance.expect("fixed"),
    };
    let mut held = vec![false; keys.len()];
    let mut out = Vec::new();
    loop {
        let mut open = vec![false; problem.locks.len()];
        for (k, (_, opens, _)) in keys.iter().enumerate() {
            if held[k] {
                for &l in opens {
                    open[l as usize] = true;
                }
            }
        }
        let mut reached = vec![false; n];
        reached[entrance as usize] = true;
        let mut stack = vec![entrance];
        while let Some(p) = stack.pop() {
            for step in &level.out[p as usize] {
                let q = step.to;
                if !reached[q as usize] && level.locks_on(step.passage, q).all(|l| open[l as usize])
                {
                    reached[q as usize] = true;
                    stack.push(q);
                }
            }
        }
        let seen = |l: u32| {
            problem.lock_places(l).iter().any(|&p| {
                reached[p as usize]
                    || (level.locks[l as usize].place.is_some()
                        && problem.neighbours[p as usize]
                            .iter()
                            .any(|&q| reached[q as usize]))
            })
        };
        let mut any = false;
        for k in 0..keys.len() {
            let (p, opens, c) = &keys[k];
            if held[k] || !reached[*p as usize] {
                continue;
            }
            held[k] = true;
            any = true;
            if let Some(c) = c {
                if wants.contains(c) && !opens.iter().any(|&l| seen(l)) {
                    out.push(format!(
                        "`lock first`: {} is found before its lock is seen",
                        problem.contents[*c].name
                    ));
                }
            }
        }
        if !any {
            return out;
        }
    }
}
