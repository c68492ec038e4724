//! The pattern matcher against a brute-force oracle.
//!
//! Random small host graphs (with holes in their ids) and random small
//! patterns are matched with [`Pattern::find_all`] and with an oracle that
//! enumerates every injective vertex map, every injective assignment of
//! pattern edges to host edges by plain backtracking, and then applies the
//! forbidden-tag rule. The two must give the same set of vertex maps; every
//! match the matcher returns must be a valid image. Hand-made cases pin the
//! semantics down: non-induced matching, orientation, labels, cosmetic
//! edges and forbidden neighbours.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;

use levelgraph::graph::{Edge, EdgeId, Graph, Symbol, VertexId};
use levelgraph::matching::{Match, Pattern, PatternEdge, PatternVertex, TagTest};
use proptest::prelude::*;

const TAGS: [&str; 3] = ["t0", "t1", "t2"];
const LABELS: [&str; 2] = ["l0", "l1"];
const ATTR_KEY: &str = "color";
const ATTR_VALUES: [&str; 2] = ["red", "blue"];

// ---------------------------------------------------------------------------
// Building hosts and patterns
// ---------------------------------------------------------------------------

/// A graph with the tags `t0..t2` and labels `l0, l1` interned as symbols
/// 0..3 and 0..2, so generated numbers are symbols directly.
fn empty_host() -> Graph {
    let mut g = Graph::new();
    for t in TAGS {
        g.tags_mut().intern(t);
    }
    for l in LABELS {
        g.labels_mut().intern(l);
    }
    g
}

fn edge(
    source: VertexId,
    target: VertexId,
    directed: bool,
    cosmetic: bool,
    label: Option<u8>,
) -> Edge {
    Edge {
        source,
        target,
        directed,
        cosmetic,
        label: label.map(|l| Symbol(u32::from(l))),
        length_factor: 1.0,
    }
}

/// A generated host edge: ends (taken modulo the vertex count), directed,
/// cosmetic, label.
type EdgeSpec = (u8, u8, bool, bool, Option<u8>);

#[derive(Clone, Debug)]
struct HostSpec {
    /// Per vertex: tag and optional `color` attribute.
    vertices: Vec<(u8, Option<u8>)>,
    edges: Vec<EdgeSpec>,
    /// Remove the live vertex with this index (modulo), leaving a hole.
    remove_vertex: Option<u8>,
    /// Remove the live edge with this index (modulo), leaving a hole.
    remove_edge: Option<u8>,
    /// After the removals, add a vertex with this tag joined by an
    /// undirected edge to the live vertex with this index (modulo).
    add_after: Option<(u8, u8)>,
}

fn build_host(spec: &HostSpec) -> Graph {
    let mut g = empty_host();
    let vs: Vec<VertexId> = spec
        .vertices
        .iter()
        .map(|&(tag, attr)| {
            let v = g.add_vertex(Symbol(u32::from(tag)));
            if let Some(a) = attr {
                g.vertex_mut(v)
                    .unwrap()
                    .attributes
                    .insert(ATTR_KEY.into(), ATTR_VALUES[usize::from(a)].into());
            }
            v
        })
        .collect();
    let n = vs.len();
    for &(a, b, directed, cosmetic, label) in &spec.edges {
        let (a, b) = (vs[usize::from(a) % n], vs[usize::from(b) % n]);
        g.add_edge(edge(a, b, directed, cosmetic, label));
    }
    if let Some(i) = spec.remove_vertex {
        let live: Vec<VertexId> = g.vertex_ids().collect();
        g.remove_vertex(live[usize::from(i) % live.len()]);
    }
    if let Some(i) = spec.remove_edge {
        let live: Vec<EdgeId> = g.edges().map(|(id, _)| id).collect();
        if !live.is_empty() {
            g.remove_edge(live[usize::from(i) % live.len()]);
        }
    }
    if let Some((tag, i)) = spec.add_after {
        let live: Vec<VertexId> = g.vertex_ids().collect();
        let v = g.add_vertex(Symbol(u32::from(tag)));
        if !live.is_empty() {
            g.connect(v, live[usize::from(i) % live.len()], false);
        }
    }
    g
}

