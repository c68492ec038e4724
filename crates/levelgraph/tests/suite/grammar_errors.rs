//! Every grammar error the parser and compiler report: message, position
//! (line and column) and hint, for the text language and the JSON form.

use levelgraph::diagnostic::{Diagnostic, Location};
use levelgraph::grammar::{self, Grammar};

use crate::common;

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

/// A forgotten `}` is reported as the rule left open, at the next
/// top-level word or the end of the file, with the line of its `{`; not as
/// "expected a vertex, found `rule`".
#[test]
fn a_rule_left_open_is_named() {
    check(
        &format!("{TAGS}rule start {{\n  (a:s) => (a:room)\n\nrule more {{ (a:room) => (a) -- (b:key) }}\n"),
        "rule `start` is not closed: expected `}` before `rule`",
        5,
        1,
        "its `{` is at line 2, column 12; end the block with `}`",
    );
    check(
        &format!("{TAGS}rule start {{\n  (a:s) => (a:room)\n"),
        "rule `start` is not closed: expected `}` before end of file",
        4,
        1,
        "its `{` is at line 2, column 12",
    );
    // `rule` inside a line is not taken for the next rule: the error stays.
    check(
        &format!("{TAGS}rule start {{ (a:s) => (a:room) rule"),
        "expected a vertex `(name:tag)`, found `rule`",
        2,
        32,
        "",
    );
}

/// A `}` after a `#` or `//` on the same line is comment, so the block it
/// was to close runs on into the next item: the hint points at the
/// comment (for a mistyped colour, with the colour's form), in `tags`, in
/// a rule and in the header. A block that ends where it should is not
/// blamed on a comment with a `}` inside it.
#[test]
fn a_closing_brace_inside_a_comment_is_hinted() {
    let rule = "rule start { (a:s) => (a:room) }\n";
    check(
        &format!("tags {{ s room #abc }}\n{rule}"),
        "expected a tag name or `}`, found `{`",
        2,
        12,
        "line 1's `}` is inside a comment: `#abc` at column 15 starts one (a colour is `#` and six hex digits) and it runs to the end of the line",
    );
    check(
        &format!("tags {{ s room // the alphabet }}\n{rule}"),
        "expected a tag name or `}`, found `{`",
        2,
        12,
        "line 1's `}` is inside a comment: `//` at column 15 starts one and it runs",
    );
    check(
        &format!(
            "{TAGS}rule start {{ (a:s) => (a:room) # done }}\nrule more {{ (a:room) => (a) }}\n"
        ),
        "rule `start` is not closed: expected `}` before `rule`",
        3,
        1,
        "line 2's `}` is inside a comment: `#` at column 32 starts one and",
    );
    check(
        &format!("grammar \"g\" {{ start s # header }}\n{TAGS}{rule}"),
        "unknown setting `tags`",
        2,
        1,
        "line 1's `}` is inside a comment: `#` at column 23",
    );
    // The header ends where it should: its own hint, not the comment's.
    check(
        &format!("grammar \"g\" {{ # settings }}\n  max_iteratons 5\n}}\n{TAGS}{rule}"),
        "unknown setting `max_iteratons`",
        2,
        3,
        "settings are: start,",
    );
    // The recipe and the `rooms` block run on the same way.
    check(
        &format!("{TAGS}{rule}recipe {{ start 1 # once }}\nrooms {{\n}}\n"),
        "expected `|` or a count: `N`, `N..M`, `N..*` or `*`, found `{`",
        4,
        7,
        "line 3's `}` is inside a comment: `#` at column 18",
    );
    check(
        &format!("{TAGS}{rule}rooms {{ door 2 # x }}\n"),
        "expected a word of the `rooms` block or `}`, found end of file",
        4,
        1,
        "line 3's `}` is inside a comment: `#` at column 16",
    );
}

/// The comment hint is not given when the comment cannot have taken the
/// block's `}`: each `}` in it closes a `{` before it in the comment, or
/// it comes after the word the block ran on into. A word of letters that
/// prose goes on from is not called a colour.
#[test]
fn a_comment_that_took_no_brace_is_not_blamed() {
    let rule = "rule start { (a:s) => (a:room) }\n";
    check(
        &format!("{TAGS}rule start {{\n  (a:s) => (a:room) # {{a}} is the room\n{rule}"),
        "rule `start` is not closed: expected `}` before `rule`",
        4,
        1,
        "its `{` is at line 2, column 12",
    );
    let src = "tags { s room\nrule start # old }\n{ (a:s) => (a:room) }\n";
    check(src, "expected a tag name or `}`, found `{`", 3, 1, "");
    assert_eq!(errors(src)[0].hint, None);
    let d = &errors(&format!("tags {{ s room #bad idea }}\n{rule}"))[0];
    let hint = d.hint.as_deref().unwrap_or("");
    assert!(
        hint.contains("`#bad` at column 15 starts one and"),
        "{hint}"
    );
    let d = &errors(&format!("tags {{ s room #fab}}\n{rule}"))[0];
    let hint = d.hint.as_deref().unwrap_or("");
    assert!(
        hint.contains("`#fab` at column 15 starts one (a colour is"),
        "{hint}"
    );
}

