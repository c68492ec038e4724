//! nauty's interchange formats graph6 (undirected simple graphs) and
//! digraph6 (directed graphs, loops allowed), as written by `geng`,
//! `labelg` and `directg`. Specification: B. D. McKay, "Description of
//! graph6, sparse6 and digraph6 encodings", formats.txt in the nauty
//! distribution.
//!
//! A line is the vertex count N(n) followed by the bits of the adjacency
//! matrix, six to a byte, each byte offset by 63: graph6 gives the upper
//! triangle column by column (`x(0,1) x(0,2) x(1,2) x(0,3) …`), digraph6
//! (prefix `&`) every row in full.

use super::coloured::ColouredGraph;

/// Why a graph6 or digraph6 line was not read, or a graph not written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Graph6Error {
    /// A byte outside the printable range `63..=126` of the format.
    #[error("byte {byte} at {at} is not a graph6 character (63..=126)")]
    BadByte {
        /// The byte.
        byte: u8,
        /// Its offset in the line (after a header).
        at: usize,
    },
    /// The line ends before the vertex count or the matrix is complete,
    /// or goes on after it.
    #[error("the line has {found} bytes after the vertex count, the format needs {expected} for {n} vertices")]
    Length {
        /// The vertex count read.
        n: u64,
        /// The bytes the matrix takes.
        expected: u64,
        /// The bytes there are.
        found: u64,
    },
    /// The graph has more vertices than a [`ColouredGraph`] takes.
    #[error("{n} vertices, more than a coloured graph takes")]
    TooLarge {
        /// The vertex count read.
        n: u64,
    },
    /// The graph has something the format cannot say: vertex or arc
    /// colours, repeated arcs, loops (graph6), or arcs one way only
    /// (graph6).
    #[error("{kind} cannot encode this graph: {why}")]
    NotEncodable {
        /// `"graph6"` or `"digraph6"`.
        kind: &'static str,
        /// What it cannot say.
        why: &'static str,
    },
}

const GRAPH6_HEADER: &str = ">>graph6<<";
const DIGRAPH6_HEADER: &str = ">>digraph6<<";

impl ColouredGraph {
    /// Reads one graph6 or digraph6 line (an optional `>>graph6<<` or
    /// `>>digraph6<<` header and surrounding whitespace are accepted). All
    /// vertices and arcs get colour 0; a graph6 edge is two arcs.
    ///
    /// # Errors
    ///
    /// [`Graph6Error`] for a byte outside the format, a line too short or
    /// too long for its vertex count, or more vertices than
    /// [`ColouredGraph::MAX_VERTICES`]. The body's length is checked
    /// before anything is allocated.
    pub fn from_graph6(line: &str) -> Result<ColouredGraph, Graph6Error> {
        let line = line.trim();
        let line = line
            .strip_prefix(GRAPH6_HEADER)
            .or_else(|| line.strip_prefix(DIGRAPH6_HEADER))
            .unwrap_or(line);
        let (directed, bytes) = match line.strip_prefix('&') {
            Some(rest) => (true, rest.as_bytes()),
            None => (false, line.as_bytes()),
        };
        for (at, &byte) in bytes.iter().enumerate() {
            if !(63..=126).contains(&byte) {
                return Err(Graph6Error::BadByte { byte, at });
            }
        }
        let (n, body) = read_count(bytes)?;
        let bits = if directed {
            u128::from(n) * u128::from(n)
        } else {
            u128::from(n) * u128::from(n.saturating_sub(1)) / 2
        };
        let expected = bits.div_ceil(6);
        if expected != body.len() as u128 {
            return Err(Graph6Error::Length {
                n,
                expected: u64::try_from(expected).unwrap_or(u64::MAX),
                found: body.len() as u64,
            });
        }
        if n > ColouredGraph::MAX_VERTICES as u64 {
            return Err(Graph6Error::TooLarge { n });
        }
        let n = n as usize;
        let bit = |k: usize| (body[k / 6] - 63) >> (5 - k % 6) & 1 == 1;
        let mut g = ColouredGraph::uncoloured(n);
        let mut k = 0;
        if directed {
            for from in 0..n {
                for to in 0..n {
                    if bit(k) {
                        g.add_arc(from as u32, to as u32, 0)
                            .expect("both ends below n");
                    }
                    k += 1;
                }
            }
        } else {
            for j in 1..n {
                for i in 0..j {
                    if bit(k) {
                        g.add_edge(i as u32, j as u32, 0)
                            .expect("both ends below n");
                    }
                    k += 1;
                }
            }
        }
        Ok(g)
    }

    /// The graph as a graph6 line (no header, no newline).
    ///
    /// # Errors
    ///
    /// [`Graph6Error::NotEncodable`] unless the graph is simple and
    /// undirected with every vertex and arc colour 0 (graph6 says nothing
    /// else).
    pub fn to_graph6(&self) -> Result<String, Graph6Error> {
        let n = self.vertex_count();
        let matrix = self.plain_matrix("graph6")?;
        if (0..n).any(|v| matrix[v * n + v]) {
            return Err(not_encodable("graph6", "a loop"));
        }
        if !self.is_symmetric() {
            return Err(not_encodable("graph6", "an arc without its reverse"));
        }
        let bits = (1..n).flat_map(|j| (0..j).map(move |i| (i, j)));
        let mut out = String::new();
        write_count(&mut out, n);
        write_bits(&mut out, bits.map(|(i, j)| matrix[i * n + j]));
        Ok(out)
    }

