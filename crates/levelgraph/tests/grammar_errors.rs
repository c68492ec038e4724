//! Every grammar error the parser and compiler report: message, position
//! (line and column) and hint, for the text language and the JSON form.

use levelgraph::diagnostic::{Diagnostic, Location};
use levelgraph::grammar::{self, Grammar};

mod common;

const TAGS: &str = "tags { s \"start\" room \"room\" key \"key\" }\n";

/// The diagnostics of loading `src`, which must fail.
fn errors(src: &str) -> Vec<Diagnostic> {
    match grammar::load(src, "test") {
        Ok(_) => panic!("grammar unexpectedly loaded:\n{src}"),
        Err(e) => e.diagnostics,
    }
}

/// Asserts the single error of `src`: message, 1-based line and column, and
/// a fragment of the hint.
#[track_caller]
fn check(src: &str, message: &str, line: usize, column: usize, hint: &str) {
    let diags = errors(src);
    assert_eq!(diags.len(), 1, "expected one error, got {diags:#?}");
    let d = &diags[0];
    assert_eq!(d.message, message);
    let lc = d.line_col(src).expect("located by span");
    assert_eq!(
        (lc.line, lc.column),
        (line, column),
        "position of `{message}`"
    );
    let got_hint = d.hint.as_deref().unwrap_or("");
    assert!(got_hint.contains(hint), "hint {got_hint:?} lacks {hint:?}");
}

#[test]
fn unknown_tag_on_the_right() {
    check(
        &format!("{TAGS}rule start {{ (a:s) => (a:room) -- (b:rom) }}\n"),
        "unknown tag `rom`",
        2,
        35,
        "declare it in the `tags` block",
    );
}

#[test]
fn unknown_tag_in_pattern_alternatives_and_forbidden() {
    let src = format!("{TAGS}rule r {{ (a:room|hall) -- (b:room !lok) => (a) -- (b) }}\n");
    let diags = errors(&src);
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["unknown tag `hall`", "unknown tag `lok`"]);
    assert_eq!(diags[1].line_col(&src).unwrap().column, 27);
}

#[test]
fn duplicate_rule_names_the_first() {
    check(
        &format!("{TAGS}rule start {{ (a:s) => (a:room) }}\n\nrule start {{ (a:s) => (a:key) }}\n"),
        "duplicate rule `start`",
        4,
        6,
        "the first rule `start` is at line 2",
    );
}

#[test]
fn new_right_hand_vertex_without_tag() {
    check(
        &format!("{TAGS}rule grow {{ (a:room) -- (b:room) => (a) -- (x) -- (b) }}\n"),
        "replacement vertex `x` is not in the pattern and has no tag",
        2,
        44,
        "give the new vertex a tag, `(x:room)`",
    );
}

#[test]
fn duplicate_tag() {
    check(
        "tags { s room room }\n",
        "tag `room` is declared twice",
        1,
        15,
        "first declared at line 1",
    );
}

#[test]
fn undeclared_start_symbol_is_a_field_error() {
    let diags = errors("grammar \"g\" { start begin }\ntags { room }\n");
    assert_eq!(diags.len(), 1);
    assert_eq!(
        diags[0].message,
        "start symbol `begin` is not declared in `tags`"
    );
    assert_eq!(diags[0].location, Location::Field("start".into()));
}

#[test]
fn several_errors_are_all_reported() {
    let src = format!(
        "{TAGS}rule a {{ (x:nope) -- (y:room) => (x) -- (y) }}\nrule b {{ (x:room) -- (y:room) => (x) -- (z) }}\n"
    );
    let diags = errors(&src);
    assert_eq!(diags.len(), 2, "{diags:#?}");
    assert_eq!(diags[0].line_col(&src).unwrap().line, 2);
    assert_eq!(diags[1].line_col(&src).unwrap().line, 3);
}

