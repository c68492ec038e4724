//! The limits and tuning of a layout run ([`LayoutSettings`]) and what a
//! successful run reports ([`LayoutStats`]).

use std::time::Duration;

/// Limits and tuning of one layout run.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutSettings {
    /// Most perturbations (simulated annealing trials, greedy placements
    /// and the candidates and cuts of an exact fill, see
    /// [`LayoutSettings::exact_detours`], count one each) over the whole
    /// run; Edgar's benchmark protocol uses 1,000,000.
    pub max_iterations: u64,
    /// Wall-clock limit of [`Prepared::run`](super::Prepared::run), if any (breaks determinism
    /// only when it stops a run). Checked every 1,024 iterations, so a run
    /// can overshoot it by that many; building the configuration spaces
    /// ([`Prepared::new`](super::Prepared::new)) is not covered: the work
    /// budget, [`LayoutSettings::max_work`], is.
    pub time_limit: Option<Duration>,
    /// Most work units over the whole layout, building the configuration
    /// spaces ([`Prepared::within`](super::Prepared::within)) and the run
    /// together: a deterministic bound on its time, whatever the size of
    /// its rooms and templates, where `max_iterations` bounds only the
    /// count of steps, each of which costs more the more rooms and corners
    /// there are. A unit is one pair of rectangles of two shapes compared
    /// (shapes are cut into rectangles, about half as many as their
    /// corners) or one box of a configuration space looked at (copied,
    /// intersected, cut, or a row of a corridor space), and a step of the
    /// plane sweep that builds the spaces of large shapes is four: about a
    /// nanosecond each where rooms are large, up to 15 ns where the rest
    /// of an iteration, not counted, outweighs them (EPYC, BENCHMARKS.md).
    /// Building stops before a pair's space whose units would go beyond it
    /// ([`LayoutError::Preparation`](super::LayoutError::Preparation));
    /// the run stops at the next iteration after its units go beyond it
    /// ([`LimitKind::MaxWork`](super::LimitKind::MaxWork)). Default
    /// [`LayoutSettings::DEFAULT_MAX_WORK`]; the largest layouts of the
    /// tests and benchmarks use far less (BENCHMARKS.md).
    pub max_work: u64,
    /// Annealing cycles per chain (the temperature falls each cycle).
    pub cycles: u32,
    /// Trials per cycle.
    pub trials_per_cycle: u32,
    /// Most valid extensions kept per chain (something to backtrack to).
    pub layouts_per_chain: usize,
    /// Chance that a perturbation changes a room's shape rather than its
    /// position.
    pub shape_change: f64,
    /// Once a chain has one valid extension, stop its annealing after this
    /// many trials in a row find no new one (Edgar's "iterations without
    /// success"): searching on costs more than backtracking does.
    pub trials_without_new: u32,
    /// Start again from nothing after this many failed chains since the
    /// last start, even with layouts left on the stack (0: only when the
    /// stack runs empty, as in Ma et al. 2014). The count allowed grows by half
    /// at each such restart, so a level that needs a long search still
    /// gets one. Not in Ma et al. 2014: on a level of many chains, an early
    /// chain can box in a room that only a much later chain needs, and the
    /// depth-first stack then retries every kept layout of the chains in
    /// between before it gets back there (a 200-room level of
    /// `tests/data/undirected-dungeon-rooms.lg` made 492 backtracks without ever
    /// reaching chain 14 again).
    pub backtracks_per_start: u32,
    /// Chance that a new position of a room (greedy placement or
    /// annealing) is an end of a segment of the intersection of its placed
    /// neighbours' configuration spaces, rather than a uniform point of it.
    /// The ends of a door-to-door segment are where the two rooms share the
    /// least wall, which leaves the corners beside their common wall free
    /// for other rooms: the only layout known of seed 92's level of
    /// `tests/data/undirected-dungeon-rooms.lg` has two rooms that meet at a corner, a
    /// pair of rooms in one inner corner and a loop of three around it. Not
    /// in Ma et al. 2014. Default 0.75, which measured best (BENCHMARKS.md:
    /// 14–35 % fewer iterations on Edgar's example2 maps, more hard levels
    /// laid out); 0 gives the uniform sampling of Ma et al. and draws no extra
    /// random numbers.
    pub contact_bias: f64,
    /// Lay out a chain that is a bare detour of one or two rooms (every
    /// neighbour of its rooms is placed already or in the chain, and one
    /// of them is placed) by exact enumeration instead of annealing: every
    /// shape and every position of the first room in the intersection of
    /// its placed neighbours' configuration spaces, and for each valid one
    /// the same for the second room (against its placed neighbours and the
    /// first room), keeping the first valid extension found. Positions
    /// that overlap a placed room are cut from the space as whole runs
    /// before the exact tests. Iterations: one per cut (a box of the space
    /// cut by a rectangle pair) and one per remaining candidate position
    /// tested. An empty result is then a proof that the partial layout
    /// cannot take the chain (not for a chain that wraps, whose fill is
    /// capped, see [`LayoutSettings::compact_detours`]), so the search
    /// backtracks at once instead of after a full annealing schedule. Not in Ma et al. 2014. Default on: the
    /// level of seed 92 of `tests/data/undirected-dungeon-rooms.lg` is laid out by 46 %
    /// of 300 layout seeds instead of 13 % of 100, Edgar's maps are
    /// unchanged (BENCHMARKS.md). The bare detour of a door with three
    /// detours may also carry the few dead-end rooms that hang off it
    /// (pendant rooms, see [`LayoutSettings::compact_detours`]): they are
    /// filled after its one or two rooms, in the same enumeration.
    pub exact_detours: bool,
    /// With [`LayoutSettings::exact_detours`]: a bare detour of a door
    /// whose rooms are also joined by three other room-disjoint paths is
    /// not given the first placement the exact fill finds but the most
    /// compact one, the smallest box around its rooms and their
    /// neighbours (best first, with branch and bound, over the same
    /// enumeration). One of the three paths is shut in by the others in
    /// any layout; a bare detour tucked into the corner beside the door
    /// leaves the walls beyond it free for the path that must wrap around
    /// it. Not in Ma et al. 2014. Default on: levels 157 and 401 of
    /// `tests/data/undirected-dungeon-rooms.lg` are laid out by 100 and 98 of 100
    /// layout seeds instead of 60 and 63 with the first placement found
    /// (BENCHMARKS.md); Edgar's maps have no such door and are unchanged.
    /// A detour counts as bare here when its rooms have two neighbours
    /// each once the dead ends hanging off the level's cycles are left
    /// out, with at most three such rooms hanging off it; those rooms then
    /// join its chain, so that the corner it is tucked into keeps room for
    /// them (grown level 283 of `tests/data/undirected-dungeon-rooms.lg` at 60 rooms: 0
    /// → 23 of 30 layout seeds; 200 rooms, level 23: failed → laid out).
    /// When the path that closes around the door last is itself a detour
    /// of up to three rooms (dead ends aside), the bare detour is laid out
    /// before it, as soon as the door's rooms are placed (the chain order
    /// does this whatever the settings), and with this setting that
    /// detour is then filled by the same enumeration around it (the first
    /// placement found, its dead ends left to later chains; the fill
    /// stops after `cycles × trials_per_cycle` iterations, what annealing
    /// the chain would get, and then counts as failed): annealed first, it
    /// left a pocket the bare detour fits only about once in a thousand
    /// placements (level 872: 9 → 20 of 20 layout seeds; levels 1670,
    /// 2791, 2796 and 2880 45–80 % → 100 %, 1399 and 2674 95 / 70 % → 100
    /// %; level 92 37 → 40 of 40).
    pub compact_detours: bool,
}