fn tag_test(tags: &[u8]) -> TagTest {
    let mut set: Vec<Symbol> = tags.iter().map(|&t| Symbol(u32::from(t))).collect();
    set.sort_unstable();
    set.dedup();
    TagTest::OneOf(set)
}

fn symbols(tags: &[u8]) -> Vec<Symbol> {
    let mut set: Vec<Symbol> = tags.iter().map(|&t| Symbol(u32::from(t))).collect();
    set.sort_unstable();
    set.dedup();
    set
}

fn pattern_vertex(tags: TagTest, forbidden: &[u8], attr: Option<u8>) -> PatternVertex {
    PatternVertex {
        tags,
        forbidden: symbols(forbidden),
        attributes: attr
            .map(|a| (ATTR_KEY.to_owned(), ATTR_VALUES[usize::from(a)].to_owned()))
            .into_iter()
            .collect(),
        valence: None,
    }
}

/// A generated pattern vertex: `None` for `*`, else 1–2 tags; forbidden
/// tags; an optional required `color`.
type VertexSpec = (Option<Vec<u8>>, Vec<u8>, Option<u8>);

#[derive(Clone, Debug)]
struct PatternSpec {
    vertices: Vec<VertexSpec>,
    /// Pattern edges: source, offset to a distinct target (modulo), flags, label.
    edges: Vec<EdgeSpec>,
}

fn build_pattern(spec: &PatternSpec) -> Pattern {
    let vertices: Vec<PatternVertex> = spec
        .vertices
        .iter()
        .map(|(tags, forbidden, attr)| {
            let test = match tags {
                None => TagTest::Any,
                Some(t) => tag_test(t),
            };
            pattern_vertex(test, forbidden, *attr)
        })
        .collect();
    let n = vertices.len();
    let edges = if n < 2 {
        Vec::new()
    } else {
        spec.edges
            .iter()
            .map(|&(a, off, directed, cosmetic, label)| {
                let source = usize::from(a) % n;
                let target = (source + 1 + usize::from(off) % (n - 1)) % n;
                PatternEdge {
                    source,
                    target,
                    directed,
                    cosmetic,
                    label: label.map(|l| Symbol(u32::from(l))),
                }
            })
            .collect()
    };
    Pattern::new(vertices, edges)
}

/// A pattern planted in the host: vertices picked among the host's live
/// vertices (tag test accepting the real tag, or `*`), and a subset of the
/// host edges between them, so that at least the planted map fits unless
/// forbidden tags reject it.
#[derive(Clone, Debug)]
struct PlantSpec {
    /// Indices (modulo) into the live vertices; duplicates are dropped and
    /// at most 4 are kept.
    picks: Vec<u8>,
    /// Per picked vertex: 0 = `*`, 1 = its own tag, 2 = its tag and another.
    tag_mode: Vec<(u8, u8)>,
    /// Per picked vertex: forbidden tags.
    forbidden: Vec<Vec<u8>>,
    /// Per host edge between picked vertices (in id order): keep it, and
    /// swap the ends of an undirected one.
    keep: Vec<(bool, bool)>,
}

fn build_planted(host: &Graph, spec: &PlantSpec) -> Option<Pattern> {
    let live: Vec<VertexId> = host.vertex_ids().collect();
    if live.is_empty() {
        return None;
    }
    let mut picked: Vec<VertexId> = Vec::new();
    for &p in &spec.picks {
        let v = live[usize::from(p) % live.len()];
        if !picked.contains(&v) && picked.len() < 4 {
            picked.push(v);
        }
    }
    let vertices = picked
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let tag = host.tag(v);
            let (mode, other) = spec.tag_mode[i];
            let test = match mode % 3 {
                0 => TagTest::Any,
                1 => TagTest::OneOf(vec![tag]),
                _ => {
                    let mut t = vec![tag, Symbol(u32::from(other))];
                    t.sort_unstable();
                    t.dedup();
                    TagTest::OneOf(t)
                }
            };
            PatternVertex {
                tags: test,
                forbidden: symbols(&spec.forbidden[i]),
                attributes: Vec::new(),
                valence: None,
            }
        })
        .collect();
    let index = |v: VertexId| picked.iter().position(|&p| p == v);
    let mut edges = Vec::new();
    let mut k = 0;
    for (_, e) in host.edges() {
        let (Some(a), Some(b)) = (index(e.source), index(e.target)) else {
            continue;
        };
        if a == b {
            continue;
        }
        let (keep, swap) = spec.keep[k % spec.keep.len()];
        k += 1;
        if !keep || edges.len() == 5 {
            continue;
        }
        let (source, target) = if swap && !e.directed { (b, a) } else { (a, b) };
        edges.push(PatternEdge {
            source,
            target,
            directed: e.directed,
            cosmetic: e.cosmetic,
            label: e.label,
        });
    }
    Some(Pattern::new(vertices, edges))
}

