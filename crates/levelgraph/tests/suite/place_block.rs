//! The `place` block's text syntax, its model, its spans, its syntax
//! errors, the compile-time errors of `grammar::place::check` and its JSON
//! form (docs/grammar-language.md, section 20).

use levelgraph::diagnostic::{Diagnostic, Location, Span};
use levelgraph::grammar::place::{Anchor, Count, Distance, PlaceSpec, Placed};
use levelgraph::grammar::{self, Grammar};

use crate::common;

/// `examples/default.lg`'s tags, with `potion`, `boss` and `coin` for
/// items, and a start rule making entrance -- room -- lock -- goal with a
/// key stored in the room that names the lock.
const PREFIX: &str = "tags {
  s \"start\"
  entrance \"entrance\"
  room \"room\"
  goal \"goal (boss)\"
  key \"key\"
  lock \"locked room\"
  treasure \"treasure room\"
  potion \"potion\"
  boss \"boss\"
  coin \"coin\"
}
rule start {
  (a:s) => (a:entrance) -- (b:room) -- (l:lock) -- (g:goal), (k:key) in (b), (k) ~> (l)
}
";

/// `default.lg`'s `play` block.
const PLAY: &str = "play {
  entrance entrance
  goal goal
  key key opens lock via ~>
  directed two_way
}
";

/// The grammar of `PREFIX`, `play` and `place`.
fn source(play: &str, place: &str) -> String {
    format!("{PREFIX}{play}{place}")
}

/// The text of `span` in `src`.
fn text(src: &str, span: Option<Span>) -> &str {
    let s = span.expect("a span");
    &src[s.start..s.end]
}

/// `p` without its spans.
fn bare(p: &Placed) -> Placed {
    Placed {
        span: None,
        spans: Default::default(),
        ..p.clone()
    }
}

/// The `place` block of the grammar with `play` and `place`, parsed.
#[track_caller]
fn parsed(play: &str, place: &str) -> (String, PlaceSpec) {
    let src = source(play, place);
    let model = grammar::parse(&src, "t").unwrap_or_else(|e| panic!("{e}\n{src}"));
    (src, model.place.expect("a place block"))
}

/// The errors of the grammar with `play` and `place`, which must fail to
/// load.
#[track_caller]
fn errors(play: &str, place: &str) -> (String, Vec<Diagnostic>) {
    let src = source(play, place);
    match grammar::load(&src, "t") {
        Ok(_) => panic!("grammar unexpectedly loaded:\n{src}"),
        Err(e) => (src, e.diagnostics),
    }
}

/// The single error of the grammar with `play` and the place block
/// `place`: its message, its line and column counted from the first line
/// of `place` (1-based), and a fragment of its hint.
#[track_caller]
fn place_error_with(
    play: &str,
    place: &str,
    message: &str,
    line: usize,
    column: usize,
    hint: &str,
) {
    let (src, diags) = errors(play, place);
    assert_eq!(diags.len(), 1, "expected one error, got {diags:#?}");
    let d = &diags[0];
    assert_eq!(d.message, message);
    let lc = d.line_col(&src).expect("located by span");
    let first = source(play, "").lines().count();
    assert_eq!(
        (lc.line - first, lc.column),
        (line, column),
        "position of `{message}`"
    );
    let got = d.hint.as_deref().unwrap_or("");
    assert!(got.contains(hint), "hint {got:?} lacks {hint:?}");
}

/// [`place_error_with`] under `default.lg`'s `play` block.
#[track_caller]
fn place_error(place: &str, message: &str, line: usize, column: usize, hint: &str) {
    place_error_with(PLAY, place, message, line, column, hint);
}

// ---------------------------------------------------------------------------
// Parsing into the model
// ---------------------------------------------------------------------------

