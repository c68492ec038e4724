//! The canonical form as bytes, and its portable 64-bit hash.
//!
//! The bytes are the graph in one numbering, written so that they can be
//! read back (every number says how many come after it), which is what
//! makes them equal exactly when the numbered graphs are equal: the
//! palette, the vertex colours in vertex order, the table of combined arc
//! colours, then per vertex its out-neighbours in increasing order. Given
//! the canonical numbering they are equal exactly when two graphs are
//! isomorphic with their colours and palettes.
//!
//! Numbers are LEB128 varints and neighbours are written as gaps, so a
//! dense graph of n vertices costs about a byte per arc rather than the
//! twelve of a `(from, to, colour)` triple: the form of the Paley graph
//! on 593 vertices is 177 KB, not 2.1 MB, and its FNV-1a hash, a byte at
//! a time, was an eighth to a sixth of that graph's labelling time.

use super::coloured::ColouredGraph;
use super::prepared::{merged_arcs, Prepared};

/// The first bytes of every form: the format and its version, so a form
/// stored today is never equal to one of a later encoding (`lgcanon1`
/// wrote every arc as three little-endian `u32`s).
const MAGIC: &[u8; 8] = b"lgcanon2";

/// The bytes of `g` as it is numbered, all numbers unsigned LEB128
/// varints (seven bits a byte, low bits first, the top bit set on all
/// but the last byte):
///
/// 1. the 8 bytes `lgcanon2`;
/// 2. the palette's length and its bytes;
/// 3. the vertex count `n`, then each vertex's colour;
/// 4. the combined arc colours: their count `k`, then each one's length
///    and arc colours. A combined colour is the sorted multiset of the
///    colours of the arcs from one vertex to another (one arc: one
///    colour); the table lists those that occur, sorted as sequences, and
///    an arc pair's combined colour is its index there;
/// 5. per vertex `u` in order, its distinct out-neighbours `v₁ < v₂ < …`:
///    their count, then each `vᵢ − (vᵢ₋₁ + 1)` (`v₁` itself for the first),
///    followed, when `k > 1`, by the index of the combined colour of the
///    arcs `u → vᵢ`.
///
/// Each number says how many numbers follow it, so the bytes decode to
/// one graph: equal bytes, equal graphs (with repeats, loops and
/// colours), and conversely. [`super::canonical`]'s form is this of the
/// graph renumbered by the canonical labelling.
pub fn encode(g: &ColouredGraph) -> Vec<u8> {
    let (start, arcs, multisets) = merged_arcs(g);
    let coloured = multisets.len() > 1;
    let rows = start.len() + if coloured { 2 } else { 1 } * arcs.len();
    let colours = g.vertex_colours().iter().copied();
    let mut out = header(g.palette(), colours, &multisets, rows);
    for row in start.windows(2) {
        let row = &arcs[row[0] as usize..row[1] as usize];
        write_row(&mut out, row.len(), row.iter().copied(), coloured);
    }
    out
}

/// [`encode`] of `g` renumbered by `labelling`, written straight from the
/// search's rows of the best leaf (per place: out-degree, then the places
/// of the heads in order, each followed by its combined colour when there
/// are several, as `search::leaf_rows` writes them), so nothing is sorted
/// again. `tests/suite/canon.rs` holds it to [`encode`].
pub(crate) fn from_rows(
    g: &ColouredGraph,
    prepared: &Prepared,
    labelling: &[u32],
    leaf_rows: &[u32],
) -> Vec<u8> {
    let colours = g.vertex_colours();
    let mut out = header(
        g.palette(),
        labelling.iter().map(|&v| colours[v as usize]),
        &prepared.multisets,
        leaf_rows.len(),
    );
    let coloured = prepared.arc_colours();
    let step = if coloured { 2 } else { 1 };
    let mut at = 0;
    for _ in labelling {
        let degree = leaf_rows[at] as usize;
        let row = &leaf_rows[at + 1..at + 1 + step * degree];
        let arcs = row
            .chunks_exact(step)
            .map(|pair| (pair[0], pair.get(1).copied().unwrap_or(0)));
        write_row(&mut out, degree, arcs, coloured);
        at += 1 + step * degree;
    }
    out
}