// ---------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------

/// Whether host edge `e` can be the image of pattern edge `pe` under `map`.
fn oracle_edge_fits(host: &Graph, pe: &PatternEdge, e: EdgeId, map: &[VertexId]) -> bool {
    let Some(h) = host.edge(e) else { return false };
    if h.directed != pe.directed || h.cosmetic != pe.cosmetic || h.label != pe.label {
        return false;
    }
    let (a, b) = (map[pe.source], map[pe.target]);
    if pe.directed {
        h.source == a && h.target == b
    } else {
        (h.source == a && h.target == b) || (h.source == b && h.target == a)
    }
}

fn oracle_vertex_fits(host: &Graph, pv: &PatternVertex, v: VertexId) -> bool {
    let Some(h) = host.vertex(v) else {
        return false;
    };
    let tag_ok = match &pv.tags {
        TagTest::Any => true,
        TagTest::OneOf(tags) => tags.contains(&h.tag),
    };
    tag_ok
        && pv
            .attributes
            .iter()
            .all(|(k, val)| h.attributes.get(k) == Some(val))
}

/// The forbidden-tag rule, from the live edge list (not the incidence lists).
fn oracle_forbidden_ok(
    host: &Graph,
    pattern: &Pattern,
    map: &[VertexId],
    covered: &[EdgeId],
) -> bool {
    for (i, pv) in pattern.vertices().iter().enumerate() {
        if pv.forbidden.is_empty() {
            continue;
        }
        let v = map[i];
        for (id, e) in host.edges() {
            if e.source != v && e.target != v {
                continue;
            }
            if covered.contains(&id) {
                continue;
            }
            let other = if e.source == v { e.target } else { e.source };
            if pv.forbidden.contains(&host.tag(other)) {
                return false;
            }
        }
    }
    true
}

/// Every injective assignment of pattern edges to live host edges that fit.
fn edge_assignments(
    host: &Graph,
    pattern: &Pattern,
    map: &[VertexId],
    j: usize,
    chosen: &mut Vec<EdgeId>,
    out: &mut Vec<Vec<EdgeId>>,
) {
    if j == pattern.edges().len() {
        out.push(chosen.clone());
        return;
    }
    let pe = &pattern.edges()[j];
    let host_edges: Vec<EdgeId> = host.edges().map(|(id, _)| id).collect();
    for e in host_edges {
        if chosen.contains(&e) || !oracle_edge_fits(host, pe, e, map) {
            continue;
        }
        chosen.push(e);
        edge_assignments(host, pattern, map, j + 1, chosen, out);
        chosen.pop();
    }
}

#[derive(Debug, Default)]
struct OracleResult {
    /// Vertex maps with at least one edge assignment passing the forbidden rule.
    accepted: BTreeSet<Vec<VertexId>>,
    /// Vertex maps whose edge assignments disagree on the forbidden rule.
    ambiguous: Vec<Vec<VertexId>>,
}

fn vertex_maps(
    host: &Graph,
    pattern: &Pattern,
    map: &mut Vec<VertexId>,
    result: &mut OracleResult,
) {
    let i = map.len();
    if i == pattern.vertices().len() {
        let mut assignments = Vec::new();
        edge_assignments(host, pattern, map, 0, &mut Vec::new(), &mut assignments);
        let outcomes: BTreeSet<bool> = assignments
            .iter()
            .map(|a| oracle_forbidden_ok(host, pattern, map, a))
            .collect();
        if outcomes.len() > 1 {
            result.ambiguous.push(map.clone());
        }
        if outcomes.contains(&true) {
            result.accepted.insert(map.clone());
        }
        return;
    }
    let ids: Vec<VertexId> = host.vertex_ids().collect();
    for v in ids {
        if map.contains(&v) || !oracle_vertex_fits(host, &pattern.vertices()[i], v) {
            continue;
        }
        map.push(v);
        vertex_maps(host, pattern, map, result);
        map.pop();
    }
}