#[test]
fn the_documented_example_parses_into_its_model() {
    let (_, place) = parsed(
        PLAY,
        "place {\n  keys in room lock first\n  item potion count 2..4 in room not with key\n  item boss in room distance from goal 1 alone\n}\n",
    );
    assert_eq!(
        bare(place.keys.as_ref().expect("keys")),
        Placed {
            rooms: vec!["room".into()],
            lock_first: true,
            ..Placed::default()
        }
    );
    assert_eq!(place.entrance, None);
    assert_eq!(place.goal, None);
    assert!(!place.every_key_needed);
    let items: Vec<Placed> = place.items.iter().map(bare).collect();
    assert_eq!(
        items,
        vec![
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
        ]
    );
}

#[test]
fn every_statement_and_constraint_parses() {
    // Statements in any order, constraints in any order, line breaks
    // meaning nothing: one statement spans lines, two share one.
    let (_, place) = parsed(
        PLAY,
        "place {\n  every key needed\n  item coin\n  goal in room|treasure\n    distance from entrance 3..*\n  entrance not with key|potion alone item potion count 3 distance from goal 0..2 distance from entrance 1\n  keys distance from lock 2..5 not with potion lock first in room alone\n  item boss count 0..1\n}\n",
    );
    assert!(place.every_key_needed);
    assert_eq!(
        bare(place.keys.as_ref().unwrap()),
        Placed {
            rooms: vec!["room".into()],
            distance: vec![Distance {
                from: Anchor::Lock,
                min: 2,
                max: Some(5),
            }],
            not_with: vec!["potion".into()],
            alone: true,
            lock_first: true,
            ..Placed::default()
        }
    );
    assert_eq!(
        bare(place.entrance.as_ref().unwrap()),
        Placed {
            not_with: vec!["key".into(), "potion".into()],
            alone: true,
            ..Placed::default()
        }
    );
    assert_eq!(
        bare(place.goal.as_ref().unwrap()),
        Placed {
            rooms: vec!["room".into(), "treasure".into()],
            distance: vec![Distance {
                from: Anchor::Entrance,
                min: 3,
                max: None,
            }],
            ..Placed::default()
        }
    );
    let items: Vec<Placed> = place.items.iter().map(bare).collect();
    assert_eq!(
        items,
        vec![
            Placed {
                tag: Some("coin".into()),
                ..Placed::default()
            },
            Placed {
                tag: Some("potion".into()),
                count: Some(Count { min: 3, max: 3 }),
                distance: vec![
                    Distance {
                        from: Anchor::Goal,
                        min: 0,
                        max: Some(2),
                    },
                    Distance {
                        from: Anchor::Entrance,
                        min: 1,
                        max: Some(1),
                    },
                ],
                ..Placed::default()
            },
            Placed {
                tag: Some("boss".into()),
                count: Some(Count { min: 0, max: 1 }),
                ..Placed::default()
            },
        ]
    );
}

#[test]
fn an_empty_block_and_a_grammar_without_one() {
    let (_, place) = parsed(PLAY, "place { }\n");
    assert_eq!(
        PlaceSpec {
            span: None,
            setting_spans: Default::default(),
            ..place
        },
        PlaceSpec::default()
    );
    let src = source(PLAY, "");
    assert_eq!(grammar::parse(&src, "t").unwrap().place, None);
}

#[test]
fn spans_point_at_what_was_written() {
    let (src, place) = parsed(
        PLAY,
        "place {\n  keys in room lock first\n  item potion count 2..4 in room|treasure not with key\n  item boss distance from goal 1 distance from entrance 2..* alone\n  entrance\n  every key needed\n}\n",
    );
    assert_eq!(text(&src, place.span), "place");
    assert_eq!(
        text(&src, place.setting_spans.get("every_key_needed")),
        "every key needed"
    );
    let keys = place.keys.as_ref().unwrap();
    assert_eq!(text(&src, keys.span), "keys in room lock first");
    assert_eq!(text(&src, keys.spans.get("in")), "in room");
    assert_eq!(text(&src, keys.spans.get("lock_first")), "lock first");
    assert_eq!(keys.spans.get("tag"), None);
    let potion = &place.items[0];
    assert_eq!(
        text(&src, potion.span),
        "item potion count 2..4 in room|treasure not with key"
    );
    assert_eq!(text(&src, potion.spans.get("tag")), "potion");
    assert_eq!(text(&src, potion.spans.get("count")), "count 2..4");
    assert_eq!(text(&src, potion.spans.get("in")), "in room|treasure");
    assert_eq!(text(&src, potion.spans.get("not_with")), "not with key");
    let boss = &place.items[1];
    assert_eq!(
        text(&src, boss.spans.get("distance 0")),
        "distance from goal 1"
    );
    assert_eq!(
        text(&src, boss.spans.get("distance 1")),
        "distance from entrance 2..*"
    );
    assert_eq!(text(&src, boss.spans.get("alone")), "alone");
    // A statement without constraints is its word.
    assert_eq!(
        text(&src, place.entrance.as_ref().unwrap().span),
        "entrance"
    );
}

