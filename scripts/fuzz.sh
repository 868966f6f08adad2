#!/usr/bin/env bash
# Run every fuzz target in the module for a while each: ./scripts/fuzz.sh 30s
# (more arguments go to go test: ./scripts/fuzz.sh 60s -parallel 1).
#
# Targets run FUZZJOBS at a time (default: the number of CPUs), each with
# one fuzzing worker unless the arguments say otherwise: the machine is as
# busy as with one target and all its workers, and the builds, links and
# seed runs of one target overlap the fuzzing of the others. FUZZJOBS=1
# runs them one after the other with go test's default workers.
#
# Every target runs, whatever the others found; the summary at the end
# lists each target with its executions and what it found, and the script
# exits 1 when any target failed. A failing input is kept by `go test`
# under the package's testdata/fuzz/FuzzXxx/ (commit it: it becomes a seed
# that plain `go test` replays).
#
# -fuzzminimizetime 100x: with the default 60 s, a short run that ends while
# the fuzzer minimizes a new input reports "context deadline exceeded".
set -uo pipefail
t=${1:-10s}
shift || true
cd "$(dirname "$0")/.."
jobs=${FUZZJOBS:-$(nproc 2>/dev/null || echo 2)}
extra=("$@")
if [ "$jobs" -gt 1 ] && [[ " $* " != *" -parallel "* ]] && [[ " $* " != *" -parallel="* ]]; then
  extra+=(-parallel 1)
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# fuzz runs one target, its output in $logs/N.log and its summary line in
# $logs/N.sum.
fuzz() {
  local n=$1 pkg=$2 f=$3 log="$logs/$1.log"
  local start rc took execs found short=${pkg#github.com/readbench/readbench/}
  start=$(date +%s)
  go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" -fuzzminimizetime 100x "${extra[@]}" "$pkg" >"$log" 2>&1
  rc=$?
  took=$(($(date +%s) - start))
  execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | sed 's/execs: //')
  if [ "$rc" -ne 0 ] && grep -q 'context deadline exceeded' "$log" &&
    ! grep -qE 'Failing input written to|panic:|fatal error:|build failed' "$log"; then
    # Go's fuzzer can end a time-bounded run while it minimizes a new
    # input and report its own deadline: nothing failed in our code.
    echo "ok    $short $f: ${took}s, ${execs:-?} execs (the fuzzer stopped while minimizing)" >"$logs/$n.sum"
  elif [ "$rc" -eq 0 ]; then
    echo "ok    $short $f: ${took}s, ${execs:-?} execs" >"$logs/$n.sum"
  else
    found=$(grep -m1 -E 'Failing input written to|--- FAIL|panic:|fatal error:|build failed' "$log" | sed 's/^[[:space:]]*//')
    echo "FAIL  $short $f: ${took}s, ${execs:-?} execs: ${found:-exit $rc}" >"$logs/$n.sum"
  fi
  { echo "== $pkg $f ($t)"; cat "$log"; } # one target's output at a time
}

n=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //'); do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    n=$((n + 1))
    fuzz "$n" "$pkg" "$f" &
  done
done
wait

echo
echo "== fuzz summary ($t each, $jobs at a time)"
failed=0
for i in $(seq 1 "$n"); do
  line=$(cat "$logs/$i.sum" 2>/dev/null || echo "FAIL  target $i: no summary")
  echo "$line"
  [[ $line == FAIL* ]] && failed=1
done
exit $failed
