//! An independent checker of the placement semantics
//! (/work/place-semantics.md), written directly from the note rather than
//! from either encoding: every placement either solver returns is checked
//! with it.

use levelgraph::grammar::place::Anchor;

use crate::read::{Kind, LockAt, Reading};

/// Where each content kind lies: per content of `Reading::contents`, its
/// places, increasing.
pub type Placement = Vec<Vec<usize>>;

/// The places reached from `start` holding `held` keys (lock `shut` never
/// opens): the least fixpoint of entering places joined by a passage to a
/// reached place whose locks are open.
fn reach(r: &Reading, start: usize, open: &[bool]) -> Vec<bool> {
    let mut seen = vec![false; r.places.len()];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(p) = stack.pop() {
        for &(q, i) in &r.adj[p] {
            if seen[q] {
                continue;
            }
            let door = r.passage_lock[i].is_none_or(|l| open[l]);
            let room = r.place_locks[q].iter().all(|&l| open[l]);
            if door && room {
                seen[q] = true;
                stack.push(q);
            }
        }
    }
    seen
}

/// The keys of a placement: (place, locks opened, content index if
/// placed).
fn keys(r: &Reading, pl: &Placement) -> Vec<(usize, Vec<usize>, Option<usize>)> {
    let mut out = Vec::new();
    for (c, content) in r.contents.iter().enumerate() {
        if let Kind::Key(_) = content.kind {
            for &p in &pl[c] {
                out.push((p, content.opens.clone(), Some(c)));
            }
        }
    }
    for k in &r.fixed_keys {
        out.push((k.place, k.opens.clone(), None));
    }
    out
}

/// The phases of key pick-ups: phase t's reach, until it no longer grows
/// (the last is the monotone fixpoint), with lock `shut` never opened.
fn phases(
    r: &Reading,
    start: usize,
    keys: &[(usize, Vec<usize>, Option<usize>)],
    shut: Option<usize>,
) -> Vec<Vec<bool>> {
    let mut out: Vec<Vec<bool>> = Vec::new();
    let mut open = vec![false; r.locks.len()];
    loop {
        let now = reach(r, start, &open);
        if out.last() == Some(&now) {
            return out;
        }
        for (p, opens, _) in keys {
            if now[*p] {
                for &l in opens {
                    if Some(l) != shut {
                        open[l] = true;
                    }
                }
            }
        }
        out.push(now);
    }
}

/// `Ok` when `pl` is a valid placement, else the first rule it breaks.
pub fn check(r: &Reading, pl: &Placement) -> Result<(), String> {
    let name = |c: usize| r.contents[c].kind.term();
    let at_of = |kind: Kind| -> Option<usize> {
        let c = r.contents.iter().position(|x| x.kind == kind)?;
        pl[c].first().copied()
    };
    let entrance = r
        .entrance
        .or_else(|| at_of(Kind::Entrance))
        .ok_or("no entrance")?;
    let goals: Vec<usize> = if r.goals.is_empty() {
        at_of(Kind::Goal).into_iter().collect()
    } else {
        r.goals.clone()
    };
    for (c, content) in r.contents.iter().enumerate() {
        let places = &pl[c];
        let n = places.len() as u32;
        if n < content.count.0 || n > content.count.1 {
            return Err(format!("{}: {n} places", name(c)));
        }
        if places.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!("{}: places not distinct", name(c)));
        }
        let statement = r.statement(c);
        for &p in places {
            let v = r.places[p].0;
            if !r.candidate(c, p) {
                return Err(format!("{} in {v}: not `in`", name(c)));
            }
            for (j, d) in statement.distance.iter().enumerate() {
                let from = match r.fixed_anchor(c, d.from) {
                    Some(f) => f,
                    None => match d.from {
                        Anchor::Entrance => vec![entrance],
                        _ => goals.clone(),
                    },
                };
                let dist = r.distances(&from)[p];
                let ok = dist.is_some_and(|x| x >= d.min && d.max.is_none_or(|m| x <= m));
                if !ok {
                    return Err(format!("{} in {v}: distance {j} ({dist:?})", name(c)));
                }
            }
            let others = r
                .contents
                .iter()
                .enumerate()
                .filter(|&(o, _)| o != c && pl[o].contains(&p));
            for (o, other) in others {
                if statement.alone {
                    return Err(format!("{} in {v}: not alone ({})", name(c), name(o)));
                }
                if statement.not_with.contains(&other.tag) {
                    return Err(format!("{} in {v}: with {}", name(c), name(o)));
                }
            }
            if statement.alone && r.fixed_keys.iter().any(|k| k.place == p) {
                return Err(format!("{} in {v}: not alone (a key)", name(c)));
            }
            for (q, tag) in &r.fixed_content {
                if *q == p && statement.not_with.contains(tag) {
                    return Err(format!("{} in {v}: with the level's {tag}", name(c)));
                }
            }
        }
    }
    if !r.place_locks[entrance].is_empty() {
        return Err("a locked entrance".into());
    }
    let keys = keys(r, pl);
    let phases = phases(r, entrance, &keys, None);
    let end = phases.last().unwrap();
    if let Some(&g) = goals.iter().find(|&&g| !end[g]) {
        return Err(format!(
            "not completable: goal {} out of reach",
            r.places[g].0
        ));
    }
    for (c, content) in r.contents.iter().enumerate() {
        if matches!(content.kind, Kind::Key(_) | Kind::Item(_)) {
            if let Some(&p) = pl[c].iter().find(|&&p| !end[p]) {
                return Err(format!("{} in {}: out of reach", name(c), r.places[p].0));
            }
        }
    }
    let lock_first = r
        .contents
        .iter()
        .enumerate()
        .any(|(c, x)| matches!(x.kind, Kind::Key(_)) && r.statement(c).lock_first);
    if lock_first {
        for (p, _, c) in &keys {
            let Some(c) = *c else { continue };
            let Some(t) = phases.iter().position(|ph| ph[*p]) else {
                continue; // never reached: no phase to see the lock in
            };
            let ph = &phases[t];
            let seen = r.contents[c].opens.iter().any(|&l| match r.lock_at[l] {
                LockAt::Room(q) => ph[q] || r.adj[q].iter().any(|&(u, _)| ph[u]),
                LockAt::Door(i) => ph[r.passages[i].1] || ph[r.passages[i].2],
            });
            if !seen {
                return Err(format!(
                    "lock first: {} first reached in phase {t}",
                    name(c)
                ));
            }
        }
    }
    if r.spec.every_key_needed {
        for (l, lock) in r.locks.iter().enumerate() {
            let shut = phases_end(r, entrance, &keys, l);
            if goals.iter().all(|&g| shut[g]) {
                return Err(format!(
                    "every key needed: the goal is reached without {}",
                    lock.term()
                ));
            }
        }
    }
    Ok(())
}

fn phases_end(
    r: &Reading,
    entrance: usize,
    keys: &[(usize, Vec<usize>, Option<usize>)],
    l: usize,
) -> Vec<bool> {
    phases(r, entrance, keys, Some(l)).pop().unwrap()
}
