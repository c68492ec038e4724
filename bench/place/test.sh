#!/bin/sh
# Checks placement.lp on the hand-made problems in tests/: each file says
# what it expects in `% expect` lines (the number of placements, the
# POSSIBLE-or-NECESSARY atoms by brave consequences, the NECESSARY ones by
# cautious consequences, or `unsat`). Needs clingo (Debian: gringo).
#   sh bench/place/test.sh
set -u
here=$(dirname "$0")
lp="$here/placement.lp"
fail=0
# The atoms of the last answer clingo printed, one per line, sorted.
last_answer() {
  awk '/^Answer:/ { getline; last = $0 } END { print last }' | tr ' ' '\n' | sed '/^$/d' | sort
}
for t in "$here"/tests/*.lp; do
  name=$(basename "$t" .lp)
  expect() { sed -n "s/^% expect $1 *//p" "$t"; }
  out=$(clingo "$lp" "$t" -n 0 2>&1)
  if grep -q '^% expect unsat' "$t"; then
    if echo "$out" | grep -q '^UNSATISFIABLE'; then
      echo "ok   $name: unsatisfiable"
    else
      echo "FAIL $name: expected unsatisfiable"; fail=1
    fi
    continue
  fi
  models=$(echo "$out" | sed -n 's/^Models *: *//p')
  want=$(expect models)
  if [ "$models" != "$want" ]; then
    echo "FAIL $name: $models placements, expected $want"; echo "$out" | head -40; fail=1; continue
  fi
  for mode in brave cautious; do
    got=$(clingo "$lp" "$t" --enum-mode=$mode 0 2>&1 | last_answer)
    want=$(expect $mode | tr ' ' '\n' | sed '/^$/d' | sort)
    if [ "$got" != "$want" ]; then
      echo "FAIL $name: $mode"; echo "  got:      " $got; echo "  expected: " $want; fail=1
    fi
  done
  echo "ok   $name: $models placements"
done
exit $fail
