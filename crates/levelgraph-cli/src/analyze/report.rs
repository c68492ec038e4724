//! The pictures and `report.html` of an analysis: a histogram per metric,
//! heat maps of metric pairs (Smith & Whitehead 2010), a contact sheet of
//! sampled levels, and the summary — all files in the output folder, the
//! page reading them by relative name, so it works offline.

use std::cell::{OnceCell, RefCell};
use std::fmt::Write as _;
use std::path::Path;

use levelgraph::drawing::{draw, ForceConfig};
use levelgraph::expressive::{Batch, Metric, Record, Summary, Tally, HEAT_MAP_PAIRS};
use levelgraph::formats::{write_layout_svg, write_svg_numbered};
use levelgraph::grammar::CompiledGrammar;

use super::plots::{self, Chart, Distribution};
use super::runinfo::RunInfo;
use crate::output::OutFile;

/// A sampled level's pictures for the contact sheet.
#[derive(Clone, Debug)]
pub(crate) struct Picture {
    pub(crate) seed: u64,
    /// What the level is, in a line.
    pub(crate) caption: String,
    /// The mission graph (or a placeholder saying why there is none).
    pub(crate) mission: String,
    /// The room layout, when the run laid levels out.
    pub(crate) layout: Option<String>,
}

/// The caption of a sampled level.
fn caption(record: &Record) -> String {
    let mut text = format!("seed {} · {}", record.seed, record.status.name());
    if !record.why.is_empty() {
        let _ = write!(text, " ({})", record.why);
    }
    for (m, word) in [
        (Metric::Rooms, "rooms"),
        (Metric::Cycles, "cycles"),
        (Metric::Keys, "keys"),
    ] {
        if let Some(x) = record.get(m) {
            let _ = write!(text, " · {x} {word}");
        }
    }
    text
}

/// A small SVG standing in for a level with no picture.
fn placeholder(text: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"120\" viewBox=\"0 0 320 120\"><rect width=\"320\" height=\"120\" fill=\"#f5f5f5\" stroke=\"#bdbdbd\"/><text x=\"160\" y=\"64\" font-family=\"sans-serif\" font-size=\"13\" text-anchor=\"middle\" fill=\"#616161\">{}</text></svg>\n",
        escape(text)
    )
}

/// Draws the levels of `seeds` (their records in `records`) as the batch
/// makes them.
pub(crate) fn draw_sample(
    batch: &Batch<'_>,
    grammar: &CompiledGrammar,
    records: &[Record],
    layout: bool,
) -> Vec<Picture> {
    use rayon::prelude::*;
    let alphabet = grammar.alphabet();
    records
        .par_iter()
        .map(|record| {
            let seed = record.seed;
            let level = batch.level(seed);
            let (mission, laid_out) = match &level {
                Ok(level) => {
                    let graph = &level.derivation.graph;
                    let positions = if grammar.model().geometry.is_some() {
                        let mut p = vec![None; graph.vertex_bound()];
                        for (v, x) in graph.vertices() {
                            p[v.index()] = x.position;
                        }
                        p
                    } else {
                        draw(graph, &ForceConfig::for_picture(seed)).positions
                    };
                    let title = format!("{} — seed {seed}", grammar.name());
                    let entered = crate::entered(level.play.as_ref());
                    let mut svg = Vec::new();
                    let _ = write_svg_numbered(
                        &mut svg, graph, &positions, &alphabet, &title, &entered,
                    );
                    let laid_out = level.layout.as_ref().map(|(problem, l)| {
                        let mut svg = Vec::new();
                        let _ = write_layout_svg(&mut svg, problem, l, &alphabet, &title);
                        String::from_utf8_lossy(&svg).into_owned()
                    });
                    (String::from_utf8_lossy(&svg).into_owned(), laid_out)
                }
                Err(_) => (placeholder(&format!("seed {seed}: {}", record.why)), None),
            };
            let layout = layout.then(|| laid_out.unwrap_or_else(|| placeholder("not laid out")));
            Picture {
                seed,
                caption: caption(record),
                mission,
                layout,
            }
        })
        .collect()
}

