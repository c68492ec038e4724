//! The YAML models (Edgar's, camelCase keys), as Edgar-DotNet 1.x's
//! `ConfigLoader` reads them; unknown keys and repeated keys are errors.

use crate::layout::template::RepeatMode;
use serde::de::{self, Deserializer, EnumAccess, MapAccess, VariantAccess, Visitor};
use serde::Deserialize;
use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

/// A mapping read in file order, refusing repeated keys.
#[derive(Clone, Debug)]
pub(super) struct Ordered<K, V>(pub(super) Vec<(K, V)>);

impl<'de, K, V> Deserialize<'de> for Ordered<K, V>
where
    K: Deserialize<'de> + Eq + std::hash::Hash + Clone + fmt::Debug,
    V: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Seen<K, V>(PhantomData<(K, V)>);
        impl<'de, K, V> Visitor<'de> for Seen<K, V>
        where
            K: Deserialize<'de> + Eq + std::hash::Hash + Clone + fmt::Debug,
            V: Deserialize<'de>,
        {
            type Value = Ordered<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out: Vec<(K, V)> = Vec::new();
                let mut seen: HashSet<K> = HashSet::new();
                while let Some(k) = map.next_key::<K>()? {
                    if !seen.insert(k.clone()) {
                        return Err(de::Error::custom(format!("duplicate key {k:?}")));
                    }
                    let v = map.next_value::<V>()?;
                    out.push((k, v));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(Seen(PhantomData))
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct MapModel {
    pub(super) rooms_range: Option<RangeModel>,
    pub(super) passages: Option<Vec<[i32; 2]>>,
    pub(super) default_room_shapes: Option<Vec<ShapesModel>>,
    pub(super) rooms: Option<Ordered<Vec<i32>, RoomModel>>,
    pub(super) custom_room_descriptions_set: Option<SetModel>,
    pub(super) corridors: Option<CorridorsModel>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RangeModel {
    #[serde(default)]
    pub(super) from: i32,
    pub(super) to: i32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RoomModel {
    pub(super) room_shapes: Option<Vec<ShapesModel>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct ShapesModel {
    pub(super) set_name: Option<String>,
    pub(super) room_description_name: Option<String>,
    pub(super) rotate: Option<bool>,
    // Read for compatibility and ignored, as by Edgar 1.x's final loader
    // (earlier ones weighted the choice of shapes with them).
    #[allow(dead_code)]
    pub(super) probability: Option<f64>,
    #[allow(dead_code)] // likewise
    pub(super) normalize_probabilities: Option<bool>,
    pub(super) scale: Option<[i32; 2]>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct CorridorsModel {
    pub(super) enable: Option<bool>,
    pub(super) offsets: Option<Vec<u32>>,
    pub(super) corridor_shapes: Option<Vec<ShapesModel>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct SetModel {
    pub(super) name: Option<String>,
    pub(super) default: Option<DescriptionModel>,
    pub(super) room_descriptions: Option<Ordered<String, DescriptionModel>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct DescriptionModel {
    #[allow(dead_code)] // Edgar overwrites it with the key
    pub(super) name: Option<String>,
    pub(super) shape: Option<Vec<[i32; 2]>>,
    pub(super) door_mode: Option<DoorModeModel>,
    pub(super) repeat_mode: Option<RepeatModel>,
}

#[derive(Clone, Debug)]
pub(super) enum DoorModeModel {
    Overlap(OverlapModel),
    Specific(SpecificModel),
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct OverlapModel {
    pub(super) door_length: u32,
    #[serde(default)]
    pub(super) corner_distance: u32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct SpecificModel {
    pub(super) door_positions: Vec<[[i32; 2]; 2]>,
}

/// How the message for an unknown door-mode tag starts, up to the tag.
pub(super) const UNKNOWN_TAG: &str = "unknown door mode tag `!";

/// The tags Edgar maps to door modes (YamlDotNet's `WithTagMapping`).
const DOOR_TAGS: &[&str] = &[
    "OverlapMode",
    "SimpleMode",
    "SpecificPositionsMode",
    "ManualMode",
];

impl<'de> Deserialize<'de> for DoorModeModel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Tagged;
        impl<'de> Visitor<'de> for Tagged {
            type Value = DoorModeModel;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a door mode tagged !OverlapMode or !SpecificPositionsMode")
            }
            fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
                let (tag, body): (String, _) = data.variant()?;
                match tag.as_str() {
                    "OverlapMode" | "SimpleMode" => {
                        body.newtype_variant().map(DoorModeModel::Overlap)
                    }
                    "SpecificPositionsMode" | "ManualMode" => {
                        body.newtype_variant().map(DoorModeModel::Specific)
                    }
                    other => Err(de::Error::custom(format!(
                        "{UNKNOWN_TAG}{other}`: Edgar's are !OverlapMode (or \
                         !SimpleMode) and !SpecificPositionsMode (or !ManualMode)"
                    ))),
                }
            }
        }
        d.deserialize_enum("DoorMode", DOOR_TAGS, Tagged)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub(super) enum RepeatModel {
    #[serde(alias = "allowRepeat")]
    AllowRepeat,
    #[serde(alias = "noImmediate")]
    NoImmediate,
    #[serde(alias = "noRepeat")]
    NoRepeat,
}

impl RepeatModel {
    pub(super) fn mode(self) -> RepeatMode {
        match self {
            RepeatModel::AllowRepeat => RepeatMode::Allow,
            RepeatModel::NoImmediate => RepeatMode::NoImmediate,
            RepeatModel::NoRepeat => RepeatMode::NoRepeat,
        }
    }
}

pub(super) fn repeat_name(m: RepeatMode) -> &'static str {
    match m {
        RepeatMode::Allow => "AllowRepeat",
        RepeatMode::NoImmediate => "NoImmediate",
        RepeatMode::NoRepeat => "NoRepeat",
    }
}