/// `->` typed for `=>` makes a pattern give one vertex two tags; the hint
/// says which arrow was meant.
#[test]
fn a_directed_edge_for_the_rule_arrow_is_hinted() {
    check(
        &format!("{TAGS}rule start {{ (a:s) -> (a:room) -- (b:key) }}\n"),
        "vertex `a` is given different tags on the same side",
        2,
        23,
        "`->` is a directed edge; the arrow from a rule's pattern to its replacement is `=>`",
    );
    // Two tags after an undirected edge get the plain hint.
    let diags = errors(&format!(
        "{TAGS}rule start {{ (a:s) -- (a:room) => (a) }}\n"
    ));
    assert_eq!(
        diags[0].message,
        "vertex `a` is given different tags on the same side"
    );
    assert!(diags[0]
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("its tags are set"));
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

/// The first line of every error of text grammar `src` saved as `file`,
/// as `levelgraph check` finds them: compile errors, else lint errors.
fn rendered(file: &str, src: &str) -> Vec<String> {
    let diags = match grammar::load(src, "test") {
        Err(e) => e.diagnostics,
        Ok(g) => levelgraph::lint::errors(&g),
    };
    diags
        .iter()
        .map(|d| {
            let text = d.render_plain(file, src);
            text.lines().next().unwrap_or("").to_owned()
        })
        .collect()
}

#[test]
fn undeclared_start_symbol_is_at_the_start_setting() {
    let src = "grammar \"g\" {\n  start begin\n}\ntags { room }\n";
    assert_eq!(
        rendered("g.lg", src),
        ["g.lg:2:3: error: start symbol `begin` is not declared in `tags`"]
    );
    // The caret covers the setting with its value.
    let d = &errors(src)[0];
    assert!(d
        .render_plain("g.lg", src)
        .contains("\n      start begin\n      ^^^^^^^^^^^\n"));
}

#[test]
fn an_unwritten_start_symbol_is_at_the_header_or_the_start_of_the_file() {
    let src = "# no start setting\ngrammar \"g\" { max_vertices 10 }\ntags { room }\n";
    assert_eq!(
        rendered("g.lg", src),
        ["g.lg:2:1: error: the start symbol is `s` (the header sets no `start`), but `tags` does not declare it"]
    );
    let d = &errors(src)[0];
    assert!(d.hint.as_deref().unwrap().contains("`start TAG`"));
    // No header: line 1, column 1.
    assert_eq!(
        rendered("h.lg", "\n  tags { room }\nrule r { (a:room) => (a) }\n"),
        ["h.lg:1:1: error: the start symbol is `s` (the header sets no `start`), but `tags` does not declare it"]
    );
}

#[test]
fn an_empty_grammar_file_says_what_is_missing_at_1_1() {
    for src in ["", "\n\n", "# only a comment\n"] {
        assert_eq!(
            rendered("empty.lg", src),
            ["empty.lg:1:1: error: the grammar is empty: it has no `tags` block and no rules"],
            "{src:?}"
        );
    }
    assert!(errors("")[0]
        .hint
        .as_deref()
        .unwrap()
        .contains("start symbol `s`"));
}

#[test]
fn contradicting_limits_are_at_the_min_vertices_setting() {
    let src = "grammar \"mm\" {\n  min_vertices 50\n  max_vertices 40\n}\ntags { s room }\nrule start { (a:s) => (a:room) }\n";
    assert_eq!(
        rendered("minmax.lg", src),
        ["minmax.lg:2:3: error: min_vertices 50 is greater than max_vertices 40, so every derivation fails"]
    );
    // min_vertices above the default max_vertices, which is not written.
    let src = "grammar \"mm\" { max_iterations 5\n  min_vertices 20000 }\ntags { s room }\nrule start { (a:s) => (a:room) }\n";
    assert_eq!(
        rendered("minmax.lg", src),
        ["minmax.lg:2:3: error: min_vertices 20000 is greater than max_vertices 10000, so every derivation fails"]
    );
    // max_vertices below the default min_vertices cannot happen (0), but
    // max_vertices alone is found when min_vertices is not written.
    let g = grammar::parse("grammar \"x\" {\n max_vertices 3 }", "x").unwrap();
    assert_eq!(
        g.spans.locate(&["min_vertices", "max_vertices"], "limits"),
        Location::Span(levelgraph::diagnostic::Span::new(15, 29))
    );
}

#[test]
fn grid_errors_are_at_the_grid_setting() {
    let src = "grammar \"g\" {\n  grid 0 x 9 of n\n}\ntags { n }\nrule r { (a:n @0,0) => (a:n) }\n";
    assert_eq!(
        rendered("grid.lg", src),
        ["grid.lg:2:3: error: the grid 0 x 9 is empty"]
    );
    let src = "grammar \"g\" { max_vertices 10\n grid 4 x 4 of m }\ntags { n }\nrule r { (a:n @0,0) => (a:n) }\n";
    assert_eq!(
        rendered("grid.lg", src),
        [
            "grid.lg:2:2: error: the grid 4 x 4 has more vertices than max_vertices 10",
            "grid.lg:2:2: error: unknown tag `m`"
        ]
    );
}

#[test]
fn start_rule_and_recipe_findings_are_located_in_the_text() {
    let src = "grammar \"g\" {\n  start s\n}\ntags { s room }\nrule r { (a:room) -- (b:room) => (a) -- (b) }\n";
    assert_eq!(
        rendered("g.lg", src),
        ["g.lg:2:3: error: no start rule: no rule's pattern is a single `s` vertex"]
    );
    // Without a header, the start of the file.
    let src = "tags { s room }\nrule r { (a:room) -- (b:room) => (a) -- (b) }\n";
    assert_eq!(
        rendered("g.lg", src),
        ["g.lg:1:1: error: no start rule: no rule's pattern is a single `s` vertex"]
    );
    let src = "tags { s room }\nrule start { (a:s) => (a:room) }\n\nrecipe {\n}\n";
    assert_eq!(
        rendered("r.lg", src),
        ["r.lg:4:1: error: the recipe has no stages"]
    );
    let src = "tags { s room }\nrule start { (a:s) => (a:room) }\nrule grow { (a:room) => (a) -- (b:room) }\n  recipe { grow 0..3 }\n";
    assert_eq!(
        rendered("r.lg", src),
        ["r.lg:4:3: error: the recipe runs no start rule, so no derivation can begin"]
    );
}

#[test]
fn a_containment_cycle_is_at_its_first_containment() {
    let src = "tags { s room }\nrule start { (a:s) => (a:room) }\nrule c { (a:room) => (a:room) (b:room) in (a), (a) in (b) }\n";
    assert_eq!(
        rendered("c.lg", src),
        ["c.lg:3:40: error: containment on this side puts a vertex inside itself"]
    );
}

#[test]
fn geometric_findings_are_at_the_setting() {
    let src = "grammar \"g\" {\n  grid 2 x 2 of s\n  geometric { radius foo 2 }\n}\ntags { s room }\nrule start { (a:s) => (a:room) }\n";
    assert_eq!(
        rendered("geo.lg", src),
        [
            "geo.lg:3:3: error: a grid grammar cannot be `geometric`",
            "geo.lg:3:22: error: unknown tag `foo`"
        ]
    );
}

#[test]
fn rooms_settings_are_at_their_own_lines() {
    let src = "tags { s room }\nrule start { (a:s) => (a:room) }\nrooms {\n  template \"sq\" (0,0) (4,0) (4,4) (0,4)\n  use *: sq\n  tile_scale 0\n  retries 5000\n  min_distance 3000000\n}\n";
    assert_eq!(
        rendered("rooms.lg", src),
        [
            "rooms.lg:8:3: error: min_distance 3000000 is out of range",
            "rooms.lg:6:3: error: tile_scale 0 is out of range",
            "rooms.lg:7:3: error: retries 5000 is out of range",
        ]
    );
    let src = "tags { s room }\nrule start { (a:s) => (a:room) }\nrooms {\n  template \"sq\" (0,0) (4,0) (4,4) (0,4)\n  use *: sq\n  load \"rooms\"\n  load \"\"\n}\n";
    assert_eq!(
        rendered("rooms.lg", src),
        ["rooms.lg:7:3: error: `load` needs a file or folder name"]
    );
    let src = "tags { s room }\nrule start { (a:s) => (a:room) }\nrooms {\n  template \"sq\" (0,0) (4,0) (4,4) (0,4)\n  use *: sq\n\n  corridors: nope\n}\n";
    let lines = rendered("rooms.lg", src);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("rooms.lg:7:3: error: "), "{lines:?}");
}

