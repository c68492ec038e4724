//! Shapes entries into templates ([`Builder`]): one template per (set,
//! description, scale, rotate), with its door rule, transforms and repeat
//! mode from the description or the set's default.

use super::error::{invalid, InvalidKind};
use super::model::{DescriptionModel, DoorModeModel, RepeatModel, SetModel, ShapesModel};
use super::{EdgarError, RoomSets, CUSTOM_SET};
use crate::layout::polygon::{GridPoint, Transform};
use crate::layout::template::{DoorRule, RepeatMode, RoomTemplate};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// One set as a shapes entry sees it.
pub(super) struct SetRef<'a> {
    pub(super) name: &'a str,
    pub(super) file: &'a Path,
    /// The key path of the set inside `file` (`customRoomDescriptionsSet.`
    /// for a map's inline set, else empty).
    pub(super) prefix: &'static str,
    pub(super) model: &'a SetModel,
}

/// Turns shapes entries into templates, once per (set, description, scale,
/// rotate).
pub(super) struct Builder<'a> {
    pub(super) sets: &'a RoomSets,
    pub(super) custom: Option<&'a SetModel>,
    pub(super) map_file: &'a Path,
    pub(super) templates: Vec<RoomTemplate>,
    /// Per template: its repeat mode.
    pub(super) repeat: Vec<RepeatMode>,
    pub(super) by_key: HashMap<(String, String, [i32; 2], bool), usize>,
    pub(super) names: HashSet<String>,
}

