//! The charts of `levelgraph analyze`: metric histograms and the 2-D heat
//! maps of Smith & Whitehead, "Analyzing the Expressive Range of a Level
//! Generator" (PCG workshop, 2010), each drawn as SVG (for the HTML report)
//! and as PNG (for anywhere else).
//!
//! Charts are pure functions of their input: the same input gives the same
//! bytes, and no input panics. Non-finite metric values are skipped; input
//! with no levels at all gives a chart that says "no levels".
//!
//! The bars and cells are drawn in *bin-index* coordinates (bin `i` spans
//! `i..i + 1`) and only the tick labels show metric values. So plotters never
//! sees the metric's own range, which may be as wide as `f64` allows, and the
//! ticks fall where the binning puts them (on the integers, or on bin edges).

use std::error::Error;
use std::ops::Range;
use std::sync::Once;

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One distribution of a metric: distinct values ascending, each with how
/// many levels have it.
pub(crate) struct Distribution<'a> {
    /// The series' name, shown in the legend when several are compared
    /// (e.g. the grammar's file name).
    pub name: &'a str,
    /// `(metric value, number of levels with that value)`. Values that are
    /// not finite and entries with a zero count are skipped.
    pub counts: &'a [(f64, u64)],
}

/// A chart in both formats.
pub(crate) struct Chart {
    /// A standalone SVG document (text as `<text>` elements in
    /// `sans-serif`), to inline in the HTML report.
    pub svg: String,
    /// The same chart as an 8-bit RGB PNG file.
    pub png: Vec<u8>,
}

/// Histogram size in pixels (SVG user units and PNG pixels alike).
const HISTOGRAM_SIZE: (u32, u32) = (640, 400);
/// Heat-map size in pixels (SVG user units and PNG pixels alike).
const HEAT_MAP_SIZE: (u32, u32) = (560, 480);

/// A histogram's x axis gets one bin per integer when there are at most
/// this many (counts of rooms, keys, ... stay exact).
const HISTOGRAM_MAX_INTEGER_BINS: usize = 40;
/// A heat-map axis gets one bin per integer when there are at most this
/// many: fewer than a histogram's, as a heat map is narrower and 2-D.
const HEAT_MAP_MAX_INTEGER_BINS: usize = 30;
/// Number of equal-width bins for everything else (fractional metrics such
/// as linearity or leniency, or wide integer ranges).
const EQUAL_BINS: usize = 20;

/// Whole numbers up to this magnitude are exact in `f64`, so counting
/// integer steps between them is exact too.
const MAX_EXACT_INTEGER: f64 = 9_007_199_254_740_992.0; // 2^53

/// Series colours (Okabe & Ito's colour-blind-safe palette, most distinct
/// first); more series than colours reuse them in turn.
const SERIES_COLOURS: [RGBColor; 7] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(230, 159, 0),   // orange
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(240, 228, 66),  // yellow
];
/// Opacity of overlaid bars: low enough that a bar hidden behind another
/// series' shows through.
const OVERLAY_OPACITY: f64 = 0.45;

/// The heat maps' sequential colour scale, light to dark (ColorBrewer
/// "Blues" without its near-white first step, so that one level is still
/// visibly different from an empty bin, which stays white).
const HEAT_COLOURS: [RGBColor; 8] = [
    RGBColor(222, 235, 247),
    RGBColor(198, 219, 239),
    RGBColor(158, 202, 225),
    RGBColor(107, 174, 214),
    RGBColor(66, 146, 198),
    RGBColor(33, 113, 181),
    RGBColor(8, 81, 156),
    RGBColor(8, 48, 107),
];

/// The embedded font for PNG text. The bitmap backend rasterises glyphs
/// itself (plotters' `ab_glyph` feature) rather than asking the system for
/// fonts, so the output does not depend on the machine. The SVG backend only
/// measures text with it (for layout) and leaves drawing to the viewer.
static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Font family every text of the charts uses: the name [`FONT`] is
/// registered under, and the generic family SVG viewers understand.
const FAMILY: &str = "sans-serif";