/// Limits beyond what a machine holds are refused where they are written
/// (text) or by field (JSON); the most accepted values are accepted.
#[test]
fn limits_beyond_the_machine_are_refused_where_written() {
    let src = "grammar \"g\" {\n  max_iterations 20000001\n  max_vertices 4294967295\n}\ntags { s room }\nrule start { (a:s) => (a:room) }\n";
    assert_eq!(
        rendered("big.lg", src),
        [
            "big.lg:2:3: error: max_iterations 20000001 is above the most accepted, 20000000",
            "big.lg:3:3: error: max_vertices 4294967295 is above the most accepted, 4000000",
        ]
    );
    let src = "grammar \"g\" { geometric { steps 4294967295 finish_steps 10000 retries 1001 } }\ntags { s room }\nrule start { (a:s) => (a:room) }\n";
    assert_eq!(
        rendered("geo.lg", src),
        [
            "geo.lg:1:15: error: geometric steps 4294967295 is above the most accepted, 1000",
            "geo.lg:1:15: error: geometric retries 1001 is above the most accepted, 1000",
        ]
    );
    let most = "grammar \"g\" { max_iterations 20000000 max_vertices 4000000 geometric { steps 1000 finish_steps 10000 retries 1000 } }\ntags { s room }\nrule start { (a:s) => (a:room) }\n";
    assert!(grammar::load(most, "most").is_ok());
    let mut model = grammar::parse(most, "g").unwrap();
    model.limits.max_vertices = 4_000_001;
    let diags = grammar::load_json(&model.to_json())
        .unwrap_err()
        .diagnostics;
    assert_eq!(
        diags[0].location,
        Location::Field("limits.max_vertices".into())
    );
}