impl LayoutSettings {
    /// The default [`LayoutSettings::max_work`]: 10¹⁰ units, what a failed
    /// run on a 400-room level of `examples/dungeon-rooms.lg` does in about
    /// 20,000,000 iterations (4.4 · 10⁸ in the default 1,000,000;
    /// BENCHMARKS.md), so that the iterations stop runs of small rooms
    /// first: 10 s of work on large rooms (four 302-corner staircases),
    /// about two minutes on small ones, on the EPYC of BENCHMARKS.md.
    pub const DEFAULT_MAX_WORK: u64 = 10_000_000_000;
}

impl Default for LayoutSettings {
    fn default() -> Self {
        Self {
            max_iterations: 1_000_000,
            time_limit: None,
            max_work: Self::DEFAULT_MAX_WORK,
            cycles: 50,
            trials_per_cycle: 25,
            layouts_per_chain: 4,
            shape_change: 0.4,
            trials_without_new: 100,
            backtracks_per_start: 100,
            contact_bias: 0.75,
            exact_detours: true,
            compact_detours: true,
        }
    }
}

/// What a successful run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutStats {
    /// Perturbations made.
    pub iterations: u64,
    /// Times a chain could not be added and the search went back.
    pub backtracks: u64,
    /// Times the search started again from nothing: the stack ran empty,
    /// or [`LayoutSettings::backtracks_per_start`] chains failed since the
    /// last start.
    pub restarts: u64,
    /// Chains in the decomposition.
    pub chains: usize,
    /// Distinct shapes (template × transform) in play.
    pub shapes: usize,
    /// Work units done, building the configuration spaces included (see
    /// [`LayoutSettings::max_work`]).
    pub work: u64,
}
