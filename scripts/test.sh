#!/usr/bin/env bash
# test.sh — what `make test` runs after `make deps`: each step named on the
# command line (a make target: ./scripts/test.sh vet fuzz-smoke test-race),
# every one of them whatever the others did, so that one failing package
# does not hide the results of the rest (make alone stops at the first
# failing command).
#
# Each step's own output is printed as it comes (go test's closing lines
# included); at the end a summary lists each step with its exit status and
# wall time, and a closing line says how many passed and failed, naming
# the failed ones. The script exits 1 when any step failed.
#
# Processes left behind: every process the run starts inherits
# READBENCH_TEST_RUN (a value unique to this run) in its environment, so
# that, after the steps, any still running — a Node peer, a readbench or an
# sdkserver whose test timed out, say — is found even when it was
# reparented away from the run. They are listed, killed (by pid), and
# count as a failed step. The numbers of node, readbench and sdkserver
# processes on the machine before and after the run are printed too (they
# include other users' work; only the marked ones are this run's).
set -euo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make}
[ $# -gt 0 ] || { echo "usage: $0 make-target..." >&2; exit 2; }

export READBENCH_TEST_RUN="$$-$(date +%s%N)"

# count prints how many node, readbench and sdkserver processes run.
count() {
  local n
  for name in node readbench sdkserver; do
    n=$(pgrep -xc "$name" || true)
    printf '%s %s  ' "$name" "${n:-0}"
  done
  echo
}

# marked lists the pids whose environment carries this run's
# READBENCH_TEST_RUN. The scan itself runs without it (env -u), so that
# its own commands are not listed.
marked() {
  env -u READBENCH_TEST_RUN mark="READBENCH_TEST_RUN=$READBENCH_TEST_RUN" bash -c '
    for env in /proc/[0-9]*/environ; do
      tr "\0" "\n" 2>/dev/null <"$env" | grep -qxF "$mark" && { pid=${env#/proc/}; echo "${pid%/environ}"; }
    done
    true'
}

echo "== processes before: $(count)"
names=() codes=() times=()
for step in "$@"; do
  echo "== $step"
  start=$(date +%s)
  rc=0
  "$make" --no-print-directory "$step" || rc=$?
  names+=("$step") codes+=("$rc") times+=("$(($(date +%s) - start))")
done

# The steps have returned: anything of this run still running was left
# behind, once the watchdog of the last test binary (internal/testproc,
# which ends what a dead test binary left, a second after it) is done.
sleep 2
left=$(marked) # no pipe: a command beside the scan would carry the mark
left=${left//$'\n'/,}
echo "== processes after: $(count)"
if [ -n "$left" ]; then
  echo "== left behind by the run:"
  ps -o pid,ppid,etime,args -p "$left" || true
  # shellcheck disable=SC2046 # word splitting wanted: a list of pids
  kill -KILL $(tr , ' ' <<<"$left") 2>/dev/null || true
  names+=("processes-left-behind") codes+=(1) times+=(0)
fi

echo
echo "== test summary"
passed=0 failed=()
for i in "${!names[@]}"; do
  if [ "${codes[$i]}" -eq 0 ]; then
    passed=$((passed + 1))
    printf 'ok    %-22s %5ss\n' "${names[$i]}" "${times[$i]}"
  else
    failed+=("${names[$i]}")
    printf 'FAIL  %-22s %5ss (exit %s)\n' "${names[$i]}" "${times[$i]}" "${codes[$i]}"
  fi
done
if [ ${#failed[@]} -eq 0 ]; then
  echo "$passed passed, 0 failed"
  exit 0
fi
echo "$passed passed, ${#failed[@]} failed: ${failed[*]}"
exit 1
