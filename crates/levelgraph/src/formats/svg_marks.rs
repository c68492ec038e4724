//! The elements `mission.svg` has one of per vertex and per edge, written
//! straight to the file in the `svg` crate's own layout.
//!
//! Building each through the crate costs a hash map of owned strings per
//! element and a sort when it is written: most of the time of a large
//! picture. These write the same bytes directly: attributes sorted by
//! name, values escaped as the crate escapes them, a `text` element's
//! content on a line of its own, a `title`'s on the tags' line. The
//! crate-built elements stay beside them in the tests, and a property
//! test holds the two to the same bytes.

use std::fmt::{self, Display, Formatter};

use smallvec::SmallVec;

use crate::graph::{Point, VertexId};

use Value::Number;

/// An attribute value.
#[derive(Clone, Copy)]
pub(super) enum Value<'a> {
    /// A number, written as Rust's `Display` writes an `f64` (as the crate
    /// does).
    Number(f64),
    /// A whole number.
    Whole(u64),
    /// Text, escaped.
    Text(&'a str),
}

impl Display for Value<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Value::Number(x) => write!(f, "{x}"),
            Value::Whole(n) => write!(f, "{n}"),
            Value::Text(s) => Escaped::attribute(s).fmt(f),
        }
    }
}

/// Text escaped as the `svg` crate escapes it: `&`, `<` and `>` always,
/// `"` and `'` too in an attribute value.
pub(super) struct Escaped<'a> {
    text: &'a str,
    quotes: bool,
}

impl<'a> Escaped<'a> {
    /// Element content.
    pub(super) fn content(text: &'a str) -> Self {
        Escaped {
            text,
            quotes: false,
        }
    }

    /// An attribute value.
    fn attribute(text: &'a str) -> Self {
        Escaped { text, quotes: true }
    }
}

impl Display for Escaped<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut rest = self.text;
        while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..at])?;
            let c = rest.as_bytes()[at];
            f.write_str(match (c, self.quotes) {
                (b'&', _) => "&amp;",
                (b'<', _) => "&lt;",
                (b'>', _) => "&gt;",
                (b'"', true) => "&quot;",
                (b'\'', true) => "&apos;",
                (b'"', false) => "\"",
                _ => "'",
            })?;
            rest = &rest[at + 1..];
        }
        f.write_str(rest)
    }
}

/// An element's name and attributes; `open` writes `<name a="…" …`,
/// attributes in name order, for the caller to close.
pub(super) struct Tag<'a> {
    name: &'static str,
    attributes: SmallVec<[(&'static str, Value<'a>); 8]>,
}

impl<'a> Tag<'a> {
    pub(super) fn new(name: &'static str) -> Self {
        Tag {
            name,
            attributes: SmallVec::new(),
        }
    }

    /// The tag with attribute `name` set to `value` (each name once).
    pub(super) fn set(mut self, name: &'static str, value: Value<'a>) -> Self {
        debug_assert!(self.attributes.iter().all(|(n, _)| *n != name));
        self.attributes.push((name, value));
        self
    }

    /// Writes `<name` and the attributes, sorted by name as the crate does.
    fn open(&mut self, f: &mut Formatter<'_>) -> fmt::Result {
        self.attributes.sort_unstable_by_key(|(name, _)| *name);
        f.write_str("<")?;
        f.write_str(self.name)?;
        for (name, value) in &self.attributes {
            write!(f, " {name}=\"{value}\"")?;
        }
        Ok(())
    }

    /// The element with no content: `<name …/>`.
    pub(super) fn empty(mut self, f: &mut Formatter<'_>) -> fmt::Result {
        self.open(f)?;
        f.write_str("/>")
    }

    /// The element with `text` as its content on a line of its own, as the
    /// crate writes a `text` element: `<text …>\ncontent\n</text>`.
    pub(super) fn text(mut self, f: &mut Formatter<'_>, text: impl Display) -> fmt::Result {
        self.open(f)?;
        write!(f, ">\n{text}\n</{}>", self.name)
    }
}

/// An edge's line, from `from` to `to` in pixels (already rounded).
pub(super) struct EdgeLine {
    pub(super) from: Point,
    pub(super) to: Point,
    pub(super) directed: bool,
    pub(super) cosmetic: bool,
}