#[test]
fn syntax_errors_with_positions() {
    let cases: &[(&str, &str, usize, usize, &str)] = &[
        (
            "rule r { (a:room) -- (b:room) (a) }",
            "expected `=>`, found `}`",
            1,
            35,
            "pattern => replacement",
        ),
        (
            "rule r { (a:room) -= (b:room) => (a) }",
            "malformed edge operator",
            1,
            19,
            "edges are written",
        ),
        (
            "rule r { (a) -- (b:room) => (a) }",
            "pattern vertex `a` has no tag",
            1,
            10,
            "write `(a:*)`",
        ),
        (
            "rule r { (a:room|room2) => (a:room|key) }",
            "replacement vertex `a` must have exactly one tag",
            1,
            28,
            "write `(a)` to keep",
        ),
        (
            "rule r { (a:*) => (a:*) }",
            "replacement vertex `a` must have exactly one tag",
            1,
            19,
            "belong on the pattern side",
        ),
        (
            "rule r { (a:room) -- (a:key) => (a) }",
            "vertex `a` is given different tags on the same side",
            1,
            22,
            "at line 1",
        ),
        (
            "rule r { (a:!lock) => (a) }",
            "forbidden tags need a tag set before them",
            1,
            13,
            "(b:* !lock)",
        ),
        (
            "rule r weight 0 { (a:room) => (a) }",
            "`weight` must be greater than 0",
            1,
            15,
            "max_uses 0",
        ),
        (
            "rule r frequency 2 { (a:room) => (a) }",
            "unknown rule attribute `frequency`",
            1,
            8,
            "weight, max_uses, probability, no_repeat, priority, group, induced",
        ),
        (
            "grammar \"g\" { max_nodes 3 }",
            "unknown setting `max_nodes`",
            1,
            15,
            "max_vertices",
        ),
        (
            "grammar \"g\" { min_vertices 3 min_vertices 4 }",
            "`min_vertices` is set twice",
            1,
            30,
            "first set at line 1",
        ),
        (
            "grammar \"g\" { max_valence 2.5 }",
            "`max_valence` must be a whole number from 0 to 4294967295",
            1,
            27,
            "",
        ),
        (
            "grammar g { }",
            "expected the grammar's name as a string, found `g`",
            1,
            9,
            "",
        ),
        (
            "tags { s \"start }",
            "unterminated string",
            1,
            10,
            "close the string",
        ),
        (
            "rule r { (a:room) -[ ]-> (b:room) => (a) }",
            "edge label must be a name",
            1,
            22,
            "-[locked]->",
        ),
        (
            "tags { s } tags { room }",
            "second `tags` block",
            1,
            12,
            "merge them",
        ),
        (
            "rules r { }",
            "expected `grammar`, `tags`, `rule`, `group`, `recipe` or `rooms`, found `rules`",
            1,
            1,
            "a grammar file holds",
        ),
        (
            "rule r { (a:room) $ }",
            "unexpected character `$`",
            1,
            19,
            "",
        ),
        (
            "rule r { (a:room) -- (b:room) => (a) -- (a) }",
            "edge from vertex `a` to itself",
            1,
            38,
            "from a room to itself",
        ),
        (
            "rule r { (a:room) -- (b:room), (b) -- (a) => (a) }",
            "edge between `b` and `a` is written twice on this side",
            1,
            36,
            "never has two identical edges",
        ),
        (
            "rule r { (a:room) => (a) -> (b:room), (a) -> (b) }",
            "edge between `a` and `b` is written twice on this side",
            1,
            43,
            "use a label",
        ),
        (
            "rule r weight 2 max_uses 1 weight 3 { (a:room) => (a) }",
            "rule attribute `weight` is given twice",
            1,
            28,
            "first given at line 1, column 8",
        ),
    ];
    for &(body, message, line, column, hint) in cases {
        let src = format!("{body}\n");
        let diags = errors(&src);
        let d = diags
            .iter()
            .find(|d| d.message == message)
            .unwrap_or_else(|| panic!("no `{message}` for {body:?}; got {diags:#?}"));
        let lc = d.line_col(&src).expect("located by span");
        assert_eq!(
            (lc.line, lc.column),
            (line, column),
            "position of `{message}` in {body:?}"
        );
        let got_hint = d.hint.as_deref().unwrap_or("");
        assert!(
            got_hint.contains(hint),
            "{body:?}: hint {got_hint:?} lacks {hint:?}"
        );
    }
}