/// Registers [`FONT`] with plotters, once per process.
fn register_font() {
    static REGISTERED: Once = Once::new();
    REGISTERED.call_once(|| {
        // It can only fail if the embedded file were not a font; then every
        // text draw fails and the charts fall back to `fallback_chart`,
        // which the unit tests would catch.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

/// Space above a title drawn by `DrawingArea::titled` (which leaves only 5
/// px), to match the histograms' caption.
const TITLE_MARGIN: u32 = 10;

/// Histogram of one metric; with two or more series (comparing grammars)
/// the bars are overlaid (semi-transparent, one colour per series, a legend
/// with the series names). The y axis is the share of each series' levels in
/// percent (so series of different sizes compare).
///
/// The x axis is binned by [`Bins::choose`] over the values of all series
/// together (so the series share bins): one bar per integer when the metric
/// is integral and spans at most 40 integers, else 20 equal-width bins.
/// 640 x 400 px. Empty input (no finite value with a non-zero count) gives a
/// chart that says "no levels".
pub(crate) fn histogram(title: &str, x_label: &str, series: &[Distribution<'_>]) -> Chart {
    let values = series.iter().flat_map(|s| levels(s.counts).map(|(v, _)| v));
    let Some(bins) = Bins::choose(values, HISTOGRAM_MAX_INTEGER_BINS) else {
        return render(&Message::no_levels(title), HISTOGRAM_SIZE);
    };
    let shares = series
        .iter()
        .map(|s| {
            // u128: a sum of u64 counts cannot overflow it.
            let mut per_bin = vec![0u128; bins.len()];
            for (value, count) in levels(s.counts) {
                if let Some(i) = bins.index(value) {
                    per_bin[i] += u128::from(count);
                }
            }
            let total: u128 = per_bin.iter().sum();
            let shares = per_bin
                .iter()
                .map(|&n| {
                    if total == 0 {
                        0.0
                    } else {
                        n as f64 / total as f64 * 100.0
                    }
                })
                .collect();
            (s.name, shares)
        })
        .collect();
    let plot = HistogramPlot {
        title,
        x_label,
        bins,
        series: shares,
    };
    render(&plot, HISTOGRAM_SIZE)
}

/// Smith & Whitehead-style 2-D heat map of two metrics (Smith & Whitehead,
/// "Analyzing the Expressive Range of a Level Generator", 2010): cells =
/// ((x value, y value), levels).
///
/// Each axis is binned on its own by [`Bins::choose`] (one bin per integer
/// up to 30 integers, else 20 equal-width bins); a cell's colour is the
/// number of levels in its bin on a linear sequential scale, white for none
/// and darkest for the fullest bin, read off the colour bar at the right,
/// whose top label is that largest count. 560 x 480 px. Cells with a
/// non-finite coordinate are skipped; no levels at all gives a chart that
/// says "no levels".
pub(crate) fn heat_map(
    title: &str,
    x_label: &str,
    y_label: &str,
    cells: &[((f64, f64), u64)],
) -> Chart {
    let cells: Vec<((f64, f64), u64)> = cells
        .iter()
        .copied()
        .filter(|&((x, y), n)| x.is_finite() && y.is_finite() && n > 0)
        .collect();
    let x_bins = Bins::choose(cells.iter().map(|c| c.0 .0), HEAT_MAP_MAX_INTEGER_BINS);
    let y_bins = Bins::choose(cells.iter().map(|c| c.0 .1), HEAT_MAP_MAX_INTEGER_BINS);
    let (Some(x_bins), Some(y_bins)) = (x_bins, y_bins) else {
        return render(&Message::no_levels(title), HEAT_MAP_SIZE);
    };
    // Row-major: counts[y * x_bins.len() + x].
    let mut counts = vec![0u64; x_bins.len() * y_bins.len()];
    for ((x, y), n) in cells {
        if let (Some(i), Some(j)) = (x_bins.index(x), y_bins.index(y)) {
            let cell = &mut counts[j * x_bins.len() + i];
            *cell = cell.saturating_add(n);
        }
    }
    let plot = HeatMapPlot {
        title,
        x_label,
        y_label,
        x_bins,
        y_bins,
        counts,
    };
    render(&plot, HEAT_MAP_SIZE)
}

/// The entries of a distribution that stand for levels: finite values with
/// a non-zero count.
fn levels(counts: &[(f64, u64)]) -> impl Iterator<Item = (f64, u64)> + '_ {
    counts
        .iter()
        .copied()
        .filter(|&(v, n)| v.is_finite() && n > 0)
}

/// How one axis of a chart is cut into bins.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bins {
    /// One bin per whole number `first..=last` (both whole, `first <=
    /// last`); bin `i` holds the value `first + i`.
    PerInteger {
        /// The smallest value.
        first: f64,
        /// The largest value.
        last: f64,
    },
    /// `count` equal-width bins from `min` to `max`: bin `i` holds
    /// `[min + i w, min + (i + 1) w)` with `w = (max - min) / count`, and the
    /// last bin holds `max` too. When `min == max`, `count` is 1.
    Equal {
        /// The smallest value: the first bin's lower edge.
        min: f64,
        /// The largest value: the last bin's upper edge, included.
        max: f64,
        /// The number of bins, at least 1.
        count: usize,
    },
}

impl Bins {
    /// Chooses the bins for the finite ones of `values` (non-finite ones
    /// are ignored): one bin per integer when all are whole numbers and
    /// `max - min + 1 <= max_integer_bins`, else [`EQUAL_BINS`] equal-width
    /// bins from min to max (one bin when they are all the same value).
    /// `None` when there is no finite value.
    pub(crate) fn choose(
        values: impl IntoIterator<Item = f64>,
        max_integer_bins: usize,
    ) -> Option<Bins> {
        let mut min = f64::INFINITY;
        let mut max = f64::NEG_INFINITY;
        let mut integral = true;
        for v in values.into_iter().filter(|v| v.is_finite()) {
            min = min.min(v);
            max = max.max(v);
            integral &= v.fract() == 0.0 && v.abs() <= MAX_EXACT_INTEGER;
        }
        if min > max {
            return None;
        }
        // Exact: both are integers of at most 2^53, so is their difference.
        if integral && max - min < max_integer_bins as f64 {
            Some(Bins::PerInteger {
                first: min,
                last: max,
            })
        } else {
            let count = if min == max { 1 } else { EQUAL_BINS };
            Some(Bins::Equal { min, max, count })
        }
    }

    /// The number of bins, at least 1.
    pub(crate) fn len(&self) -> usize {
        match *self {
            Bins::PerInteger { first, last } => (last - first) as usize + 1,
            Bins::Equal { count, .. } => count.max(1),
        }
    }

    /// The bin `value` falls in, or `None` outside the bins (or not finite).
    pub(crate) fn index(&self, value: f64) -> Option<usize> {
        if !value.is_finite() {
            return None;
        }
        match *self {
            Bins::PerInteger { first, last } => {
                // Nearest integer: the bins are centred on the integers.
                if value < first - 0.5 || value > last + 0.5 {
                    return None;
                }
                Some(((value - first).round() as usize).min(self.len() - 1))
            }
            Bins::Equal { min, max, .. } => {
                if value < min || value > max {
                    return None;
                }
                if min == max {
                    return Some(0);
                }
                // Halved, so that `max - min` cannot overflow to infinity
                // when the values span most of the f64 range.
                let t = (value / 2.0 - min / 2.0) / (max / 2.0 - min / 2.0);
                // The `min` puts `max` (t = 1) into the last bin.
                Some(((t * self.len() as f64) as usize).min(self.len() - 1))
            }
        }
    }

    /// The metric value at bin-index position `position` (0 to `len()`):
    /// an edge of equal-width bins, or for integer bins `first + position -
    /// 0.5` (so the bin centre `i + 0.5` is the integer `first + i`).
    fn value_at(&self, position: f64) -> f64 {
        match *self {
            Bins::PerInteger { first, .. } => first + position - 0.5,
            Bins::Equal { min, max, .. } => {
                let t = position / self.len() as f64;
                // The convex form cannot overflow, unlike `min + (max - min) t`.
                min * (1.0 - t) + max * t
            }
        }
    }

    /// Tick marks in bin-index coordinates with their labels, at most about
    /// `max_ticks` of them: integer bins are labelled at their centres with
    /// multiples of a round step (1, 2, 5, 10, 20, ...); equal-width bins at
    /// every k-th edge (k dividing the bin count), at most `max_ticks / 2 +
    /// 1` of them as their labels are wider; a single bin at its centre
    /// with its value.
    fn ticks(&self, max_ticks: usize) -> Vec<(f64, String)> {
        let max_ticks = max_ticks.max(2);
        match *self {
            Bins::PerInteger { first, last } => {
                let step = round_step(self.len().div_ceil(max_ticks));
                // The first multiple of `step` at or after `first`.
                let mut v = (first / step as f64).ceil() * step as f64;
                let mut ticks = Vec::new();
                while v <= last {
                    // `+ 0.0` turns the -0 that `ceil` gives for small
                    // negative `first` into 0.
                    ticks.push((v - first + 0.5, format!("{}", v + 0.0)));
                    v += step as f64;
                }
                ticks
            }
            Bins::Equal { min, max, .. } if min == max => vec![(0.5, format_value(min, 0.0))],
            Bins::Equal { count, .. } => {
                // The smallest divisor of the bin count giving few enough
                // edges, so that the last edge (the max) is labelled too.
                let every = (1..=count)
                    .find(|k| count % k == 0 && count / k <= max_ticks / 2)
                    .unwrap_or(count);
                let spacing = (self.value_at(every as f64) - self.value_at(0.0)).abs();
                (0..=count)
                    .step_by(every)
                    .map(|k| {
                        let position = k as f64;
                        (position, format_value(self.value_at(position), spacing))
                    })
                    .collect()
            }
        }
    }
}

/// The smallest round number (1, 2, 5, 10, 20, 50, ...) at least `at_least`.
fn round_step(at_least: usize) -> usize {
    let mut magnitude = 1usize;
    loop {
        for m in [1, 2, 5] {
            let step = m * magnitude;
            if step >= at_least {
                return step;
            }
        }
        magnitude = magnitude.saturating_mul(10);
        if magnitude == usize::MAX {
            return usize::MAX;
        }
    }
}

/// Formats a tick value with as many decimals as the tick spacing
/// `spacing` calls for (ticks 0.2 apart get two, so that all labels of an
/// axis have the same number), in scientific notation when very large or
/// small. A lone value (`spacing` 0) gets up to four decimals, trailing
/// zeros dropped.
fn format_value(value: f64, spacing: f64) -> String {
    if value == 0.0 {
        return "0".to_owned();
    }
    let magnitude = value.abs();
    if !(1e-3..1e6).contains(&magnitude) {
        return format!("{value:.2e}");
    }
    if !(spacing > 0.0 && spacing.is_finite()) {
        let text = format!("{value:.4}");
        return text.trim_end_matches('0').trim_end_matches('.').to_owned();
    }
    let decimals = ((-spacing.log10()).ceil() + 1.0).clamp(0.0, 4.0) as usize;
    format!("{value:.decimals$}")
}

/// A linear chart axis whose ticks and tick labels are given rather than
/// chosen by plotters: the ticks of [`Bins::ticks`] on a bin-index axis, or
/// whole counts on the colour bar.
struct TickedAxis {
    /// The linear map from axis values to pixels.
    scale: RangedCoordf64,
    /// Tick positions (axis values) and their labels.
    ticks: Vec<(f64, String)>,
}

impl TickedAxis {
    /// An axis over `range` with `ticks`.
    fn new(range: Range<f64>, ticks: Vec<(f64, String)>) -> Self {
        TickedAxis {
            scale: range.into(),
            ticks,
        }
    }
}

impl Ranged for TickedAxis {
    // Labels come from `ticks` (the `ValueFormatter` below).
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.scale.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Only the labelled ticks: no light grid lines in between.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.iter().map(|t| t.0).collect()
        }
    }

    fn range(&self) -> Range<f64> {
        self.scale.range()
    }
}