/// The sample pictures a run's folder holds, for the seeds of `sample`
/// whose record is in `records` (a shard holds its slice's).
pub(crate) fn read_sample_pictures(
    dir: &Path,
    sample: &[u64],
    records: &[Record],
    layout: bool,
) -> Result<Vec<Picture>, String> {
    let mut pictures = Vec::new();
    for &seed in sample {
        let Ok(at) = records.binary_search_by_key(&seed, |r| r.seed) else {
            continue;
        };
        let read = |name: String| {
            let path = dir.join(&name);
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
        };
        pictures.push(Picture {
            seed,
            caption: caption(&records[at]),
            mission: read(format!("level-{seed}.svg"))?,
            layout: if layout {
                Some(read(format!("level-{seed}-layout.svg"))?)
            } else {
                None
            },
        });
    }
    Ok(pictures)
}

/// The file name of a metric's histogram, without extension.
fn histogram_name(m: Metric) -> String {
    format!("plot-{}", m.name())
}

/// The file name of a pair's heat map, without extension.
fn heat_map_name(prefix: &str, (x, y): (Metric, Metric)) -> String {
    format!("{prefix}heat-{}-{}", x.name(), y.name())
}

/// The heat-map pairs among `columns`.
fn pairs(columns: &[Metric]) -> Vec<(Metric, Metric)> {
    HEAT_MAP_PAIRS
        .into_iter()
        .filter(|(x, y)| columns.contains(x) && columns.contains(y))
        .collect()
}

/// The report of one run (or of merged shards).
pub(crate) struct Report<'a> {
    info: &'a RunInfo,
    columns: &'a [Metric],
}

/// Charts made once, on first use: each gives two files.
pub(crate) type Charts = OnceCell<Vec<(String, Chart)>>;

impl<'a> Report<'a> {
    pub(crate) fn single(info: &'a RunInfo, columns: &'a [Metric]) -> Self {
        Report { info, columns }
    }

    /// The report's files: charts (SVG and PNG), the sample's pictures and
    /// `report.html`. They are made when written, after the tally and
    /// pictures are filled (the run writes `levels.csv` first).
    pub(crate) fn files(
        self,
        tally: &'a RefCell<Tally>,
        pictures: &'a RefCell<Vec<Picture>>,
        charts: &'a Charts,
    ) -> Vec<OutFile<'a>> {
        let columns = self.columns;
        let make = move || -> &'a Vec<(String, Chart)> {
            charts.get_or_init(|| single_charts(&tally.borrow(), columns))
        };
        let mut files = Vec::new();
        let mut names: Vec<String> = columns.iter().map(|&m| histogram_name(m)).collect();
        names.extend(pairs(columns).into_iter().map(|p| heat_map_name("", p)));
        for (i, name) in names.into_iter().enumerate() {
            files.push(OutFile::streamed(format!("{name}.svg"), move |w| {
                w.write_all(make()[i].1.svg.as_bytes())
            }));
            files.push(OutFile::streamed(format!("{name}.png"), move |w| {
                w.write_all(&make()[i].1.png)
            }));
        }
        let layout = self.info.stages.iter().any(|s| s == "layout");
        let mine: Vec<u64> = self
            .info
            .sample
            .iter()
            .copied()
            .filter(|&s| self.info.slice.is_some_and(|r| r.first <= s && s <= r.last))
            .collect();
        for (i, &seed) in mine.iter().enumerate() {
            files.push(OutFile::streamed(format!("level-{seed}.svg"), move |w| {
                w.write_all(pictures.borrow()[i].mission.as_bytes())
            }));
            if layout {
                files.push(OutFile::streamed(
                    format!("level-{seed}-layout.svg"),
                    move |w| {
                        let p = pictures.borrow();
                        w.write_all(p[i].layout.as_deref().unwrap_or_default().as_bytes())
                    },
                ));
            }
        }
        let info = self.info;
        files.push(OutFile::streamed("report.html", move |w| {
            let tally = tally.borrow();
            let page = single_page(info, columns, &tally, &pictures.borrow());
            w.write_all(page.as_bytes())
        }));
        files
    }
}

