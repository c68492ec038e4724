//! clingo as a child process: placement.lp with one problem's facts
//! (main.rs times whole runs: start-up, grounding, solving, output).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::check::Placement;
use crate::read::Reading;

/// What one clingo run found.
#[derive(Clone, Debug)]
pub struct Run {
    pub satisfiable: bool,
    /// The `at/2` atoms of each answer (for brave or cautious
    /// enumeration, the last is the consequences).
    pub answers: Vec<Vec<String>>,
    /// Whether clingo enumerated every answer (no `More`).
    pub exhausted: bool,
}

/// The clingo program and the encoding.
pub struct Clingo {
    pub program: PathBuf,
    pub encoding: PathBuf,
}

impl Clingo {
    /// `clingo` on the PATH, placement.lp beside this crate.
    pub fn new() -> Clingo {
        Clingo {
            program: PathBuf::from("clingo"),
            encoding: Path::new(env!("CARGO_MANIFEST_DIR")).join("placement.lp"),
        }
    }

    /// Runs clingo on `facts` with `args`.
    pub fn run(&self, facts: &Path, args: &[&str]) -> Run {
        let out = Command::new(&self.program)
            .arg(&self.encoding)
            .arg(facts)
            .arg("--outf=2")
            .args(args)
            .output()
            .expect("clingo runs (Debian package gringo)");
        // Exit codes: 10 SAT, 20 UNSAT, 30 SAT and exhausted.
        let code = out.status.code().unwrap_or(-1);
        assert!(
            matches!(code, 10 | 20 | 30),
            "clingo failed ({code}): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("clingo's JSON output");
        let result = json["Result"].as_str().unwrap_or("");
        let mut answers = Vec::new();
        if let Some(calls) = json["Call"].as_array() {
            for call in calls {
                for w in call["Witnesses"].as_array().into_iter().flatten() {
                    let atoms = w["Value"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|a| a.as_str().unwrap_or("").to_owned())
                        .collect();
                    answers.push(atoms);
                }
            }
        }
        Run {
            satisfiable: result == "SATISFIABLE" || result == "OPTIMUM FOUND",
            exhausted: json["Models"]["More"].as_str() == Some("no"),
            answers,
        }
    }
}

/// An `at(KIND,PLACE)` atom as (content index, place index) of `r`.
pub fn parse_at(r: &Reading, atom: &str) -> (usize, usize) {
    let inner = atom
        .strip_prefix("at(")
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or_else(|| panic!("not an at/2 atom: {atom}"));
    let (kind, place) = inner.rsplit_once(',').expect("two arguments");
    let c = r
        .contents
        .iter()
        .position(|x| x.kind.term() == kind)
        .unwrap_or_else(|| panic!("unknown kind {kind}"));
    let v: u32 = place.parse().expect("a vertex id");
    let p = r
        .places
        .iter()
        .position(|x| x.0 == v)
        .unwrap_or_else(|| panic!("unknown place {v}"));
    (c, p)
}

/// An answer as a placement.
pub fn placement(r: &Reading, atoms: &[String]) -> Placement {
    let mut pl: Placement = vec![Vec::new(); r.contents.len()];
    for a in atoms {
        let (c, p) = parse_at(r, a);
        pl[c].push(p);
    }
    for row in &mut pl {
        row.sort_unstable();
    }
    pl
}
