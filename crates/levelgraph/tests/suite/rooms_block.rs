//! The `rooms { … }` block: what the parser reads into the model, its JSON
//! form, every error the parser and the compiler report (message, line and
//! hint), and the lint's warning about tags without templates.

use levelgraph::diagnostic::{Diagnostic, Location, Severity};
use levelgraph::grammar::{
    self, DoorSpec, FillKind, FillSpec, Grammar, RoomsSpec, SetSpec, TemplateSpec, UseSpec,
};
use levelgraph::layout::{DoorRule, GridPoint, RepeatMode, Transform};

use crate::common::without_spans;

/// Tags and a start rule every grammar below shares (lines 1 and 2).
const HEAD: &str = "tags { s \"start\" room \"room\" terminal goal \"goal\" terminal }\n\
                    rule start { (a:s) => (a:room) -- (b:goal) }\n";

/// A grammar with every kind of line of a rooms block (starting on line 3).
const FULL: &str = r#"rooms {
  door 2 corner 1
  repeat no_immediate
  min_distance 1
  load "rooms"
  load "more/bosses.yml"
  template square12 (0,0) (12,0) (12,12) (0,12)
  template boss (0,0) (9,0) (9,9) (0,9) door 1 corner 1
  template c2 (0,0) (2,0) (2,2) (0,2) doors (0,0) (2,0), (0,2) (2,2)
  template fixed (0,0) (4,0) (4,-4) (0,-4) no_rotate mirror
  template "l shape" (0,0) (6,0) (6,3) (3,3) (3,6) (0,6) mirror
  set basic: square12 "l shape" "thesis_basic/12-square" thesis_advanced
  set all: basic fixed
  use room: all
  use goal: boss
  use *: basic
  corridors: c2
  tile_scale 3
  fill goal: cave
  fill room: floor
  retries 4
}
"#;

fn full() -> String {
    format!("{HEAD}{FULL}")
}

fn p(x: i32, y: i32) -> GridPoint {
    GridPoint::new(x, y)
}

fn square(n: i32) -> Vec<GridPoint> {
    vec![p(0, 0), p(n, 0), p(n, n), p(0, n)]
}