impl Display for EdgeLine {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut line = Tag::new("line")
            .set("x1", Number(self.from[0]))
            .set("y1", Number(self.from[1]))
            .set("x2", Number(self.to[0]))
            .set("y2", Number(self.to[1]));
        if self.directed {
            line = line.set("marker-end", Value::Text("url(#arrow)"));
        }
        if self.cosmetic {
            line = line
                .set("stroke-dasharray", Value::Text("6 4"))
                .set("stroke", Value::Text("#78909c"));
        }
        line.empty(f)
    }
}

/// An edge's label at `at` (pixels, already rounded).
pub(super) struct EdgeLabel<'a> {
    pub(super) label: &'a str,
    pub(super) at: Point,
}

impl Display for EdgeLabel<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        Tag::new("text")
            .set("x", Number(self.at[0]))
            .set("y", Number(self.at[1]))
            .set("font-size", Value::Whole(10))
            .set("text-anchor", Value::Text("middle"))
            .set("stroke", Value::Text("none"))
            .set("fill", Value::Text("#263238"))
            .text(f, Escaped::content(self.label))
    }
}

/// Size of a vertex's circle and its label, pixels.
pub(super) struct Disc {
    pub(super) radius: f64,
    pub(super) stroke_width: f64,
    pub(super) font: u32,
    /// How far below the centre the label's baseline sits.
    pub(super) baseline: f64,
}

/// A vertex's tooltip: `v3 key`, or `v5 key (in v2)` for a stored vertex.
pub(super) struct Tooltip<'a> {
    pub(super) id: VertexId,
    pub(super) tag: &'a str,
    pub(super) parent: Option<VertexId>,
}

impl Display for Tooltip<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.id, Escaped::content(self.tag))?;
        match self.parent {
            Some(parent) => write!(f, " (in {parent})"),
            None => Ok(()),
        }
    }
}

/// A vertex: a circle at `centre` (pixels) filled with `fill`, `label`
/// centred in it in `text_fill`, and a tooltip.
pub(super) struct VertexMark<'a> {
    pub(super) centre: Point,
    pub(super) disc: Disc,
    pub(super) fill: &'a str,
    pub(super) text_fill: &'a str,
    pub(super) label: &'a str,
    pub(super) tooltip: Tooltip<'a>,
}

impl Display for VertexMark<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let [x, y] = self.centre;
        f.write_str("<g>\n")?;
        Tag::new("circle")
            .set("cx", Number(round(x)))
            .set("cy", Number(round(y)))
            .set("r", Number(self.disc.radius))
            .set("fill", Value::Text(self.fill))
            .set("stroke", Value::Text("#263238"))
            .set("stroke-width", Number(self.disc.stroke_width))
            .empty(f)?;
        f.write_str("\n")?;
        Tag::new("text")
            .set("x", Number(round(x)))
            .set("y", Number(round(y + self.disc.baseline)))
            .set("font-size", Value::Whole(u64::from(self.disc.font)))
            .set("text-anchor", Value::Text("middle"))
            .set("fill", Value::Text(self.text_fill))
            .text(f, Escaped::content(self.label))?;
        write!(f, "\n<title>{}</title>\n</g>", self.tooltip)
    }
}

/// A playthrough number `n` in a badge centred at `at` (pixels, already
/// rounded): a white circle and the number, two elements.
pub(super) struct Badge {
    pub(super) n: usize,
    pub(super) at: Point,
}

impl Display for Badge {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let [x, y] = self.at;
        Tag::new("circle")
            .set("cx", Number(x))
            .set("cy", Number(y))
            .set("r", Value::Whole(8))
            .set("fill", Value::Text("#ffffff"))
            .set("stroke", Value::Text("#263238"))
            .empty(f)?;
        f.write_str("\n")?;
        Tag::new("text")
            .set("x", Number(x))
            .set("y", Number(round(y + 3.0)))
            .set("fill", Value::Text("#263238"))
            .text(f, self.n)
    }
}