// ---------------------------------------------------------------------------
// Syntax errors
// ---------------------------------------------------------------------------

#[test]
fn place_syntax_errors_are_located() {
    place_error("place keys\n", "expected `{`, found `keys`", 1, 7, "");
    place_error(
        "place {\n  keys\n  treasure chest\n}\n",
        "unknown statement `treasure` in the `place` block",
        3,
        3,
        "a `place` block holds: keys, entrance, goal, item, every key needed",
    );
    // A word that is no constraint ends the statement: a misspelt
    // constraint is an unknown statement, and the hint lists both.
    place_error(
        "place {\n  item potion nearby goal\n}\n",
        "unknown statement `nearby` in the `place` block",
        2,
        15,
        "constraints: in, distance from, not with, alone, lock first, count",
    );
    place_error(
        "place {\n  key in room\n}\n",
        "unknown statement `key` in the `place` block",
        2,
        3,
        "keys, entrance",
    );
    place_error(
        "place {\n  keys in room\n  entrance\n  keys alone\n}\n",
        "`keys` is set twice",
        4,
        3,
        "it is first set at line 23",
    );
    place_error(
        "place {\n  entrance entrance\n}\n",
        "`entrance` is set twice",
        2,
        12,
        "first set at line",
    );
    place_error("place {\n  goal goal\n}\n", "`goal` is set twice", 2, 8, "");
    place_error(
        "place {\n  every key needed\n  every key needed\n}\n",
        "`every key needed` is set twice",
        3,
        3,
        "it is first set at line 23",
    );
    place_error(
        "place {\n  every lock needed\n}\n",
        "expected `key` (`every key needed`), found `lock`",
        2,
        9,
        "",
    );
    place_error(
        "place {\n  every key\n}\n",
        "expected `needed` (`every key needed`), found `}`",
        3,
        1,
        "",
    );
    place_error(
        "place {\n  item\n}\n",
        "expected the item's tag, found `}`",
        3,
        1,
        "`item TAG [count N..M] [CONSTRAINT…]`",
    );
    place_error(
        "place {\n  item potion|coin\n}\n",
        "an item has one tag: `|` is for `in` and `not with`",
        2,
        14,
        "its own `item` statement",
    );
    place_error(
        "place {\n  item potion count 2..*\n}\n",
        "a count needs a largest number",
        2,
        24,
        "write `count 2..M`, M at most 10000",
    );
    place_error(
        "place {\n  item potion count many\n}\n",
        "expected a count: `N` or `N..M`, found `many`",
        2,
        21,
        "`count 2..4`",
    );
    place_error(
        "place {\n  item potion count *\n}\n",
        "expected a count: `N` or `N..M`, found `*`",
        2,
        21,
        "",
    );
    place_error(
        "place {\n  item potion count 1.5\n}\n",
        "`count` must be a whole number from 0 to 4294967295",
        2,
        21,
        "",
    );
    place_error(
        "place {\n  item potion count 2..x\n}\n",
        "expected a whole number for `count`, found `x`",
        2,
        24,
        "",
    );
    place_error(
        "place {\n  item boss distance from room 1\n}\n",
        "expected `entrance`, `goal` or `lock` after `distance from`, found `room`",
        2,
        27,
        "`from lock` (keys)",
    );
    place_error(
        "place {\n  item boss distance to goal 1\n}\n",
        "expected `from` (`distance from entrance 2`), found `to`",
        2,
        22,
        "`distance from entrance 2..*`",
    );
    place_error(
        "place {\n  item boss distance from goal far\n}\n",
        "expected a distance: `N`, `N..M` or `N..*`, found `far`",
        2,
        32,
        "",
    );
    place_error(
        "place {\n  item boss distance from goal -1\n}\n",
        "`distance` must be a whole number from 0 to 4294967295",
        2,
        32,
        "",
    );
    place_error(
        "place {\n  item boss not key\n}\n",
        "expected `with` (`not with TAG`), found `key`",
        2,
        17,
        "",
    );
    place_error(
        "place {\n  keys lock last\n}\n",
        "expected `first` (`lock first`), found `last`",
        2,
        13,
        "the player sees a key's lock",
    );
    place_error(
        "place {\n  keys in *\n}\n",
        "expected a tag after `in`, found `*`",
        2,
        11,
        "without `in`, any place will do",
    );
    place_error(
        "place {\n  item boss not with *\n}\n",
        "expected a tag after `not with`, found `*`",
        2,
        22,
        "`not with key|boss`",
    );
    place_error(
        "place {\n  keys in room|\n}\n",
        "expected a tag after `|`, found `}`",
        3,
        1,
        "",
    );
    place_error(
        "place {\n  keys in room alone in treasure\n}\n",
        "`in` is set twice",
        2,
        22,
        "it is first set at line 23",
    );
    for (twice, word) in [
        ("alone alone", "alone"),
        ("lock first lock first", "lock first"),
        ("not with potion not with coin", "not with"),
    ] {
        let (src, diags) = errors(PLAY, &format!("place {{\n  keys {twice}\n}}\n"));
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert_eq!(diags[0].message, format!("`{word}` is set twice"));
        assert_eq!(diags[0].line_col(&src).unwrap().line, 23);
    }
    place_error(
        "place {\n  item potion count 1 count 2\n}\n",
        "`count` is set twice",
        2,
        23,
        "",
    );
    // A statement word at the start of the block's lines is fine; a
    // top-level word at the start of a line ends a block left open.
    place_error(
        "place {\n  keys in room\n\nrule x { (a:room) => (a:treasure) }\n",
        "the `place` block is not closed: expected `}` before `rule`",
        4,
        1,
        "its `{` is at line 22, column 7",
    );
    place_error(
        "place {\n  keys\n}\nplace {\n  entrance\n}\n",
        "second `place` block",
        4,
        1,
        "the first `place` block is at line 22; merge them",
    );
}