impl ValueFormatter<f64> for TickedAxis {
    fn format_ext(&self, value: &f64) -> String {
        self.ticks
            .iter()
            .find(|(p, _)| (p - value).abs() < 1e-9)
            .map(|(_, label)| label.clone())
            .unwrap_or_default()
    }
}

/// The colour of a heat-map cell holding `count` levels when the fullest
/// holds `max`: white for none, then linear along [`HEAT_COLOURS`].
fn heat_colour(count: f64, max: f64) -> RGBColor {
    if count <= 0.0 || max <= 0.0 || count.is_nan() {
        return WHITE;
    }
    let t = (count / max).clamp(0.0, 1.0) * (HEAT_COLOURS.len() - 1) as f64;
    let i = (t as usize).min(HEAT_COLOURS.len() - 2);
    let (a, b, f) = (HEAT_COLOURS[i], HEAT_COLOURS[i + 1], t - i as f64);
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// What goes wrong while drawing: a plotters or PNG error, described.
type DrawError = Box<dyn Error>;

/// A chart that can draw itself on any plotters backend, so one description
/// gives both the SVG and the PNG.
trait Plot {
    /// Draws the whole chart on `root` (white background included).
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError>
    where
        DB::ErrorType: 'static;
}

/// Draws `plot` as SVG and PNG of `size` pixels. Drawing errors (not
/// expected: the font is embedded and every coordinate is a small bin
/// index) give a chart that says what went wrong, never a panic.
fn render(plot: &impl Plot, size: (u32, u32)) -> Chart {
    register_font();
    match (render_svg(plot, size), render_png(plot, size)) {
        (Ok(svg), Ok(png)) => Chart { svg, png },
        (Err(e), _) | (_, Err(e)) => fallback_chart(&e.to_string(), size),
    }
}

/// Draws `plot` into an SVG document.
fn render_svg(plot: &impl Plot, size: (u32, u32)) -> Result<String, DrawError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        plot.draw(&root)?;
        root.present()?;
    }
    Ok(svg)
}

