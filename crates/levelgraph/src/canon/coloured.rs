//! `ColouredGraph`: the input of the canonical labelling, vertices with
//! colours and arcs with colours, and nothing else.
//!
//! Everything a caller wants respected (tags, labels, direction, nesting)
//! is first turned into colours ([`super::host::of_graph`] does it for a
//! level); the search then sees only this plain structure. nauty and bliss
//! take the same shape of input (McKay & Piperno 2014, section 2: a graph
//! with an ordered partition of its vertices).

use std::fmt;

/// A graph on the vertices `0..n`, each with a colour, and a multiset of
/// coloured arcs `(from, to, colour)`.
///
/// - Vertex colours are ordered: a vertex of a smaller colour comes before
///   one of a larger colour in every labelling (the cells of the initial
///   partition are the colours in increasing order).
/// - An undirected edge is two arcs of one colour, one each way
///   ([`ColouredGraph::add_edge`]).
/// - Arcs may repeat and loops are allowed; several arcs between one
///   ordered pair count as one arc whose colour is the sorted multiset of
///   theirs.
/// - The *palette* is bytes that say what the colour numbers mean; it is
///   copied to the front of the canonical form, so graphs whose colour
///   numbers coincide but mean different things get different forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColouredGraph {
    vertex_colours: Vec<u32>,
    arcs: Vec<Arc>,
    palette: Vec<u8>,
}

/// One arc of a [`ColouredGraph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Arc {
    /// The tail.
    pub from: u32,
    /// The head.
    pub to: u32,
    /// The arc's colour.
    pub colour: u32,
}

/// Why a [`ColouredGraph`] refused an arc.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// An arc names a vertex that is not in the graph.
    #[error("arc {from} -> {to} names a vertex outside 0..{n}")]
    VertexOutOfRange {
        /// The arc's tail as given.
        from: u32,
        /// The arc's head as given.
        to: u32,
        /// The number of vertices.
        n: u32,
    },
}

impl ColouredGraph {
    /// The largest number of vertices: indices are `u32` and one value is
    /// kept free as a marker inside the search.
    pub const MAX_VERTICES: usize = (u32::MAX - 1) as usize;

    /// A graph without arcs whose vertex `i` has colour `vertex_colours[i]`.
    ///
    /// # Panics
    ///
    /// If there are more than [`ColouredGraph::MAX_VERTICES`] vertices
    /// (the only panic; a level or pattern never comes near it).
    pub fn new(vertex_colours: Vec<u32>) -> Self {
        assert!(
            vertex_colours.len() <= Self::MAX_VERTICES,
            "a coloured graph has at most 2^32 - 2 vertices"
        );
        ColouredGraph {
            vertex_colours,
            arcs: Vec::new(),
            palette: Vec::new(),
        }
    }

    /// `n` vertices, all of colour 0, and no arcs.
    pub fn uncoloured(n: usize) -> Self {
        Self::new(vec![0; n])
    }

    /// Adds the arc `from -> to` of colour `colour`.
    ///
    /// # Errors
    ///
    /// [`BuildError::VertexOutOfRange`] if an end is not below
    /// [`ColouredGraph::vertex_count`]; the graph is left unchanged.
    pub fn add_arc(&mut self, from: u32, to: u32, colour: u32) -> Result<(), BuildError> {
        self.check(from, to)?;
        self.arcs.push(Arc { from, to, colour });
        Ok(())
    }

    /// Adds the undirected edge `{a, b}` of colour `colour`: the arcs
    /// `a -> b` and `b -> a` (a loop gets two arcs `a -> a`, so that it
    /// differs from a directed loop).
    ///
    /// # Errors
    ///
    /// As [`ColouredGraph::add_arc`]; nothing is added on error.
    pub fn add_edge(&mut self, a: u32, b: u32, colour: u32) -> Result<(), BuildError> {
        self.check(a, b)?;
        self.arcs.push(Arc {
            from: a,
            to: b,
            colour,
        });
        self.arcs.push(Arc {
            from: b,
            to: a,
            colour,
        });
        Ok(())
    }

    /// Sets the palette: bytes that describe what the colours mean, copied
    /// to the front of the canonical form (see the type's docs).
    pub fn set_palette(&mut self, palette: Vec<u8>) {
        self.palette = palette;
    }

