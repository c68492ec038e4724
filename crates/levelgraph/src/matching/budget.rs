//! The work budget of searches: how many search-tree nodes (host
//! candidates tried for a pattern vertex) the searches of one task may
//! visit before they stop.
//!
//! A pattern of a few vertices can have astronomically many matches (six
//! unconnected vertices on a level of 40 rooms: 40·39·38·37·36·35 ≈
//! 2.8·10⁹), and a dense pattern can make a search visit that many nodes
//! without finding any (a 12-clique in a host without one). The budget is
//! what turns such a search from a hang into a stop the caller can report.
//!
//! The counter is per thread, so that every search — the general one, the
//! small one, grid frames, and the searches of negative application
//! conditions nested inside them — spends from the same budget without a
//! parameter threaded through each of them. Outside [`within`] the budget
//! is unlimited.

use std::cell::Cell;
use std::ops::ControlFlow;

thread_local! {
    /// Nodes the current task may still visit; `u64::MAX` outside
    /// [`within`] (never spent down to zero in practice).
    static LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
}

/// Runs `f` with at most `nodes` search-tree nodes for the searches it
/// makes on this thread. Returns `f`'s result and whether the budget was
/// used up: then a search may have stopped early, as if its visitor had
/// returned `Break`, and what it found (or did not find) may be incomplete
/// — the caller must not use it. Nested calls are allowed; the outer budget is restored
/// afterwards (it does not pay for the inner one).
pub(crate) fn within<R>(nodes: u64, f: impl FnOnce() -> R) -> (R, bool) {
    let outer = enter(nodes);
    let out = f();
    (out, leave(outer))
}

/// [`within`] in two halves, for a loop the compiler should see whole:
/// starts a budget of `nodes` and returns the outer budget, to be given
/// back to [`leave`].
#[inline]
pub(crate) fn enter(nodes: u64) -> u64 {
    LEFT.with(|left| left.replace(nodes))
}

/// Ends the budget [`enter`] started, restoring `outer`; whether it was
/// used up.
#[inline]
pub(crate) fn leave(outer: u64) -> bool {
    LEFT.with(|left| left.replace(outer)) == 0
}

/// Spends one node: `Break` when the budget is used up.
#[inline(always)]
pub(super) fn spend() -> ControlFlow<()> {
    spend_n(1)
}

/// Spends `n` nodes at once — a search step's whole candidate list, so
/// that the counter is touched once per step, not once per candidate
/// (measured 2026-11-28: per candidate, the growth benchmark ran 7 % more
/// instructions). `Break` when fewer than `n` are left; then none are
/// left.
#[inline(always)]
pub(super) fn spend_n(n: usize) -> ControlFlow<()> {
    LEFT.with(|left| match left.get().checked_sub(n as u64) {
        Some(rest) if rest > 0 || n > 0 => {
            left.set(rest);
            ControlFlow::Continue(())
        }
        _ => {
            left.set(0);
            ControlFlow::Break(())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_runs_out_after_its_nodes_and_is_restored_after() {
        let (spent, out) = within(3, || (0..10).take_while(|_| spend().is_continue()).count());
        assert_eq!((spent, out), (3, true));
        let (spent, out) = within(5, || (0..4).take_while(|_| spend().is_continue()).count());
        assert_eq!((spent, out), (4, false));
        // Outside: unlimited again.
        assert!((0..1000).all(|_| spend().is_continue()));
    }

    #[test]
    fn an_inner_budget_does_not_spend_the_outer_one() {
        let ((inner_out, after), outer_out) = within(3, || {
            let (_, inner_out) = within(1, || {
                let _ = spend();
                spend()
            });
            (inner_out, spend().is_continue() && spend().is_continue())
        });
        assert!(inner_out && after && !outer_out);
    }
}
