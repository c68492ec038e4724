#!/usr/bin/env bash
# Inputs that once took quadratic time (or worse), timed through the CLI
# (BENCHMARKS.md, "The CLI end to end"). Their tests check what the commands
# print and are not timed: crates/levelgraph-cli/tests/cli.rs (the first
# two), crates/levelgraph/tests/suite/grammar_errors.rs and edgar.rs (the
# next two), and layout.rs and edgar.rs (the staircases: the sweep's
# proptest, the corner limit and the work budget).
#
#   cargo build --release -p levelgraph-cli
#   bench/slow-inputs.sh [BINARY] [RUNS]
#
# BINARY defaults to $CARGO_TARGET_DIR/release/levelgraph (target/ without
# it); each command runs RUNS times (default 5): median, fastest..slowest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/release/levelgraph}
runs=${2:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# 8,001 rules and 15,999 warnings: every report split the file into lines again.
{
    echo 'tags { s room }'
    echo 'rule start { (a:s) => (a:room) }'
    for i in $(seq 0 7999); do echo "rule r$i { (a:room) => (a:room) -- (b:room) }"; done
} >"$dir/many.lg"
# 5,000 tags on one line, never produced: every warning printed the line.
{
    printf 'tags { s room'
    printf ' t%d' $(seq 0 4999)
    printf ' }\nrule start { (a:s) => (a:room) }\n'
} >"$dir/wide.lg"
# Two rules whose right-hand sides are chains of 30,000 vertices: loading
# and the lint compared every pair.
chain=$(seq 1 29999 | sed 's/.*/(v&:room)/' | paste -sd' ' | sed 's/ / -- /g')
{
    echo 'grammar "big" { max_vertices 100000 }'
    echo 'tags { s "start" room "room" key "key" }'
    echo "rule start { (v0:s) => (v0:room) -- $chain }"
    echo "rule again { (v0:s) => (v0:room) -- $chain }"
} >"$dir/big.lg"
# An Edgar map with 100,000 nested `[`: the YAML scanner's time grows with
# the depth for every token; the map is refused at depth 65 before it.
{
    printf 'roomsRange: '
    head -c 100000 /dev/zero | tr '\0' '['
    head -c 100000 /dev/zero | tr '\0' ']'
    echo
} >"$dir/deep.yml"

# Three rooms shaped as staircases of 302 and 500 corners (the largest
# allowed is 512): the configuration spaces took O(corners⁴) (issue 23).
# Four such rooms all joined to each other, which no layout of them
# satisfies: the work budget (LayoutSettings::max_work) stops the search.
# And 514 corners, one staircase step too many, refused.
"$root/bench/stairs-map.sh" 302 >"$dir/stairs302.yml"
"$root/bench/stairs-map.sh" 500 >"$dir/stairs500.yml"
"$root/bench/stairs-map.sh" 514 >"$dir/stairs514.yml"
sed 's/^passages: .*/passages: [[0,1], [1,2], [2,0], [0,3], [1,3], [2,3]]/; s/to: 2}/to: 3}/' \
    "$dir/stairs302.yml" >"$dir/k4stairs302.yml"

rooms=$root/crates/levelgraph/tests/data/edgar/rooms
echo "| input | command | exit | median ms (fastest..slowest of $runs) |"
echo "|---|---|---|---|"
time_it() {
    local label=$1 shown=$2
    shift 2
    local times=() code=0
    for _ in $(seq "$runs"); do
        local t0 t1
        t0=$(date +%s%N)
        code=0
        "$@" >/dev/null 2>&1 || code=$?
        t1=$(date +%s%N)
        times+=($(((t1 - t0) / 1000)))
    done
    local sorted
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    local median fastest slowest
    median=$(echo "$sorted" | sed -n "$(((runs + 1) / 2))p")
    fastest=$(echo "$sorted" | head -1)
    slowest=$(echo "$sorted" | tail -1)
    ms() { awk -v u="$1" 'BEGIN { printf "%.1f", u / 1000 }'; }
    echo "| $label | \`$shown\` | $code | $(ms "$median") ($(ms "$fastest")..$(ms "$slowest")) |"
}
time_it "8,001 rules, 15,999 warnings" "check many.lg" "$bin" check "$dir/many.lg"
time_it "5,000 tags on one line" "check wide.lg" "$bin" check "$dir/wide.lg"
time_it "two 30,000-vertex sides" "check big.lg" "$bin" check "$dir/big.lg"
time_it "100,000 nested \`[\`" "layout deep.yml" \
    "$bin" layout "$dir/deep.yml" --rooms "$rooms" --out "$dir/out"
time_it "three 302-corner staircases" "layout stairs302.yml --seed 1 --max-iterations 1" \
    "$bin" layout "$dir/stairs302.yml" --rooms "$rooms" --seed 1 --max-iterations 1 --out "$dir/out"
time_it "three 500-corner staircases" "layout stairs500.yml --seed 1 --max-iterations 1" \
    "$bin" layout "$dir/stairs500.yml" --rooms "$rooms" --seed 1 --max-iterations 1 --out "$dir/out"
time_it "three 302-corner staircases, laid out" "layout stairs302.yml --seed 1" \
    "$bin" layout "$dir/stairs302.yml" --rooms "$rooms" --seed 1 --out "$dir/out"
time_it "four 302-corner staircases, all joined" "layout k4stairs302.yml --seed 1" \
    "$bin" layout "$dir/k4stairs302.yml" --rooms "$rooms" --seed 1 --out "$dir/out"
time_it "a 514-corner staircase" "layout stairs514.yml" \
    "$bin" layout "$dir/stairs514.yml" --rooms "$rooms" --out "$dir/out"
