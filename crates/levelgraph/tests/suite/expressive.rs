//! Expressive-range metrics against levels worked out by hand, and the
//! properties the `analyze` outputs rest on: a tally that does not depend
//! on order or threads, and `levels.csv` rows that read back exactly.

use levelgraph::expressive::{csv, Batch, Metric, Record, Seeds, Status, Tally};
use levelgraph::grammar;
use levelgraph::pipeline::Config;
use proptest::prelude::*;

/// A grammar whose one rule makes `level` (a right-hand side) from the
/// start symbol, with the lock-and-key `play` block.
fn one_level(level: &str) -> grammar::CompiledGrammar {
    let text = format!(
        r#"grammar "hand" {{ start s max_iterations 5 }}
tags {{
  s "start" #9e9e9e
  entrance "entrance" #2e7d32 terminal
  room "room" #90a4ae terminal
  goal "goal" #1565c0 terminal
  key "key" #f9a825 terminal
  lock "lock" #c62828 terminal
}}
rule start {{ (a:s) => {level} }}
play {{
  entrance entrance
  goal goal
  key key opens lock via ~>
  directed two_way
}}
"#
    );
    grammar::load(&text, "hand").expect("the hand-made grammar loads")
}

fn record(grammar: &grammar::CompiledGrammar) -> Record {
    Batch::new(grammar, Config::new(), false, false).record(1)
}

fn values(r: &Record, metrics: &[Metric]) -> Vec<Option<f64>> {
    metrics.iter().map(|&m| r.get(m)).collect()
}

/// Entrance e, rooms r1 r2 r3 d, a key k off r1 opening lock l before
/// the goal g, and a loop r1 → r3 → r2 beside r1 → r2.
///
/// ```text
///  e — r1 — r2 — l — g        8 rooms, 8 corridors, 1 component: 1 cycle
///       | \   |               dead ends: k, d (e and g do not count)
///       k  r3—+               breadth-first from e: e{r1} r1{r2 r3 k}
///          |                  r2{l} r3{d} l{g}: 7 children / 5 parents
///          d                  e → g: 4 corridors; linearity 5 / 8
/// ```
#[test]
fn metrics_of_a_hand_worked_level() {
    let g = one_level(
        "(e:entrance) -> (r1:room) -> (r2:room) -> (l:lock) -> (g:goal), \
         (r1) -> (r3:room) -> (r2), (r1) -> (k:key), (k) ~> (l), (r3) -> (d:room)",
    );
    let r = record(&g);
    assert_eq!(r.status, Status::Completable);
    let want = [
        (Metric::Vertices, 8.0),
        (Metric::Rooms, 8.0),
        (Metric::Corridors, 8.0),
        (Metric::Cycles, 1.0),
        (Metric::Keys, 1.0),
        (Metric::Locks, 1.0),
        (Metric::GatingLocks, 1.0),
        (Metric::DeadEnds, 2.0),
        (Metric::Branching, 1.4),
        (Metric::Distance, 4.0),
        (Metric::Linearity, 0.625),
        // e r1 k, then back through r1 to r2 l g.
        (Metric::Playthrough, 7.0),
        (Metric::Backtracking, 1.0),
        (Metric::Steps, 1.0),
    ];
    for (m, x) in want {
        assert_eq!(r.get(m), Some(x), "{}", m.name());
    }
    assert!(r.hash.is_some());
    // No layout was asked for.
    assert_eq!(
        values(&r, &[Metric::Width, Metric::FloorRatio]),
        [None, None]
    );
}

/// e — r1 — l — g with the key in a dead end k off r1: the player goes
/// e, r1, k, back through r1, l, g — 6 rooms entered, 1 again; the dead
/// end d off the entrance is not walked to.
#[test]
fn playthrough_walks_back_for_the_key() {
    let g = one_level(
        "(e:entrance) -> (r1:room) -> (l:lock) -> (g:goal), (r1) -> (k:key), (k) ~> (l), \
         (e) -> (d:room)",
    );
    let r = record(&g);
    assert_eq!(
        values(
            &r,
            &[Metric::Playthrough, Metric::Backtracking, Metric::Cycles]
        ),
        [Some(6.0), Some(1.0), Some(0.0)]
    );
}

