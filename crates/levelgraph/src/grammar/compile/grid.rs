//! The header's space: the starting grid of a grid grammar and the
//! `geometric` settings.

use super::cx::Cx;
use super::resolve_tag;
use crate::grammar::model::Grammar;
use crate::graph::{Symbol, Symbols};

/// The largest radius or margin of a geometric derivation, in drawing units.
const MAX_LENGTH: f64 = 1e6;

/// The `geometric` settings: not with a grid, declared tags, radii above 0
/// with min ≤ max, a finite margin of at least 0 (the text parser checks
/// the numbers too; the JSON form needs it here).
pub(super) fn check_geometry(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    settings: &crate::settings::GeometrySettings,
    grammar: &Grammar,
) {
    // The text form checks the numbers as it reads them, so only the JSON
    // form reaches most of these, and those are located by field path.
    let spans = &grammar.spans;
    let at = |field: &str| spans.locate(&["geometric"], &format!("geometry.{field}"));
    if grammar.grid.is_some() {
        cx.error(
            "a grid grammar cannot be `geometric`".into(),
            spans.locate(&["geometric", "grid"], "geometry"),
            Some("grid vertices are drawn at their cells; remove `geometric` or `grid`".into()),
        );
    }
    use crate::settings::GeometrySettings as G;
    for (name, value, most) in [
        ("steps", settings.steps, G::MAX_STEPS),
        ("finish_steps", settings.finish_steps, G::MAX_FINISH_STEPS),
        ("retries", settings.retries, G::MAX_RETRIES),
    ] {
        if value > most {
            cx.error(
                format!("geometric {name} {value} is above the most accepted, {most}"),
                at(name),
                Some("every step and retry costs time; the defaults are 8 steps, 120 finish_steps and 20 retries".into()),
            );
        }
    }
    // Above a million units, distances between rooms would overflow to
    // infinity in the self-intersection test.
    let range_ok = |[lo, hi]: [f64; 2]| lo > 0.0 && lo <= hi && hi <= MAX_LENGTH;
    if !range_ok(settings.room_radius) {
        cx.error(
            format!(
                "room_radius {}..{} is not a range of radii from above 0 to 1000000",
                settings.room_radius[0], settings.room_radius[1]
            ),
            at("room_radius"),
            None,
        );
    }
    for (tag, &range) in &settings.tag_radius {
        let tag_at = spans.locate(
            &[&format!("radius {tag}"), "geometric"],
            "geometry.tag_radius",
        );
        resolve_tag(cx, tags, tag, &tag_at);
        if !range_ok(range) {
            cx.error(
                format!(
                    "radius {}..{} of tag `{tag}` is not a range of radii from above 0 to 1000000",
                    range[0], range[1]
                ),
                at("tag_radius"),
                None,
            );
        }
    }
    if !(settings.margin >= 0.0 && settings.margin <= MAX_LENGTH) {
        cx.error(
            format!(
                "margin {} must be a number from 0 to 1000000",
                settings.margin
            ),
            at("margin"),
            None,
        );
    }
}

/// The starting grid of a grid grammar: not empty, within `max_vertices`,
/// of a declared tag.
pub(super) fn compile_grid(
    cx: &mut Cx<'_>,
    grammar: &Grammar,
    tags: &Symbols,
) -> Option<(u32, u32, Symbol)> {
    let grid_at = grammar.spans.locate(&["grid"], "grid");
    grammar.grid.as_ref().and_then(|spec| {
        if spec.rows == 0 || spec.columns == 0 {
            cx.error(
                format!("the grid {} x {} is empty", spec.rows, spec.columns),
                grid_at.clone(),
                None,
            );
        }
        if u64::from(spec.rows) * u64::from(spec.columns) > u64::from(grammar.limits.max_vertices) {
            cx.error(
                format!(
                    "the grid {} x {} has more vertices than max_vertices {}",
                    spec.rows, spec.columns, grammar.limits.max_vertices
                ),
                grid_at.clone(),
                Some("raise max_vertices or make the grid smaller".into()),
            );
        }
        let tag = resolve_tag(cx, tags, &spec.tag, &grid_at)?;
        Some((spec.rows, spec.columns, tag))
    })
}
