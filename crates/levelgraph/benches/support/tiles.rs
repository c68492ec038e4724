//! Shared by the `tiles` harness and, by path, `bench/peers`'s comparison
//! with mapgen: the accretion runs both make at a size, how a table row
//! names them, and numbers with thousands separators. One definition, so
//! the two tables of BENCHMARKS.md "Tile maps" describe the same runs.

use levelgraph::tiles::accretion::AccretionParams;

/// Accretion's steps at a size: 1,000 at 80 × 50 (the default), scaled
/// with the area (`w × h` cells).
pub(crate) fn accretion_steps(w: u32, h: u32) -> u32 {
    (1_000 * u64::from(w) * u64::from(h) / (80 * 50)) as u32
}

/// Accretion's defaults at `w × h` cells with `steps` steps.
pub(crate) fn accretion_params(w: u32, h: u32, steps: u32) -> AccretionParams {
    AccretionParams {
        width: w,
        height: h,
        steps,
        ..AccretionParams::default()
    }
}

/// The parameters column of an accretion row.
pub(crate) fn describe_accretion(p: &AccretionParams) -> String {
    format!(
        "steps {}, rooms {}..={} × {}..={}, corridors {}..={}, room chance {}, connect {}",
        fmt_int(u64::from(p.steps)),
        p.min_room_width,
        p.max_room_width,
        p.min_room_height,
        p.max_room_height,
        p.min_corridor_length,
        p.max_corridor_length,
        p.room_chance,
        p.connect_distance
    )
}

/// An integer with thousands separators: `10000` is `10,000`.
pub(crate) fn fmt_int(n: u64) -> String {
    let digits = n.to_string();
    let groups: Vec<&str> = digits
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|g| std::str::from_utf8(g).expect("ASCII digits"))
        .collect();
    groups.join(",")
}