fn strings(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn the_parser_reads_every_line() {
    let model = grammar::parse(&full(), "full").unwrap();
    let rooms = without_spans(&model).rooms.expect("a rooms block");
    let template = |name: &str, outline: Vec<GridPoint>| TemplateSpec {
        name: name.into(),
        outline,
        door: None,
        doors: Vec::new(),
        rotate: true,
        mirror: false,
        span: None,
    };
    let expected = RoomsSpec {
        door: Some(DoorSpec {
            length: 2,
            corner_distance: 1,
        }),
        repeat: RepeatMode::NoImmediate,
        min_distance: 1,
        load: strings(&["rooms", "more/bosses.yml"]),
        templates: vec![
            template("square12", square(12)),
            TemplateSpec {
                door: Some(DoorSpec {
                    length: 1,
                    corner_distance: 1,
                }),
                ..template("boss", square(9))
            },
            TemplateSpec {
                doors: vec![[p(0, 0), p(2, 0)], [p(0, 2), p(2, 2)]],
                ..template("c2", square(2))
            },
            TemplateSpec {
                rotate: false,
                mirror: true,
                ..template("fixed", vec![p(0, 0), p(4, 0), p(4, -4), p(0, -4)])
            },
            TemplateSpec {
                mirror: true,
                ..template(
                    "l shape",
                    vec![p(0, 0), p(6, 0), p(6, 3), p(3, 3), p(3, 6), p(0, 6)],
                )
            },
        ],
        sets: vec![
            SetSpec {
                name: "basic".into(),
                members: strings(&[
                    "square12",
                    "l shape",
                    "thesis_basic/12-square",
                    "thesis_advanced",
                ]),
                span: None,
            },
            SetSpec {
                name: "all".into(),
                members: strings(&["basic", "fixed"]),
                span: None,
            },
        ],
        uses: vec![
            UseSpec {
                tags: strings(&["room"]),
                members: strings(&["all"]),
                span: None,
            },
            UseSpec {
                tags: strings(&["goal"]),
                members: strings(&["boss"]),
                span: None,
            },
            UseSpec {
                tags: strings(&["*"]),
                members: strings(&["basic"]),
                span: None,
            },
        ],
        corridors: strings(&["c2"]),
        tile_scale: Some(3),
        retries: Some(4),
        fills: vec![
            FillSpec {
                tags: strings(&["goal"]),
                fill: FillKind::Cave,
                span: None,
            },
            FillSpec {
                tags: strings(&["room"]),
                fill: FillKind::Floor,
                span: None,
            },
        ],
        span: None,
        setting_spans: Default::default(),
    };
    assert_eq!(rooms, expected);
}

#[test]
fn spans_point_at_names_and_use_lines() {
    let src = full();
    let rooms = grammar::parse(&src, "full").unwrap().rooms.unwrap();
    let text = |s: Option<levelgraph::diagnostic::Span>| {
        let s = s.expect("a span");
        &src[s.start..s.end]
    };
    assert_eq!(text(rooms.span), "rooms");
    assert_eq!(text(rooms.templates[4].span), "\"l shape\"");
    assert_eq!(text(rooms.sets[1].span), "all");
    assert_eq!(text(rooms.uses[2].span), "use *: basic");
}

#[test]
fn text_json_text_round_trip() {
    let src = full();
    let model = grammar::parse(&src, "full").unwrap();
    let json = model.to_json();
    let back = Grammar::from_json(&json).unwrap();
    assert_eq!(back, without_spans(&model));
    assert_eq!(back.to_json(), json, "the JSON form is stable");
    // Both forms compile, and the compiled grammar keeps the block.
    let from_text = grammar::load(&src, "full").unwrap();
    let from_json = grammar::load_json(&json).unwrap();
    assert_eq!(
        without_spans(from_text.model()).rooms,
        from_json.model().rooms
    );
    assert!(from_json.model().rooms.is_some());
}

#[test]
fn a_grammar_without_rooms_has_none_and_no_json_field() {
    let model = grammar::parse(HEAD, "plain").unwrap();
    assert_eq!(model.rooms, None);
    assert!(!model.to_json().contains("\"rooms\""));
}

#[test]
fn the_json_form_of_a_rooms_block_reads_back() {
    let json = r#"{
      "name": "j",
      "tags": [ { "name": "s" }, { "name": "room" } ],
      "rules": [ { "name": "start",
                   "lhs": { "vertices": [ { "name": "a", "tags": ["s"] } ] },
                   "rhs": [ { "vertices": [ { "name": "a", "tag": "room" } ] } ] } ],
      "rooms": {
        "door": { "length": 2, "corner_distance": 0 },
        "repeat": "no_repeat",
        "templates": [
          { "name": "sq", "outline": [[0,0],[5,0],[5,5],[0,5]] },
          { "name": "cor", "outline": [[0,0],[1,0],[1,3],[0,3]],
            "doors": [ [[0,0],[1,0]], [[0,3],[1,3]] ], "rotate": false, "mirror": true }
        ],
        "sets": [ { "name": "both", "members": ["sq"] } ],
        "uses": [ { "tags": ["room"], "members": ["both"] } ],
        "corridors": ["cor"]
      }
    }"#;
    let g = grammar::load_json(json).unwrap();
    let rooms = g.model().rooms.as_ref().unwrap();
    assert_eq!(
        rooms.door,
        Some(DoorSpec {
            length: 2,
            corner_distance: 0
        })
    );
    assert_eq!(rooms.repeat, RepeatMode::NoRepeat);
    assert_eq!(rooms.min_distance, 0);
    assert!(rooms.load.is_empty());
    assert!(rooms.templates[0].rotate, "rotate defaults to true");
    assert!(!rooms.templates[0].mirror);
    assert_eq!(rooms.templates[1].doors[1], [p(0, 3), p(1, 3)]);
    assert_eq!(rooms.uses[0].members, ["both"]);
    assert_eq!(rooms.corridors, ["cor"]);
    // The same block in text compiles to the same model.
    let text = "tags { s room }\nrule start { (a:s) => (a:room) }\nrooms {\n\
                door 2 corner 0 repeat no_repeat\n\
                template sq (0,0) (5,0) (5,5) (0,5)\n\
                template cor (0,0) (1,0) (1,3) (0,3) doors (0,0) (1,0), (0,3) (1,3) no_rotate mirror\n\
                set both: sq\nuse room: both\ncorridors: cor\n}\n";
    let from_text = grammar::parse(text, "j").unwrap();
    assert_eq!(without_spans(&from_text).rooms.as_ref(), Some(rooms));
}