    /// The graph as a digraph6 line (`&…`, no header, no newline).
    ///
    /// # Errors
    ///
    /// [`Graph6Error::NotEncodable`] unless every vertex and arc colour is
    /// 0 and no arc repeats.
    pub fn to_digraph6(&self) -> Result<String, Graph6Error> {
        let matrix = self.plain_matrix("digraph6")?;
        let mut out = String::from("&");
        write_count(&mut out, self.vertex_count());
        write_bits(&mut out, matrix.into_iter());
        Ok(out)
    }

    /// The adjacency matrix, row-major, of a graph that graph6 or digraph6
    /// can hold at all.
    fn plain_matrix(&self, kind: &'static str) -> Result<Vec<bool>, Graph6Error> {
        if self.vertex_colours().iter().any(|&c| c != 0) {
            return Err(not_encodable(kind, "vertex colours"));
        }
        let n = self.vertex_count();
        let mut matrix = vec![false; n * n];
        for a in self.arcs() {
            if a.colour != 0 {
                return Err(not_encodable(kind, "arc colours"));
            }
            let cell = &mut matrix[a.from as usize * n + a.to as usize];
            if std::mem::replace(cell, true) {
                return Err(not_encodable(kind, "a repeated arc"));
            }
        }
        Ok(matrix)
    }
}

fn not_encodable(kind: &'static str, why: &'static str) -> Graph6Error {
    Graph6Error::NotEncodable { kind, why }
}

/// N(n): one byte below 63; `~` and three bytes below 258,048; `~~` and
/// six bytes otherwise. Returns the count and the rest of the line.
fn read_count(bytes: &[u8]) -> Result<(u64, &[u8]), Graph6Error> {
    let short = |found: usize| Graph6Error::Length {
        n: 0,
        expected: 1,
        found: found as u64,
    };
    let word = |digits: &[u8]| {
        digits
            .iter()
            .fold(0u64, |acc, &b| (acc << 6) | u64::from(b - 63))
    };
    match bytes {
        [126, 126, rest @ ..] if rest.len() >= 6 => Ok((word(&rest[..6]), &rest[6..])),
        [126, 126, ..] => Err(short(bytes.len())),
        [126, rest @ ..] if rest.len() >= 3 => Ok((word(&rest[..3]), &rest[3..])),
        [126, ..] => Err(short(bytes.len())),
        [b, rest @ ..] => Ok((u64::from(b - 63), rest)),
        [] => Err(short(0)),
    }
}

fn write_count(out: &mut String, n: usize) {
    let n = n as u64;
    let digits: &[u32] = if n < 63 {
        &[0]
    } else if n < 258_048 {
        out.push('~');
        &[12, 6, 0]
    } else {
        out.push_str("~~");
        &[30, 24, 18, 12, 6, 0]
    };
    for &shift in digits {
        out.push(char::from(((n >> shift) & 63) as u8 + 63));
    }
}

fn write_bits(out: &mut String, bits: impl Iterator<Item = bool>) {
    let mut byte = 0u8;
    let mut filled = 0;
    for bit in bits {
        byte = (byte << 1) | u8::from(bit);
        filled += 1;
        if filled == 6 {
            out.push(char::from(byte + 63));
            (byte, filled) = (0, 0);
        }
    }
    if filled > 0 {
        out.push(char::from((byte << (6 - filled)) + 63));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples of formats.txt: the 5-vertex graph with edges 0-2,
    /// 0-4, 1-3, 3-4 is `DQc`, and the 5-vertex digraph with arcs 0->2,
    /// 0->4, 3->1, 3->4 is `&DI?AO?`.
    #[test]
    fn the_specifications_examples() {
        let mut g = ColouredGraph::uncoloured(5);
        for (a, b) in [(0, 2), (0, 4), (1, 3), (3, 4)] {
            g.add_edge(a, b, 0).unwrap();
        }
        assert_eq!(g.to_graph6().unwrap(), "DQc");
        let mut d = ColouredGraph::uncoloured(5);
        for (a, b) in [(0, 2), (0, 4), (3, 1), (3, 4)] {
            d.add_arc(a, b, 0).unwrap();
        }
        assert_eq!(d.to_digraph6().unwrap(), "&DI?AO?");
        let back = ColouredGraph::from_graph6(">>digraph6<<&DI?AO?\n").unwrap();
        assert_eq!(back.to_digraph6().unwrap(), "&DI?AO?");
        let back = ColouredGraph::from_graph6("DQc").unwrap();
        assert_eq!(back.to_graph6().unwrap(), "DQc");
    }

    #[test]
    fn large_counts_round_trip() {
        for n in [0, 1, 62, 63, 100, 258_047, 258_048] {
            let mut s = String::new();
            write_count(&mut s, n);
            let (read, rest) = read_count(s.as_bytes()).unwrap();
            assert_eq!((read, rest.len()), (n as u64, 0));
        }
        let g = ColouredGraph::cycle(100);
        let line = g.to_graph6().unwrap();
        assert!(line.starts_with('~'));
        let back = ColouredGraph::from_graph6(&line).unwrap();
        assert_eq!(back.to_graph6().unwrap(), line);
    }

    #[test]
    fn bad_lines_are_errors() {
        assert!(matches!(
            ColouredGraph::from_graph6("D Qc"),
            Err(Graph6Error::BadByte { byte: b' ', at: 1 })
        ));
        assert!(matches!(
            ColouredGraph::from_graph6("DQ"),
            Err(Graph6Error::Length { n: 5, .. })
        ));
        assert!(ColouredGraph::from_graph6("~~~~~~~~").is_err());
        assert!(ColouredGraph::from_graph6("").is_err());
        let mut looped = ColouredGraph::uncoloured(2);
        looped.add_edge(1, 1, 0).unwrap();
        assert!(looped.to_graph6().is_err());
        assert!(ColouredGraph::new(vec![0, 1]).to_graph6().is_err());
    }
}
