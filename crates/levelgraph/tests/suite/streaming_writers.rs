//! The writers that stream (`write_*`, `MissionJson`) against what they
//! replaced: the same bytes as the documents built whole, and a failing
//! file's error passed on, not swallowed or turned into a panic.

use std::io::{self, Write};

use levelgraph::alphabet::Alphabet;
use levelgraph::derive::derive;
use levelgraph::formats::{
    write_dot, write_graph_text, write_graphml, write_svg_numbered, MissionDoc, MissionJson,
};
use levelgraph::grammar;
use levelgraph::play;

use crate::common;

/// `mission.json` read straight from a derivation is the document built
/// whole, byte for byte, play section included: every example, seeds
/// 1..=20.
#[test]
fn mission_json_streamed_is_the_document_built_whole() {
    for (stem, text) in common::example_sources() {
        let g = grammar::load(&text, &stem).unwrap();
        for seed in 1..=20 {
            let d = derive(&g, seed).unwrap_or_else(|e| e.into_derivation());
            let report = g.play().map(|spec| play::check(&d.graph, spec));
            let whole = MissionDoc::from_derivation(&d);
            let whole = match &report {
                Some(r) => whole.with_play(r, &d.graph),
                None => whole,
            };
            assert_eq!(
                MissionJson::new(&d, report.as_ref()).to_json(),
                whole.to_json(),
                "examples/{stem}.lg, seed {seed}"
            );
        }
    }
}

/// A file that takes `room` bytes and then fails, as a full disk does.
struct Full {
    room: usize,
}

impl Write for Full {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.room == 0 {
            return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
        }
        let n = buf.len().min(self.room);
        self.room -= n;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Every writer stops at the first error of its file and returns it.
#[test]
fn a_full_disk_is_an_error_of_every_writer() {
    let g = grammar::default_grammar();
    let d = derive(&g, 7).unwrap();
    let graph = &d.graph;
    let alphabet = Alphabet::default();
    let positions = vec![Some([0.0, 0.0]); graph.vertex_bound()];
    type Writes<'a> = Box<dyn Fn(&mut Full) -> io::Result<()> + 'a>;
    let writers: [(&str, Writes); 5] = [
        ("json", Box::new(|w| MissionJson::new(&d, None).write(w))),
        ("dot", Box::new(|w| write_dot(w, graph, &alphabet, "t"))),
        (
            "svg",
            Box::new(|w| write_svg_numbered(w, graph, &positions, &alphabet, "t", &[])),
        ),
        (
            "graphml",
            Box::new(|w| write_graphml(w, graph, &alphabet, "t")),
        ),
        ("txt", Box::new(|w| write_graph_text(w, graph, &positions))),
    ];
    for (name, write) in &writers {
        for room in [0, 1, 100] {
            let err = write(&mut Full { room }).expect_err(name);
            assert_eq!(err.kind(), io::ErrorKind::StorageFull, "{name}: {err}");
        }
    }
}