fn oracle(host: &Graph, pattern: &Pattern) -> OracleResult {
    let mut result = OracleResult::default();
    vertex_maps(host, pattern, &mut Vec::new(), &mut result);
    result
}

// ---------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------

fn describe(host: &Graph, pattern: &Pattern) -> String {
    let mut s = String::from("host vertices:");
    for (id, v) in host.vertices() {
        s += &format!(" {id}:{}{:?}", host.tags().name(v.tag), v.attributes);
    }
    s += "\nhost edges:";
    for (id, e) in host.edges() {
        s += &format!(
            " e{}={}{}{} {:?} c={}",
            id.0,
            e.source,
            if e.directed { "->" } else { "--" },
            e.target,
            e.label,
            e.cosmetic
        );
    }
    s += &format!("\npattern: {:?}\n{:?}", pattern.vertices(), pattern.edges());
    s
}

/// Checks the matcher against the oracle; returns the number of matches.
fn check(host: &Graph, pattern: &Pattern) -> usize {
    let ctx = || describe(host, pattern);
    let matches = pattern.find_all(host);
    let expected = oracle(host, pattern);
    assert!(
        expected.ambiguous.is_empty(),
        "edge assignments disagree on the forbidden rule for {:?}\n{}",
        expected.ambiguous,
        ctx()
    );

    // Every returned match is a valid image.
    for m in &matches {
        check_match(host, pattern, m, &ctx);
    }
    // No duplicate vertex maps.
    let got: BTreeSet<Vec<VertexId>> = matches.iter().map(|m| m.vertices.clone()).collect();
    assert_eq!(
        got.len(),
        matches.len(),
        "matcher returned a vertex map twice: {matches:?}\n{}",
        ctx()
    );
    // Same set as the oracle.
    if got != expected.accepted {
        let missing: Vec<_> = expected.accepted.difference(&got).collect();
        let extra: Vec<_> = got.difference(&expected.accepted).collect();
        panic!(
            "matcher and oracle disagree\nmissing (oracle only): {missing:?}\nextra (matcher only): {extra:?}\n{}",
            ctx()
        );
    }
    // Deterministic order, and the other entry points agree.
    assert_eq!(
        pattern.find_all(host),
        matches,
        "find_all is not deterministic"
    );
    assert_eq!(
        pattern.has_match(host),
        !matches.is_empty(),
        "has_match\n{}",
        ctx()
    );
    let mut first = None;
    let flow = pattern.for_each_match(host, &mut |m| {
        first = Some(m.clone());
        ControlFlow::Break(())
    });
    assert_eq!(flow.is_break(), !matches.is_empty());
    assert_eq!(
        first.as_ref(),
        matches.first(),
        "for_each_match stops at the first match"
    );
    matches.len()
}

fn check_match(host: &Graph, pattern: &Pattern, m: &Match, ctx: &dyn Fn() -> String) {
    assert_eq!(m.vertices.len(), pattern.vertices().len(), "{}", ctx());
    assert_eq!(m.edges.len(), pattern.edges().len(), "{}", ctx());
    for (i, &v) in m.vertices.iter().enumerate() {
        assert!(
            oracle_vertex_fits(host, &pattern.vertices()[i], v),
            "pattern vertex {i} mapped to unfit {v} in {m:?}\n{}",
            ctx()
        );
        assert!(
            !m.vertices[..i].contains(&v),
            "vertex map not injective: {m:?}\n{}",
            ctx()
        );
    }
    for (j, &e) in m.edges.iter().enumerate() {
        assert!(
            oracle_edge_fits(host, &pattern.edges()[j], e, &m.vertices),
            "pattern edge {j} mapped to unfit e{} in {m:?}\n{}",
            e.0,
            ctx()
        );
        assert!(
            !m.edges[..j].contains(&e),
            "edge map not injective: {m:?}\n{}",
            ctx()
        );
    }
    assert!(
        oracle_forbidden_ok(host, pattern, &m.vertices, &m.edges),
        "match {m:?} violates the forbidden rule with its own edges\n{}",
        ctx()
    );
}

