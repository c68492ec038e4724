//! `levelgraph check`'s findings: the rule limits, tags never
//! produced, rules that can never match. Each names the rule and its line.

use levelgraph::diagnostic::{Diagnostic, Severity};
use levelgraph::grammar;
use levelgraph::lint::lint;

use crate::common;

fn findings(src: &str) -> Vec<(Severity, String, usize)> {
    let g = grammar::load(src, "lint").unwrap_or_else(|e| panic!("{e}"));
    lint(&g)
        .into_iter()
        .map(|d: Diagnostic| {
            let line = d.line_col(src).map_or(0, |lc| lc.line);
            (d.severity, d.message, line)
        })
        .collect()
}

use Severity::{Error, Warning};

#[test]
fn examples_are_clean() {
    for (name, text) in common::example_sources() {
        assert_eq!(findings(&text), [], "{name}");
    }
}

/// A tag's colour with a digit too few or too many is a comment by the
/// `#` rule, which takes the rest of the line (`terminal` too): warned at
/// the `#`, after spaces or a tab. Six digits, a comment after a space,
/// and a `#` on the line after a tag (LF or CRLF) are not: each of those
/// lines follows a tag with nothing after it, so a look past the line's
/// end would find them. Nor is a comment whose first word is made of the
/// letters a–f in either case (`#cafe is …`, `#Face it` before a CRLF, a
/// non-ASCII character right after the word) and goes on: only such a word
/// alone, or before `terminal`, a `}` or another comment, looks like a
/// colour. A word with a decimal digit (`#f0a the red gate`) is warned
/// whatever follows it.
#[test]
fn a_colour_with_the_wrong_digit_count_is_warned() {
    let src = "tags {\n  s \"start\" #9e9e9 terminal\n  room #abc\n  key \"key\" #c0ffee # fine\n  goal \"goal\" # 12345 a comment\n  hall \"hall\"\n#deadbeef on its own line\n  bell\r\n#abc on its own line after a CRLF\r\n  lock #deadbeef\n  door\t#f00\n  hub #cafe is where the paths meet\n  fin #add a boss later\n  end #bad terminal\n  gate #f0a the red gate\n  arch #Face it\r\n  wall #BEEF\r\n  nook #fade→ away\n  cave #bead terminal # a note\n  cell #ace # a note\n  bend #fab }\n}\n\
               rule start { (a:s) => (a:room) -- (b:key) -- (c:goal) -- (d:lock) -- (e:hall) -- (f:bell) -- (g:door) -- (h:hub) -- (i:fin) -- (j:end) -- (k:gate) -- (l:arch) -- (m:wall) -- (n:nook) -- (o:cave) -- (p:cell) -- (q:bend) }\n";
    let warned: Vec<(String, usize)> = findings(src)
        .into_iter()
        .filter(|(_, m, _)| m.contains("is a comment, not a colour"))
        .map(|(severity, m, line)| {
            assert_eq!(severity, Warning);
            (m, line)
        })
        .collect();
    assert_eq!(
        warned,
        [
            (
                "tag `s`: `#` and 5 hex digits is a comment, not a colour".to_owned(),
                2
            ),
            (
                "tag `room`: `#` and 3 hex digits is a comment, not a colour".to_owned(),
                3
            ),
            (
                "tag `lock`: `#` and 8 hex digits is a comment, not a colour".to_owned(),
                10
            ),
            (
                "tag `door`: `#` and 3 hex digits is a comment, not a colour".to_owned(),
                11
            ),
            (
                "tag `end`: `#` and 3 hex digits is a comment, not a colour".to_owned(),
                14
            ),
            (
                "tag `gate`: `#` and 3 hex digits is a comment, not a colour".to_owned(),
                15
            ),
            (
                "tag `wall`: `#` and 4 hex digits is a comment, not a colour".to_owned(),
                17
            ),
            (
                "tag `cave`: `#` and 4 hex digits is a comment, not a colour".to_owned(),
                19
            ),
            (
                "tag `cell`: `#` and 3 hex digits is a comment, not a colour".to_owned(),
                20
            ),
            (
                "tag `bend`: `#` and 3 hex digits is a comment, not a colour".to_owned(),
                21
            ),
        ]
    );
}