/// Every chart of one run, in the order of [`Report::files`]' names.
fn single_charts(tally: &Tally, columns: &[Metric]) -> Vec<(String, Chart)> {
    let mut charts = Vec::new();
    for &m in columns {
        let counts = tally.distribution(m);
        let series = [Distribution {
            name: "levels",
            counts: &counts,
        }];
        charts.push((
            histogram_name(m),
            plots::histogram(m.label(), m.label(), &series),
        ));
    }
    for p @ (x, y) in pairs(columns) {
        let cells = tally.joint(x, y);
        let title = format!("{} × {}", x.label(), y.label());
        charts.push((
            heat_map_name("", p),
            plots::heat_map(&title, x.label(), y.label(), &cells),
        ));
    }
    charts
}

/// Escapes text for HTML and SVG.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1400px;padding:0 1em;color:#212121}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:1em 0}td,th{padding:.25em .7em;border-bottom:1px solid #eee;text-align:right}
th:first-child,td:first-child{text-align:left}
.grid{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0;border:1px solid #e0e0e0;padding:.5em;background:#fff}
figcaption{font-size:.85em;color:#555;max-width:640px}img{display:block}
.sheet img{width:320px;height:auto}.note{color:#666;font-size:.9em}";

/// Counts the images the browser could draw (for the report's test, and
/// a reader's sanity): `data-loaded` and `data-images` on `<body>`.
const SCRIPT: &str = "window.addEventListener('load',function(){var i=document.images,n=0;for(var k=0;k<i.length;k++){if(i[k].complete&&i[k].naturalWidth>0)n++;}document.body.dataset.images=i.length;document.body.dataset.loaded=n;});";

fn page_start(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title><style>{STYLE}</style><script>{SCRIPT}</script></head><body>\n<h1>{t}</h1>\n",
        t = escape(title)
    )
}

fn page_end(columns: &[Metric]) -> String {
    let mut html = String::from(
        "<h2>What each metric is</h2>\n<table><tr><th>metric</th><th>definition</th></tr>\n",
    );
    for m in columns {
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td style=\"text-align:left\">{}</td></tr>",
            m.name(),
            escape(m.about())
        );
    }
    html.push_str("</table>\n<p class=\"note\">Expressive-range analysis after Smith &amp; Whitehead, “Analyzing the Expressive Range of a Level Generator” (PCG workshop, 2010). Distinct levels are counted by canonical form (McKay &amp; Piperno 2014). Quartiles interpolate between order statistics (Hyndman &amp; Fan type 7). Made by levelgraph analyze.</p>\n</body></html>\n");
    html
}

fn share(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

/// The summary table rows of one run.
fn summary_rows(s: &Summary) -> Vec<(String, String)> {
    let mut rows = vec![
        ("seeds".to_owned(), s.seeds.to_string()),
        (
            "levels derived".to_owned(),
            format!("{} ({})", s.derived, share(s.derived_share)),
        ),
        (
            "completable".to_owned(),
            format!("{} ({})", s.completable, share(s.completable_share)),
        ),
        ("distinct levels".to_owned(), s.distinct_levels.to_string()),
    ];
    for (status, n) in &s.status {
        if *n > 0 && status != "completable" {
            rows.push((status.clone(), n.to_string()));
        }
    }
    for (why, n) in &s.failures {
        rows.push((format!("failed: {why}"), n.to_string()));
    }
    for (why, n) in &s.unfinishable {
        rows.push((format!("unfinishable: {why}"), n.to_string()));
    }
    if s.unhashed > 0 {
        rows.push((
            "levels without a canonical hash (labelling limit)".to_owned(),
            s.unhashed.to_string(),
        ));
    }
    rows
}

fn metric_table(html: &mut String, columns: &[Metric], summaries: &[(&str, &Summary)]) {
    html.push_str("<table><tr><th>metric</th>");
    for (name, _) in summaries {
        let _ = write!(html, "<th colspan=\"7\">{}</th>", escape(name));
    }
    html.push_str("</tr><tr><th></th>");
    for _ in summaries {
        html.push_str("<th>levels</th><th>min</th><th>q1</th><th>median</th><th>q3</th><th>max</th><th>mean</th>");
    }
    html.push_str("</tr>\n");
    for m in columns {
        let _ = write!(
            html,
            "<tr><td title=\"{}\">{}</td>",
            escape(m.about()),
            m.name()
        );
        for (_, s) in summaries {
            match s.metrics.get(m.name()) {
                Some(x) => {
                    let _ = write!(
                        html,
                        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                        x.levels, x.min, x.q1, x.median, x.q3, x.max, x.mean
                    );
                }
                None => html.push_str("<td>0</td><td colspan=\"6\">—</td>"),
            }
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</table>\n");
}

fn figure(html: &mut String, file: &str, caption: &str) {
    let _ = writeln!(
        html,
        "<figure><img src=\"{f}\" alt=\"{c}\"><figcaption>{c} (<a href=\"{f}\">SVG</a>, <a href=\"{png}\">PNG</a>)</figcaption></figure>",
        f = escape(file),
        png = escape(&file.replace(".svg", ".png")),
        c = escape(caption)
    );
}

fn contact_sheet(html: &mut String, prefix: &str, pictures: &[Picture]) {
    html.push_str("<div class=\"grid sheet\">\n");
    for p in pictures {
        let _ = write!(
            html,
            "<figure><a href=\"{pre}level-{s}.svg\"><img src=\"{pre}level-{s}.svg\" alt=\"level of seed {s}\"></a>",
            pre = prefix,
            s = p.seed
        );
        if p.layout.is_some() {
            let _ = write!(
                html,
                "<a href=\"{pre}level-{s}-layout.svg\"><img src=\"{pre}level-{s}-layout.svg\" alt=\"layout of seed {s}\"></a>",
                pre = prefix,
                s = p.seed
            );
        }
        let _ = writeln!(
            html,
            "<figcaption>{}</figcaption></figure>",
            escape(&p.caption)
        );
    }
    html.push_str("</div>\n");
}

fn run_line(info: &RunInfo) -> String {
    let mut text = format!(
        "Seeds {}..{} ({}), one derivation each, no retries; measured: {}",
        info.seeds.first,
        info.seeds.last,
        info.seeds.len(),
        info.stages.join(", ")
    );
    if let Some(shard) = info.shard {
        let _ = write!(text, "; shard {}/{} only", shard.index, shard.count);
    }
    if !info.limits.is_empty() {
        let _ = write!(text, "; limits: {}", info.limits.join(", "));
    }
    text
}

fn single_page(info: &RunInfo, columns: &[Metric], tally: &Tally, pictures: &[Picture]) -> String {
    let summary = tally.summary(columns);
    let mut html = page_start(&format!("Expressive range of {}", info.grammar));
    let _ = writeln!(html, "<p>{}.</p>", escape(&run_line(info)));
    html.push_str("<h2>Summary</h2>\n<table>\n");
    for (k, v) in summary_rows(&summary) {
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td></tr>",
            escape(&k),
            escape(&v)
        );
    }
    html.push_str("</table>\n<h2>Metrics</h2>\n");
    metric_table(&mut html, columns, &[("all levels", &summary)]);
    html.push_str("<h2>Heat maps</h2>\n<p class=\"note\">Levels per pair of values, in the style of Smith &amp; Whitehead's expressive-range plots: where the grammar's levels fall, and where it never goes.</p>\n<div class=\"grid\">\n");
    for p @ (x, y) in pairs(columns) {
        figure(
            &mut html,
            &format!("{}.svg", heat_map_name("", p)),
            &format!("{} × {}", x.label(), y.label()),
        );
    }
    html.push_str("</div>\n<h2>Histograms</h2>\n<div class=\"grid\">\n");
    for &m in columns {
        figure(&mut html, &format!("{}.svg", histogram_name(m)), m.label());
    }
    html.push_str("</div>\n<h2>Sampled levels</h2>\n");
    contact_sheet(&mut html, "", pictures);
    html.push_str(&page_end(columns));
    html
}

/// One side of a comparison: what ran, its columns, its tally, its
/// sample's pictures.
pub(crate) type Side = (RunInfo, Vec<Metric>, Tally, Vec<Picture>);

/// The files of a comparison of two runs: overlaid histograms, each run's
/// heat maps, both contact sheets (pictures copied under `a-`/`b-`) and
/// `report.html`.
pub(crate) fn comparison_files<'a>(names: &'a [String], sides: &'a [Side]) -> Vec<OutFile<'a>> {
    let prefixes = ["a-", "b-"];
    // The metrics both runs measured, in column order.
    let columns: Vec<Metric> = sides[0]
        .1
        .iter()
        .copied()
        .filter(|m| sides[1].1.contains(m))
        .collect();
    let mut files = Vec::new();
    for &m in &columns {
        let dists: Vec<Vec<(f64, u64)>> = sides.iter().map(|s| s.2.distribution(m)).collect();
        let series: Vec<Distribution<'_>> = names
            .iter()
            .zip(&dists)
            .map(|(name, counts)| Distribution { name, counts })
            .collect();
        let chart = plots::histogram(m.label(), m.label(), &series);
        let name = histogram_name(m);
        files.push(OutFile::bytes(format!("{name}.svg"), chart.svg));
        files.push(OutFile::bytes(format!("{name}.png"), chart.png));
    }
    for (side, prefix) in sides.iter().zip(prefixes) {
        for p @ (x, y) in pairs(&side.1) {
            let title = format!("{} × {}", x.label(), y.label());
            let chart = plots::heat_map(&title, x.label(), y.label(), &side.2.joint(x, y));
            let name = heat_map_name(prefix, p);
            files.push(OutFile::bytes(format!("{name}.svg"), chart.svg));
            files.push(OutFile::bytes(format!("{name}.png"), chart.png));
        }
        for pic in &side.3 {
            files.push(OutFile::bytes(
                format!("{prefix}level-{}.svg", pic.seed),
                pic.mission.as_bytes(),
            ));
            if let Some(layout) = &pic.layout {
                files.push(OutFile::bytes(
                    format!("{prefix}level-{}-layout.svg", pic.seed),
                    layout.as_bytes(),
                ));
            }
        }
    }
    let summaries: Vec<Summary> = sides.iter().map(|s| s.2.summary(&columns)).collect();
    let mut html = page_start(&format!("Expressive range: {} and {}", names[0], names[1]));
    html.push_str("<h2>Summary</h2>\n<table><tr><th></th>");
    for name in names {
        let _ = write!(html, "<th>{}</th>", escape(name));
    }
    html.push_str("</tr>\n");
    let _ = write!(html, "<tr><td>run</td>");
    for side in sides {
        let _ = write!(
            html,
            "<td style=\"text-align:left\">{}</td>",
            escape(&run_line(&side.0))
        );
    }
    html.push_str("</tr>\n");
    let rows: Vec<Vec<(String, String)>> = summaries.iter().map(summary_rows).collect();
    let mut keys: Vec<String> = Vec::new();
    for r in &rows {
        for (k, _) in r {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
    }
    for k in &keys {
        let _ = write!(html, "<tr><td>{}</td>", escape(k));
        for r in &rows {
            let v = r
                .iter()
                .find(|(key, _)| key == k)
                .map_or("0", |(_, v)| v.as_str());
            let _ = write!(html, "<td>{}</td>", escape(v));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</table>\n<h2>Metrics</h2>\n");
    let pairs_of: Vec<(&str, &Summary)> =
        names.iter().map(String::as_str).zip(&summaries).collect();
    metric_table(&mut html, &columns, &pairs_of);
    html.push_str("<h2>Histograms, overlaid</h2>\n<p class=\"note\">Share of each run's levels per value.</p>\n<div class=\"grid\">\n");
    for &m in &columns {
        figure(&mut html, &format!("{}.svg", histogram_name(m)), m.label());
    }
    html.push_str("</div>\n");
    for ((side, prefix), name) in sides.iter().zip(prefixes).zip(names) {
        let _ = writeln!(
            html,
            "<h2>Heat maps: {}</h2>\n<div class=\"grid\">",
            escape(name)
        );
        for p @ (x, y) in pairs(&side.1) {
            figure(
                &mut html,
                &format!("{}.svg", heat_map_name(prefix, p)),
                &format!("{} × {}", x.label(), y.label()),
            );
        }
        html.push_str("</div>\n");
    }
    for ((side, prefix), name) in sides.iter().zip(prefixes).zip(names) {
        let _ = writeln!(html, "<h2>Sampled levels: {}</h2>", escape(name));
        contact_sheet(&mut html, prefix, &side.3);
    }
    html.push_str(&page_end(&columns));
    files.push(OutFile::bytes("report.html", html));
    files
}