#[test]
fn templates_build_with_the_block_door_rule_and_transforms() {
    let model = grammar::parse(&full(), "full").unwrap();
    let rooms = model.rooms.unwrap();
    let t = &rooms.templates;
    // square12 takes the block's door, boss its own, c2 its doors.
    assert_eq!(
        t[0].door_rule(rooms.door),
        DoorRule::Overlap {
            length: 2,
            corner_distance: 1
        }
    );
    assert_eq!(
        t[1].door_rule(rooms.door),
        DoorRule::Overlap {
            length: 1,
            corner_distance: 1
        }
    );
    assert_eq!(
        t[2].door_rule(rooms.door),
        DoorRule::Specific(vec![[p(0, 0), p(2, 0)], [p(0, 2), p(2, 2)]])
    );
    // Without any door: length 1, corner distance 1.
    assert_eq!(
        t[0].door_rule(None),
        DoorRule::Overlap {
            length: 1,
            corner_distance: 1
        }
    );
    assert_eq!(t[0].transforms(), Transform::all(false).collect::<Vec<_>>());
    assert_eq!(
        t[3].transforms(),
        [
            Transform::IDENTITY,
            Transform {
                rotation: 0,
                mirror: true
            }
        ]
    );
    assert_eq!(t[4].transforms().len(), 8);
    for spec in t {
        let built = spec.build(rooms.door).unwrap();
        assert_eq!(built.name, spec.name);
        assert_eq!(built.transforms, spec.transforms());
    }
}

#[test]
fn a_door_on_its_own_line_is_the_blocks() {
    let src = format!(
        "{HEAD}rooms {{\n  template a (0,0) (4,0) (4,4) (0,4)\n  door 2 corner 0\n  template b (0,0) (6,0) (6,6) (0,6) door 3\n  use *: a b\n}}\n"
    );
    let rooms = grammar::parse(&src, "t").unwrap().rooms.unwrap();
    assert_eq!(
        rooms.door,
        Some(DoorSpec {
            length: 2,
            corner_distance: 0
        })
    );
    assert_eq!(rooms.templates[0].door, None);
    // `corner` is optional: 1 by default.
    assert_eq!(
        rooms.templates[1].door,
        Some(DoorSpec {
            length: 3,
            corner_distance: 1
        })
    );
    grammar::load(&src, "t").unwrap();
}

// ------------------------------------------------------------------ errors

/// The diagnostics of loading `src`, which must fail.
fn errors(src: &str) -> Vec<Diagnostic> {
    match grammar::load(src, "test") {
        Ok(_) => panic!("grammar unexpectedly loaded:\n{src}"),
        Err(e) => e.diagnostics,
    }
}

/// `body` inside `rooms { … }` after [`HEAD`]: the block's line 1 is the
/// grammar's line 3, its first line inside the braces line 4.
fn block(body: &str) -> String {
    format!("{HEAD}rooms {{\n{body}\n}}\n")
}

/// Asserts that loading `src` reports exactly `message` (once, and no other
/// error), at `line`, with a hint containing `hint`.
#[track_caller]
fn check(src: &str, message: &str, line: usize, hint: &str) {
    let diags = errors(src);
    assert_eq!(diags.len(), 1, "expected one error, got {diags:#?}");
    let d = &diags[0];
    assert_eq!(d.message, message, "{src}");
    assert_eq!(d.severity, Severity::Error);
    let lc = d.line_col(src).expect("located by span");
    assert_eq!(lc.line, line, "line of `{message}`");
    let got = d.hint.as_deref().unwrap_or("");
    assert!(got.contains(hint), "hint {got:?} lacks {hint:?}");
}

const SQ: &str = "template sq (0,0) (4,0) (4,4) (0,4)";

