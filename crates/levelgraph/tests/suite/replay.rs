//! `derive::replay`: the derivation after its first k applications is the
//! full derivation's prefix, and replaying every application gives the
//! full derivation's level, byte for byte, for every example grammar over
//! many seeds.

use levelgraph::derive::{derive, replay, Derivation, StopReason};
use levelgraph::formats::MissionJson;
use levelgraph::grammar;

use crate::common;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=60;

fn full(g: &levelgraph::CompiledGrammar, seed: u64) -> Derivation {
    derive(g, seed).unwrap_or_else(|e| e.into_derivation())
}

/// The mission document with the stop reason and skip count of `like`:
/// a replay of every application stops before the step that found no
/// rule, so those two are the only fields it may differ in.
fn json_as(d: &Derivation, like: &Derivation) -> String {
    let mut d = d.clone();
    d.stop = like.stop.clone();
    d.skipped = like.skipped;
    MissionJson::new(&d, None).to_json()
}

#[test]
fn replaying_every_application_gives_the_level_byte_for_byte() {
    for (stem, text) in common::example_sources() {
        let g = grammar::load(&text, &stem).expect("example loads");
        for seed in SEEDS {
            let whole = full(&g, seed);
            let again = replay(&g, seed, whole.trace.len());
            assert_eq!(
                json_as(&again, &whole),
                MissionJson::new(&whole, None).to_json(),
                "examples/{stem}.lg seed {seed}"
            );
            // More than it made: the derivation's own end, stop and all.
            let past = replay(&g, seed, whole.trace.len() + 5);
            assert_eq!(past.stop, whole.stop, "examples/{stem}.lg seed {seed}");
        }
    }
}

#[test]
fn a_replay_is_the_prefix_of_the_derivation() {
    for (stem, text) in common::example_sources() {
        let g = grammar::load(&text, &stem).expect("example loads");
        for seed in 1..=8 {
            let whole = full(&g, seed);
            let n = whole.trace.len();
            // The start, a few steps in, the middle, one short of the end.
            for k in [0, 1, 2, n / 2, n.saturating_sub(1)] {
                if k >= n {
                    continue;
                }
                let part = replay(&g, seed, k);
                assert_eq!(part.trace.len(), k, "examples/{stem}.lg seed {seed} k {k}");
                assert!(
                    part.trace.iter().eq(whole.trace.iter().take(k)),
                    "examples/{stem}.lg seed {seed}: the first {k} applications differ"
                );
                assert_eq!(part.stop, StopReason::Replayed { applications: k });
            }
        }
    }
}

/// The step after k changes the graph by the vertices application k+1
/// created: they are in replay(k + 1) and not in replay(k).
#[test]
fn each_step_adds_what_its_application_created() {
    let g = grammar::default_grammar();
    for seed in 1..=20 {
        let whole = full(&g, seed);
        for (k, a) in whole.trace.iter().enumerate().take(30) {
            let before = replay(&g, seed, k);
            let after = replay(&g, seed, k + 1);
            for &v in a.created {
                assert!(
                    before.graph.vertex(v).is_none(),
                    "seed {seed} step {k}: {v:?} already there"
                );
                assert!(
                    after.graph.vertex(v).is_some(),
                    "seed {seed} step {k}: {v:?} not created"
                );
            }
        }
    }
}

/// A geometric derivation replayed with its drawing's seed makes the same
/// applications (its choices depend on the drawing, which the replay
/// keeps too): every application gives the level's graph, and k of them
/// the first k.
#[test]
fn a_geometric_derivation_replays_with_its_drawing() {
    for (stem, text) in common::example_sources() {
        let g = grammar::load(&text, &stem).expect("example loads");
        let Some(settings) = g.model().geometry.clone() else {
            continue;
        };
        for seed in 1..=20 {
            let Ok(level) = levelgraph::geometric::derive(&g, seed, &settings) else {
                continue;
            };
            let whole = level.derivation;
            let n = whole.trace.len();
            let again = levelgraph::geometric::replay(&g, whole.seed, &settings, n);
            assert!(
                again.trace.iter().eq(whole.trace.iter()),
                "examples/{stem}.lg seed {seed}: the applications differ"
            );
            let shape = |d: &Derivation| {
                let mut edges: Vec<_> = d
                    .graph
                    .edges()
                    .map(|(_, e)| (e.source, e.target, e.directed, e.cosmetic))
                    .collect();
                edges.sort();
                let tags: Vec<_> = d.graph.vertices().map(|(v, x)| (v, x.tag)).collect();
                (tags, edges)
            };
            assert_eq!(
                shape(&again),
                shape(&whole),
                "examples/{stem}.lg seed {seed}"
            );
            let half = levelgraph::geometric::replay(&g, whole.seed, &settings, n / 2);
            assert!(half.trace.iter().eq(whole.trace.iter().take(n / 2)));
        }
    }
}