#[test]
fn json_grammars_keep_field_paths_for_header_findings() {
    let model = grammar::parse(
        "grammar \"g\" { start begin min_vertices 5 max_vertices 4 }\ntags { s room }\nrule start { (a:s) => (a:room) }\n",
        "g",
    )
    .unwrap();
    let diags = grammar::load_json(&model.to_json())
        .unwrap_err()
        .diagnostics;
    assert_eq!(diags[0].location, Location::Field("start".into()));
    assert_eq!(
        diags[0].render_plain("g.json", ""),
        "g.json: error: start symbol `begin` is not declared in `tags` (at start)\n    hint: add `begin \"start symbol\"` to the tags block\n"
    );
    let mut model = model;
    model.start = "s".into();
    let g = grammar::load_json(&model.to_json()).unwrap();
    let lint = levelgraph::lint::errors(&g);
    assert_eq!(lint[0].location, Location::Field("limits".into()));
    model.rules.clear();
    model.limits.min_vertices = 0;
    let g = grammar::load_json(&model.to_json()).unwrap();
    assert_eq!(levelgraph::lint::errors(&g)[0].location, Location::Whole);
}

/// A byte-order mark before the text (some Windows editors write one) is
/// skipped, and columns count from the first character after it.
#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let with_bom = format!("\u{feff}{}", grammar::DEFAULT_GRAMMAR);
    let g = grammar::load(&with_bom, "bom").expect("loads with a byte-order mark");
    let plain = grammar::default_grammar();
    for seed in 1..=5 {
        assert_eq!(
            levelgraph::derive(&g, seed).unwrap().trace,
            levelgraph::derive(&plain, seed).unwrap().trace
        );
    }
    let src = "\u{feff}grammar \"b\" { min_vertices 5 max_vertices 4 }\ntags { s room }\nrule start { (a:s) => (a:room) }\n";
    assert_eq!(
        rendered("bom.lg", src),
        ["bom.lg:1:15: error: min_vertices 5 is greater than max_vertices 4, so every derivation fails"]
    );
    // The source line is shown without the mark, the caret under the setting.
    let g = grammar::load(src, "b").unwrap();
    assert_eq!(
        levelgraph::lint::errors(&g)[0].render_plain("bom.lg", src),
        "bom.lg:1:15: error: min_vertices 5 is greater than max_vertices 4, so every derivation fails\n    grammar \"b\" { min_vertices 5 max_vertices 4 }\n                  ^^^^^^^^^^^^^^\n    hint: lower min_vertices or raise max_vertices in the grammar header\n"
    );
    let bad = "\u{feff}%";
    let d = grammar::parse(bad, "b").unwrap_err();
    assert_eq!(d.message, "unexpected character `%`");
    assert_eq!(
        d.line_col(bad).unwrap(),
        levelgraph::diagnostic::LineCol { line: 1, column: 1 }
    );
    // The mark only at the start: elsewhere it is an unexpected character.
    assert!(grammar::parse("tags { s }\u{feff}", "b").is_err());
    // The JSON form too.
    let json = format!("\u{feff}{}", plain.model().to_json());
    assert!(grammar::load_json(&json).is_ok());
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
            "weight, max_uses, probability, no_repeat, count_once, priority, group, induced",
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
            "expected `grammar`, `tags`, `rule`, `group`, `recipe`, `rooms`, `play` or `place`, found `rules`",
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
        assert_eq!(common::without_spans(&model), back, "{name}");
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
/// The time is measured by `bench/slow-inputs.sh`, not here.
#[test]
fn huge_sides_load_and_lint() {
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
    let g = grammar::load(&src, "test").unwrap();
    let findings = levelgraph::lint::lint(&g);
    assert!(findings
        .iter()
        .all(|f| f.severity != levelgraph::diagnostic::Severity::Error));
    let d = levelgraph::derive(&g, 1).unwrap();
    assert_eq!(d.graph.vertex_count(), n);
}