#[test]
fn syntax_errors() {
    let cases: &[(&str, &str, usize, &str)] = &[
        (
            "door 2\ndoor 3\nuse *: x",
            "`door` is set twice",
            5,
            "first set at line 4",
        ),
        (
            "repeat allow\nrepeat no_repeat",
            "`repeat` is set twice",
            5,
            "first set at line 4",
        ),
        (
            "min_distance 1\nmin_distance 2",
            "`min_distance` is set twice",
            5,
            "first set at line 4",
        ),
        (
            "corridors: a\ncorridors: b",
            "`corridors` is set twice",
            5,
            "first set at line 4",
        ),
        (
            "repeat never",
            "unknown repeat mode `never`",
            4,
            "`allow`, `no_immediate` and `no_repeat`",
        ),
        (
            "door 0 corner 1",
            "door length must be at least 1",
            4,
            "LENGTH",
        ),
        (
            "doorway 2",
            "unknown word `doorway` in the `rooms` block",
            4,
            "door, repeat, min_distance, load, template, set, use, corridors",
        ),
        (
            "load rooms",
            "expected a file or folder name as a string, found `rooms`",
            4,
            "relative to the grammar file",
        ),
        (
            "template t door 2",
            "expected the template's corners `(x,y)`, found `door`",
            4,
            "template NAME (0,0)",
        ),
        (
            "template t (0,0) (1.5,0)",
            "expected a whole number for the point's x, found number 1.5",
            4,
            "`(x,y)`",
        ),
        (
            "template t (0,0) (1 0)",
            "expected `,`, found number 0",
            4,
            "`(x,y)`",
        ),
        (
            "template t (0,0) (4,0) (4,4) (0,4) mirror mirror",
            "template `t`: `mirror` is given twice",
            4,
            "first given at line 4",
        ),
        (
            "template t (0,0) (4,0) (4,4) (0,4) doors (0,0)",
            "expected a point `(x,y)`, found `}`",
            5,
            "`(x,y)`",
        ),
        (
            "set s:\nuse *: s",
            "expected a template or set name, found `use`",
            5,
            "written as strings",
        ),
        (
            "use room goal basic",
            "expected a tag, `*` or `:`, found `}`",
            5,
            "",
        ),
        (
            "use : basic",
            "expected a tag or `*`, found `:`",
            4,
            "use TAG …: TEMPLATE …",
        ),
        ("corridors c2", "expected `:`, found `c2`", 4, ""),
    ];
    for &(body, message, line, hint) in cases {
        let src = block(body);
        let diags = errors(&src);
        assert_eq!(diags.len(), 1, "{body:?}: {diags:#?}");
        let d = &diags[0];
        assert_eq!(d.message, message, "{body:?}");
        assert_eq!(d.line_col(&src).unwrap().line, line, "{body:?}");
        let got = d.hint.as_deref().unwrap_or("");
        assert!(got.contains(hint), "{body:?}: hint {got:?} lacks {hint:?}");
    }
}

#[test]
fn a_second_rooms_block() {
    let src = format!("{HEAD}rooms {{ {SQ} use *: sq }}\n\nrooms {{ use *: sq }}\n");
    check(
        &src,
        "second `rooms` block",
        5,
        "the first `rooms` block is at line 3",
    );
}