#[test]
fn start_rule_limits() {
    let src = "tags { s room }\n\
               rule start { (a:s) -- (b:room) => (a:room) -- (b) }\n\
               rule again { (a:room) -- (b:room) => (a) -- (x:s) -- (b) }\n\
               rule keep { (a:s) => (a) -- (b:room) }\n";
    assert_eq!(
        findings(src),
        [
            (
                Error,
                "rule `start`: a pattern with the start symbol `s` must be that one vertex alone"
                    .into(),
                2
            ),
            (
                Error,
                "rule `again`: the start symbol `s` appears on the right-hand side (vertex `x`)"
                    .into(),
                3
            ),
            (
                Error,
                "rule `keep`: the start symbol `s` appears on the right-hand side (vertex `a`)"
                    .into(),
                4
            ),
        ]
    );
}

#[test]
fn missing_start_rule() {
    let src = "tags { s room }\nrule grow { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }\n";
    let f = findings(src);
    assert_eq!(
        f[0],
        (
            Error,
            "no start rule: no rule's pattern is a single `s` vertex".into(),
            // No header: the start of the file.
            1
        )
    );
    // With no start rule nothing is produced, so grow can never match.
    assert!(f.contains(&(
        Warning,
        "rule `grow` can never match: no rule produces `room`".into(),
        2
    )));
}

#[test]
fn rule_limits_are_warnings_naming_rule_and_line() {
    let src = "tags { s room key }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule lonely { (a:room) => (a) -- (k:key) }\n\
               rule split { (a:room) -- (b:room) => (a), (b) }\n\
               rule eat { (a:room) -- (b:key) => (a) }\n\
               rule far { (a:room), (b:key) => (a) -- (b) }\n";
    assert_eq!(
        findings(src),
        [
            (
                Warning,
                "rule `lonely`: the pattern has one vertex, so the rule is not context-sensitive"
                    .into(),
                3
            ),
            (
                Warning,
                "rule `split`: the right-hand side is not connected".into(),
                4
            ),
            (
                Warning,
                "rule `eat`: pattern vertex `b` is not on the right, so it is deleted".into(),
                5
            ),
            (
                Warning,
                "rule `far`: the pattern is not connected".into(),
                6
            ),
        ]
    );
    let g = grammar::load(src, "lint").unwrap();
    let hints: Vec<String> = lint(&g).into_iter().filter_map(|d| d.hint).collect();
    assert_eq!(
        hints,
        [
            "the rule limits: a non-start rule needs an edge in its pattern to place new \
             vertices against (docs/grammar-language.md, section 10.2)",
            "the rule limits: both sides must be connected (cosmetic edges do not count)",
            "the rule limits: every pattern vertex is kept on the right; write `(b)` there to \
             keep it",
            "the rule limits: both sides must be connected (cosmetic edges do not count)",
        ]
    );
}

#[test]
fn cosmetic_edges_do_not_connect_a_side() {
    let src = "tags { s room key }\n\
               rule start { (a:s) => (a:room) ~~ (b:key) }\n";
    assert_eq!(
        findings(src),
        [(
            Warning,
            "rule `start`: the right-hand side is not connected".into(),
            2
        )]
    );
}

#[test]
fn tags_never_produced_and_rules_that_never_match() {
    let src = "tags { s room boss treasure }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule loot { (a:room) -- (b:boss) => (a) -- (b), (b) -- (t:treasure) }\n";
    assert_eq!(
        findings(src),
        [
            (
                Warning,
                "rule `loot` can never match: no rule produces `boss`".into(),
                3
            ),
            (
                Warning,
                "tag `boss` is declared but never produced".into(),
                1
            ),
            (
                Warning,
                "tag `treasure` is declared but never produced".into(),
                1
            ),
        ]
    );
}