/// Two decimals are plenty for pixels and keep the file stable and small.
pub(super) fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use svg::node::element::{Circle, Group, Line, Text, Title};

    use super::*;

    /// The edge's line as the picture built it with the crate.
    fn reference_line(e: &EdgeLine) -> Line {
        let mut line = Line::new()
            .set("x1", e.from[0])
            .set("y1", e.from[1])
            .set("x2", e.to[0])
            .set("y2", e.to[1]);
        if e.directed {
            line = line.set("marker-end", "url(#arrow)");
        }
        if e.cosmetic {
            line = line.set("stroke-dasharray", "6 4").set("stroke", "#78909c");
        }
        line
    }

    fn reference_label(l: &EdgeLabel) -> Text {
        Text::new(l.label)
            .set("x", l.at[0])
            .set("y", l.at[1])
            .set("font-size", 10)
            .set("text-anchor", "middle")
            .set("stroke", "none")
            .set("fill", "#263238")
    }

    fn reference_vertex(v: &VertexMark) -> Group {
        let p = v.centre;
        Group::new()
            .add(
                Circle::new()
                    .set("cx", round(p[0]))
                    .set("cy", round(p[1]))
                    .set("r", v.disc.radius)
                    .set("fill", v.fill)
                    .set("stroke", "#263238")
                    .set("stroke-width", v.disc.stroke_width),
            )
            .add(
                Text::new(v.label)
                    .set("x", round(p[0]))
                    .set("y", round(p[1] + v.disc.baseline))
                    .set("font-size", v.disc.font)
                    .set("text-anchor", "middle")
                    .set("fill", v.text_fill),
            )
            .add(Title::new(v.tooltip.to_reference()))
    }

    impl Tooltip<'_> {
        fn to_reference(&self) -> String {
            let (id, tag) = (self.id, self.tag);
            match self.parent {
                Some(parent) => format!("{id} {tag} (in {parent})"),
                None => format!("{id} {tag}"),
            }
        }
    }

    /// The badge's two elements, each written by the crate, on two lines
    /// as the group writes its children.
    fn reference_badge(b: &Badge) -> String {
        let [x, y] = b.at;
        let circle = Circle::new()
            .set("cx", x)
            .set("cy", y)
            .set("r", 8)
            .set("fill", "#ffffff")
            .set("stroke", "#263238");
        let text = Text::new(b.n.to_string())
            .set("x", x)
            .set("y", round(y + 3.0))
            .set("fill", "#263238");
        format!("{circle}\n{text}")
    }

    /// Text with every character the escapes care about, and others.
    fn text() -> impl Strategy<Value = String> {
        "[&<>\"' a-zé#()0-9\u{1F600}-]{0,10}"
    }

    /// Pixels: whole, rounded to two decimals, tiny, huge, negative.
    fn pixel() -> impl Strategy<Value = f64> {
        prop_oneof![
            (-5000i32..5000).prop_map(f64::from),
            (-1e7f64..1e7).prop_map(round),
            -1e-3f64..1e-3,
            prop::num::f64::NORMAL,
        ]
    }

    proptest! {
        #[test]
        fn edges_are_the_crate_s_bytes(
            from in (pixel(), pixel()), to in (pixel(), pixel()),
            directed: bool, cosmetic: bool, label in text(),
        ) {
            let line = EdgeLine { from: [from.0, from.1], to: [to.0, to.1], directed, cosmetic };
            prop_assert_eq!(line.to_string(), reference_line(&line).to_string());
            let label = EdgeLabel { label: &label, at: [from.0, to.1] };
            prop_assert_eq!(label.to_string(), reference_label(&label).to_string());
        }

        #[test]
        fn vertices_are_the_crate_s_bytes(
            centre in (pixel(), pixel()), radius in pixel(), stroke_width in pixel(),
            font in 0u32..30, baseline in pixel(), fill in text(), text_fill in text(),
            label in text(), tag in text(), id in 0u32..1000, parent in proptest::option::of(0u32..1000),
        ) {
            let mark = VertexMark {
                centre: [centre.0, centre.1],
                disc: Disc { radius, stroke_width, font, baseline },
                fill: &fill,
                text_fill: &text_fill,
                label: &label,
                tooltip: Tooltip { id: VertexId(id), tag: &tag, parent: parent.map(VertexId) },
            };
            prop_assert_eq!(mark.to_string(), reference_vertex(&mark).to_string());
        }

        #[test]
        fn badges_are_the_crate_s_bytes(at in (pixel(), pixel()), n in 1usize..100_000) {
            let badge = Badge { n, at: [at.0, at.1] };
            prop_assert_eq!(badge.to_string(), reference_badge(&badge));
        }
    }
}