#[test]
fn template_that_does_not_build() {
    check(
        &block("template tri (0,0) (4,0) (4,4)\nuse *: tri"),
        "template `tri`: a room outline needs at least 4 corners, found 3",
        4,
        "orthogonal polygon",
    );
    check(
        &block("template skew (0,0) (4,1) (4,4) (0,4)\nuse *: skew"),
        "template `skew`: side [0, 0] → [4, 1] is neither horizontal nor vertical",
        4,
        "orthogonal polygon",
    );
    check(
        &block("template far (0,0) (2000000,0) (2000000,4) (0,4)\nuse *: far"),
        "template `far`: coordinate [2000000, 0] is outside ±1000000",
        4,
        "",
    );
    // More corners than a room may have: at the template's name, line
    // and column.
    let stairs = |corners: i32| {
        let steps = (corners - 2) / 2;
        let mut points = vec!["(0,0)".to_owned()];
        for i in 0..steps {
            points.push(format!("({},{i}) ({},{})", steps - i, steps - i, i + 1));
        }
        points.push(format!("(0,{steps})"));
        points.join(" ")
    };
    let src = block(&format!("use *: big\n  template big {}", stairs(514)));
    check(
        &src,
        "template `big`: the outline lists 514 corners; a room may have at most 512",
        5,
        "fewer",
    );
    let at = errors(&src)[0].line_col(&src).unwrap();
    assert_eq!((at.line, at.column), (5, 12));
    assert!(grammar::load(
        &block(&format!("use *: ok\ntemplate ok {}", stairs(512))),
        "t"
    )
    .is_ok());
    // The block's door is too long for the template's sides.
    check(
        &block("door 3 corner 1\n  template small (0,0) (4,0) (4,4) (0,4)\nuse *: small"),
        "template `small`: no side is long enough for a door: a door 3 long, at least 1 from each corner, needs a side of 5 grid units",
        5,
        "LENGTH + 2 × DISTANCE",
    );
    check(
        &block("template d (0,0) (4,0) (4,4) (0,4) doors (1,1) (2,1)\nuse *: d"),
        "template `d`: door [1, 1]–[2, 1] does not lie on a side",
        4,
        "on one side of the outline",
    );
    check(
        &block("template d (0,0) (4,0) (4,4) (0,4) door 1 doors (0,0) (1,0)\nuse *: d"),
        "template `d` has both `door` and `doors`",
        4,
        "keep one",
    );
}

#[test]
fn names_are_unique_among_templates_and_sets() {
    check(
        &block(&format!("{SQ}\nset sq: sq\nuse *: sq")),
        "set `sq` is declared twice",
        5,
        "the first `sq`, a template, is at line 4",
    );
    check(
        &block(&format!("set sq: x\n{SQ}\nuse *: sq\nload \"r\"")),
        "template `sq` is declared twice",
        5,
        "the first `sq`, a set, is at line 4",
    );
    check(
        &block(&format!("{SQ}\n\n{SQ}\nuse *: sq")),
        "template `sq` is declared twice",
        6,
        "the first `sq`, a template, is at line 4",
    );
    check(
        &block(&format!("{SQ}\nset \"a/b\": sq\nuse *: sq")),
        "set name `a/b` contains `/`",
        5,
        "`set/room`",
    );
}

#[test]
fn unknown_members() {
    let src = block(&format!("{SQ}\nset s: sq\nuse room: sq\nuse goal: s bos"));
    check(
        &src,
        "unknown template or set `bos`",
        7,
        "the templates and sets are `s`, `sq`; a name from an Edgar room set needs a `load`",
    );
    check(
        &block(&format!("{SQ}\nset s: sq sqr\nuse *: s")),
        "unknown template or set `sqr`",
        5,
        "`s`, `sq`",
    );
    // Corridors are located at their line.
    check(
        &block(&format!("{SQ}\nuse *: sq\ncorridors: cor")),
        "unknown template or set `cor`",
        6,
        "`sq`",
    );
    check(
        &block("use *: anything"),
        "unknown template or set `anything`",
        4,
        "the block declares no template or set",
    );
    // With a `load`, other names may come from the loaded files.
    grammar::load(
        &block("load \"rooms\"\nuse *: thesis_basic \"thesis_basic/12-square\"\ncorridors: cor"),
        "t",
    )
    .unwrap();
}

#[test]
fn a_set_must_not_contain_itself() {
    check(
        &block(&format!("{SQ}\nset a: sq a\nuse *: a")),
        "set `a` contains itself",
        5,
        "not in a cycle",
    );
    // One error per cycle, at its first set.
    check(
        &block(&format!(
            "{SQ}\nset a: sq b\nset b: c\nset c: a sq\nuse *: a"
        )),
        "set `a` contains itself: a → b → c → a",
        5,
        "not in a cycle",
    );
    // Sets shared without a cycle are fine.
    grammar::load(
        &block(&format!("{SQ}\nset a: sq\nset b: a\nset c: a b\nuse *: c")),
        "t",
    )
    .unwrap();
}

