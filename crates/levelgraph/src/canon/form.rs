//! The canonical form as bytes, and its portable 64-bit hash.
//!
//! The bytes are the graph in one numbering: the palette, the vertex
//! colours in vertex order, then every arc (repeats kept) sorted. Given the
//! canonical numbering they are equal exactly when two graphs are
//! isomorphic with their colours and palettes.

use super::coloured::ColouredGraph;
use super::prepared::{rows, Prepared};

/// The first bytes of every form: the format and its version, so a form
/// stored today is never equal to one of a later encoding.
const MAGIC: &[u8; 8] = b"lgcanon1";

/// The bytes of `g` as it is numbered: the 8 bytes `lgcanon1`, the palette's length
/// (u64) and bytes, the vertex count (u64), each vertex's colour (u32),
/// the arc count (u64) and the arcs `(from, to, colour)` (u32 each) sorted;
/// all little-endian.
///
/// [`super::canonical`]'s form is this of the graph renumbered by the
/// canonical labelling.
pub fn encode(g: &ColouredGraph) -> Vec<u8> {
    let arcs: Vec<[u32; 3]> = g.arcs().iter().map(|a| [a.from, a.to, a.colour]).collect();
    let (_, arcs) = rows(g.vertex_count(), arcs, |a| a[0]);
    let palette = g.palette();
    let mut out = Vec::with_capacity(32 + palette.len() + 4 * g.vertex_count() + 12 * arcs.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(palette.len() as u64).to_le_bytes());
    out.extend_from_slice(palette);
    out.extend_from_slice(&(g.vertex_count() as u64).to_le_bytes());
    for &c in g.vertex_colours() {
        out.extend_from_slice(&c.to_le_bytes());
    }
    out.extend_from_slice(&(arcs.len() as u64).to_le_bytes());
    for arc in &arcs {
        for x in arc {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    out
}

/// [`encode`] of `g` renumbered by `labelling`, written straight from the
/// search's rows of the best leaf (per place: out-degree, then `(place of
/// head, combined colour)` pairs sorted): each combined colour expands to
/// its sorted arc colours, which keeps the arcs sorted, so nothing is
/// sorted again. `tests/canon.rs` holds it to [`encode`].
pub(crate) fn from_rows(
    g: &ColouredGraph,
    prepared: &Prepared,
    labelling: &[u32],
    leaf_rows: &[u32],
) -> Vec<u8> {
    let palette = g.palette();
    let n = g.vertex_count();
    let arcs = g.arcs().len();
    let mut out = Vec::with_capacity(32 + palette.len() + 4 * n + 12 * arcs);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(palette.len() as u64).to_le_bytes());
    out.extend_from_slice(palette);
    out.extend_from_slice(&(n as u64).to_le_bytes());
    for &v in labelling {
        out.extend_from_slice(&g.vertex_colours()[v as usize].to_le_bytes());
    }
    out.extend_from_slice(&(arcs as u64).to_le_bytes());
    let mut at = 0;
    for place in 0..n as u32 {
        let degree = leaf_rows[at] as usize;
        for pair in leaf_rows[at + 1..at + 1 + 2 * degree].chunks_exact(2) {
            for &colour in &prepared.multisets[pair[1] as usize] {
                for x in [place, pair[0], colour] {
                    out.extend_from_slice(&x.to_le_bytes());
                }
            }
        }
        at += 1 + 2 * degree;
    }
    out
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
}