/// Draws `plot` into an in-memory RGB buffer and encodes that as PNG (no
/// temporary file: plotters' own PNG writing goes through a path).
fn render_png(plot: &impl Plot, size: (u32, u32)) -> Result<Vec<u8>, DrawError> {
    let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
        plot.draw(&root)?;
        root.present()?;
    }
    encode_png(&rgb, size)
}

/// Encodes 8-bit RGB pixels, row by row, as a PNG file.
fn encode_png(rgb: &[u8], (width, height): (u32, u32)) -> Result<Vec<u8>, DrawError> {
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgb)?;
    writer.finish()?;
    Ok(png)
}

/// The chart when drawing failed: the error as text, or if even that cannot
/// be drawn, a bare SVG with the message and a white PNG.
fn fallback_chart(error: &str, size: (u32, u32)) -> Chart {
    let message = Message {
        title: "chart could not be drawn",
        text: error,
    };
    if let (Ok(svg), Ok(png)) = (render_svg(&message, size), render_png(&message, size)) {
        return Chart { svg, png };
    }
    let escaped = error
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let svg = format!(
        "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\">\n\
         <text x=\"10\" y=\"20\" font-family=\"sans-serif\">chart could not be drawn: {escaped}</text>\n</svg>\n",
        w = size.0,
        h = size.1
    );
    let white = vec![255u8; size.0 as usize * size.1 as usize * 3];
    Chart {
        svg,
        png: encode_png(&white, size).unwrap_or_default(),
    }
}

/// A chart with no data: a title and one line of text in the middle.
struct Message<'a> {
    /// The chart's title, as it would have been.
    title: &'a str,
    /// What to say instead of the data.
    text: &'a str,
}

impl<'a> Message<'a> {
    /// The chart for a metric no level has.
    fn no_levels(title: &'a str) -> Self {
        Message {
            title,
            text: "no levels",
        }
    }
}

impl Plot for Message<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let area = root
            .margin(TITLE_MARGIN, 0, 0, 0)
            .titled(self.title, (FAMILY, 20))?;
        let (width, height) = area.dim_in_pixel();
        let grey = BLACK.mix(0.6);
        let style = TextStyle::from((FAMILY, 18).into_font())
            .color(&grey)
            .pos(Pos::new(HPos::Center, VPos::Center));
        area.draw_text(self.text, &style, (width as i32 / 2, height as i32 / 2))?;
        Ok(())
    }
}

/// A histogram ready to draw: the bins and each series' share per bin.
struct HistogramPlot<'a> {
    /// Chart title.
    title: &'a str,
    /// What the x axis (the metric) is.
    x_label: &'a str,
    /// The x axis' bins, shared by all series.
    bins: Bins,
    /// Each series' name and share of its levels per bin, in percent.
    series: Vec<(&'a str, Vec<f64>)>,
}