#[test]
fn use_lines() {
    check(
        &block(&format!("{SQ}\nuse room hall: sq")),
        "unknown tag `hall`",
        5,
        "declare it in the `tags` block",
    );
    check(
        &block(&format!("{SQ}\nuse room: sq\nuse goal room: sq")),
        "tag `room` is in two `use` lines",
        6,
        "the first is at line 5",
    );
    check(
        &block(&format!("{SQ}\nuse room room: sq")),
        "tag `room` is named twice in one `use` line",
        5,
        "",
    );
    check(
        &block(&format!("{SQ}\nuse *: sq\nuse goal: sq\nuse *: sq")),
        "`use *` is written twice",
        7,
        "the first is at line 5",
    );
    check(
        &block(SQ),
        "a rooms block needs a `use` line: which templates do rooms of each tag use?",
        3,
        "`use *: NAME`",
    );
}

#[test]
fn retries_line() {
    check(
        &block(&format!("{SQ}\nuse *: sq\nretries 1001")),
        "retries 1001 is out of range",
        6,
        "0 to 1000",
    );
    check(
        &block(&format!("{SQ}\nuse *: sq\nretries 2\nretries 3")),
        "`retries` is set twice",
        7,
        "line 6",
    );
    let g = levelgraph::grammar::load(&block(&format!("{SQ}\nuse *: sq")), "g").unwrap();
    let rooms = g.model().rooms.as_ref().unwrap();
    assert_eq!((rooms.retries, rooms.retries()), (None, 8));
    let g = levelgraph::grammar::load(&block(&format!("{SQ}\nuse *: sq\nretries 0")), "g").unwrap();
    assert_eq!(g.model().rooms.as_ref().unwrap().retries(), 0);
}

/// `min_distance 4294967295` used to load and then wrap to -1 in the
/// layout's 32-bit arithmetic, so rooms were laid out with no distance at
/// all while 1000000 (correctly) found no layout.
#[test]
fn min_distance_line() {
    check(
        &block(&format!("{SQ}\nuse *: sq\nmin_distance 4294967295")),
        "min_distance 4294967295 is out of range",
        6,
        "0 to 2000000",
    );
    check(
        &block(&format!("{SQ}\nuse *: sq\nmin_distance 2000001")),
        "min_distance 2000001 is out of range",
        6,
        "0 to 2000000",
    );
    let g = levelgraph::grammar::load(
        &block(&format!("{SQ}\nuse *: sq\nmin_distance 2000000")),
        "g",
    )
    .unwrap();
    assert_eq!(g.model().rooms.as_ref().unwrap().min_distance, 2_000_000);
}

#[test]
fn tile_scale_and_fill_lines() {
    check(
        &block(&format!("{SQ}\nuse *: sq\ntile_scale 0")),
        "tile_scale 0 is out of range",
        6,
        "1 to 64",
    );
    check(
        &block(&format!("{SQ}\nuse *: sq\ntile_scale 2\ntile_scale 3")),
        "`tile_scale` is set twice",
        7,
        "line 6",
    );
    check(
        &block(&format!("{SQ}\nuse *: sq\nfill room: lava")),
        "unknown room fill `lava`",
        6,
        "the fills are `cave` (a cave made by a cellular automaton) and `floor`",
    );
    check(
        &block(&format!("{SQ}\nuse *: sq\nfill: cave")),
        "expected a tag, found `:`",
        6,
        "fill TAG",
    );
    check(
        &block(&format!("{SQ}\nuse *: sq\nfill hall: cave")),
        "unknown tag `hall`",
        6,
        "declare it",
    );
    check(
        &block(&format!(
            "{SQ}\nuse *: sq\nfill room: cave\nfill goal room: floor"
        )),
        "tag `room` is in two `fill` lines",
        7,
        "the first is at line 6",
    );
}

#[test]
fn corridor_templates_need_two_doors() {
    check(
        &block(&format!("{SQ}\nset cs: sq\nuse *: sq\ncorridors: cs")),
        "corridor template `sq` needs exactly two `doors`, it has 0",
        4,
        "doors (x,y) (x,y), (x,y) (x,y)",
    );
}

#[test]
fn all_errors_are_reported_together() {
    let src = block(&format!(
        "{SQ}\ntemplate tri (0,0) (4,0) (4,4)\nset a: a\nuse nope: sq ghost"
    ));
    let messages: Vec<String> = errors(&src).into_iter().map(|d| d.message).collect();
    assert_eq!(
        messages,
        [
            "template `tri`: a room outline needs at least 4 corners, found 3",
            "unknown template or set `ghost`",
            "set `a` contains itself",
            "unknown tag `nope`",
        ]
    );
}