#[test]
fn wildcard_single_vertex_pattern_matches_the_start_vertex() {
    let src = "tags { s room }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule any { (a:*) => (a) -- (b:room) }\n";
    let f = findings(src);
    assert_eq!(
        f[0],
        (
            Error,
            "rule `any`: its one-vertex pattern `*` also matches the start vertex, so it can fire before the start rule".into(),
            3
        )
    );
}

#[test]
fn min_vertices_above_max_vertices() {
    let src = "grammar \"g\" { min_vertices 9 max_vertices 4 }\ntags { s room }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n";
    assert_eq!(
        findings(src),
        [(
            Error,
            "min_vertices 9 is greater than max_vertices 4, so every derivation fails".into(),
            1
        )]
    );
}

#[test]
fn wildcard_with_attribute_constraint_cannot_match_the_start_vertex() {
    let src = "tags { s room }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule marked { (a:* {mark: x}) => (a) -- (b:room) }\n";
    let f = findings(src);
    assert!(f.iter().all(|(sev, _, _)| *sev == Warning), "{f:?}");
}

#[test]
fn duplicate_rules_up_to_renaming() {
    let src = "tags { s room key }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule grow { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }\n\
               rule again weight 3 { (p:room) -- (q:room) => (q) -- (n:room) -- (p) }\n\
               rule other { (a:room) -- (b:room) => (a) -- (x:key) -- (b) }\n";
    assert_eq!(
        findings(src),
        [(
            Warning,
            "rule `again` duplicates rule `grow` up to renaming its vertices".into(),
            4
        )]
    );
}

#[test]
fn recipe_findings() {
    let src = "tags { s room key lock }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule keyed { (a:room) -- (b:room) => (a) -- (b), (a) -- (k:key) }\n\
               rule unlock { (k:key) -- (a:room) => (k) -- (a:lock) }\n\
               rule unused { (a:room) -- (b:key) => (a) -- (b:lock) }\n\
               recipe {\n\
                 start 1\n\
                 early: unlock 1\n\
                 keyed 2\n\
               }\n";
    assert_eq!(
        findings(src),
        [
            (
                Error,
                "recipe early can never run: none of unlock can match after the stages before it; it needs at least one step, so every derivation fails there".into(),
                8
            ),
            (Warning, "rule `unused` is in no recipe stage, so it never runs".into(), 5),
            (Warning, "tag `lock` is declared but never produced".into(), 1),
            (
                Warning,
                "tags `key` and `lock` look like keys and locks, but the grammar has no `play` block: nothing checks that its levels can be finished".into(),
                1
            ),
        ]
    );
    let no_start =
        "tags { s room }\nrule start { (a:s) => (a:room) -- (b:room) }\nrecipe { start 0..1 }\n"
            .replace(
                "recipe { start 0..1 }",
                "rule grow { (a:room) -- (b:room) => (a) -- (c:room) -- (b) }\nrecipe { grow 1 }",
            );
    let f = findings(&no_start);
    assert!(
        f.contains(&(
            Error,
            "the recipe runs no start rule, so no derivation can begin".into(),
            // The word `recipe`.
            4
        )),
        "{f:?}"
    );
}

#[test]
fn non_terminal_tags_left_in_finished_levels_name_a_seed() {
    // Half the levels start with a `todo` leaf that `finish` cannot reach.
    let src = "tags { s room terminal todo }\n\
               rule start { (a:s) => (a:room) -- (b:todo) -- (c:room) => (a:room) -- (b:todo) }\n\
               rule finish { (a:room) -- (b:todo) -- (c:room) => (a) -- (b:room) -- (c) }\n";
    let f = findings(src);
    assert_eq!(f.len(), 1, "{f:?}");
    let (severity, message, line) = &f[0];
    assert_eq!((*severity, *line), (Warning, 1));
    assert!(
        message.starts_with("non-terminal tag `todo` remains in finished levels (")
            && message.contains(" of 200 seeds, first seed "),
        "{message}"
    );
    // With `todo` always rewritten away there is nothing to report.
    let clean = src.replace(" => (a:room) -- (b:todo) }", " }");
    assert_eq!(findings(&clean), []);
}