#[test]
fn a_place_block_may_come_before_the_play_block() {
    let src = format!("{PREFIX}place {{ keys in room item potion count 1..2 }}\n{PLAY}");
    let g = grammar::load(&src, "t").unwrap_or_else(|e| panic!("{e}"));
    let place = g.place().expect("a place block");
    assert_eq!(place.items.len(), 1);
    assert!(place.keys.is_some());
}

#[test]
fn a_top_level_word_names_the_place_block() {
    let src = format!("{PREFIX}places {{ }}\n");
    let e = grammar::load(&src, "t").unwrap_err();
    assert_eq!(
        e.diagnostics[0].message,
        "expected `grammar`, `tags`, `rule`, `group`, `recipe`, `rooms`, `play` or `place`, found `places`"
    );
    assert!(e.diagnostics[0]
        .hint
        .as_deref()
        .unwrap()
        .contains("a `play` block and a `place` block"));
}

// ---------------------------------------------------------------------------
// Compile-time errors (grammar::place::check)
// ---------------------------------------------------------------------------

#[test]
fn the_documented_example_loads() {
    let src = source(
        PLAY,
        "place {\n  keys in room lock first\n  item potion count 2..4 in room not with key\n  item boss in room distance from goal 1 alone\n}\n",
    );
    let g = grammar::load(&src, "t").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.place().unwrap().items.len(), 2);
}