/// A key behind its own lock: unfinishable, with the reason's code; the
/// graph metrics are still measured, the playthrough ones are not.
#[test]
fn an_unfinishable_level_says_why() {
    let g = one_level("(e:entrance) -> (l:lock) -> (k:key), (l) -> (g:goal), (k) ~> (l)");
    let r = record(&g);
    assert_eq!(r.status, Status::Unfinishable);
    assert_eq!(r.why, "key_behind_own_lock");
    assert_eq!(r.get(Metric::Rooms), Some(4.0));
    assert_eq!(r.get(Metric::Playthrough), None);
}

/// A derivation below min_vertices fails, and its record says so.
#[test]
fn a_failed_derivation_is_recorded_with_its_code() {
    let text = "grammar \"small\" { start s min_vertices 5 }\ntags { s \"s\" #999999\n room \"room\" #888888 terminal }\nrule start { (a:s) => (a:room) }\n";
    let g = grammar::load(text, "small").unwrap();
    let r = record(&g);
    assert_eq!(
        (r.status, r.why.as_str()),
        (Status::Failed, "derive:too_few_vertices")
    );
    assert_eq!(r.hash, None);
    assert!(r.values.iter().all(Option::is_none));
}

/// A grammar without a `play` block: rooms and corridors are its
/// top-level vertices and edges; nothing is checked.
#[test]
fn without_a_play_block_levels_are_unchecked() {
    let g =
        levelgraph::grammar::load(include_str!("../../../../examples/quads.lg"), "quads").unwrap();
    let r = record(&g);
    assert_eq!(r.status, Status::Unchecked);
    assert_eq!(r.get(Metric::Keys), None);
    assert!(r.get(Metric::Rooms).unwrap() >= 1.0);
}

/// The default grammar's records over a range, the same on one thread
/// and on two, and read back from their CSV rows exactly.
#[test]
fn records_are_the_same_on_any_number_of_threads_and_read_back() {
    let g = levelgraph::grammar::default_grammar();
    let seeds = Seeds {
        first: 1,
        last: 300,
    };
    let collect = |threads| {
        let batch = Batch::new(&g, Config::new(), false, false)
            .with_threads(threads)
            .unwrap();
        let mut all = Vec::new();
        batch.run(seeds, |chunk| {
            all.extend_from_slice(chunk);
            std::ops::ControlFlow::Continue(())
        });
        (batch.columns(), all)
    };
    let (columns, one) = collect(1);
    let (_, two) = collect(2);
    assert_eq!(one, two);
    assert_eq!(one.len(), 300);
    assert!(one.windows(2).all(|w| w[0].seed + 1 == w[1].seed));
    let mut text = csv::header(&columns) + "\n";
    for r in &one {
        text += &csv::row(r, &columns);
    }
    let (read_columns, read) = csv::read(&text).unwrap();
    assert_eq!((read_columns, read), (columns, one));
}

/// A sink that says stop gets no more chunks, and `run` counts what it
/// was handed: the first seeds, in order (chunks are sized by their pace,
/// so only the start of the run is fixed: its first chunk is the smallest).
#[test]
fn a_stopped_run_hands_over_the_first_seeds_only() {
    let g = levelgraph::grammar::default_grammar();
    let batch = Batch::new(&g, Config::new(), false, false)
        .with_threads(2)
        .unwrap();
    let seeds = Seeds {
        first: 10,
        last: 5_000,
    };
    let mut handed = Vec::new();
    let done = batch.run(seeds, |chunk| {
        handed.extend(chunk.iter().map(|r| r.seed));
        std::ops::ControlFlow::Break(())
    });
    assert_eq!(done, levelgraph::expressive::MIN_CHUNK);
    assert_eq!(handed, (10..10 + done).collect::<Vec<_>>());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Tallies of any split of the records, in any order, summarise the
    /// same as one tally in seed order: what makes merged shards equal one
    /// run.
    #[test]
    fn tallies_do_not_depend_on_order(cut in 0usize..120, seed in 0u64..1_000) {
        let g = levelgraph::grammar::default_grammar();
        let batch = Batch::new(&g, Config::new(), false, false);
        let records: Vec<Record> = (seed..seed + 120).map(|s| batch.record(s)).collect();
        let columns = batch.columns();
        let mut whole = Tally::new();
        records.iter().for_each(|r| whole.add(r));
        let mut parts = Tally::new();
        records[cut..].iter().rev().for_each(|r| parts.add(r));
        records[..cut].iter().for_each(|r| parts.add(r));
        prop_assert_eq!(whole.summary(&columns), parts.summary(&columns));
        prop_assert_eq!(whole.seeds(), 120);
    }
}
