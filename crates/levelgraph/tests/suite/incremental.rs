//! The derivation's incremental match stores hold exactly the matches a
//! full search finds, after every step: over every example grammar, and
//! over grammars built to exercise each kind of condition (forbidden tags,
//! exact valence, induced, `where not` near and far, containment, grid
//! rules, deletion).

use levelgraph::derive::verify_incremental;
use levelgraph::grammar;

use crate::common;

fn check(name: &str, src: &str, seeds: std::ops::Range<u64>) {
    let g = grammar::load(src, name).unwrap_or_else(|e| panic!("{name}: {e}"));
    for seed in seeds {
        if let Err(diff) = verify_incremental(&g, seed) {
            panic!("{name} seed {seed}: {diff}");
        }
    }
}

#[test]
fn every_example() {
    for (name, text) in common::example_sources() {
        check(&name, &text, 1..26);
    }
}

#[test]
fn conditions_of_every_kind() {
    let cases: &[(&str, &str)] = &[
        (
            "forbidden",
            "tags { s a b c }\n\
             rule start { (x:s) => (x:a) -- (y:b) }\n\
             rule grow max_uses 12 { (x:a|b) -- (y:*) => (x) -- (z:a) -- (y) }\n\
             rule grow_b max_uses 6 { (x:a|b) -- (y:*) => (x) -- (z:b) -- (y) }\n\
             rule mark max_uses 6 { (x:a) -- (y:b !c) => (x) -- (y:c) }\n\
             rule back max_uses 6 { (x:c) -- (y:*) => (x:b) -- (y) }",
        ),
        (
            "valence",
            "tags { s a b }\n\
             rule start { (x:s) => (x:a) -- (y:a) }\n\
             rule grow max_uses 15 { (x:a) -- (y:a) => (x) -- (y), (x) -- (z:a) }\n\
             rule leaf max_uses 8 { (x:a valence 1) -- (y:a) => (x:b) -- (y) }",
        ),
        (
            "induced",
            "tags { s a b }\n\
             rule start { (x:s) => (x:a) -- (y:a) -- (z:a) }\n\
             rule chord max_uses 4 { (x:a) -- (y:a) -- (z:a) => (x) -- (y) -- (z), (x) -- (z) }\n\
             rule grow max_uses 10 { (x:a) -- (y:a) => (x) -- (n:a) -- (y) }\n\
             rule path induced max_uses 6 { (x:a) -- (y:a) -- (z:a) => (x) -- (y:b) -- (z) }",
        ),
        (
            "where-not near and far",
            "tags { s a k l }\n\
             rule start { (x:s) => (x:a) -- (y:a) }\n\
             rule grow max_uses 14 { (x:a) -- (y:a) => (x) -- (n:a) -- (y) }\n\
             rule key max_uses 5 { (x:a) -- (y:a) where not (y) -- (k:k) => (x) -- (y) -- (k:k) }\n\
             rule far max_uses 5 { (x:a) -- (y:a) where not (y) -- (m:a) -- (k:k) => (x) -- (y:l) }\n\
             rule pair max_uses 5 { (x:a), (y:k) where not (x) -- (y) => (x) -- (y) }",
        ),
        (
            "containment and deletion",
            "tags { s room key gem }\n\
             rule start { (a:s) => (a:room) -- (b:room) }\n\
             rule grow max_uses 8 { (a:room) -- (b:room) => (a) -- (c:room) -- (b) }\n\
             rule stash max_uses 6 { (r:room) -- (o:room) where not (k:key) in (r) => (r) -- (o), (k:key) in (r) }\n\
             rule carry max_uses 6 { (k:key) in (r:room), (r) -- (o:room) => (r) -- (o), (k) in (o) }\n\
             rule gem max_uses 4 { (k:key) in (r:room) where not (g:gem) in (k) => (k) in (r), (g:gem) in (k) }\n\
             rule cave_in max_uses 2 { (a:room) -- (b:room), (b) -- (c:room) => (a) -- (c) }",
        ),
        (
            // An edge at a condition vertex whose valence the condition
            // tests, one link from the match (found in review).
            "where-not vertex with a valence",
            "tags { s a k }\n\
             rule start { (x:s) => (x:a) -- (y:a) }\n\
             rule grow max_uses 14 { (x:a) -- (y:a) => (x) -- (n:a) -- (y) }\n\
             rule key max_uses 6 { (x:a) -- (y:a) => (x) -- (y) -- (k:k) }\n\
             rule link max_uses 6 { (y:a) -- (k:k), (z:a) => (y) -- (k) -- (z) }\n\
             rule lonely max_uses 20 { (x:a) -- (y:a) where not (y) -- (k:k valence 1) => (x) -- (y) }",
        ),
        (
            // An edge between two condition vertices at the same distance
            // from the match (found in review).
            "where-not edge between own vertices",
            "tags { s a k }\n\
             rule start { (x:s) => (x:a) -- (y:a) }\n\
             rule grow max_uses 30 { (x:a) -- (y:a) => (x) -- (n:a) -- (y) }\n\
             rule key max_uses 15 { (x:a) => (x) -- (k:k) }\n\
             rule join max_uses 15 { (p:k) -- (x:a) -- (q:k) => (p) -- (x) -- (q), (p) -[t]- (q) }\n\
             rule tri max_uses 40 { (x:a) -- (y:a) where not (x) -- (w:k), (x) -- (u:k), (w) -[t]- (u) => (x) -- (y) }",
        ),
        (
            // One-vertex patterns, built from the tag index once the host
            // passes 64 vertices: with a tag set, an exact valence.
            "one vertex",
            "tags { s a b c }\n\
             rule start { (x:s) => (x:a) -- (y:a) }\n\
             rule grow max_uses 40 { (x:a) -- (y:a) => (x) -- (n:a) -- (y) }\n\
             rule sprout max_uses 36 { (x:a) => (x) -- (n:b) }\n\
             rule leaf max_uses 20 { (x:a|b valence 1) => (x:c) }\n\
             rule back max_uses 10 { (x:c|b valence 2) => (x:a) }",
        ),
        (
            "global condition",
            "tags { s a b }\n\
             rule start { (x:s) => (x:a) -- (y:a) }\n\
             rule grow max_uses 10 { (x:a) -- (y:a) => (x) -- (n:a) -- (y) }\n\
             rule once { (x:a) -- (y:a) where not (p:b) => (x:b) -- (y) }",
        ),
    ];
    for (name, src) in cases {
        check(name, src, 0..40);
    }
}