#[test]
fn induced_rules_are_not_duplicates_of_plain_ones() {
    let src = "tags { s room }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule grow { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }\n\
               rule tight induced { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }\n";
    assert_eq!(findings(src), []);
}

#[test]
fn a_where_not_with_nothing_of_its_own_is_reported() {
    let src = "tags { s room key }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule grow { (a:room) -- (b:room)\n\
                 where not (a)\n\
                 => (a) -- (c:room) -- (b) }\n\
               rule key { (a:room) -- (b:room) where not (a) -- (k:key) => (a) -- (b) -- (k:key) }\n";
    assert_eq!(
        findings(src),
        [(
            Warning,
            "rule `grow`: `where not` condition 1 names only pattern vertices and no edge or containment, so every match meets it and the rule never applies".to_owned(),
            4
        )]
    );
}

#[test]
fn a_grid_rule_without_a_grid_is_reported() {
    let src = "tags { s room }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule dig { (a:room @0,0) -- (b:room @1,0) => (a) -- (b) -- (c:room @2,0) }\n";
    let found = findings(src);
    assert!(
        found.contains(&(
            Warning,
            "rule `dig` has grid offsets, but the grammar has no `grid`: it matches only a host whose vertices have cells".to_owned(),
            3
        )),
        "{found:?}"
    );
}

#[test]
fn a_no_repeat_rule_alone_in_a_stage_of_several_steps_is_reported() {
    let src = "tags { s room }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule grow no_repeat { (a:room) -- (b:room) => (a) -- (c:room) -- (b) }\n\
               recipe {\n\
                 start 1\n\
                 grow 3\n\
               }\n";
    let found = findings(src);
    assert!(
        found.contains(&(
            Warning,
            "recipe stage 2 needs at least 3 steps, but its only rule `grow` is `no_repeat` and cannot apply twice in a row".to_owned(),
            6
        )),
        "{found:?}"
    );
    // And the derivation indeed stops there.
    let g = grammar::load(src, "lint").unwrap();
    assert!(levelgraph::derive(&g, 1).is_err());
}

#[test]
fn a_dead_stage_is_not_also_reported_for_no_repeat() {
    let src = "tags { s room key }\n\
               rule start { (a:s) => (a:room) -- (b:room) }\n\
               rule grow no_repeat { (a:key) -- (b:room) => (a) -- (c:room) -- (b) }\n\
               recipe {\n\
                 start 1\n\
                 grow 3\n\
               }\n";
    let found = findings(src);
    assert!(
        found.iter().any(|(_, m, _)| m.contains("can never run")),
        "{found:?}"
    );
    assert!(
        !found.iter().any(|(_, m, _)| m.contains("no_repeat")),
        "{found:?}"
    );
}

/// The grammar the issue that brought play semantics measured: the default
/// grammar's rules before its edges were directed (a `key_lock` that can
/// hang the key behind its own lock), with a play block.
fn undirected_default_with_play() -> String {
    let text = include_str!("../data/undirected-dungeon-rooms.lg");
    format!("{text}\nplay {{\n  entrance entrance\n  goal goal\n  key key opens lock via ~>\n}}\n")
}

