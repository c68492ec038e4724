//! Shared by the `mutex`, `growth`, `layout` and `geometric` harnesses
//! (and, by path, `bench/peers`): running this
//! bench binary again as a child that can be killed at a time limit,
//! reading settings from the environment, and the default grammar's text
//! edited to grow larger levels.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs this binary again with `args` and returns its standard output;
/// `Err` with why there is none (killed after `kill_after` seconds, or the
/// child failed).
#[allow(dead_code)] // not every harness that includes this module runs children
pub(crate) fn run_child(args: &[String], kill_after: f64) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(exe)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let out = child.wait_with_output().map_err(|e| e.to_string())?;
            if !status.success() {
                return Err(format!("child failed ({status})"));
            }
            return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
        }
        if started.elapsed().as_secs_f64() > kill_after {
            child.kill().map_err(|e| e.to_string())?;
            child.wait().map_err(|e| e.to_string())?;
            return Err(format!("killed after {kill_after:.0} s"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A number of seconds from environment variable `name`, or `default`.
#[allow(dead_code)] // not every harness that includes this module reads one
pub(crate) fn env_secs(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A comma-separated list of sizes from environment variable `name`
/// (`_` allowed as a digit separator), or `default`.
pub(crate) fn env_sizes(name: &str, default: &[usize]) -> Vec<usize> {
    match std::env::var(name) {
        Ok(list) => list
            .split(',')
            .map(|s| {
                s.trim()
                    .replace('_', "")
                    .parse()
                    .unwrap_or_else(|_| panic!("{name}: comma-separated numbers"))
            })
            .collect(),
        Err(_) => default.to_vec(),
    }
}

/// The machine's load average over the last minute, when the system
/// reports it (other work on the machine distorts every figure).
pub(crate) fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(
        text.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// `text` (the default grammar, or one built on it such as
/// `examples/dungeon-rooms.lg`) with `max_vertices cap` and
/// `max_iterations 2·cap + 1000`; without the rule `settle` and, when it
/// has one, `settle_before` (which close the frontier, so levels stop near
/// 26 vertices) when `growing`.
///
/// # Panics
/// When `text` does not have the default's `max_vertices 40`,
/// `max_iterations 300` and (with `growing`) rule `settle`, each once.
#[allow(dead_code)] // not every harness that includes this module grows grammars
pub(crate) fn grown_grammar(text: &str, cap: usize, growing: bool) -> String {
    for setting in ["max_vertices 40\n", "max_iterations 300\n"] {
        assert_eq!(
            text.matches(setting).count(),
            1,
            "the default grammar changed: `{}` not found once",
            setting.trim()
        );
    }
    let mut text = text
        .replace("max_vertices 40\n", &format!("max_vertices {cap}\n"))
        .replace(
            "max_iterations 300\n",
            &format!("max_iterations {}\n", 2 * cap + 1000),
        );
    if growing {
        assert!(
            text.contains("rule settle "),
            "the default grammar has rule settle"
        );
        for rule in ["rule settle ", "rule settle_before "] {
            let Some(start) = text.find(rule) else {
                continue;
            };
            let end = start
                + text[start..]
                    .find("\n}\n")
                    .expect("a rule ends with `}` on its own line")
                + 3;
            text.replace_range(start..end, "");
        }
        assert!(!text.contains("rule settle"), "settle removed");
    }
    text
}