/// The mission JSON of every example's derivations of seeds 1..6, or the
/// error, in order; run on the calling thread.
fn every_example_derived() -> Vec<String> {
    let mut out = Vec::new();
    for (name, text) in common::example_sources() {
        let g = grammar::load(&text, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
        for seed in 1..6 {
            out.push(match levelgraph::derive(&g, seed) {
                Ok(d) => levelgraph::formats::MissionDoc::from_derivation(&d).to_json(),
                Err(e) => format!("{name} seed {seed}: {e}"),
            });
        }
    }
    out
}

/// A thread keeps the emptied match stores of its last derivation for the
/// next (their buffers are reused): what a derivation produces must not
/// depend on what ran on its thread before.
#[test]
fn stores_kept_on_a_thread_change_no_result() {
    let fresh = std::thread::spawn(every_example_derived).join().unwrap();
    let after_others = std::thread::spawn(|| {
        // A large derivation first, so every kept store is big and was
        // maintained incrementally, with patterns of other widths.
        let big = "grammar \"big\" { start s max_vertices 400 max_iterations 1000 }\n\
                   tags { s a b }\n\
                   rule start { (x:s) => (x:a) -- (y:b) }\n\
                   rule grow { (x:a) => (x) -- (y:a) }\n\
                   rule split { (x:a) -- (y:b) => (x) -- (z:b) -- (y) }";
        let g = grammar::load(big, "big").unwrap();
        let d = levelgraph::derive(&g, 3).unwrap();
        assert!(d.graph.vertex_count() > 64, "large enough to keep stores");
        let first = every_example_derived();
        // And once more, now after the examples themselves.
        assert_eq!(first, every_example_derived());
        first
    })
    .join()
    .unwrap();
    assert_eq!(fresh, after_others);
}
