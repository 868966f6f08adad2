#!/usr/bin/env bash
# saturate.sh — keep the machine busy, the way a shared CI machine is,
# to see what the tests say there:
#
#   scripts/saturate.sh                      # busy until the timeout or Ctrl-C
#   scripts/saturate.sh -- make test         # busy while the command runs
#   scripts/saturate.sh -t 10m -n 2 -- go test -race -count=1 -run 'TestX' ./driver/
#
# It starts PER_CORE busy loops per core (-n, default 4; `nproc` cores),
# for at most TIMEOUT (-t, default 2h, any duration sleep(1) takes), so
# that a forgotten run ends by itself. The loops are ended on exit,
# Ctrl-C and TERM included. With a command after --, the command runs
# beside the loops, and when it ends the loops are stopped and its wall
# time and exit status are printed; the script exits with the command's
# status (124 when the timeout ended it first).
set -euo pipefail

per_core=4
timeout=2h
while [ $# -gt 0 ]; do
  case $1 in
    -n) per_core=$2; shift 2 ;;
    -t) timeout=$2; shift 2 ;;
    --) shift; break ;;
    -h | --help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "saturate.sh: unknown argument $1 (see -h)" >&2; exit 2 ;;
  esac
done

cores=$(nproc)
loops=$((cores * per_core))
pids=()
stop() {
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
  pids=()
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for _ in $(seq "$loops"); do
  # timeout bounds each loop by itself too, should this script be killed
  # with SIGKILL and its traps never run.
  timeout "$timeout" sh -c 'while :; do :; done' &
  pids+=($!)
done
echo "saturate.sh: $loops busy loops ($per_core per core on $cores cores) for at most $timeout" >&2

if [ $# -eq 0 ]; then
  wait "${pids[@]}" || true
  exit 0
fi

start=$(date +%s%N)
rc=0
timeout "$timeout" "$@" || rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
stop
printf 'saturate.sh: %s took %d.%03ds beside %d busy loops, exit status %d\n' "$*" $((ms / 1000)) $((ms % 1000)) "$loops" "$rc" >&2
exit "$rc"