#[test]
fn place_compile_errors_are_located() {
    place_error(
        "place {\n  item gem in room\n}\n",
        "the `place` block names tag `gem`, which `tags` does not declare",
        2,
        8,
        "declare it in the `tags` block",
    );
    place_error(
        "place {\n  item potion in room|hall\n}\n",
        "`in` names tag `hall`, which `tags` does not declare",
        2,
        15,
        "declare it",
    );
    for (tag, role) in [
        ("key", "a key"),
        ("lock", "a lock"),
        ("entrance", "the entrance"),
        ("goal", "a goal"),
    ] {
        place_error(
            &format!("place {{\n  item {tag} count 1\n}}\n"),
            &format!("`item {tag}` would be {role} of the `play` block"),
            2,
            8,
            "place keys with `keys`",
        );
    }
    place_error(
        "place {\n  keys count 2\n}\n",
        "`count` is for items; `keys` places exactly one key per lock",
        2,
        8,
        "",
    );
    place_error(
        "place {\n  entrance count 1..2\n}\n",
        "`count` is for items; a level has exactly one entrance",
        2,
        12,
        "",
    );
    place_error(
        "place {\n  item potion count 4..2\n}\n",
        "count 4..2 runs backwards",
        2,
        15,
        "write the smaller number first",
    );
    place_error(
        "place {\n  item potion count 10001\n}\n",
        "count 10001 is above the most accepted, 10000",
        2,
        15,
        "",
    );
    place_error(
        "place {\n  item boss in room distance from goal 3..1\n}\n",
        "distance from goal 3..1 runs backwards",
        2,
        21,
        "write the smaller number first",
    );
    place_error(
        "place {\n  item boss distance from lock 1\n}\n",
        "`distance from lock` is for keys; `item boss` has no lock of its own",
        2,
        13,
        "",
    );
    place_error(
        "place {\n  goal distance from lock 2..*\n}\n",
        "`distance from lock` is for keys; `goal` has no lock of its own",
        2,
        8,
        "",
    );
    place_error(
        "place {\n  entrance distance from entrance 1..*\n}\n",
        "`entrance` cannot keep a distance from itself",
        2,
        12,
        "",
    );
    place_error(
        "place {\n  item boss alone lock first\n}\n",
        "`lock first` is for keys; `item boss` has no lock",
        2,
        19,
        "",
    );
    place_error(
        "place {\n  entrance lock first\n}\n",
        "`lock first` is for keys; `entrance` has no lock",
        2,
        12,
        "",
    );
    place_error(
        "place {\n  item potion not with chest\n}\n",
        "`not with chest`: no content of the level or the `place` block has tag `chest`",
        2,
        15,
        "name the tag of content: `potion`, `key`, `entrance`, `goal`",
    );
    // `not with` names content, not room tags.
    place_error(
        "place {\n  item potion not with room\n}\n",
        "`not with room`: no content of the level or the `place` block has tag `room`",
        2,
        15,
        "",
    );
    place_error(
        "place {\n  item potion count 2 not with potion\n}\n",
        "`item potion` is `not with potion`, its own kind",
        2,
        23,
        "a room holds at most one `potion` already",
    );
    place_error(
        "place {\n  keys not with key\n}\n",
        "`keys` is `not with key`, its own kind",
        2,
        8,
        "`not with` names other content",
    );
    place_error(
        "place {\n  item potion in room\n  item coin\n  item potion count 2\n}\n",
        "`item potion` is placed twice",
        4,
        8,
        "one statement per item, with a `count` range",
    );
    place_error_with(
        "",
        "place {\n  item potion\n}\n",
        "a `place` block needs a `play` block",
        1,
        1,
        "add one (section 19)",
    );
    place_error_with(
        "play {\n  entrance entrance\n  goal goal\n  small key key opens lock\n}\n",
        "place {\n  keys in room\n}\n",
        "the solver places kept keys only; the `play` block has a `small key` statement",
        2,
        3,
        "drop `small`",
    );
    place_error_with(
        "play {\n  entrance entrance\n  goal goal\n  key key opens lock via --\n}\n",
        "place {\n  keys in room lock first\n}\n",
        "the solver cannot place keys linked to their lock by a corridor",
        2,
        3,
        "`via ~>`",
    );
    place_error_with(
        "play {\n  entrance entrance\n  goal goal\n}\n",
        "place {\n  every key needed\n}\n",
        "`every key needed`, but the `play` block names no keys",
        2,
        3,
        "",
    );
    place_error_with(
        "play {\n  entrance entrance\n  goal goal\n}\n",
        "place {\n  keys\n}\n",
        "`keys`, but the `play` block names no keys",
        2,
        3,
        "add `key TAG opens LOCK`",
    );
    place_error_with(
        "play {\n  entrance entrance\n  goal *\n}\n",
        "place {\n  goal in room\n}\n",
        "a placed goal needs a tag: the `play` block's `goal` selector is `*`",
        2,
        3,
        "name the goal's tag in the `play` block",
    );
    place_error_with(
        "play {\n  entrance entrance\n  goal goal\n  key * opens lock\n}\n",
        "place {\n  keys\n}\n",
        "a placed key needs a tag: a `play` key statement's key is `*`",
        2,
        3,
        "",
    );
}

