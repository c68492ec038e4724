//! Bad input never panics: every prefix of every example grammar, and
//! random token soup, either loads or yields located diagnostics.

use levelgraph::diagnostic::Location;
use levelgraph::grammar;
use proptest::prelude::*;

use crate::common;

/// Loads `src`; on failure every diagnostic must point inside the text.
fn load_checked(src: &str) {
    if let Err(e) = grammar::load(src, "fuzz") {
        assert!(!e.diagnostics.is_empty());
        for d in &e.diagnostics {
            if let Location::Span(s) = d.location {
                assert!(
                    s.start <= s.end && s.end <= src.len(),
                    "{d:?} outside {} bytes",
                    src.len()
                );
            }
            let _ = d.render_plain("fuzz.lg", src);
        }
    }
}

#[test]
fn every_prefix_of_every_example() {
    for (_, text) in common::example_sources() {
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            load_checked(&text[..end]);
        }
    }
}

/// A comment that takes a block's `}` (`#abc }`, `// }`, with multi-byte
/// characters, after a CRLF or a byte-order mark) at the end of every line
/// of every example: the hint that names it must not panic.
#[test]
fn a_brace_in_a_comment_on_every_line() {
    for (_, text) in common::example_sources() {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for i in 0..lines.len() {
            for comment in [" #abc }", " // }", " #é }é", " #{ } }"] {
                let mut src = String::from("\u{feff}");
                for (j, line) in lines.iter().enumerate() {
                    if j == i {
                        let body = line.trim_end_matches(['\r', '\n']);
                        src.push_str(body);
                        src.push_str(comment);
                        src.push_str("\r\n");
                    } else {
                        src.push_str(line);
                    }
                }
                load_checked(&src);
            }
        }
    }
}

const VOCABULARY: &[&str] = &[
    "where",
    "not",
    "recipe",
    "group",
    "valence",
    "terminal",
    "..",
    "induced",
    "priority",
    "probability",
    "no_repeat",
    "1:",
    "lock",
    "grammar",
    "\"g\"",
    "tags",
    "rule",
    "r",
    "s",
    "room",
    "{",
    "}",
    "(",
    ")",
    ":",
    "|",
    "!",
    "*",
    ",",
    "=>",
    "--",
    "->",
    "~~",
    "~>",
    "-[",
    "]-",
    "]->",
    "weight",
    "max_uses",
    "2",
    "-1",
    "0.5",
    "#ffffff",
    "#",
    "//",
    "\n",
    "\"",
    "é",
    "@",
    "start",
    "max_valence",
    "a",
    "b",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn token_soup(tokens in proptest::collection::vec(0..VOCABULARY.len(), 0..40)) {
        let src: Vec<&str> = tokens.iter().map(|&i| VOCABULARY[i]).collect();
        load_checked(&src.join(" "));
        load_checked(&src.concat());
    }

    #[test]
    fn arbitrary_text(src in "\\PC{0,80}") {
        load_checked(&src);
    }
}
