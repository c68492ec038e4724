//! Shared by the `mutex` and `growth` harnesses: running this bench binary
//! again as a child that can be killed at a time limit, and reading
//! settings from the environment.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs this binary again with `args` and returns its standard output;
/// `Err` with why there is none (killed after `kill_after` seconds, or the
/// child failed).
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