#[test]
fn every_error_of_a_block_is_reported() {
    let (src, diags) = errors(
        PLAY,
        "place {\n  keys count 2\n  item gem\n  item potion count 3..1 lock first\n}\n",
    );
    let found: Vec<(&str, usize)> = diags
        .iter()
        .map(|d| (d.message.as_str(), d.line_col(&src).unwrap().line))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                "`count` is for items; `keys` places exactly one key per lock",
                23
            ),
            (
                "the `place` block names tag `gem`, which `tags` does not declare",
                24
            ),
            ("count 3..1 runs backwards", 25),
            ("`lock first` is for keys; `item potion` has no lock", 25),
        ]
    );
}

#[test]
fn placed_tags_are_not_reported_as_never_produced() {
    // No rule makes a potion or a boss: the solver places them. `coin`
    // and `treasure` are neither made nor placed.
    let src = source(PLAY, EXAMPLE);
    let g = grammar::load(&src, "t").unwrap_or_else(|e| panic!("{e}"));
    let never: Vec<String> = levelgraph::lint::lint(&g)
        .into_iter()
        .map(|d| d.message)
        .filter(|m| m.ends_with("is declared but never produced"))
        .collect();
    assert_eq!(
        never,
        vec![
            "tag `treasure` is declared but never produced",
            "tag `coin` is declared but never produced",
        ]
    );
    // Placed keys, entrance and goal need no rule either.
    let src = format!(
        "tags {{ s entrance room goal key lock }}\nrule start {{ (a:s) => (b:room) -- (l:lock) -- (c:room) }}\n{PLAY}place {{\n  keys\n  entrance\n  goal\n}}\n"
    );
    let g = grammar::load(&src, "t").unwrap_or_else(|e| panic!("{e}"));
    let never: Vec<String> = levelgraph::lint::lint(&g)
        .into_iter()
        .map(|d| d.message)
        .filter(|m| m.ends_with("is declared but never produced"))
        .collect();
    assert_eq!(never, Vec::<String>::new());
}

// ---------------------------------------------------------------------------
// The JSON form
// ---------------------------------------------------------------------------

const EXAMPLE: &str = "place {\n  keys in room lock first\n  item potion count 2..4 in room not with key\n  item boss in room distance from goal 1 alone\n}\n";

#[test]
fn place_blocks_round_trip_through_json() {
    let src = source(
        PLAY,
        "place {\n  every key needed\n  keys in room distance from lock 1..3 not with potion lock first alone\n  entrance in room|treasure not with key\n  goal distance from entrance 4..*\n  item potion count 2..4 in room not with key\n  item boss in room distance from goal 1 distance from entrance 0..2 alone\n}\n",
    );
    // The play block places neither entrance nor goal here, but their
    // tags are named: placing them compiles (whether a level already has
    // one is the solver's business).
    let g = grammar::load(&src, "t").unwrap_or_else(|e| panic!("{e}"));
    let json = g.model().to_json();
    let back = Grammar::from_json(&json).unwrap();
    assert_eq!(back.to_json(), json, "the JSON form is stable");
    assert_eq!(common::without_spans(g.model()), back);
    let loaded = grammar::load_json(&json).expect("the JSON form compiles");
    assert_eq!(loaded.place(), back.place.as_ref());
}