#[test]
fn tag_sets_may_be_repeated_in_any_order() {
    let src =
        format!("{TAGS}rule r {{ (a:room|key) -- (b:room), (b) -> (a:key|room) => (a) -- (b) }}\n");
    grammar::load(&src, "t").unwrap();
}

#[test]
fn json_empty_right_hand_side_is_an_error() {
    let mut model = grammar::parse("tags { s room }\nrule r { (a:s) => (a:room) }", "j").unwrap();
    model.rules[0].rhs[0].vertices.clear();
    let diags = grammar::load_json(&model.to_json())
        .unwrap_err()
        .diagnostics;
    assert_eq!(diags[0].message, "rule `r` has an empty right-hand side");
    assert_eq!(diags[0].location, Location::Field("rules[0].rhs[0]".into()));
}

#[test]
fn json_errors_name_the_field() {
    let mut model: Grammar = grammar::parse(
        "tags { s room }\nrule start { (a:s) => (a:room) -- (b:room) }",
        "j",
    )
    .unwrap();
    model.rules[0].rhs[0].vertices[1].tag = Some("hall".into());
    let json = model.to_json();
    let diags = grammar::load_json(&json).unwrap_err().diagnostics;
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].message, "unknown tag `hall`");
    assert_eq!(
        diags[0].location,
        Location::Field("rules[0].rhs[0].vertices[1]".into())
    );

    let broken = grammar::load_json("{\"name\": \"x\", \"tags\": [], \"rules\": [], \"oops\": 1}")
        .unwrap_err()
        .diagnostics;
    assert!(
        broken[0].message.contains("unknown field `oops`"),
        "{}",
        broken[0].message
    );
    assert!(
        broken[0].message.contains("line 1 column"),
        "{}",
        broken[0].message
    );
}

#[test]
fn json_form_round_trips_and_derives_identically() {
    for (name, text) in common::example_sources() {
        let (name, text) = (name.as_str(), text.as_str());
        let model = grammar::parse(text, name).unwrap();
        let json = model.to_json();
        let back = Grammar::from_json(&json).unwrap();
        assert_eq!(back.to_json(), json, "{name}: JSON form is stable");
        // Spans are not part of the JSON form; everything else must survive.
        let strip = |g: &Grammar| {
            let mut g = g.clone();
            g.tags.iter_mut().for_each(|t| t.span = None);
            for r in &mut g.rules {
                r.span = None;
                r.lhs.vertices.iter_mut().for_each(|v| v.span = None);
                r.lhs.edges.iter_mut().for_each(|e| e.span = None);
                r.lhs.inside.iter_mut().for_each(|c| c.span = None);
                for nac in &mut r.where_not {
                    nac.vertices.iter_mut().for_each(|v| v.span = None);
                    nac.edges.iter_mut().for_each(|e| e.span = None);
                    nac.inside.iter_mut().for_each(|c| c.span = None);
                }
                for alt in &mut r.rhs {
                    alt.span = None;
                    alt.vertices.iter_mut().for_each(|v| v.span = None);
                    alt.edges.iter_mut().for_each(|e| e.span = None);
                    alt.inside.iter_mut().for_each(|c| c.span = None);
                }
            }
            g.groups.iter_mut().for_each(|grp| grp.span = None);
            if let Some(recipe) = &mut g.recipe {
                recipe.stages.iter_mut().for_each(|st| st.span = None);
            }
            if let Some(rooms) = &mut g.rooms {
                rooms.span = None;
                rooms.templates.iter_mut().for_each(|t| t.span = None);
                rooms.sets.iter_mut().for_each(|s| s.span = None);
                rooms.uses.iter_mut().for_each(|u| u.span = None);
            }
            g
        };
        assert_eq!(strip(&model), back, "{name}");
        let from_text = grammar::load(text, name).unwrap();
        let from_json = grammar::load_json(&json).unwrap();
        for seed in 1..=20 {
            let a = levelgraph::derive(&from_text, seed).unwrap();
            let b = levelgraph::derive(&from_json, seed).unwrap();
            assert_eq!(a.trace, b.trace, "{name} seed {seed}");
        }
    }
}