// ---------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------

fn label_strategy() -> impl Strategy<Value = Option<u8>> {
    prop::option::weighted(0.3, 0u8..2)
}

fn flag(p: f64) -> impl Strategy<Value = bool> {
    prop::bool::weighted(p)
}

/// An edge as (end, end, directed, cosmetic, label); ends are reduced
/// modulo the vertex count when the graph is built.
#[allow(clippy::type_complexity)]
fn edge_strategy() -> impl Strategy<Value = (u8, u8, bool, bool, Option<u8>)> {
    (
        any::<u8>(),
        any::<u8>(),
        flag(0.35),
        flag(0.15),
        label_strategy(),
    )
}

fn host_strategy() -> impl Strategy<Value = HostSpec> {
    (
        prop::collection::vec((0u8..3, prop::option::weighted(0.15, 0u8..2)), 1..=8),
        prop::collection::vec(edge_strategy(), 0..=20),
        prop::option::weighted(0.3, any::<u8>()),
        prop::option::weighted(0.2, any::<u8>()),
        prop::option::weighted(0.15, (0u8..3, any::<u8>())),
    )
        .prop_map(
            |(vertices, edges, remove_vertex, remove_edge, add_after)| HostSpec {
                vertices,
                edges,
                remove_vertex,
                remove_edge,
                add_after,
            },
        )
}

fn pattern_strategy() -> impl Strategy<Value = PatternSpec> {
    let vertex = (
        prop::option::weighted(0.7, prop::collection::vec(0u8..3, 1..=2)),
        prop_oneof![
            3 => Just(Vec::new()),
            1 => prop::collection::vec(0u8..3, 1..=2),
        ],
        prop::option::weighted(0.1, 0u8..2),
    );
    (
        prop::collection::vec(vertex, 1..=4),
        prop::collection::vec(edge_strategy(), 0..=5),
    )
        .prop_map(|(vertices, edges)| PatternSpec { vertices, edges })
}

fn plant_strategy() -> impl Strategy<Value = PlantSpec> {
    (
        prop::collection::vec(any::<u8>(), 1..=5),
        prop::collection::vec((0u8..3, 0u8..3), 5),
        prop::collection::vec(
            prop_oneof![
                2 => Just(Vec::new()),
                1 => prop::collection::vec(0u8..3, 1..=2),
            ],
            5,
        ),
        prop::collection::vec((flag(0.8), any::<bool>()), 1..=8),
    )
        .prop_map(|(picks, tag_mode, forbidden, keep)| PlantSpec {
            picks,
            tag_mode,
            forbidden,
            keep,
        })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        // Never write a regressions file next to the sources; a failure
        // prints the minimal case instead.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Random patterns: mostly few or no matches, many near misses.
    #[test]
    fn random_patterns_agree_with_oracle(host in host_strategy(), pattern in pattern_strategy()) {
        let host = build_host(&host);
        let pattern = build_pattern(&pattern);
        check(&host, &pattern);
    }

    /// Patterns cut out of the host: at least one candidate map fits, so
    /// the forbidden rule and non-induced matching are exercised often.
    #[test]
    fn planted_patterns_agree_with_oracle(host in host_strategy(), plant in plant_strategy()) {
        let host = build_host(&host);
        if let Some(pattern) = build_planted(&host, &plant) {
            let n = check(&host, &pattern);
            let forbids = pattern.vertices().iter().any(|v| !v.forbidden.is_empty());
            prop_assert!(n > 0 || forbids, "a planted pattern without forbidden tags must match");
        }
    }
}

// ---------------------------------------------------------------------------
// Containment
// ---------------------------------------------------------------------------