/// `check` counts the sampled levels that cannot be finished, names the
/// first with its reason and the rule that made the key, and points at
/// that rule; the report has the counts.
#[test]
fn levels_that_cannot_be_finished_are_reported_at_the_rule_that_made_them() {
    let src = undirected_default_with_play();
    let g = grammar::load(&src, "undirected").unwrap();
    let report = levelgraph::lint::lint_report(&g);
    let found: Vec<(String, usize)> = report
        .findings
        .iter()
        .map(|d| (d.message.clone(), d.line_col(&src).map_or(0, |lc| lc.line)))
        .collect();
    let key_lock_line = src
        .lines()
        .position(|l| l.starts_with("rule key_lock"))
        .unwrap()
        + 1;
    assert_eq!(found.len(), 2, "{found:?}");
    let (message, line) = &found[0];
    assert_eq!(*line, key_lock_line);
    assert!(
        message.starts_with("41 % of sampled levels cannot be finished (81 of 200): seed 3: key 12 lies behind lock 11, the lock it opens (path entrance 0 → "),
        "{message}"
    );
    assert!(
        message.ends_with("; rule `key_lock` made key 12"),
        "{message}"
    );
    let hint = report.findings[0].hint.clone().unwrap();
    assert!(
        hint.starts_with(
            "why: a key behind its own lock (80), keys behind each other's locks (1);"
        ),
        "{hint}"
    );
    // Rooms behind a key's own lock off the way to the goal, in levels
    // that can be finished: a finding of their own, at the play block.
    let play_line = src.lines().position(|l| l.starts_with("play {")).unwrap() + 1;
    assert_eq!(
        found[1],
        (
            "9 % of sampled levels can be finished but have rooms no play reaches (17 of 200; seed 27: room 8, room 9, lock 11, key 12, lock 13, key 14, room 15, room 16, room 17, room 18, treasure 21)".to_owned(),
            play_line
        )
    );
    let p = report.playability.unwrap();
    assert_eq!(
        (
            p.derived,
            p.completable,
            p.unfinishable,
            p.unknown,
            p.with_unreachable
        ),
        (200, 119, 81, 0, 17)
    );
    assert_eq!(
        p.summary(),
        format!(
            "200 derived, 119 can be finished (60 %), 81 cannot; {} with a lock that gates nothing, 17 with rooms no play reaches",
            p.with_idle_lock
        )
    );
}

/// A level that can be finished but leaves a room behind its key's own
/// lock (a side room) is warned about at the play block.
#[test]
fn rooms_no_play_reaches_in_finishable_levels_are_reported() {
    let src = "tags { s entrance room goal key lock }\n\
               rule start { (a:s) => (a:entrance) -- (b:room) -- (c:goal), (b) -- (l:lock) -- (k:key), (k) ~> (l) }\n\
               play {\n  entrance entrance\n  goal goal\n  key key opens lock via ~>\n}\n";
    assert_eq!(
        findings(src),
        [(
            Warning,
            "100 % of sampled levels can be finished but have rooms no play reaches (200 of 200; seed 1: lock 3, key 4)".into(),
            3
        )]
    );
}

/// Levels the bounded search cannot decide within `search_limit` are
/// warned about at that setting.
#[test]
fn undecided_levels_are_reported_at_the_search_limit() {
    let src = "tags { s entrance goal key lock }\n\
               rule start { (a:s) => (a:entrance) -- (k1:key) -- (l1:lock) -- (k2:key) -- (l2:lock) -- (g:goal) }\n\
               play {\n  entrance entrance\n  goal goal\n  small key key opens lock\n  search_limit 1\n}\n";
    assert_eq!(
        findings(src),
        [(
            Warning,
            "the search for an order of play could not decide 200 of 200 sampled levels within its limit of 1 state (first seed 1)".into(),
            7
        )]
    );
}

/// A grammar whose every derivation fails is told so at the stage or the
/// setting at fault (it had been "0 errors, 0 warnings").
#[test]
fn every_derivation_failing_is_reported_where_it_fails() {
    let stage = "tags { s room }\n\
                 rule start { (a:s) => (a:room) -- (b:room) }\n\
                 rule grow max_uses 2 { (a:room) -- (b:room) => (a) -- (c:room) -- (b) }\n\
                 recipe {\n  start 1\n  growth: grow 5\n}\n";
    let f = findings(stage);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!((f[0].0, f[0].2), (Warning, 6));
    assert!(
        f[0].1.starts_with("every sampled derivation fails (200 of 200 seeds so; first seed 1: derivation failed: recipe growth (rules grow) made 2 of its minimum 5 steps"),
        "{}",
        f[0].1
    );
    let small = "grammar \"small\" {\n  min_vertices 5\n}\n\
                 tags { s room }\n\
                 rule start { (a:s) => (a:room) -- (b:room) }\n";
    let f = findings(small);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!((f[0].0, f[0].2), (Warning, 2));
    assert!(f[0].1.starts_with("every sampled derivation fails (200 of 200 seeds so; first seed 1: derivation failed: 2 vertices, fewer than min_vertices 5"), "{}", f[0].1);
    // One level of the two that derives is enough to say nothing.
    let some = small.replace(
        "rule start { (a:s) => (a:room) -- (b:room) }",
        "rule start { (a:s) => (a:room) -- (b:room) }\nrule grow probability 0.5 max_uses 3 { (a:room) -- (b:room) => (a) -- (c:room) -- (b) }",
    );
    assert!(
        findings(&some)
            .iter()
            .all(|(_, m, _)| !m.starts_with("every sampled")),
        "{:?}",
        findings(&some)
    );
}

