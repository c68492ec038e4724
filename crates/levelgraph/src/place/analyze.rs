//! What can and cannot be where: every (content, place) pair classified as
//! possible, impossible or necessary over all valid placements.
//!
//! The loop of the possibility analysis for pattern puzzles (every state
//! starts not found; each model found marks at once every literal true in
//! it; each literal still not found is decided by one call under its
//! assumption, and a model found on the way marks more), run for both
//! polarities of every placement variable: `x` possible means some valid
//! placement puts the content there, `¬x` possible means some does not.

use serde::Serialize;

use super::problem::Problem;
use super::solve::Session;
use super::PlaceError;

/// Whether a content can be in a place, over all valid placements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// No valid placement puts it there.
    Impossible,
    /// Some valid placements put it there and some do not.
    Possible,
    /// Every valid placement puts it there.
    Necessary,
}

impl Status {
    /// The word tables print: `impossible`, `possible`, `necessary`.
    pub fn word(self) -> &'static str {
        match self {
            Status::Impossible => "impossible",
            Status::Possible => "possible",
            Status::Necessary => "necessary",
        }
    }
}

/// The classification of every (content, place) pair of a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Per content, per place.
    pub status: Vec<Vec<Status>>,
    /// Solver calls made.
    pub solver_calls: u64,
    /// The calls of the naive method: one per (content, candidate place)
    /// and polarity.
    pub naive_calls: u64,
}

/// Classifies every (content, place) pair of `problem`. Places outside a
/// content's candidates (`in`) are impossible without a call.
///
/// # Errors
/// [`PlaceError::NoPlacement`] when no placement exists, with the rules in
/// conflict.
pub fn analyze(problem: &Problem) -> Result<Analysis, PlaceError> {
    let mut session = Session::new(problem);
    let n = problem.place_count();
    // Per placement variable of a candidate: (content, place); and
    // whether it was seen true / false in some model.
    let pairs: Vec<(usize, u32)> = problem
        .contents
        .iter()
        .enumerate()
        .flat_map(|(c, content)| content.candidates.iter().map(move |&p| (c, p)))
        .collect();
    let mut seen_true = vec![false; pairs.len()];
    let mut seen_false = vec![false; pairs.len()];
    let mut true_impossible = vec![false; pairs.len()];
    let mut false_impossible = vec![false; pairs.len()];
    let mark = |session: &Session, seen_true: &mut [bool], seen_false: &mut [bool]| {
        for (i, &(c, p)) in pairs.iter().enumerate() {
            if session.value(session.enc.x[c][p as usize]) {
                seen_true[i] = true;
            } else {
                seen_false[i] = true;
            }
        }
    };
    if !session.solve(&[]) {
        let mut placer = super::Placer::new(problem, 0);
        return Err(placer
            .next_placement()
            .expect_err("the same encoding is unsatisfiable"));
    }
    mark(&session, &mut seen_true, &mut seen_false);
    for i in 0..pairs.len() {
        let (c, p) = pairs[i];
        let x = session.enc.x[c][p as usize];
        if !seen_true[i] {
            if session.solve(&[x]) {
                mark(&session, &mut seen_true, &mut seen_false);
            } else {
                true_impossible[i] = true;
            }
        }
        if !seen_false[i] && !true_impossible[i] {
            if session.solve(&[!x]) {
                mark(&session, &mut seen_true, &mut seen_false);
            } else {
                false_impossible[i] = true;
            }
        }
    }
    let mut status = vec![vec![Status::Impossible; n]; problem.contents.len()];
    for (i, &(c, p)) in pairs.iter().enumerate() {
        status[c][p as usize] = if true_impossible[i] {
            Status::Impossible
        } else if false_impossible[i] {
            Status::Necessary
        } else {
            Status::Possible
        };
    }
    Ok(Analysis {
        status,
        solver_calls: session.calls,
        naive_calls: 2 * pairs.len() as u64,
    })
}