/// `pattern` with the containments `inside` (`(child, parent)`, taken
/// modulo the vertex count, pairs of one vertex dropped).
fn with_inside(spec: &PatternSpec, inside: &[(u8, u8)]) -> (Pattern, Vec<(usize, usize)>) {
    let n = spec.vertices.len();
    let pairs: Vec<(usize, usize)> = inside
        .iter()
        .map(|&(c, p)| (usize::from(c) % n, usize::from(p) % n))
        .filter(|(c, p)| c != p)
        .collect();
    (build_pattern(spec).with_inside(pairs.clone()), pairs)
}

proptest! {
    #![proptest_config(config())]

    /// A pattern with containments finds exactly the matches of the same
    /// pattern without them whose vertices are stored as it says, in the
    /// same order: a vertex tied to an earlier one only by a containment
    /// takes its candidates from the host's containment index instead of
    /// the tag index, which must lose none and reorder none.
    #[test]
    fn containments_filter_the_plain_matches_in_order(
        host in host_strategy(),
        // Per vertex: stored in an earlier vertex (offset back, modulo).
        parents in prop::collection::vec(prop::option::weighted(0.6, any::<u8>()), 8),
        pattern in pattern_strategy(),
        inside in prop::collection::vec((any::<u8>(), any::<u8>()), 1..=3),
    ) {
        let mut host = build_host(&host);
        let live: Vec<VertexId> = host.vertex_ids().collect();
        for (i, &v) in live.iter().enumerate().skip(1) {
            if let Some(Some(back)) = parents.get(i) {
                let parent = live[i - 1 - usize::from(*back) % i];
                prop_assert!(host.set_parent(v, Some(parent)));
            }
        }
        let plain = build_pattern(&pattern);
        let (nested, pairs) = with_inside(&pattern, &inside);
        let expected: Vec<Vec<VertexId>> = plain
            .find_all(&host)
            .into_iter()
            .filter(|m| {
                pairs
                    .iter()
                    .all(|&(c, p)| host.parent(m.vertices[c]) == Some(m.vertices[p]))
            })
            .map(|m| m.vertices)
            .collect();
        let found: Vec<Vec<VertexId>> =
            nested.find_all(&host).into_iter().map(|m| m.vertices).collect();
        prop_assert_eq!(found, expected);
    }
}

// ---------------------------------------------------------------------------
// Hand-made cases
// ---------------------------------------------------------------------------

fn sym(i: u32) -> Symbol {
    Symbol(i)
}

fn any_vertex() -> PatternVertex {
    pattern_vertex(TagTest::Any, &[], None)
}

fn tagged(tag: u8, forbidden: &[u8]) -> PatternVertex {
    pattern_vertex(tag_test(&[tag]), forbidden, None)
}

fn pedge(
    source: usize,
    target: usize,
    directed: bool,
    cosmetic: bool,
    label: Option<u8>,
) -> PatternEdge {
    PatternEdge {
        source,
        target,
        directed,
        cosmetic,
        label: label.map(|l| sym(u32::from(l))),
    }
}

fn undirected(source: usize, target: usize) -> PatternEdge {
    pedge(source, target, false, false, None)
}

/// A host with `n` vertices tagged `t0` and the given plain undirected edges.
fn plain_host(n: usize, edges: &[(usize, usize)]) -> (Graph, Vec<VertexId>) {
    let mut g = empty_host();
    let vs: Vec<VertexId> = (0..n).map(|_| g.add_vertex(sym(0))).collect();
    for &(a, b) in edges {
        g.connect(vs[a], vs[b], false);
    }
    (g, vs)
}

fn maps(matches: &[Match]) -> BTreeSet<Vec<VertexId>> {
    matches.iter().map(|m| m.vertices.clone()).collect()
}

#[test]
fn triangle_in_triangle_has_six_matches() {
    let (host, _) = plain_host(3, &[(0, 1), (1, 2), (2, 0)]);
    let pattern = Pattern::new(
        vec![tagged(0, &[]), tagged(0, &[]), tagged(0, &[])],
        vec![undirected(0, 1), undirected(1, 2), undirected(2, 0)],
    );
    assert_eq!(check(&host, &pattern), 6);
    // Every match uses all three host edges.
    for m in pattern.find_all(&host) {
        let edges: BTreeSet<EdgeId> = m.edges.iter().copied().collect();
        assert_eq!(edges.len(), 3);
    }
}