/// A grammar is read whole, and every rule and tag costs memory and every
/// derivation step time: text beyond 16 MiB (the JSON form too), beyond a
/// million tokens, or with more than 10,000 rules or tags is refused before
/// it is compiled (a 200 MB file of `x x x …` needed gigabytes of tokens,
/// a million small rules gigabytes of rules).
#[test]
fn grammars_beyond_their_size_limits_are_refused() {
    assert_eq!(
        (grammar::MAX_TOKENS, grammar::MAX_RULES, grammar::MAX_TAGS),
        (1_000_000, 10_000, 10_000)
    );
    // TAGS has 9 tokens; the token after the millionth is refused where it
    // starts, and a million are not refused for their count.
    let src = format!("{TAGS}{}", "( ".repeat(grammar::MAX_TOKENS - 9));
    let d = &errors(&format!("{src}(x"))[0];
    assert_eq!(
        d.message,
        "the grammar has more than 1000000 tokens (names, numbers, strings and symbols)"
    );
    assert_eq!(
        d.location,
        Location::Span(levelgraph::diagnostic::Span::new(src.len(), src.len() + 1))
    );
    assert!(!errors(&src)[0].message.contains("tokens"));

    let rules = |n: usize| {
        let mut g = format!("{TAGS}rule start {{ (a:s) => (a:room) }}\n");
        for i in 1..n {
            g.push_str(&format!("rule r{i} {{ (a:room) => (a) }}\n"));
        }
        g
    };
    check(
        &rules(10_001),
        "the grammar has 10001 rules, more than 10000",
        10_002,
        6,
        "this is rule 10001",
    );
    grammar::load(&rules(10_000), "test").unwrap();
    // The JSON form of the same (the parser alone does not count rules).
    let json = grammar::parse(&rules(10_001), "test").unwrap().to_json();
    let e = grammar::load_json(&json).unwrap_err();
    assert_eq!(
        e.diagnostics[0].message,
        "the grammar has 10001 rules, more than 10000"
    );
    assert_eq!(
        e.diagnostics[0].location,
        Location::Field("rules[10000]".to_owned())
    );

    // s, room and t0 … t10000, one a line: the 10,001st is on line 10,002.
    let tags: String = (0..10_001).map(|i| format!("\n t{i}")).collect();
    check(
        &format!("tags {{\n s\n room{tags}\n}}\nrule start {{ (a:s) => (a:room) }}\n"),
        "the grammar declares 10003 tags, more than 10000",
        10_002,
        2,
        "this is tag 10001",
    );

    let big = format!("{TAGS}#{}\n", "x".repeat(grammar::MAX_GRAMMAR_BYTES));
    let e = grammar::load(&big, "test").unwrap_err();
    assert_eq!(
        e.diagnostics[0].message,
        format!(
            "the grammar is {} bytes long, more than the 16 MiB a grammar may have",
            big.len()
        )
    );
    assert_eq!(e.diagnostics[0].location, Location::Whole);
    let json = format!(
        "{{\"name\": \"{}\"}}",
        "x".repeat(grammar::MAX_GRAMMAR_BYTES)
    );
    let e = grammar::load_json(&json).unwrap_err();
    assert!(e.diagnostics[0]
        .message
        .ends_with("more than the 16 MiB a grammar may have"));
}
