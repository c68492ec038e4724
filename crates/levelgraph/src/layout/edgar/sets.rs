//! Room sets ([`RoomSets`]): room-set files read by their `name`, and a
//! loaded set's templates for a grammar's `rooms` block.

use super::builder::Builder;
use super::error::{invalid, InvalidKind};
use super::model::{SetModel, ShapesModel};
use super::yaml::{check_flow_depth, read, yaml_error};
use super::{EdgarError, CUSTOM_SET};
use crate::layout::template::RoomTemplate;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Room sets by name (their `name` key, not their file name), from a folder
/// of room-set files or from single files. Descriptions are checked when a
/// map uses them, as in Edgar.
#[derive(Clone, Debug, Default)]
pub struct RoomSets {
    pub(super) sets: BTreeMap<String, LoadedSet>,
}

#[derive(Clone, Debug)]
pub(super) struct LoadedSet {
    pub(super) file: PathBuf,
    pub(super) model: SetModel,
}

impl RoomSets {
    /// No sets.
    pub fn new() -> Self {
        Self::default()
    }

    /// The templates of set `set` (every description, each with the four
    /// rotations, named `set/description`), or of the one description
    /// `set/description` when `name` has that form: how a grammar's `rooms`
    /// block uses a loaded set. `field` names the place for messages.
    ///
    /// # Errors
    /// [`EdgarError::Invalid`] for an unknown set or description (listing
    /// the known ones), [`EdgarError::Template`] for a bad description.
    pub fn templates(&self, name: &str, field: &str) -> Result<Vec<RoomTemplate>, EdgarError> {
        let (set, description) = match name.split_once('/') {
            Some((set, d)) if !d.is_empty() => (set, Some(d.to_owned())),
            Some(_) => {
                return Err(invalid(
                    Path::new(field),
                    field,
                    InvalidKind::NoDescriptionAfterSlash {
                        name: name.to_owned(),
                    },
                ))
            }
            None => (name, None),
        };
        let file = self
            .sets
            .get(set)
            .map_or_else(|| PathBuf::from(field), |s| s.file.clone());
        let mut b = Builder {
            sets: self,
            custom: None,
            map_file: &file,
            templates: Vec::new(),
            repeat: Vec::new(),
            by_key: HashMap::new(),
            names: HashSet::new(),
        };
        let entry = ShapesModel {
            set_name: Some(set.to_owned()),
            room_description_name: description,
            rotate: None,
            probability: None,
            normalize_probabilities: None,
            scale: None,
        };
        b.shapes(&[entry], field)?;
        Ok(b.templates)
    }

    /// Every `*.yml` (and `*.yaml`) file of `dir`, in file-name order (not
    /// its subfolders).
    ///
    /// # Errors
    /// [`EdgarError::Io`] for an unreadable folder or file; any error of
    /// [`RoomSets::parse`].
    pub fn load_dir(dir: &Path) -> Result<Self, EdgarError> {
        let io = |source| EdgarError::Io {
            file: dir.to_owned(),
            source,
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            let yaml = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml"));
            if yaml && path.is_file() {
                files.push(path);
            }
        }
        files.sort();
        let mut sets = Self::new();
        for f in &files {
            sets.load_file(f)?;
        }
        Ok(sets)
    }

    /// Adds the set in the file at `path`.
    ///
    /// # Errors
    /// [`EdgarError::Io`]; any error of [`RoomSets::parse`].
    pub fn load_file(&mut self, path: &Path) -> Result<(), EdgarError> {
        let text = read(path)?;
        self.parse(&text, path)
    }

    /// Adds the set that `text` (the contents of `file`, named in errors)
    /// describes.
    ///
    /// # Errors
    /// [`EdgarError::Yaml`] for text that is not a room set;
    /// [`EdgarError::Invalid`] for a missing or empty `name`, the reserved
    /// name [`CUSTOM_SET`], or a name another file already took.
    pub fn parse(&mut self, text: &str, file: &Path) -> Result<(), EdgarError> {
        // A leading byte-order mark is not part of the text; the YAML
        // reader takes one for the start of a second document.
        let text = crate::diagnostic::strip_bom(text);
        check_flow_depth(file, text)?;
        let model: SetModel =
            serde_norway::from_str(text).map_err(|e| yaml_error(file, text, &e))?;
        let name = match model.name.as_deref() {
            None | Some("") => return Err(invalid(file, "name", InvalidKind::SetWithoutName)),
            Some(n) => n.to_owned(),
        };
        if name == CUSTOM_SET {
            return Err(invalid(file, "name", InvalidKind::ReservedSetName));
        }
        if let Some(other) = self.sets.get(&name) {
            return Err(invalid(
                file,
                "name",
                InvalidKind::DuplicateSet {
                    name,
                    other: other.file.clone(),
                },
            ));
        }
        self.sets.insert(
            name,
            LoadedSet {
                file: file.to_owned(),
                model,
            },
        );
        Ok(())
    }

    /// The set names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.sets.keys().map(String::as_str)
    }

    /// Whether a set of this name is loaded.
    pub fn contains(&self, name: &str) -> bool {
        self.sets.contains_key(name)
    }

    /// How many sets are loaded.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Whether no set is loaded.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }
}
