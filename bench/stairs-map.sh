#!/usr/bin/env bash
# Prints an Edgar map of three rooms in a row, each a staircase of CORNERS
# corners (an even number, at least 6), steps STEP grid units wide and high
# (default 1), doors 1 long anywhere on a side: the input whose layout once
# took O(corners⁴) (issue 23, item 2; BENCHMARKS.md, "The CLI end to end").
#
#   bench/stairs-map.sh CORNERS [STEP] > stairs.yml
#   levelgraph layout stairs.yml --seed 1 --max-iterations 1
#
# The map's rooms come from its own customRoomDescriptionsSet, so it needs
# no room-set folder beyond an existing one for `--rooms` (any folder: the
# map names no set).
set -euo pipefail
corners=${1:?usage: stairs-map.sh CORNERS [STEP]}
step=${2:-1}
if ((corners < 6 || corners % 2 != 0)); then
    echo "stairs-map.sh: CORNERS must be even and at least 6, not $corners" >&2
    exit 2
fi
# A staircase of k steps has 2k + 2 corners: the two ends of its base, and
# two per step going up and left.
k=$(((corners - 2) / 2))
points="[0,0]"
for ((i = 0; i < k; i++)); do
    x=$(((k - i) * step))
    points+=", [$x,$((i * step))], [$x,$(((i + 1) * step))]"
done
points+=", [0,$((k * step))]"
cat <<YAML
roomsRange: {from: 0, to: 2}
passages: [[0,1], [1,2]]
defaultRoomShapes:
  - setName: custom
customRoomDescriptionsSet:
  default:
    doorMode: !OverlapMode {doorLength: 1, cornerDistance: 0}
  roomDescriptions:
    stairs:
      shape: [$points]
YAML