/// Tags named like keys and locks without a play block are warned about;
/// a play block, or tags that are not keys and locks, say nothing.
#[test]
fn keys_and_locks_without_a_play_block_are_warned_about() {
    let without = "tags { s entrance goal red_key lock }\n\
                   rule start { (a:s) => (a:entrance) -- (l:lock) -- (g:goal), (a) -- (k:red_key), (k) ~> (l) }\n";
    assert_eq!(
        findings(without),
        [(
            Warning,
            "tags `red_key` and `lock` look like keys and locks, but the grammar has no `play` block: nothing checks that its levels can be finished".into(),
            1
        )]
    );
    let with = format!(
        "{without}play {{\n  entrance entrance\n  goal goal\n  key red_key opens lock via ~>\n}}\n"
    );
    assert_eq!(findings(&with), []);
    // `keyboard` and `locksmith` are words of their own.
    let other = without
        .replace("red_key", "keyboard")
        .replace("lock", "locksmith");
    assert_eq!(findings(&other), []);
}

/// A key statement whose keys, locks or links occur in no sampled level is
/// warned about at the statement: a door selector written undirected for
/// directed corridors, a `via` of the wrong kind.
#[test]
fn key_statements_that_find_nothing_are_reported() {
    let rules = "tags { s entrance goal key }\n\
                 rule start { (a:s) => (a:entrance) -[locked]-> (g:goal), (a) -- (k:key) }\n";
    let undirected_door = format!(
        "{rules}play {{\n  entrance entrance\n  goal goal\n  key key opens -[locked]-\n}}\n"
    );
    let f = findings(&undirected_door);
    assert_eq!(
        f,
        [(
            Warning,
            "key statement 1 finds no lock in any of the 200 sampled levels".into(),
            6
        )],
        "{f:?}"
    );
    let g = grammar::load(&undirected_door, "lint").unwrap();
    let hint = lint(&g)[0].hint.clone().unwrap();
    assert!(hint.contains("`-[locked]->` directed ones"), "{hint}");
    // The directed door: found, and every level can be finished.
    assert_eq!(
        findings(&undirected_door.replace("opens -[locked]-", "opens -[locked]->")),
        []
    );

    let locks = "tags { s entrance gem goal key lock }\n\
                 rule start { (a:s) => (a:entrance) -- (l:lock) -- (g:goal), (a) -- (k:key), (k) ~> (l) }\n";
    let wrong_link = format!(
        "{locks}play {{\n  entrance entrance\n  goal goal\n  key key opens lock via ~~\n}}\n"
    );
    let f = findings(&wrong_link);
    assert!(
        f.contains(&(
            Warning,
            "key statement 1 finds no key that opens a lock in any of the 200 sampled levels"
                .into(),
            6
        )),
        "{f:?}"
    );
    let no_key = format!(
        "{locks}play {{\n  entrance entrance\n  goal goal\n  key gem opens lock via ~>\n}}\n"
    );
    assert!(
        findings(&no_key).contains(&(
            Warning,
            "key statement 1 finds no key in any of the 200 sampled levels".into(),
            6
        )),
        "{:?}",
        findings(&no_key)
    );
}
