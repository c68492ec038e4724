//! The alphabet: each tag's name, description and colour, used by every
//! picture and legend (seed 003's alphabet of symbols and colours).

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

    /// Black or white, whichever reads better on `background` (`#rrggbb`),
    /// by the WCAG relative-luminance threshold.
    pub fn text_color(background: &str) -> &'static str {
        let channel = |i: usize| {
            let v = u8::from_str_radix(background.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
            let c = f64::from(v) / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
        if l > 0.179 {
            "#000000"
        } else {
            "#ffffff"
        }
    }
}