impl Plot for HistogramPlot<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let bins = self.bins.len() as f64;
        let highest = self
            .series
            .iter()
            .flat_map(|(_, shares)| shares.iter().copied())
            .fold(0.0, f64::max);
        // Headroom above the highest bar, but no ticks past 100 %.
        let y_max = if highest > 0.0 {
            (highest * 1.1).min(100.0)
        } else {
            100.0
        };
        let mut chart = ChartBuilder::on(root)
            .caption(self.title, (FAMILY, 20))
            .margin(14)
            .x_label_area_size(46)
            .y_label_area_size(58)
            .build_cartesian_2d(TickedAxis::new(0.0..bins, self.bins.ticks(12)), 0.0..y_max)?;
        chart
            .configure_mesh()
            // Vertical grid lines would cut through the bars, and light
            // lines between the labelled ones only add clutter.
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(self.x_label)
            .y_desc("share of levels (%)")
            .y_label_formatter(&|y| format!("{y}"))
            .axis_desc_style((FAMILY, 15))
            .label_style((FAMILY, 12))
            .draw()?;

        let overlaid = self.series.len() > 1;
        // A small gap between neighbouring bars keeps them apart.
        let gap = if bins > 1.0 { 0.06 } else { 0.3 };
        for (k, (name, shares)) in self.series.iter().enumerate() {
            let colour = SERIES_COLOURS[k % SERIES_COLOURS.len()];
            let style = if overlaid {
                colour.mix(OVERLAY_OPACITY).filled()
            } else {
                colour.filled()
            };
            let bars = shares
                .iter()
                .enumerate()
                .filter(|&(_, &share)| share > 0.0)
                .map(|(i, &share)| {
                    let left = i as f64 + gap;
                    Rectangle::new([(left, 0.0), (left + 1.0 - 2.0 * gap, share)], style)
                });
            let drawn = chart.draw_series(bars)?;
            if overlaid {
                drawn
                    .label(*name)
                    .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], style));
            }
        }
        if overlaid {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.3))
                .label_font((FAMILY, 13))
                .draw()?;
        }
        Ok(())
    }
}

/// A heat map ready to draw: both axes' bins and the levels per cell.
struct HeatMapPlot<'a> {
    /// Chart title.
    title: &'a str,
    /// What the x axis (the first metric) is.
    x_label: &'a str,
    /// What the y axis (the second metric) is.
    y_label: &'a str,
    /// The x axis' bins.
    x_bins: Bins,
    /// The y axis' bins.
    y_bins: Bins,
    /// Levels per cell, row-major: `counts[y * x_bins.len() + x]`.
    counts: Vec<u64>,
}

impl Plot for HeatMapPlot<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError>
    where
        DB::ErrorType: 'static,
    {
        /// Width of the colour bar's column, its labels included.
        const BAR_COLUMN: u32 = 96;
        /// Space below the plot for x tick labels and the x axis title; the
        /// colour bar leaves the same, so both end on one line.
        const X_LABEL_AREA: u32 = 46;
        /// Margin round the heat map and at the top of the colour bar.
        const MARGIN: u32 = 12;

        root.fill(&WHITE)?;
        let area = root
            .margin(TITLE_MARGIN, 0, 0, 0)
            .titled(self.title, (FAMILY, 20))?;
        let (width, _) = area.dim_in_pixel();
        let (map_area, bar_area) = area.split_horizontally(width.saturating_sub(BAR_COLUMN));
        let (columns, rows) = (self.x_bins.len(), self.y_bins.len());
        let max = self.counts.iter().copied().max().unwrap_or(0) as f64;

        let mut chart = ChartBuilder::on(&map_area)
            .margin(MARGIN)
            .x_label_area_size(X_LABEL_AREA)
            .y_label_area_size(58)
            .build_cartesian_2d(
                TickedAxis::new(0.0..columns as f64, self.x_bins.ticks(8)),
                TickedAxis::new(0.0..rows as f64, self.y_bins.ticks(10)),
            )?;
        chart
            // Grid lines would cross the cells; the frame below bounds them.
            .configure_mesh()
            .disable_mesh()
            .x_desc(self.x_label)
            .y_desc(self.y_label)
            .axis_desc_style((FAMILY, 15))
            .label_style((FAMILY, 12))
            .draw()?;
        let cells = self
            .counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(k, &n)| {
                let (x, y) = ((k % columns) as f64, (k / columns) as f64);
                Rectangle::new(
                    [(x, y), (x + 1.0, y + 1.0)],
                    heat_colour(n as f64, max).filled(),
                )
            });
        chart.draw_series(cells)?;
        // A frame, so that the empty (white) bins at the edges still show
        // the extent of the binned range.
        chart.draw_series(std::iter::once(Rectangle::new(
            [(0.0, 0.0), (columns as f64, rows as f64)],
            BLACK.mix(0.35),
        )))?;

        // The colour bar: the scale from 0 to the fullest bin's count, with
        // that count as its top label.
        let mut bar = ChartBuilder::on(&bar_area)
            .margin_top(MARGIN)
            .margin_bottom(MARGIN + X_LABEL_AREA)
            .margin_left(4)
            .margin_right(8)
            .set_label_area_size(LabelAreaPosition::Right, 50)
            .build_cartesian_2d(0.0..1.0, TickedAxis::new(0.0..max, count_ticks(max)))?;
        bar.configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .y_desc("levels per bin")
            .axis_desc_style((FAMILY, 13))
            .label_style((FAMILY, 12))
            .draw()?;
        /// Steps of the colour bar's gradient.
        const STEPS: usize = 64;
        bar.draw_series((0..STEPS).map(|s| {
            let (low, high) = (
                max * s as f64 / STEPS as f64,
                max * (s + 1) as f64 / STEPS as f64,
            );
            let colour = heat_colour((low + high) / 2.0, max);
            Rectangle::new([(0.0, low), (1.0, high)], colour.filled())
        }))?;
        bar.draw_series(std::iter::once(Rectangle::new(
            [(0.0, 0.0), (1.0, max)],
            BLACK.mix(0.35),
        )))?;
        Ok(())
    }
}