#[test]
fn json_errors_name_the_field() {
    let model = grammar::parse(&full(), "full").unwrap();
    // The JSON form of the model after `edit`: its errors as (message, field).
    let load = |edit: &dyn Fn(&mut RoomsSpec)| -> Vec<(String, String)> {
        let mut m = model.clone();
        edit(m.rooms.as_mut().unwrap());
        grammar::load_json(&m.to_json())
            .unwrap_err()
            .diagnostics
            .into_iter()
            .map(|d| match d.location {
                Location::Field(f) => (d.message, f),
                other => panic!("{} at {other:?}", d.message),
            })
            .collect()
    };
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|&(m, f)| (m.to_owned(), f.to_owned()))
            .collect()
    };
    assert_eq!(
        load(&|r| {
            r.templates[2].outline.pop();
        }),
        pairs(&[(
            "template `c2`: a room outline needs at least 4 corners, found 3",
            "rooms.templates[2].outline"
        )])
    );
    assert_eq!(
        load(&|r| {
            let steps = 256;
            let mut outline = vec![p(0, 0)];
            for i in 0..steps {
                outline.extend([p(steps - i, i), p(steps - i, i + 1)]);
            }
            outline.push(p(0, steps));
            r.templates[1].outline = outline;
        }),
        pairs(&[(
            "template `boss`: the outline lists 514 corners; a room may have at most 512",
            "rooms.templates[1].outline"
        )])
    );
    assert_eq!(
        load(&|r| r.templates[2].doors[0] = [p(1, 1), p(1, 2)]),
        pairs(&[(
            "template `c2`: door [1, 1]–[1, 2] does not lie on a side",
            "rooms.templates[2].doors"
        )])
    );
    assert_eq!(
        load(&|r| r.templates[0].door = Some(DoorSpec {
            length: 0,
            corner_distance: 0
        })),
        pairs(&[(
            "template `square12`: door length must be at least 1",
            "rooms.templates[0].door"
        )])
    );
    assert_eq!(
        load(&|r| r.door = Some(DoorSpec {
            length: 0,
            corner_distance: 1
        })),
        pairs(&[("door length must be at least 1", "rooms.door")])
    );
    assert_eq!(
        load(&|r| r.load.clear()),
        pairs(&[
            (
                "unknown template or set `thesis_basic/12-square`",
                "rooms.sets[0]"
            ),
            ("unknown template or set `thesis_advanced`", "rooms.sets[0]"),
        ])
    );
    assert_eq!(
        load(&|r| {
            r.load.clear();
            r.sets[0].members = strings(&["square12"]);
            r.corridors.push("wide".into());
        }),
        pairs(&[("unknown template or set `wide`", "rooms.corridors[1]")])
    );
    // (`use room: all` then names a loaded set, which a `load` allows.)
    assert_eq!(
        load(&|r| r.sets[1].name = "c2".into()),
        pairs(&[("set `c2` is declared twice", "rooms.sets[1]")])
    );
    assert_eq!(
        load(&|r| r.uses[0].tags.push("hall".into())),
        pairs(&[("unknown tag `hall`", "rooms.uses[0]")])
    );
    assert_eq!(
        load(&|r| r.uses[1].tags.push("room".into())),
        pairs(&[("tag `room` is in two `use` lines", "rooms.uses[1]")])
    );
    assert_eq!(
        load(&|r| r.uses[2].tags.clear()),
        pairs(&[("a `use` line names no tag", "rooms.uses[2]")])
    );
    assert_eq!(
        load(&|r| r.sets[1].members.clear()),
        pairs(&[("set `all` has no members", "rooms.sets[1]")])
    );
    assert_eq!(
        load(&|r| r.uses.clear()),
        pairs(&[(
            "a rooms block needs a `use` line: which templates do rooms of each tag use?",
            "rooms.uses"
        )])
    );
    assert_eq!(
        load(&|r| r.load.push(" ".into())),
        pairs(&[("`load` needs a file or folder name", "rooms.load[2]")])
    );
    assert_eq!(
        load(&|r| r.corridors = strings(&["boss"])),
        pairs(&[(
            "corridor template `boss` needs exactly two `doors`, it has 0",
            "rooms.templates[1].doors"
        )])
    );
}