/// Parts 1 to 4 of [`encode`]'s layout, in a buffer with room for
/// `rows` more bytes: part 5 takes a byte per number below 128, and
/// `rows` is its count of numbers (so a sparse level's form is written
/// without growing its buffer).
fn header(
    palette: &[u8],
    colours: impl ExactSizeIterator<Item = u32>,
    multisets: &[Vec<u32>],
    rows: usize,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + palette.len() + colours.len() + rows);
    out.extend_from_slice(MAGIC);
    varint(&mut out, palette.len() as u64);
    out.extend_from_slice(palette);
    varint(&mut out, colours.len() as u64);
    for c in colours {
        varint(&mut out, c.into());
    }
    varint(&mut out, multisets.len() as u64);
    for m in multisets {
        varint(&mut out, m.len() as u64);
        for &c in m {
            varint(&mut out, c.into());
        }
    }
    out
}

/// Part 5 of [`encode`]'s layout for one vertex: `degree` and its
/// `(head, combined colour)` arcs, heads increasing.
fn write_row(
    out: &mut Vec<u8>,
    degree: usize,
    arcs: impl Iterator<Item = (u32, u32)>,
    coloured: bool,
) {
    varint(out, degree as u64);
    let mut next = 0;
    for (head, colour) in arcs {
        varint(out, (head - next).into());
        next = head + 1;
        if coloured {
            varint(out, colour.into());
        }
    }
}

/// Appends `x` as an unsigned LEB128 varint.
fn varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push(x as u8 | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// FNV-1a, 64 bits (Fowler, Noll and Vo; the offset basis and prime of
/// the reference parameters): the same value for the same bytes on every
/// platform and Rust version, unlike `std`'s `DefaultHasher`. Not
/// collision resistant against an adversary; equal forms, not equal
/// hashes, decide isomorphism.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325_u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published test vectors of FNV-1a 64.
    #[test]
    fn fnv1a_test_vectors() {
        assert_eq!(stable_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(stable_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(stable_hash(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn arcs_are_sorted_and_the_palette_counts() {
        let mut g = ColouredGraph::new(vec![1, 0]);
        g.add_arc(1, 0, 2).unwrap();
        g.add_arc(0, 1, 3).unwrap();
        let mut h = ColouredGraph::new(vec![1, 0]);
        h.add_arc(0, 1, 3).unwrap();
        h.add_arc(1, 0, 2).unwrap();
        assert_eq!(encode(&g), encode(&h));
        h.set_palette(b"x".to_vec());
        assert_ne!(encode(&g), encode(&h));
    }

    /// The layout, byte by byte: one arc colour (none written per arc),
    /// then two combined colours, a repeated pair and a two-byte varint.
    #[test]
    fn the_layout_byte_by_byte() {
        let path = ColouredGraph::path(3);
        let mut expected = b"lgcanon2".to_vec();
        // Palette 0; n 3, colours 0 0 0; one combined colour, [0].
        expected.extend([0, 3, 0, 0, 0, 1, 1, 0]);
        // Rows: 0 → {1}; 1 → {0, 2} (gap 0, then 2 − (0 + 1)); 2 → {1}.
        expected.extend([1, 1, 2, 0, 1, 1, 1]);
        assert_eq!(encode(&path), expected);

        let mut g = ColouredGraph::new(vec![1, 0, 200]);
        g.add_edge(0, 1, 7).unwrap();
        g.add_arc(2, 0, 7).unwrap();
        g.add_arc(2, 0, 7).unwrap();
        let mut expected = b"lgcanon2".to_vec();
        // Palette 0; n 3, colours 1 0 200 (0xc8 0x01).
        expected.extend([0, 3, 1, 0, 0xc8, 0x01]);
        // Combined colours [7] < [7, 7].
        expected.extend([2, 1, 7, 2, 7, 7]);
        // Rows with colours: 0 → 1 in [7]; 1 → 0 in [7]; 2 → 0 in [7, 7].
        expected.extend([1, 1, 0, 1, 0, 0, 1, 0, 1]);
        assert_eq!(encode(&g), expected);
    }

    #[test]
    fn varints_are_leb128() {
        let bytes = |x: u64| {
            let mut out = Vec::new();
            varint(&mut out, x);
            out
        };
        assert_eq!(bytes(0), [0]);
        assert_eq!(bytes(127), [0x7f]);
        assert_eq!(bytes(128), [0x80, 0x01]);
        assert_eq!(bytes(300), [0xac, 0x02]);
        assert_eq!(bytes(u64::from(u32::MAX)), [0xff, 0xff, 0xff, 0xff, 0x0f]);
    }
}
