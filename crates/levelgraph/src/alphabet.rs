//! The alphabet: each tag's name, description and colour, used by every
//! picture and legend (an alphabet of symbols and colours, as in Dormans'
//! Ludoscope).

/// How one tag is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagStyle {
    /// Tag name.
    pub name: String,
    /// What the tag stands for.
    pub description: String,
    /// Fill colour `#rrggbb`.
    pub color: String,
}

/// Styles of a grammar's tags, in declaration order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Alphabet {
    /// One entry per declared tag.
    pub tags: Vec<TagStyle>,
}

/// Colour of tags the alphabet does not know (e.g. from a foreign host graph).
pub const UNKNOWN_TAG_COLOR: &str = "#bdbdbd";

impl Alphabet {
    /// The style of `name`, if declared.
    pub fn style(&self, name: &str) -> Option<&TagStyle> {
        self.tags.iter().find(|t| t.name == name)
    }

    /// The fill colour of `name`, grey when undeclared.
    pub fn color(&self, name: &str) -> &str {
        self.style(name)
            .map_or(UNKNOWN_TAG_COLOR, |t| t.color.as_str())
    }

    /// Black or white, whichever reads better on `background` (`#rrggbb`):
    /// integer luma with the ITU-R BT.601 weights (299, 587, 114), so the
    /// choice is exact on every platform.
    pub fn text_color(background: &str) -> &'static str {
        let channel = |i: usize| {
            background
                .get(i..i + 2)
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .unwrap_or(128)
        };
        let luma = 299 * channel(1) + 587 * channel(3) + 114 * channel(5);
        if luma > 140_000 {
            "#000000"
        } else {
            "#ffffff"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_white_on_dark_and_black_on_light() {
        assert_eq!(Alphabet::text_color("#c62828"), "#ffffff");
        assert_eq!(Alphabet::text_color("#1565c0"), "#ffffff");
        assert_eq!(Alphabet::text_color("#90a4ae"), "#000000");
        assert_eq!(Alphabet::text_color("#f9a825"), "#000000");
    }

    #[test]
    fn unknown_tags_are_grey() {
        let a = Alphabet {
            tags: vec![TagStyle {
                name: "room".into(),
                description: String::new(),
                color: "#123456".into(),
            }],
        };
        assert_eq!(a.color("room"), "#123456");
        assert_eq!(a.color("hall"), UNKNOWN_TAG_COLOR);
    }
}