// -------------------------------------------------------------------- lint

/// The lint's room findings for `src`: (message, line).
fn room_findings(src: &str) -> Vec<(String, usize)> {
    let g = grammar::load(src, "lint").unwrap_or_else(|e| panic!("{e}"));
    levelgraph::lint::lint(&g)
        .into_iter()
        .filter(|d| d.message.contains("room templates"))
        .map(|d| {
            assert_eq!(d.severity, Severity::Warning);
            assert!(d.hint.as_deref().unwrap_or("").contains("use *"));
            (d.message.clone(), d.line_col(src).map_or(0, |lc| lc.line))
        })
        .collect()
}

#[test]
fn lint_warns_about_tags_in_levels_without_templates() {
    // `goal` is terminal and produced; `s` is not terminal.
    let src = block(&format!("{SQ}\nuse room: sq"));
    assert_eq!(
        room_findings(&src),
        [(
            "tag `goal` has no room templates: no `use` line names it".to_owned(),
            1
        )]
    );
    assert_eq!(
        room_findings(&block(&format!("{SQ}\nuse room goal: sq"))),
        []
    );
    assert_eq!(room_findings(&block(&format!("{SQ}\nuse *: sq"))), []);
    // Without `terminal` marks: every tag a rule that can fire produces (so
    // not `s`, and not `hall`, which no rule produces).
    let src = "tags { s room hall key }\n\
               rule start { (a:s) => (a:room) -- (b:key) }\n\
               rooms { template sq (0,0) (4,0) (4,4) (0,4) use room: sq }\n";
    assert_eq!(
        room_findings(src),
        [(
            "tag `key` has no room templates: no `use` line names it".to_owned(),
            1
        )]
    );
    // A vertex stored in a room is no room: `key` needs no `use`.
    let src = "tags { s room key }\n\
               rule start { (a:s) => (a:room), (k:key) in (a) }\n\
               rooms { template sq (0,0) (4,0) (4,4) (0,4) use room: sq }\n";
    assert_eq!(room_findings(src), []);
    // No rooms block, no finding.
    assert_eq!(room_findings(HEAD), []);
}

// --------------------------------------------------------------- no panics

#[test]
fn every_prefix_of_a_rooms_grammar_loads_or_fails_cleanly() {
    let src = full();
    for end in (0..=src.len()).filter(|&i| src.is_char_boundary(i)) {
        let text = &src[..end];
        match grammar::load(text, "prefix") {
            Ok(g) => {
                let _ = levelgraph::lint::errors(&g);
            }
            Err(e) => {
                for d in &e.diagnostics {
                    // Text grammars locate the block's errors by span.
                    assert!(
                        !matches!(&d.location, Location::Field(f) if f.starts_with("rooms")),
                        "{text:?}: {d:?} is not located by span"
                    );
                    let _ = d.render_plain("prefix.lg", text);
                }
            }
        }
    }
}

// -------------------------------------------------------------------- docs

#[test]
fn the_examples_of_the_language_reference_compile() {
    let blocks = super::common::language_reference_blocks("## 18. Room layout");
    let head = "tags { s room entrance treasure goal key }\n\
                rule start { (a:s) => (a:entrance) -- (b:room) -- (c:goal) -- (d:key), (b) -- (e:treasure) }\n";
    let text: Vec<&String> = blocks.iter().filter(|b| b.starts_with("rooms {")).collect();
    assert_eq!(text.len(), 2, "the syntax and the example");
    for block in text {
        let src = format!("{head}{block}");
        grammar::load(&src, "doc").unwrap_or_else(|e| panic!("{e}\n{src}"));
    }
    let json = blocks
        .iter()
        .find(|b| b.starts_with("\"rooms\""))
        .expect("the JSON example");
    let model = grammar::parse(head, "doc").unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&model.to_json()).unwrap();
    let rooms: serde_json::Value = serde_json::from_str(&format!("{{{json}}}")).unwrap();
    value["rooms"] = rooms["rooms"].clone();
    let g = grammar::load_json(&value.to_string()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.model().rooms.as_ref().unwrap().templates.len(), 2);
}