#[test]
fn plain_rendering_shows_file_line_col_caret_and_hint() {
    let src = format!("{TAGS}rule start {{ (a:s) => (a:room) -- (b:rom) }}\n");
    let d = &errors(&src)[0];
    let text = d.render_plain("dungeon.lg", &src);
    assert_eq!(
        text,
        "dungeon.lg:2:35: error: unknown tag `rom`\n    rule start { (a:s) => (a:room) -- (b:rom) }\n                                      ^^^^^^^\n    hint: declare it in the `tags` block: `rom \"description\" #rrggbb`\n"
    );
}

/// A pattern gets a search plan from each of its vertices: a 1,000-vertex
/// chain took 5.5 s to load and a 5,000-vertex one over 20 s. Patterns
/// and conditions are limited to 256 vertices, reported at the rule.
#[test]
fn patterns_of_more_than_256_vertices() {
    let chain = |n: usize, p: &str| {
        (0..n)
            .map(|i| format!("({p}{i}:room)"))
            .collect::<Vec<_>>()
            .join(" -- ")
    };
    check(
        &format!(
            "{TAGS}rule start {{ (a:s) => (a:room) }}\nrule big {{ {} => (v0) }}\n",
            chain(257, "v")
        ),
        "rule `big` has a pattern of 257 vertices, more than 256",
        3,
        6,
        "split the rule",
    );
    check(
        &format!(
            "{TAGS}rule start {{ (a:s) => (a:room) }}\n\
             rule big {{ (v0:room) where not (v0) -- {} => (v0) }}\n",
            chain(256, "w")
        ),
        "rule `big` has a `where not` condition of 257 vertices, more than 256",
        3,
        6,
        "split the rule",
    );
    assert_eq!(grammar::MAX_PATTERN_VERTICES, 256);
    grammar::load(
        &format!(
            "{TAGS}rule start {{ (a:s) => (a:room) }}\nrule big {{ {} => (v0) }}\n",
            chain(256, "v")
        ),
        "test",
    )
    .unwrap();
}

/// Sides of many thousands of vertices and edges load and lint in time
/// proportional to their size: pairing kept edges, finding repeated edges,
/// the lint's connectivity test and its duplicate-rule labels each
/// compared every pair (a 100,000-vertex right-hand side took minutes).
#[test]
fn huge_sides_load_and_lint_in_linear_time() {
    let n = 30_000;
    let chain = (1..n)
        .map(|i| format!("(v{i}:room)"))
        .collect::<Vec<_>>()
        .join(" -- ");
    let src = format!(
        "grammar \"big\" {{ max_vertices 100000 }}\n{TAGS}\
         rule start {{ (v0:s) => (v0:room) -- {chain} }}\n\
         rule again {{ (v0:s) => (v0:room) -- {chain} }}\n"
    );
    let started = std::time::Instant::now();
    let g = grammar::load(&src, "test").unwrap();
    let findings = grammar::lint::lint(&g);
    assert!(findings
        .iter()
        .all(|f| f.severity != levelgraph::diagnostic::Severity::Error));
    let d = levelgraph::derive(&g, 1).unwrap();
    assert_eq!(d.graph.vertex_count(), n);
    assert!(
        started.elapsed().as_secs() < 20,
        "took {:?}",
        started.elapsed()
    );
}
