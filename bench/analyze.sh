#!/usr/bin/env bash
# Throughput of `levelgraph analyze` (BENCHMARKS.md, "Expressive range"):
# levels per second of the default grammar, mission graphs only (every
# metric and the canonical hash), on 1 and 2 threads, and of
# examples/dungeon-rooms.lg with layout and tile map; peak memory at two
# run sizes (flat in the seeds); and the peer: the shell loop a user
# writes without `analyze`, one `levelgraph generate` per seed.
#
#   bench/analyze.sh            # N=100000 mission-only, 1000 with tiles, 200 by loop
#   N=20000 bench/analyze.sh    # a quicker run
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p levelgraph-cli
bin=target/release/levelgraph
n=${N:-100000}
tiles_n=${TILES_N:-1000}
loop_n=${LOOP_N:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# seconds and peak RSS (MB) of a command
measure() {
  local t
  t=$(mktemp -p "$work")
  /usr/bin/time -f "%e %M" -o "$t" "$@" > /dev/null
  read -r secs kb < "$t"
  echo "$secs $((kb / 1024))"
}

row() { # label seeds secs mb
  awk -v l="$1" -v n="$2" -v s="$3" -v m="$4" \
    'BEGIN { printf "%-44s %8d levels %7.2f s %9.0f levels/s %5d MB\n", l, n, s, n / s, m }'
}

for threads in 1 2; do
  read -r s m < <(measure "$bin" analyze --seeds "1..$n" --threads "$threads" --sample 0 --out "$work/m$threads")
  row "default grammar, mission, $threads thread(s)" "$n" "$s" "$m"
  eval "mission_$threads=$s"
done
cmp -s "$work/m1/levels.csv" "$work/m2/levels.csv" && echo "1 and 2 threads: levels.csv identical"
read -r s m < <(measure "$bin" analyze --seeds "1..$((n / 10))" --sample 0 --out "$work/small")
row "default grammar, mission, 2 threads (N/10)" "$((n / 10))" "$s" "$m"
# The machine's own ceiling: the two halves as two 1-thread processes at once.
half=$((n / 2))
read -r alone _ < <(measure "$bin" analyze --seeds "1..$half" --threads 1 --sample 0 --out "$work/h0")
( measure "$bin" analyze --seeds "1..$half" --threads 1 --sample 0 --out "$work/h1" > "$work/p1" &
  measure "$bin" analyze --seeds "$((half + 1))..$n" --threads 1 --sample 0 --out "$work/h2" > "$work/p2"; wait )
read -r p1 _ < "$work/p1"; read -r p2 _ < "$work/p2"
awk -v a="$alone" -v b="$p1" -v c="$p2" 'BEGIN { m = b > c ? b : c;
  printf "ceiling: two 1-thread halves at once: %.2f s alone, %.2f / %.2f s together: %.2fx\n", a, b, c, 2 * a / m }'
for threads in 1 2; do
  read -r s m < <(measure "$bin" analyze examples/dungeon-rooms.lg --tiles --seeds "1..$tiles_n" --threads "$threads" --sample 0 --out "$work/t$threads")
  row "dungeon-rooms.lg, layout + tiles, $threads thread(s)" "$tiles_n" "$s" "$m"
  eval "tiles_$threads=$s"
done
start=$(date +%s.%N)
for seed in $(seq 1 "$loop_n"); do
  "$bin" generate --seed "$seed" --formats json --allow-unfinishable --out "$work/loop" > /dev/null || true
done
end=$(date +%s.%N)
loop=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
row "peer: shell loop of generate (json only)" "$loop_n" "$loop" 0
awk -v a="$mission_1" -v b="$mission_2" -v c="$tiles_1" -v d="$tiles_2" -v n="$n" -v l="$loop" -v ln="$loop_n" 'BEGIN {
  printf "speed-up on 2 threads: mission %.2fx, layout + tiles %.2fx\n", a / b, c / d
  printf "analyze (2 threads) vs the loop, per level: %.0fx\n", (l / ln) / (b / n)
}'