#[test]
fn matching_is_not_induced() {
    // The path a-b-c matches inside a triangle although the host also has
    // the edge a-c: 3 choices of middle vertex × 2 directions.
    let (host, vs) = plain_host(3, &[(0, 1), (1, 2), (2, 0)]);
    let pattern = Pattern::new(
        vec![any_vertex(), any_vertex(), any_vertex()],
        vec![undirected(0, 1), undirected(1, 2)],
    );
    assert_eq!(check(&host, &pattern), 6);
    assert!(maps(&pattern.find_all(&host)).contains(&vec![vs[0], vs[1], vs[2]]));
}

#[test]
fn directed_edges_keep_their_orientation() {
    let mut host = empty_host();
    let u = host.add_vertex(sym(0));
    let v = host.add_vertex(sym(0));
    host.connect(u, v, true);
    let forward = Pattern::new(
        vec![any_vertex(), any_vertex()],
        vec![pedge(0, 1, true, false, None)],
    );
    assert_eq!(check(&host, &forward), 1);
    assert_eq!(maps(&forward.find_all(&host)), BTreeSet::from([vec![u, v]]));
    // Tags pin the ends: tail t1, head t0 fits nothing when the host is t0 -> t1.
    host.set_tag(v, sym(1));
    let backward = Pattern::new(
        vec![tagged(1, &[]), tagged(0, &[])],
        vec![pedge(0, 1, true, false, None)],
    );
    assert_eq!(check(&host, &backward), 0);
    // An undirected pattern edge does not match a directed host edge.
    let loose = Pattern::new(vec![any_vertex(), any_vertex()], vec![undirected(0, 1)]);
    assert_eq!(check(&host, &loose), 0);
    // Nor a directed pattern edge an undirected host edge.
    let (plain, _) = plain_host(2, &[(0, 1)]);
    assert_eq!(check(&plain, &forward), 0);
    assert_eq!(check(&plain, &loose), 2);
}

#[test]
fn labels_must_be_equal() {
    let mut host = empty_host();
    let u = host.add_vertex(sym(0));
    let v = host.add_vertex(sym(0));
    host.add_edge(edge(u, v, false, false, Some(0)));
    let with = |label| {
        Pattern::new(
            vec![any_vertex(), any_vertex()],
            vec![pedge(0, 1, false, false, label)],
        )
    };
    assert_eq!(check(&host, &with(Some(0))), 2);
    assert_eq!(check(&host, &with(Some(1))), 0);
    assert_eq!(check(&host, &with(None)), 0);
}

#[test]
fn cosmetic_edges_match_only_cosmetic_pattern_edges() {
    let mut host = empty_host();
    let u = host.add_vertex(sym(0));
    let v = host.add_vertex(sym(1));
    host.add_edge(edge(u, v, true, true, None));
    let with = |cosmetic| {
        Pattern::new(
            vec![tagged(0, &[]), tagged(1, &[])],
            vec![pedge(0, 1, true, cosmetic, None)],
        )
    };
    assert_eq!(check(&host, &with(true)), 1);
    assert_eq!(check(&host, &with(false)), 0);
    // Adding the non-cosmetic twin makes the other pattern match too.
    host.add_edge(edge(u, v, true, false, None));
    assert_eq!(check(&host, &with(false)), 1);
    assert_eq!(check(&host, &with(true)), 1);
}

#[test]
fn forbidden_neighbour_rejects_a_match() {
    // r0 -- r1 -- lock: `(a:t0 !t2)` matches r0 only.
    let mut host = empty_host();
    let r0 = host.add_vertex(sym(0));
    let r1 = host.add_vertex(sym(0));
    let lock = host.add_vertex(sym(2));
    host.connect(r0, r1, false);
    host.connect(r1, lock, false);
    let pattern = Pattern::new(vec![tagged(0, &[2])], Vec::new());
    assert_eq!(check(&host, &pattern), 1);
    assert_eq!(maps(&pattern.find_all(&host)), BTreeSet::from([vec![r0]]));
    // A cosmetic edge to a forbidden vertex rejects as well: the rule
    // speaks of every uncovered host edge.
    host.add_edge(edge(lock, r0, true, true, None));
    assert_eq!(check(&host, &pattern), 0);
}

