#!/usr/bin/env bash
# Patterns with too many matches and searches that do not end, timed
# through the CLI (BENCHMARKS.md, "Budgets"). Before the derivation's
# budgets the first two aborted after allocating 3 GB and the third ran
# for ever; their behaviour is tested in
# crates/levelgraph/tests/suite/budgets.rs (small budgets, not timed).
#
#   cargo build --release -p levelgraph-cli
#   bench/budgets.sh [BINARY]
#
# Prints each command's exit code, wall time and peak memory (GNU time).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/release/levelgraph}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Six unconnected rooms on a chain of 40: 40·39·…·35 ≈ 2.8·10⁹ matches.
cat >"$dir/six.lg" <<'EOF'
grammar "six" { start s max_iterations 100 max_vertices 100 }
tags { s room terminal mark terminal }
rule start { (a:s) => (a:room) }
rule grow max_uses 39 { (a:room) => (a:room) -- (b:room) }
rule six priority -1 { (a:room) (b:room) (c:room) (d:room) (e:room) (f:room) => (a:mark) (b:room) (c:room) (d:room) (e:room) (f:room) }
EOF

# A 6-clique pattern on levels made complete by `close`.
clique() { # n: the pattern's vertices and edges of K_n
    local vs="" es="" i j
    for ((i = 0; i < $1; i++)); do vs+="(v$i:room) "; done
    for ((i = 0; i < $1; i++)); do for ((j = i + 1; j < $1; j++)); do es+="(v$i) -- (v$j) "; done; done
    echo "$vs$es"
}
cat >"$dir/clique6.lg" <<EOF
grammar "clique" { start s max_iterations 2000 max_vertices 100 }
tags { s room terminal mark terminal }
rule start { (a:s) => (a:room) }
rule grow max_uses 39 { (a:room) => (a:room) -- (b:room) }
rule close max_uses 1000 priority -1 { (a:room) (b:room) where not (a) -- (b) => (a:room) -- (b:room) }
rule clique priority -2 { $(clique 6) => (v0:mark) }
EOF

# A 12-clique pattern on the complete 11-partite graph of 44 vertices,
# which has none: every search tries to the end.
cat >"$dir/k12.lg" <<EOF
grammar "k12" { start s max_iterations 10 }
tags { s room mark }
rule start { (a:s) => (a:room) }
rule clique { $(clique 12) => (v0:mark) }
EOF
python3 - "$dir/turan.json" <<'EOF'
import itertools, json, sys
n, parts = 44, 11
json.dump({"format": "levelgraph.mission/1", "grammar": "k12", "seed": 1,
           "stop_reason": "no_rule_applies", "stop_detail": "", "applications": 0,
           "nodes": [{"id": i, "tag": "room"} for i in range(n)],
           "edges": [{"source": a, "target": b, "directed": False, "cosmetic": False}
                     for a, b in itertools.combinations(range(n), 2) if a % parts != b % parts],
           "trace": []}, open(sys.argv[1], "w"))
EOF

run() { # label, command...
    local label=$1
    shift
    /usr/bin/time -f "$label: exit %x, %e s, %M KB" timeout 120 "$@" >/dev/null 2>"$dir/err"
    tail -1 "$dir/err"
}
run "generate six.lg" "$bin" generate "$dir/six.lg" --seed 1 --out "$dir/o1" --formats json
run "generate clique6.lg" "$bin" generate "$dir/clique6.lg" --seed 1 --out "$dir/o2" --formats json
run "generate k12.lg --host turan.json" "$bin" generate "$dir/k12.lg" --host "$dir/turan.json" --seed 1 --out "$dir/o3" --formats json
run "check six.lg (200 sampled seeds)" "$bin" check "$dir/six.lg"
run "check clique6.lg (200 sampled seeds)" "$bin" check "$dir/clique6.lg"
