//! Tests of the search plans.

use super::{Pattern, PatternEdge, PatternVertex, TagTest};
use crate::graph::Graph;

#[test]
fn root_is_the_vertex_with_fewest_candidates() {
    let mut g = Graph::new();
    let room = g.tags_mut().intern("room");
    let key = g.tags_mut().intern("key");
    for _ in 0..5 {
        g.add_vertex(room);
    }
    g.add_vertex(key);
    let v = |t| PatternVertex {
        tags: TagTest::OneOf(vec![t]),
        forbidden: vec![],
        attributes: vec![],
        valence: None,
    };
    let p = Pattern::new(
        vec![v(room), v(key)],
        vec![PatternEdge {
            source: 0,
            target: 1,
            directed: false,
            cosmetic: false,
            label: None,
        }],
    );
    assert_eq!(p.choose_root(&g), 1, "one key beats five rooms");
    assert_eq!(p.plans[1].steps[1].via, Some(0));
}
