//! Recipes: stages of rule names resolved to rule indexes, with their
//! weights and counts checked.

use super::cx::{cx_loc, Cx, Path};
use crate::diagnostic::Location;
use crate::grammar::model;

/// A recipe stage with rule names resolved.
#[derive(Clone, Debug)]
pub(crate) struct CompiledStage {
    /// `name` or `stage N` (1-based), for messages.
    pub(crate) label: String,
    /// (rule index, weight in the stage).
    pub(crate) rules: Vec<(usize, f64)>,
    pub(crate) min: u32,
    pub(crate) max: Option<u32>,
}

pub(super) fn compile_recipe(
    cx: &mut Cx<'_>,
    recipe: &model::Recipe,
    rules: &[model::Rule],
    recipe_at: Location,
) -> Vec<CompiledStage> {
    if recipe.stages.is_empty() {
        cx.error(
            "the recipe has no stages".into(),
            recipe_at,
            Some("list stages as `rule 1..5`, or remove the recipe".into()),
        );
    }
    let mut out = Vec::new();
    for (si, stage) in recipe.stages.iter().enumerate() {
        let at = cx_loc(stage.span, Path::field("recipe").item("stages", si));
        let label = stage
            .name
            .clone()
            .unwrap_or_else(|| format!("stage {}", si + 1));
        if stage.max.is_some_and(|m| m < stage.min) {
            cx.error(
                format!(
                    "{label}: max {} is below min {}",
                    stage.max.unwrap_or(0),
                    stage.min
                ),
                at.clone(),
                None,
            );
        }
        let mut resolved = Vec::new();
        for sr in &stage.rules {
            match rules.iter().position(|r| r.name == sr.rule) {
                Some(ri) if sr.weight > 0.0 && sr.weight.is_finite() => {
                    resolved.push((ri, sr.weight))
                }
                Some(_) => cx.error(
                    format!(
                        "{label}: rule `{}` has weight {}; it must be greater than 0",
                        sr.rule, sr.weight
                    ),
                    at.clone(),
                    None,
                ),
                None => cx.error(
                    format!("{label} names rule `{}`, which does not exist", sr.rule),
                    at.clone(),
                    None,
                ),
            }
        }
        out.push(CompiledStage {
            label,
            rules: resolved,
            min: stage.min,
            max: stage.max,
        });
    }
    out
}
