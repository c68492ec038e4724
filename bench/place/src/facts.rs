//! The fact writer: one placement problem (a [`Reading`] of the graph and
//! the two blocks) as the facts placement.lp reads. See the input section
//! of placement.lp and bench/place/README.md for what each fact means.

use std::fmt::Write as _;

use levelgraph::grammar::place::Anchor;

use crate::read::{quote, Kind, LockAt, Reading};

fn anchor_word(a: Anchor) -> &'static str {
    match a {
        Anchor::Entrance => "entrance",
        Anchor::Goal => "goal",
        Anchor::Lock => "lock",
    }
}

/// The statement's ASP name: `keys`, `entrance`, `goal`, `item("potion")`.
fn statement_term(r: &Reading, s: usize) -> String {
    let (_, path, p) = &r.spec.statements()[s];
    match path.as_str() {
        "keys" | "entrance" | "goal" => path.clone(),
        _ => format!("item({})", quote(p.tag.as_deref().unwrap_or(""))),
    }
}

/// The facts of `r`.
pub fn write(r: &Reading) -> String {
    let mut out = String::new();
    let v = |p: usize| r.places[p].0;
    let o = &mut out;
    for (p, tag) in r.place_tags.iter().enumerate() {
        let _ = writeln!(o, "place({}). ptag({},{}).", v(p), v(p), quote(tag));
    }
    for &(e, a, b) in &r.passages {
        let _ = writeln!(o, "passage({},{},{}).", e.0, v(a), v(b));
    }
    for (l, name) in r.locks.iter().enumerate() {
        let _ = write!(o, "lock({}). ", name.term());
        match r.lock_at[l] {
            LockAt::Room(p) => {
                let _ = writeln!(o, "lockroom({},{}).", name.term(), v(p));
            }
            LockAt::Door(i) => {
                let _ = writeln!(o, "lockdoor({},{}).", name.term(), r.passages[i].0 .0);
            }
        }
    }
    if let Some(e) = r.entrance {
        let _ = writeln!(o, "entrance({}).", v(e));
    }
    for &g in &r.goals {
        let _ = writeln!(o, "goal({}).", v(g));
    }
    for k in &r.fixed_keys {
        let _ = writeln!(o, "keyat({},{}).", k.vertex.0, v(k.place));
        for &l in &k.opens {
            let _ = writeln!(o, "opens({},{}).", k.vertex.0, r.locks[l].term());
        }
    }
    for (p, tag) in &r.fixed_content {
        let _ = writeln!(o, "content({},{}).", v(*p), quote(tag));
    }

    // The `place` block.
    for (c, content) in r.contents.iter().enumerate() {
        let kind = content.kind.term();
        let _ = writeln!(
            o,
            "kind({kind},{}). itag({kind},{}).",
            statement_term(r, content.statement),
            quote(&content.tag)
        );
        for &l in &content.opens {
            let _ = writeln!(o, "opens({kind},{}).", r.locks[l].term());
        }
        let _ = c;
    }
    let mut pairs_needed = false;
    for (s, (_, path, p)) in r.spec.statements().into_iter().enumerate() {
        let st = statement_term(r, s);
        if path.starts_with("items") {
            let (min, max) = p.count.map_or((1, 1), |c| (c.min, c.max));
            let _ = writeln!(o, "count({st},{min},{max}).");
        }
        for t in &p.rooms {
            let _ = writeln!(o, "in({st},{}).", quote(t));
        }
        for t in &p.not_with {
            let _ = writeln!(o, "notwith({st},{}).", quote(t));
        }
        if p.alone {
            let _ = writeln!(o, "alone({st}).");
        }
        if p.lock_first {
            let _ = writeln!(o, "lockfirst.");
        }
        for (j, d) in p.distance.iter().enumerate() {
            let max = d.max.map_or("#sup".to_owned(), |m| m.to_string());
            let _ = writeln!(o, "dist({st},{j},{},{},{max}).", anchor_word(d.from), d.min);
            match d.from {
                Anchor::Entrance if r.entrance.is_none() => pairs_needed = true,
                Anchor::Goal if r.goals.is_empty() => pairs_needed = true,
                _ => {}
            }
        }
    }
    if r.spec.every_key_needed {
        let _ = writeln!(o, "everykeyneeded.");
    }

    // Distances from the fixed anchors that some statement measures.
    let measured = |a: Anchor| {
        r.spec
            .statements()
            .iter()
            .any(|(_, _, p)| p.distance.iter().any(|d| d.from == a))
    };
    let mut dist_facts = |name: String, from: &[usize]| {
        for (p, d) in r.distances(from).into_iter().enumerate() {
            if let Some(d) = d {
                let _ = writeln!(o, "d({name},{},{d}).", v(p));
            }
        }
    };
    if measured(Anchor::Entrance) {
        if let Some(e) = r.entrance {
            dist_facts("entrance".into(), &[e]);
        }
    }
    if measured(Anchor::Goal) && !r.goals.is_empty() {
        dist_facts("goal".into(), &r.goals);
    }
    if measured(Anchor::Lock) {
        for (c, content) in r.contents.iter().enumerate() {
            if let Kind::Key(name) = content.kind {
                let from = r.fixed_anchor(c, Anchor::Lock).unwrap_or_default();
                dist_facts(format!("lock({})", name.term()), &from);
            }
        }
    }
    if pairs_needed {
        for p in 0..r.places.len() {
            for (q, d) in r.distances(&[p]).into_iter().enumerate() {
                if let Some(d) = d {
                    let _ = writeln!(o, "pd({},{},{d}).", v(p), v(q));
                }
            }
        }
    }
    out
}
