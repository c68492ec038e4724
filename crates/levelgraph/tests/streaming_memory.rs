//! The file writers stream: writing a file takes heap for one element at a
//! time (and a few numbers per vertex), not for the file. A counting
//! global allocator, this binary's own so that no other test's allocations
//! count, measures the peak heap in use while each writer writes a level
//! of 10,000 vertices to a sink, against the bytes it writes. A writer
//! that built its text (or a document tree) in memory first would hold at
//! least as many bytes as it writes; the `to_*` functions, which do, are
//! measured too, to show that the count sees such a copy.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use levelgraph::alphabet::Alphabet;
use levelgraph::derive::Derivation;
use levelgraph::formats::{
    to_dot, to_graph_text, to_graphml, to_svg, write_dot, write_graph_text, write_graphml,
    write_svg, MissionJson,
};
use levelgraph::grammar;
use levelgraph::graph::Point;

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = IN_USE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is passed on to `System` unchanged; only counters
// are updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            IN_USE.fetch_sub(layout.size(), Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The peak heap above what was in use before, while `f` runs, and what
/// `f` returns.
fn peak_during<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = IN_USE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let out = f();
    (PEAK.load(Relaxed).saturating_sub(before), out)
}

/// A file that keeps nothing: it counts the bytes written to it.
#[derive(Default)]
struct Counted(usize);

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The built-in grammar grown to `vertices` (its rules that close the
/// frontier removed, as in the growth benchmark), derived with seed 1.
fn grown(vertices: usize) -> Derivation {
    let mut text = grammar::DEFAULT_GRAMMAR
        .replace("max_vertices 40\n", &format!("max_vertices {vertices}\n"))
        .replace(
            "max_iterations 300\n",
            &format!("max_iterations {}\n", 2 * vertices + 1000),
        );
    for rule in ["rule settle ", "rule settle_before "] {
        let start = text.find(rule).expect("the default grammar has the rule");
        let end = start + text[start..].find("\n}\n").expect("a rule ends with }") + 3;
        text.replace_range(start..end, "");
    }
    let g = grammar::load(&text, "grown").expect("the grown grammar compiles");
    let d = levelgraph::derive::derive(&g, 1).expect("the grown grammar derives");
    assert_eq!(d.graph.vertex_count(), vertices);
    d
}

/// Streams each file of a large level to a sink: the heap at its peak is
/// under an eighth of the bytes written (the few numbers per vertex that
/// the SVG's frame and the text export's vertex indices keep are a
/// fifteenth and more of them). The same files made in memory
/// hold at least the bytes written, so the count is live.
#[test]
fn writers_hold_an_element_not_the_file() {
    let d = grown(10_000);
    let g = &d.graph;
    let positions: Vec<Option<Point>> = (0..g.vertex_bound())
        .map(|i| Some([(i % 100) as f64, (i / 100) as f64]))
        .collect();
    let alphabet = Alphabet::default();
    let title = "grown — seed 1";
    type Streams<'a> = Box<dyn Fn(&mut Counted) -> io::Result<()> + 'a>;
    type Whole<'a> = Box<dyn Fn() -> String + 'a>;
    let files: [(&str, Streams, Whole); 5] = [
        (
            "mission.json",
            Box::new(|w| MissionJson::new(&d, None).write(w)),
            Box::new(|| MissionJson::new(&d, None).to_json()),
        ),
        (
            "mission.dot",
            Box::new(|w| write_dot(w, g, &alphabet, title)),
            Box::new(|| to_dot(g, &alphabet, title)),
        ),
        (
            "mission.svg",
            Box::new(|w| write_svg(w, g, &positions, &alphabet, title)),
            Box::new(|| to_svg(g, &positions, &alphabet, title)),
        ),
        (
            "mission.graphml",
            Box::new(|w| write_graphml(w, g, &alphabet, title)),
            Box::new(|| to_graphml(g, &alphabet, title)),
        ),
        (
            "mission.txt",
            Box::new(|w| write_graph_text(w, g, &positions)),
            Box::new(|| to_graph_text(g, &positions)),
        ),
    ];
    for (name, stream, whole) in &files {
        let (peak, written) = peak_during(|| {
            let mut sink = Counted::default();
            stream(&mut sink).unwrap();
            sink.0
        });
        assert!(
            peak < written / 8,
            "{name}: {peak} bytes of heap at the peak to write {written} bytes"
        );
        let (peak_whole, text) = peak_during(whole);
        assert_eq!(text.len(), written, "{name}: the same bytes both ways");
        assert!(
            peak_whole >= written,
            "{name}: made whole in memory, the count sees {peak_whole} of {written} bytes"
        );
    }
}