/// Colour-bar ticks: 0, the largest count `max` (a whole number), and
/// whole quarters in between when they are distinct.
fn count_ticks(max: f64) -> Vec<(f64, String)> {
    let mut ticks: Vec<f64> = (0..=4).map(|q| (max * q as f64 / 4.0).round()).collect();
    ticks.dedup();
    ticks.into_iter().map(|n| (n, format!("{n}"))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Decodes a PNG and returns its width and height.
    fn png_size(png: &[u8]) -> (u32, u32) {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a buffer size")];
        let info = reader.next_frame(&mut pixels).expect("the PNG's pixels");
        (info.width, info.height)
    }

    /// How many `<rect>` elements of `colour` (as plotters writes it) the
    /// SVG has.
    fn rects_of(svg: &str, colour: RGBColor) -> usize {
        let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", colour.0, colour.1, colour.2);
        svg.lines()
            .filter(|line| line.trim_start().starts_with("<rect") && line.contains(&fill))
            .count()
    }

    #[test]
    fn integer_values_get_one_bin_each() {
        let bins = Bins::choose([3.0, 7.0, 5.0], 40).unwrap();
        assert_eq!(
            bins,
            Bins::PerInteger {
                first: 3.0,
                last: 7.0
            }
        );
        assert_eq!(bins.len(), 5);
        assert_eq!(bins.index(3.0), Some(0));
        assert_eq!(bins.index(7.0), Some(4));
        assert_eq!(bins.index(8.0), None);
        // Ticks sit on the bar centres, labelled with the integers.
        let ticks = bins.ticks(12);
        assert_eq!(ticks[0], (0.5, "3".to_owned()));
        assert_eq!(ticks.last().unwrap(), &(4.5, "7".to_owned()));
    }

    #[test]
    fn integer_bins_stop_at_the_limit() {
        // 0..=39 is 40 integers: one bin each; 0..=40 is 41: equal bins.
        let forty = Bins::choose((0..40).map(f64::from), 40).unwrap();
        assert_eq!(forty.len(), 40);
        let forty_one = Bins::choose((0..=40).map(f64::from), 40).unwrap();
        assert_eq!(
            forty_one,
            Bins::Equal {
                min: 0.0,
                max: 40.0,
                count: 20
            }
        );
        // Negative integers too.
        let negative = Bins::choose([-2.0, 2.0], 30).unwrap();
        assert_eq!(negative.len(), 5);
        assert_eq!(negative.index(-2.0), Some(0));
    }

    #[test]
    fn fractional_values_get_twenty_bins_with_the_max_in_the_last() {
        let bins = Bins::choose([0.0, 0.25, 0.5, 1.0], 40).unwrap();
        assert_eq!(
            bins,
            Bins::Equal {
                min: 0.0,
                max: 1.0,
                count: 20
            }
        );
        assert_eq!(bins.len(), 20);
        assert_eq!(bins.index(0.0), Some(0));
        assert_eq!(bins.index(0.049), Some(0));
        assert_eq!(bins.index(0.05), Some(1));
        assert_eq!(bins.index(1.0), Some(19));
        assert_eq!(bins.index(1.01), None);
        // Ticks at every fourth edge, 0 and the max included.
        let labels: Vec<String> = bins.ticks(12).into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["0", "0.20", "0.40", "0.60", "0.80", "1.00"]);
    }

    #[test]
    fn a_single_value_gets_one_bin() {
        let integer = Bins::choose([4.0, 4.0], 40).unwrap();
        assert_eq!(
            integer,
            Bins::PerInteger {
                first: 4.0,
                last: 4.0
            }
        );
        assert_eq!(integer.len(), 1);
        assert_eq!(integer.index(4.0), Some(0));
        let fraction = Bins::choose([0.3], 40).unwrap();
        assert_eq!(
            fraction,
            Bins::Equal {
                min: 0.3,
                max: 0.3,
                count: 1
            }
        );
        assert_eq!(fraction.index(0.3), Some(0));
        assert_eq!(fraction.ticks(12), [(0.5, "0.3".to_owned())]);
    }

    #[test]
    fn non_finite_values_are_ignored_and_none_give_no_bins() {
        assert_eq!(Bins::choose([], 40), None);
        assert_eq!(Bins::choose([f64::NAN, f64::INFINITY], 40), None);
        let bins = Bins::choose([1.0, f64::NAN, 2.0, f64::NEG_INFINITY], 40).unwrap();
        assert_eq!(
            bins,
            Bins::PerInteger {
                first: 1.0,
                last: 2.0
            }
        );
        assert_eq!(bins.index(f64::NAN), None);
    }

    #[test]
    fn the_widest_range_bins_without_overflow() {
        let bins = Bins::choose([-f64::MAX, f64::MAX], 40).unwrap();
        assert_eq!(bins.index(-f64::MAX), Some(0));
        assert_eq!(bins.index(0.0), Some(10));
        assert_eq!(bins.index(f64::MAX), Some(19));
        assert!(bins
            .ticks(12)
            .iter()
            .all(|(_, label)| !label.contains("inf")));
    }

    #[test]
    fn integer_ticks_use_round_steps() {
        let bins = Bins::choose([0.0, 39.0], 40).unwrap();
        let labels: Vec<String> = bins.ticks(12).into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["0", "5", "10", "15", "20", "25", "30", "35"]);
        let negative = Bins::choose([-3.0, 7.0], 40).unwrap();
        let labels: Vec<String> = negative.ticks(3).into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["0", "5"]);
        assert_eq!(round_step(0), 1);
        assert_eq!(round_step(3), 5);
        assert_eq!(round_step(11), 20);
    }

    #[test]
    fn histogram_svg_has_title_labels_and_one_rect_per_bar() {
        let counts = [(2.0, 10), (3.0, 0), (4.0, 30), (6.0, 5), (f64::NAN, 9)];
        let chart = histogram(
            "Rooms per level",
            "rooms",
            &[Distribution {
                name: "dungeon",
                counts: &counts,
            }],
        );
        assert!(chart.svg.contains("Rooms per level"));
        // plotters writes each text on a line of its own.
        assert!(chart.svg.contains("\nrooms\n</text>"));
        assert!(chart.svg.contains("\nshare of levels (%)\n</text>"));
        // 2, 4 and 6 have levels; 3 (count 0) and 5 (absent) do not.
        assert_eq!(rects_of(&chart.svg, SERIES_COLOURS[0]), 3);
        assert_eq!(png_size(&chart.png), HISTOGRAM_SIZE);
    }

    #[test]
    fn overlaid_histogram_has_a_legend() {
        let a = [(0.1, 3), (0.5, 4)];
        let b = [(0.2, 30), (0.9, 10)];
        let chart = histogram(
            "Linearity",
            "linearity",
            &[
                Distribution {
                    name: "caves",
                    counts: &a,
                },
                Distribution {
                    name: "towers",
                    counts: &b,
                },
            ],
        );
        assert!(chart.svg.contains("caves") && chart.svg.contains("towers"));
        // Two bars and a legend swatch each.
        assert_eq!(rects_of(&chart.svg, SERIES_COLOURS[0]), 3);
        assert_eq!(rects_of(&chart.svg, SERIES_COLOURS[1]), 3);
        assert_eq!(png_size(&chart.png), HISTOGRAM_SIZE);
    }

    #[test]
    fn empty_input_says_no_levels() {
        let charts = [
            histogram("Empty", "x", &[]),
            histogram(
                "Zeros",
                "x",
                &[Distribution {
                    name: "a",
                    counts: &[(1.0, 0)],
                }],
            ),
            heat_map("Empty map", "x", "y", &[]),
            heat_map("NaN map", "x", "y", &[((f64::NAN, 1.0), 4)]),
        ];
        for chart in &charts {
            assert!(chart.svg.contains("no levels"));
        }
        assert_eq!(png_size(&charts[0].png), HISTOGRAM_SIZE);
        assert_eq!(png_size(&charts[2].png), HEAT_MAP_SIZE);
    }

    #[test]
    fn heat_map_has_labels_a_cell_per_bin_and_the_max_count() {
        let cells = [
            ((1.0, 0.5), 3),
            ((1.0, 0.5), 4),
            ((2.0, 0.25), 1),
            ((3.0, 0.75), 0),
        ];
        let chart = heat_map("Leniency by rooms", "rooms", "leniency", &cells);
        assert!(chart.svg.contains("Leniency by rooms"));
        assert!(chart.svg.contains("rooms") && chart.svg.contains("leniency"));
        // The fullest bin (7 levels) is darkest; 7 tops the colour bar.
        assert_eq!(rects_of(&chart.svg, heat_colour(7.0, 7.0)), 1);
        assert!(chart.svg.contains("\n7\n</text>"));
        // One rect per non-empty bin: besides them only the background, the
        // frame, the colour bar's 64 steps and its frame.
        let rects = |svg: &str| svg.matches("<rect").count();
        assert_eq!(rects(&chart.svg), 2 + 1 + 1 + 64 + 1);
        let third = [((1.0, 0.5), 7), ((2.0, 0.25), 1), ((3.0, 0.75), 1)];
        assert_eq!(
            rects(&heat_map("t", "x", "y", &third).svg),
            3 + 1 + 1 + 64 + 1
        );
        assert_eq!(png_size(&chart.png), HEAT_MAP_SIZE);
    }

    #[test]
    fn heat_colours_run_from_white_to_dark() {
        assert_eq!(heat_colour(0.0, 10.0), WHITE);
        assert_eq!(heat_colour(10.0, 10.0), HEAT_COLOURS[7]);
        assert_eq!(heat_colour(f64::NAN, 10.0), WHITE);
        let light = heat_colour(1.0, 10.0);
        assert!(light.0 > HEAT_COLOURS[7].0 && light != WHITE);
    }

    #[test]
    fn charts_are_deterministic() {
        let counts = [(0.0, 5), (0.3, 2), (0.7, 9)];
        let series = [Distribution {
            name: "a",
            counts: &counts,
        }];
        let (h1, h2) = (histogram("t", "x", &series), histogram("t", "x", &series));
        assert_eq!(h1.svg, h2.svg);
        assert_eq!(h1.png, h2.png);
        let cells = [((0.0, 1.0), 5), ((0.5, 2.0), 2)];
        let (m1, m2) = (
            heat_map("t", "x", "y", &cells),
            heat_map("t", "x", "y", &cells),
        );
        assert_eq!(m1.svg, m2.svg);
        assert_eq!(m1.png, m2.png);
    }

    /// Writes sample charts to /tmp/plots-sample/ to look at:
    /// `cargo test -p levelgraph-cli plots -- --ignored`.
    #[test]
    #[ignore]
    fn write_samples() {
        let dir = std::path::Path::new("/tmp/plots-sample");
        std::fs::create_dir_all(dir).unwrap();
        let write = |name: &str, chart: Chart| {
            std::fs::write(dir.join(format!("{name}.png")), &chart.png).unwrap();
            std::fs::write(dir.join(format!("{name}.svg")), &chart.svg).unwrap();
        };
        // A few thousand levels' room counts, roughly bell-shaped.
        let rooms: Vec<(f64, u64)> = (4..=28)
            .map(|r| {
                (
                    f64::from(r),
                    (2000.0 * (-((f64::from(r) - 14.0) / 5.0).powi(2)).exp()) as u64,
                )
            })
            .collect();
        let rooms_b: Vec<(f64, u64)> = (8..=36)
            .map(|r| {
                (
                    f64::from(r),
                    (600.0 * (-((f64::from(r) - 22.0) / 4.0).powi(2)).exp()) as u64,
                )
            })
            .collect();
        write(
            "histogram_integers",
            histogram(
                "Rooms per level",
                "rooms",
                &[Distribution {
                    name: "dungeon.lg",
                    counts: &rooms,
                }],
            ),
        );
        write(
            "histogram_two_series",
            histogram(
                "Rooms per level",
                "rooms",
                &[
                    Distribution {
                        name: "dungeon.lg",
                        counts: &rooms,
                    },
                    Distribution {
                        name: "castle.lg",
                        counts: &rooms_b,
                    },
                ],
            ),
        );
        let linearity: Vec<(f64, u64)> = (0..200)
            .map(|i| {
                let v = f64::from(i) / 199.0 * 0.8 + 0.1;
                (v, (50.0 * (-((v - 0.45) / 0.15).powi(2)).exp()) as u64 + 1)
            })
            .collect();
        write(
            "histogram_floats",
            histogram(
                "Linearity",
                "linearity (0 = branching, 1 = a line)",
                &[Distribution {
                    name: "a",
                    counts: &linearity,
                }],
            ),
        );
        write(
            "histogram_single",
            histogram(
                "Keys per level",
                "keys",
                &[Distribution {
                    name: "a",
                    counts: &[(3.0, 500)],
                }],
            ),
        );
        write("histogram_empty", histogram("Keys per level", "keys", &[]));
        let mut cells = Vec::new();
        for rooms in 4..=28 {
            for i in 0..40 {
                let lin = f64::from(i) / 39.0;
                let r = f64::from(rooms);
                let d = ((r - 14.0) / 5.0).powi(2) + ((lin - 0.3 - r / 60.0) / 0.15).powi(2);
                let n = (300.0 * (-d).exp()) as u64;
                cells.push(((r, lin), n));
            }
        }
        write(
            "heat_map",
            heat_map("Rooms vs linearity", "rooms", "linearity", &cells),
        );
        let mut float_cells = Vec::new();
        for i in 0..100 {
            for j in 0..100 {
                let (x, y) = (f64::from(i) / 99.0, f64::from(j) / 99.0 * 3.0);
                let n =
                    (20.0 * (-((x - 0.6) / 0.2).powi(2) - ((y - 1.0) / 0.7).powi(2)).exp()) as u64;
                float_cells.push(((x, y), n));
            }
        }
        write(
            "heat_map_floats",
            heat_map(
                "Leniency vs path length",
                "leniency",
                "critical path / rooms",
                &float_cells,
            ),
        );
        write(
            "heat_map_single",
            heat_map("One cell", "rooms", "keys", &[((5.0, 2.0), 1)]),
        );
        write("heat_map_empty", heat_map("Nothing", "rooms", "keys", &[]));
    }

    /// Any finite or non-finite value, biased to the cases that matter.
    fn value() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => (-50i32..50).prop_map(f64::from),
            3 => -10.0..10.0f64,
            1 => proptest::num::f64::ANY,
        ]
    }

    /// Any count: mostly small, sometimes zero or huge.
    fn count() -> impl Strategy<Value = u64> {
        prop_oneof![3 => 0u64..1000, 1 => Just(0u64), 1 => any::<u64>()]
    }

    proptest! {
        // Each case draws two PNGs (a few ms each in a debug build).
        #![proptest_config(ProptestConfig::with_cases(40))]

        #[test]
        fn random_histograms_never_panic(
            series in proptest::collection::vec(
                proptest::collection::vec((value(), count()), 0..30), 0..4),
        ) {
            let names = ["a", "b", "c", "d"];
            let distributions: Vec<Distribution<'_>> = series
                .iter()
                .zip(names)
                .map(|(counts, name)| Distribution { name, counts })
                .collect();
            let chart = histogram("random", "value", &distributions);
            prop_assert!(chart.svg.starts_with("<svg"));
            // Drawn, not the fallback for a drawing error.
            prop_assert!(!chart.svg.contains("could not be drawn"));
            prop_assert_eq!(png_size(&chart.png), HISTOGRAM_SIZE);
        }

        #[test]
        fn random_heat_maps_never_panic(
            cells in proptest::collection::vec(((value(), value()), count()), 0..60),
        ) {
            let chart = heat_map("random", "x", "y", &cells);
            prop_assert!(chart.svg.starts_with("<svg"));
            // Drawn, not the fallback for a drawing error.
            prop_assert!(!chart.svg.contains("could not be drawn"));
            prop_assert_eq!(png_size(&chart.png), HEAT_MAP_SIZE);
        }
    }
}
