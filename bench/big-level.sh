#!/usr/bin/env bash
# Writing a 1,000,000-vertex level (BENCHMARKS.md, "Writing a million-vertex
# level"): wall time and peak RSS of `generate` with every file, then with
# each file alone. The level is the built-in grammar grown as the growth
# benchmark grows it: max_vertices 1000000, max_iterations 2001000, the rules
# `settle` and `settle_before` removed.
#
#   cargo build --release -p levelgraph-cli
#   bench/big-level.sh [BINARY] [VERTICES]
#
# BINARY defaults to $CARGO_TARGET_DIR/release/levelgraph (target/ without
# it). Needs GNU time (/usr/bin/time) and about 1.5 GB of disk in $TMPDIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/release/levelgraph}
vertices=${2:-1000000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The growth benchmark's edit (crates/levelgraph/benches/support/mod.rs).
sed -e "s/^  max_vertices 40$/  max_vertices $vertices/" \
    -e "s/^  max_iterations 300$/  max_iterations $((2 * vertices + 1000))/" \
    -e '/^rule settle /,/^}$/d' -e '/^rule settle_before /,/^}$/d' \
    "$root/examples/default.lg" >"$dir/big.lg"
grep -q "max_vertices $vertices" "$dir/big.lg" && ! grep -q 'rule settle' "$dir/big.lg"

echo "| files | wall s | peak RSS MiB | bytes written | summary line's times |"
echo "|---|---|---|---|---|"
for formats in all json dot svg graphml txt; do
    args=()
    [ "$formats" != all ] && args=(--formats "$formats")
    /usr/bin/time -f '%e %M' -o "$dir/time" \
        "$bin" generate "$dir/big.lg" --seed 1 --out "$dir/out" "${args[@]}" >"$dir/said" 2>/dev/null
    read -r wall kb <"$dir/time"
    bytes=$(du -sb "$dir/out" | cut -f1)
    times=$(sed -E 's/.*steps, (.*) -> .*/\1/' "$dir/said")
    echo "| $formats | $wall | $((kb / 1024)) | $bytes | $times |"
    rm -rf "$dir/out"
done