    /// The palette (empty unless set).
    pub fn palette(&self) -> &[u8] {
        &self.palette
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.vertex_colours.len()
    }

    /// The colour of each vertex, by vertex.
    pub fn vertex_colours(&self) -> &[u32] {
        &self.vertex_colours
    }

    /// The arcs in the order they were added (an edge as its two arcs).
    pub fn arcs(&self) -> &[Arc] {
        &self.arcs
    }

    /// The same graph with vertex `v` renamed `perm[v]`: vertex colours
    /// and arcs carried over, the palette kept. `None` unless `perm` is a
    /// permutation of `0..n`.
    pub fn relabelled(&self, perm: &[u32]) -> Option<ColouredGraph> {
        let n = self.vertex_count();
        if perm.len() != n {
            return None;
        }
        let mut seen = vec![false; n];
        for &p in perm {
            let slot = seen.get_mut(p as usize)?;
            if std::mem::replace(slot, true) {
                return None;
            }
        }
        let mut colours = vec![0; n];
        for (v, &c) in self.vertex_colours.iter().enumerate() {
            colours[perm[v] as usize] = c;
        }
        let arcs = self
            .arcs
            .iter()
            .map(|a| Arc {
                from: perm[a.from as usize],
                to: perm[a.to as usize],
                colour: a.colour,
            })
            .collect();
        Some(ColouredGraph {
            vertex_colours: colours,
            arcs,
            palette: self.palette.clone(),
        })
    }

    /// Whether every arc has a reverse arc of the same colour, with equal
    /// multiplicities (the graph is undirected).
    pub fn is_symmetric(&self) -> bool {
        let mut forward: Vec<Arc> = self.arcs.clone();
        let mut backward: Vec<Arc> = self
            .arcs
            .iter()
            .map(|a| Arc {
                from: a.to,
                to: a.from,
                colour: a.colour,
            })
            .collect();
        forward.sort_unstable();
        backward.sort_unstable();
        forward == backward
    }

    fn check(&self, from: u32, to: u32) -> Result<(), BuildError> {
        let n = self.vertex_colours.len();
        if from as usize >= n || to as usize >= n {
            // `n` fits: `new` refuses more than `MAX_VERTICES`.
            return Err(BuildError::VertexOutOfRange {
                from,
                to,
                n: n as u32,
            });
        }
        Ok(())
    }
}

impl fmt::Display for ColouredGraph {
    /// `n=4 colours=[0,0,1,1] arcs=[0->1:0, ...]`, for test failures.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "n={} colours={:?} arcs=[",
            self.vertex_count(),
            self.vertex_colours
        )?;
        for (i, a) in self.arcs.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{}->{}:{}", a.from, a.to, a.colour)?;
        }
        write!(f, "]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs_out_of_range_are_refused_and_change_nothing() {
        let mut g = ColouredGraph::uncoloured(3);
        assert_eq!(
            g.add_arc(0, 3, 0),
            Err(BuildError::VertexOutOfRange {
                from: 0,
                to: 3,
                n: 3
            })
        );
        assert!(g.add_edge(7, 1, 0).is_err());
        assert!(g.arcs().is_empty());
        assert!(g.add_edge(0, 2, 5).is_ok());
        assert_eq!(g.arcs().len(), 2);
        assert!(g.is_symmetric());
        g.add_arc(1, 2, 0).unwrap();
        assert!(!g.is_symmetric());
    }

    #[test]
    fn relabelling_needs_a_permutation() {
        let mut g = ColouredGraph::new(vec![0, 1, 2]);
        g.add_arc(0, 1, 4).unwrap();
        assert!(g.relabelled(&[0, 0, 1]).is_none());
        assert!(g.relabelled(&[0, 1]).is_none());
        assert!(g.relabelled(&[0, 1, 3]).is_none());
        let h = g.relabelled(&[2, 0, 1]).unwrap();
        assert_eq!(h.vertex_colours(), &[1, 2, 0]);
        assert_eq!(
            h.arcs(),
            &[Arc {
                from: 2,
                to: 0,
                colour: 4
            }]
        );
    }
}
