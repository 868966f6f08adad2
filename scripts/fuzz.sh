#!/usr/bin/env bash
# Run every fuzz target in the module for a while each: ./scripts/fuzz.sh 30s
# (more arguments go to go test: ./scripts/fuzz.sh 60s -parallel 1).
#
# Every target runs, whatever the ones before it found; the summary at the
# end lists each target with its executions and what it found, and the
# script exits 1 when any target failed. A failing input is kept by `go
# test` under the package's testdata/fuzz/FuzzXxx/ (commit it: it becomes a
# seed that plain `go test` replays).
#
# -fuzzminimizetime 100x: with the default 60 s, a short run that ends while
# the fuzzer minimizes a new input reports "context deadline exceeded".
set -uo pipefail
t=${1:-10s}
shift || true
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
summary=()
failed=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //'); do
    echo "== $pkg $f ($t)"
    start=$(date +%s)
    go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" -fuzzminimizetime 100x "$@" "$pkg" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    took=$(($(date +%s) - start))
    execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | sed 's/execs: //')
    if [ "$rc" -ne 0 ] && grep -q 'context deadline exceeded' "$log" &&
      ! grep -qE 'Failing input written to|panic:|fatal error:|build failed' "$log"; then
      # Go's fuzzer can end a time-bounded run while it minimizes a new
      # input and report its own deadline: nothing failed in our code.
      summary+=("ok    ${pkg#github.com/readbench/readbench/} $f: ${took}s, ${execs:-?} execs (the fuzzer stopped while minimizing)")
    elif [ "$rc" -eq 0 ]; then
      summary+=("ok    ${pkg#github.com/readbench/readbench/} $f: ${took}s, ${execs:-?} execs")
    else
      failed=1
      found=$(grep -m1 -E 'Failing input written to|--- FAIL|panic:|fatal error:|build failed' "$log" | sed 's/^[[:space:]]*//')
      summary+=("FAIL  ${pkg#github.com/readbench/readbench/} $f: ${took}s, ${execs:-?} execs: ${found:-exit $rc}")
    fi
  done
done
echo
echo "== fuzz summary ($t each)"
printf '%s\n' "${summary[@]}"
exit $failed