#[test]
fn the_documented_example_has_the_documented_json() {
    let src = source(PLAY, EXAMPLE);
    let model = grammar::parse(&src, "t").unwrap();
    let json: serde_json::Value = serde_json::from_str(&model.to_json()).unwrap();
    assert_eq!(
        json["place"],
        serde_json::json!({
            "keys": { "in": ["room"], "lock_first": true },
            "items": [
                {
                    "tag": "potion",
                    "count": { "min": 2, "max": 4 },
                    "in": ["room"],
                    "not_with": ["key"]
                },
                {
                    "tag": "boss",
                    "in": ["room"],
                    "distance": [ { "from": "goal", "min": 1, "max": 1 } ],
                    "alone": true
                }
            ]
        })
    );
    // `every key needed` and an unbounded distance.
    let src = source(
        PLAY,
        "place {\n  goal distance from entrance 3..*\n  every key needed\n}\n",
    );
    let model = grammar::parse(&src, "t").unwrap();
    let json: serde_json::Value = serde_json::from_str(&model.to_json()).unwrap();
    assert_eq!(
        json["place"],
        serde_json::json!({
            "goal": { "distance": [ { "from": "entrance", "min": 3 } ] },
            "every_key_needed": true
        })
    );
}

#[test]
fn json_place_errors_name_the_field() {
    let src = source(PLAY, EXAMPLE);
    let model = grammar::parse(&src, "t").unwrap();
    let errors_of = |edit: &dyn Fn(&mut PlaceSpec)| {
        let mut m = model.clone();
        edit(m.place.as_mut().unwrap());
        grammar::load_json(&m.to_json()).unwrap_err().diagnostics
    };
    let at = |diags: &[Diagnostic]| -> Vec<Location> {
        diags.iter().map(|d| d.location.clone()).collect()
    };
    let field = |path: &str| vec![Location::Field(path.into())];
    let diags = errors_of(&|p| p.items[0].count = Some(Count { min: 5, max: 3 }));
    assert_eq!(diags[0].message, "count 5..3 runs backwards");
    assert_eq!(at(&diags), field("place.items[0].count"));
    let diags = errors_of(&|p| p.items[1].tag = Some("gem".into()));
    assert_eq!(at(&diags), field("place.items[1].tag"));
    let diags = errors_of(&|p| p.items[1].tag = None);
    assert_eq!(diags[0].message, "an item needs a tag");
    assert_eq!(at(&diags), field("place.items[1].tag"));
    let diags = errors_of(&|p| p.keys.as_mut().unwrap().tag = Some("key".into()));
    assert_eq!(
        diags[0].message,
        "`keys` takes no tag: its tag comes from the `play` block"
    );
    assert_eq!(at(&diags), field("place.keys.tag"));
    let diags = errors_of(&|p| p.keys.as_mut().unwrap().count = Some(Count { min: 1, max: 1 }));
    assert_eq!(at(&diags), field("place.keys.count"));
    let diags = errors_of(&|p| p.items[0].rooms.push("hall".into()));
    assert_eq!(at(&diags), field("place.items[0].in"));
    let diags = errors_of(&|p| p.items[0].not_with = vec!["potion".into()]);
    assert_eq!(at(&diags), field("place.items[0].not_with"));
    let diags = errors_of(&|p| p.items[1].lock_first = true);
    assert_eq!(at(&diags), field("place.items[1].lock_first"));
    let diags = errors_of(&|p| {
        p.items[1].distance.push(Distance {
            from: Anchor::Lock,
            min: 0,
            max: None,
        })
    });
    assert_eq!(at(&diags), field("place.items[1].distance[1]"));
    let diags = errors_of(&|p| {
        p.items.push(Placed {
            tag: Some("potion".into()),
            ..Placed::default()
        })
    });
    assert_eq!(diags[0].message, "`item potion` is placed twice");
    assert_eq!(at(&diags), field("place.items[2].tag"));
    assert!(diags[0]
        .hint
        .as_deref()
        .unwrap()
        .contains("one entry per item"));
    // A block without a play block, and `every key needed` without keys.
    let mut m = model.clone();
    m.play = None;
    let diags = grammar::load_json(&m.to_json()).unwrap_err().diagnostics;
    assert_eq!(diags[0].message, "a `place` block needs a `play` block");
    assert_eq!(at(&diags), field("place"));
    let mut m = model.clone();
    m.play.as_mut().unwrap().keys.clear();
    let place = m.place.as_mut().unwrap();
    place.keys = None;
    place.items[0].not_with.clear();
    place.every_key_needed = true;
    let diags = grammar::load_json(&m.to_json()).unwrap_err().diagnostics;
    assert_eq!(at(&diags), field("place.every_key_needed"));
    let mut m = model.clone();
    m.play.as_mut().unwrap().keys[0].small = true;
    let diags = grammar::load_json(&m.to_json()).unwrap_err().diagnostics;
    assert_eq!(at(&diags), field("place.keys"));
}