impl<'a> Builder<'a> {
    pub(super) fn set(&self, name: &str, field: &str) -> Result<SetRef<'a>, EdgarError> {
        if name == CUSTOM_SET {
            return match self.custom {
                Some(model) => Ok(SetRef {
                    name: CUSTOM_SET,
                    file: self.map_file,
                    prefix: "customRoomDescriptionsSet.",
                    model,
                }),
                None => Err(invalid(self.map_file, field, InvalidKind::NoCustomSet)),
            };
        }
        match self.sets.sets.get_key_value(name) {
            Some((key, set)) => Ok(SetRef {
                name: key,
                file: &set.file,
                prefix: "",
                model: &set.model,
            }),
            None => {
                let mut known: Vec<&str> = self.sets.names().collect();
                if self.custom.is_some() {
                    known.push(CUSTOM_SET);
                }
                Err(invalid(
                    self.map_file,
                    field,
                    InvalidKind::UnknownSet {
                        name: name.to_owned(),
                        known: known.into_iter().map(str::to_owned).collect(),
                    },
                ))
            }
        }
    }

    /// The templates of a list of shapes entries, each once, in order.
    pub(super) fn shapes(
        &mut self,
        entries: &[ShapesModel],
        field: &str,
    ) -> Result<Vec<usize>, EdgarError> {
        let mut out: Vec<usize> = Vec::new();
        for (k, entry) in entries.iter().enumerate() {
            let field = format!("{field}[{k}]");
            let set_name = match entry.set_name.as_deref() {
                None | Some("") => CUSTOM_SET,
                Some(n) => n,
            };
            let set = self.set(set_name, &format!("{field}.setName"))?;
            let scale = entry.scale.unwrap_or([1, 1]);
            if scale[0] < 1 || scale[1] < 1 {
                return Err(invalid(
                    self.map_file,
                    format!("{field}.scale"),
                    InvalidKind::BadScale { scale },
                ));
            }
            let rotate = entry.rotate.unwrap_or(true);
            let descriptions: &[(String, DescriptionModel)] = set
                .model
                .room_descriptions
                .as_ref()
                .map_or(&[], |d| d.0.as_slice());
            let chosen: Vec<&(String, DescriptionModel)> =
                match entry.room_description_name.as_deref() {
                    None | Some("") => descriptions.iter().collect(),
                    Some(want) => {
                        let hit: Vec<_> = descriptions.iter().filter(|(n, _)| n == want).collect();
                        if hit.is_empty() {
                            return Err(invalid(
                                self.map_file,
                                format!("{field}.roomDescriptionName"),
                                InvalidKind::UnknownDescription {
                                    set: set.name.to_owned(),
                                    name: want.to_owned(),
                                    known: descriptions.iter().map(|(n, _)| n.clone()).collect(),
                                },
                            ));
                        }
                        hit
                    }
                };
            for (name, desc) in chosen {
                let t = self.template(&set, name, desc, scale, rotate)?;
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        Ok(out)
    }

    pub(super) fn template(
        &mut self,
        set: &SetRef<'_>,
        name: &str,
        desc: &DescriptionModel,
        scale: [i32; 2],
        rotate: bool,
    ) -> Result<usize, EdgarError> {
        let key = (set.name.to_owned(), name.to_owned(), scale, rotate);
        if let Some(&t) = self.by_key.get(&key) {
            return Ok(t);
        }
        let field = format!("{}roomDescriptions.{name}", set.prefix);
        let default = set.model.default.as_ref();
        let Some(shape) = desc
            .shape
            .as_ref()
            .or_else(|| default.and_then(|d| d.shape.as_ref()))
        else {
            return Err(invalid(
                set.file,
                field,
                InvalidKind::NoShape {
                    set: set.name.to_owned(),
                },
            ));
        };
        let Some(door_mode) = desc
            .door_mode
            .as_ref()
            .or_else(|| default.and_then(|d| d.door_mode.as_ref()))
        else {
            return Err(invalid(
                set.file,
                field,
                InvalidKind::NoDoorMode {
                    set: set.name.to_owned(),
                },
            ));
        };
        let repeat = desc
            .repeat_mode
            .or_else(|| default.and_then(|d| d.repeat_mode))
            .map_or(RepeatMode::Allow, RepeatModel::mode);
        let outline = scaled(shape, scale, set.file, &field)?;
        let doors = door_rule(door_mode);
        let tname = template_name(set.name, name, scale, rotate);
        let transforms: Vec<Transform> = if rotate {
            Transform::all(false).collect()
        } else {
            vec![Transform::IDENTITY]
        };
        let template =
            RoomTemplate::new(&tname, &outline, doors, transforms).map_err(|source| {
                EdgarError::Template {
                    file: set.file.to_owned(),
                    field: field.clone(),
                    source,
                }
            })?;
        if !self.names.insert(tname.clone()) {
            return Err(invalid(
                set.file,
                field,
                InvalidKind::NameTaken { name: tname },
            ));
        }
        self.templates.push(template);
        self.repeat.push(repeat);
        let t = self.templates.len() - 1;
        self.by_key.insert(key, t);
        Ok(t)
    }
}

/// The outline `shape` with its coordinates multiplied by `scale`; an
/// overflow is an error at `field`'s `shape` in `file`.
fn scaled(
    shape: &[[i32; 2]],
    scale: [i32; 2],
    file: &Path,
    field: &str,
) -> Result<Vec<GridPoint>, EdgarError> {
    let mut outline = Vec::with_capacity(shape.len());
    for &[x, y] in shape {
        match (x.checked_mul(scale[0]), y.checked_mul(scale[1])) {
            (Some(x), Some(y)) => outline.push(GridPoint::new(x, y)),
            _ => {
                return Err(invalid(
                    file,
                    format!("{field}.shape"),
                    InvalidKind::ScaleOverflow {
                        point: [x, y],
                        scale,
                    },
                ))
            }
        }
    }
    Ok(outline)
}

/// A door mode as a door rule.
fn door_rule(door_mode: &DoorModeModel) -> DoorRule {
    match door_mode {
        DoorModeModel::Overlap(o) => DoorRule::Overlap {
            length: o.door_length,
            corner_distance: o.corner_distance,
        },
        DoorModeModel::Specific(s) => DoorRule::Specific(
            s.door_positions
                .iter()
                .map(|&[[ax, ay], [bx, by]]| [GridPoint::new(ax, ay), GridPoint::new(bx, by)])
                .collect(),
        ),
    }
}

/// A template's name: `set/description`, with `@SXxSY` for a scale other
/// than `[1, 1]` and `~r0` without rotations.
fn template_name(set: &str, name: &str, scale: [i32; 2], rotate: bool) -> String {
    let mut tname = format!("{set}/{name}");
    if scale != [1, 1] {
        tname.push_str(&format!("@{}x{}", scale[0], scale[1]));
    }
    if !rotate {
        tname.push_str("~r0");
    }
    tname
}
