//! Helpers shared by the integration tests.

use std::path::PathBuf;

use levelgraph::grammar::Grammar;

mod golden;
pub(crate) use golden::assert_golden;

/// Every example grammar in `examples/` as (file stem, text), sorted by file
/// name, so each test that uses it covers new examples automatically.
/// **Panics** (failing the test) if fewer than two are found.
pub(crate) fn example_sources() -> Vec<(String, String)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "lg"))
        .collect();
    paths.sort();
    let sources: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(p)
                .unwrap_or_else(|e| panic!("reading {}: {e}", p.display()));
            (stem, text)
        })
        .collect();
    assert!(
        sources.len() >= 2,
        "expected at least 2 example grammars in {}, found {}",
        dir.display(),
        sources.len()
    );
    sources
}

/// `g` with every span removed: spans (and the colour-comment spans the
/// lint reads) are not part of the JSON form, so a model read back from
/// JSON equals its text model only without them.
pub(crate) fn without_spans(g: &Grammar) -> Grammar {
    let mut g = g.clone();
    g.spans = Default::default();
    for t in &mut g.tags {
        t.span = None;
        t.colour_comment = None;
    }
    for r in &mut g.rules {
        r.span = None;
        r.lhs.vertices.iter_mut().for_each(|v| v.span = None);
        r.lhs.edges.iter_mut().for_each(|e| e.span = None);
        r.lhs.inside.iter_mut().for_each(|c| c.span = None);
        for nac in &mut r.where_not {
            nac.vertices.iter_mut().for_each(|v| v.span = None);
            nac.edges.iter_mut().for_each(|e| e.span = None);
            nac.inside.iter_mut().for_each(|c| c.span = None);
        }
        for alt in &mut r.rhs {
            alt.span = None;
            alt.vertices.iter_mut().for_each(|v| v.span = None);
            alt.edges.iter_mut().for_each(|e| e.span = None);
            alt.inside.iter_mut().for_each(|c| c.span = None);
        }
    }
    g.groups.iter_mut().for_each(|grp| grp.span = None);
    if let Some(recipe) = &mut g.recipe {
        recipe.stages.iter_mut().for_each(|st| st.span = None);
    }
    if let Some(rooms) = &mut g.rooms {
        rooms.span = None;
        rooms.setting_spans = Default::default();
        rooms.templates.iter_mut().for_each(|t| t.span = None);
        rooms.sets.iter_mut().for_each(|s| s.span = None);
        rooms.uses.iter_mut().for_each(|u| u.span = None);
        rooms.fills.iter_mut().for_each(|f| f.span = None);
    }
    if let Some(play) = &mut g.play {
        use levelgraph::grammar::play::{KeyLink, LockSpec};
        play.span = None;
        play.setting_spans = Default::default();
        play.entrance.span = None;
        play.goal.span = None;
        for key in &mut play.keys {
            key.span = None;
            key.key.span = None;
            match &mut key.opens {
                LockSpec::Room(sel) => sel.span = None,
                LockSpec::Door(door) => door.span = None,
                _ => {}
            }
            if let Some(KeyLink::Edge(link)) = &mut key.via {
                link.span = None;
            }
        }
    }
    if let Some(place) = &mut g.place {
        place.span = None;
        place.setting_spans = Default::default();
        let statements = [&mut place.keys, &mut place.entrance, &mut place.goal];
        for p in statements.into_iter().flatten().chain(&mut place.items) {
            p.span = None;
            p.spans = Default::default();
        }
    }
    g
}

/// The bodies of the fenced code blocks of docs/grammar-language.md from
/// the heading starting `heading` on (to the end of the file), in order.
pub(crate) fn language_reference_blocks(heading: &str) -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/grammar-language.md"
    );
    let doc = std::fs::read_to_string(path).unwrap();
    let at = doc
        .find(heading)
        .unwrap_or_else(|| panic!("`{heading}` in the language reference"));
    doc[at..]
        .split("```")
        .skip(1)
        .step_by(2)
        .map(|b| b.split_once('\n').map_or("", |(_, body)| body).to_owned())
        .collect()
}