#[test]
fn malformed_place_json_is_invalid_grammar_json() {
    let src = source(PLAY, EXAMPLE);
    let json = grammar::parse(&src, "t").unwrap().to_json();
    for (from, to, says) in [
        (
            "\"lock_first\"",
            "\"lock_last\"",
            "unknown field `lock_last`",
        ),
        (
            "\"from\": \"goal\"",
            "\"from\": \"treasure\"",
            "unknown variant `treasure`, expected one of `entrance`, `goal`, `lock`",
        ),
        ("\"max\": 4", "\"max\": -4", "invalid value"),
        ("\"max\": 4", "\"most\": 4", "unknown field `most`"),
    ] {
        assert!(json.contains(from), "{from} in {json}");
        let bad = json.replacen(from, to, 1);
        let e = grammar::load_json(&bad).unwrap_err();
        assert_eq!(e.diagnostics.len(), 1);
        let d = &e.diagnostics[0];
        assert!(
            d.message.starts_with("invalid grammar JSON: ") && d.message.contains(says),
            "{} lacks {says}",
            d.message
        );
    }
}

// -------------------------------------------------------------------- docs

/// Section 20's example: `default.lg` with the section's `tags` block in
/// place of its own and the `place` block added loads, and its JSON form
/// is the one section 20.6 shows.
#[test]
fn the_example_of_the_language_reference_loads_and_prints_as_shown() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let blocks = super::common::language_reference_blocks("## 20. Content placement");
    let example = blocks
        .iter()
        .find(|b| b.starts_with("tags {"))
        .expect("the example");
    let (tags, place) = example
        .split_once("\n\nplace {")
        .expect("tags, then the place block");
    let default = std::fs::read_to_string(format!("{root}/examples/default.lg")).unwrap();
    let start = default.find("\ntags {\n").expect("default.lg's tags") + 1;
    let end = start + default[start..].find("\n}\n").unwrap() + 3;
    let src = format!(
        "{}{tags}\n{}place {{{place}",
        &default[..start],
        &default[end..]
    );
    let g = grammar::load(&src, "default").unwrap_or_else(|e| panic!("{e}\n{src}"));
    let place = g.place().expect("the place block");
    assert!(place.keys.is_some());
    assert_eq!(place.items.len(), 2);
    let json = blocks
        .iter()
        .find(|b| b.starts_with("\"place\""))
        .expect("the JSON example");
    let shown: serde_json::Value = serde_json::from_str(&format!("{{{json}}}")).unwrap();
    let printed: serde_json::Value = serde_json::from_str(&g.model().to_json()).unwrap();
    assert_eq!(printed["place"], shown["place"]);
}