#[test]
fn forbidden_tag_reached_by_a_covered_edge_does_not_reject() {
    // r -- lock, pattern (a:t0 !t2) -- (b:t2): the edge to the lock is
    // covered by the match, so the lock does not count as a neighbour.
    let mut host = empty_host();
    let r = host.add_vertex(sym(0));
    let lock = host.add_vertex(sym(2));
    host.connect(r, lock, false);
    let pattern = Pattern::new(
        vec![tagged(0, &[2]), tagged(2, &[])],
        vec![undirected(0, 1)],
    );
    assert_eq!(check(&host, &pattern), 1);
    assert_eq!(
        maps(&pattern.find_all(&host)),
        BTreeSet::from([vec![r, lock]])
    );
    // A second, uncovered edge to the same lock (a directed one) rejects.
    host.connect(r, lock, true);
    assert_eq!(check(&host, &pattern), 0);
    host.remove_edge(EdgeId(1));
    assert_eq!(check(&host, &pattern), 1);
    // So does a second lock.
    let lock2 = host.add_vertex(sym(2));
    host.connect(lock2, r, false);
    assert_eq!(check(&host, &pattern), 0);
}

#[test]
fn holes_in_ids_are_skipped() {
    let (mut host, vs) = plain_host(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
    host.remove_vertex(vs[2]);
    let extra = host.add_vertex(sym(0));
    host.connect(vs[1], extra, false);
    let pattern = Pattern::new(vec![any_vertex(), any_vertex()], vec![undirected(0, 1)]);
    // Edges left: 0-1, 3-4, 1-extra; each matches both ways.
    assert_eq!(check(&host, &pattern), 6);
    let all: BTreeSet<VertexId> = pattern
        .find_all(&host)
        .into_iter()
        .flat_map(|m| m.vertices)
        .collect();
    assert!(!all.contains(&vs[2]));
    // A host whose only vertex was removed has no match.
    let (mut lone, lv) = plain_host(1, &[]);
    lone.remove_vertex(lv[0]);
    assert_eq!(
        check(&lone, &Pattern::new(vec![any_vertex()], Vec::new())),
        0
    );
}

#[test]
fn disconnected_patterns_and_counts() {
    // Two isolated pattern vertices in a 3-vertex host: 3 × 2 ordered pairs.
    let (host, _) = plain_host(3, &[(0, 1)]);
    let pattern = Pattern::new(vec![any_vertex(), any_vertex()], Vec::new());
    assert_eq!(check(&host, &pattern), 6);
    // An edge plus an isolated vertex: 2 orientations × 1 remaining vertex.
    let pattern = Pattern::new(
        vec![any_vertex(), any_vertex(), any_vertex()],
        vec![undirected(0, 1)],
    );
    assert_eq!(check(&host, &pattern), 2);
    // Two identical pattern edges need two distinct host edges; the host
    // never holds two identical edges, so nothing matches.
    let twice = Pattern::new(
        vec![any_vertex(), any_vertex()],
        vec![undirected(0, 1), undirected(1, 0)],
    );
    assert_eq!(check(&host, &twice), 0);
}

#[test]
fn oracle_is_not_vacuous() {
    // Guard against a vacuous oracle: in a triangle it finds each of the 6
    // ordered adjacent pairs (each vertex first twice), so a matcher result
    // missing one of them would not compare equal.
    let (host, vs) = plain_host(3, &[(0, 1), (1, 2), (2, 0)]);
    let pattern = Pattern::new(vec![any_vertex(), any_vertex()], vec![undirected(0, 1)]);
    let expected = oracle(&host, &pattern).accepted;
    assert_eq!(expected.len(), 6);
    let mut wrong = maps(&pattern.find_all(&host));
    wrong.remove(&vec![vs[0], vs[1]]);
    assert_ne!(wrong, expected);
    let counts: BTreeMap<VertexId, usize> = expected.iter().fold(BTreeMap::new(), |mut c, m| {
        *c.entry(m[0]).or_default() += 1;
        c
    });
    assert!(counts.values().all(|&n| n == 2));
}
