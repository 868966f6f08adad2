#!/usr/bin/env bash
# ab-experiments.sh: how often `readbench ab` cries wolf, finds a slower server,
# or cannot answer, against a server no one here wrote — the official Go
# SDK's (scripts/sdkserver, a fixed read time) — on a quiet machine and on
# one whose every core is contended (docs/compare.md, "ab: measured").
#
# Each condition is SPEED:MACHINE:CHANGE:
#   SPEED    fast (every read 5 ms) or slow (40 ms)
#   MACHINE  quiet, or hog: two busy shell loops per core for the whole
#            experiment (bounded by a timeout, killed after it)
#   CHANGE   same (A/A: a failure is a false alarm), slow10 or slow30 (the
#            new side's reads 10% or 30% slower: a failure is a detection)
# E experiments a condition, each an `ab` of scripts/ab-sdk.yaml (100
# turns/s, one read a turn) with runs of D after WARMUP, at ab's defaults
# (6 rounds to the first look, up to 16, a 5 minute budget) and AB_FLAGS.
# The gate is GATE ('read.p50=+10%'); slow10 is gated on GATE10
# ('read.p50=+5%': a 10% change against a 10% bound is a coin toss).
# Prints one markdown table row per condition: experiments, bound broken
# (exit 1 by a significant change), not answered (exit 1 with no verdict),
# passed (exit 0), the median rounds run and seconds per experiment.
#
# Usage: scripts/ab-experiments.sh                              (E=8, every condition)
#        E=3 CONDITIONS="fast:hog:same fast:hog:slow30" scripts/ab-experiments.sh
set -euo pipefail

E=${E:-8}
D=${D:-1s}
WARMUP=${WARMUP:-300ms}
GATE=${GATE:-'read.p50=+10%'}
GATE10=${GATE10:-'read.p50=+5%'}
AB_FLAGS=${AB_FLAGS:-}
CONDITIONS=${CONDITIONS:-"fast:quiet:same fast:quiet:slow30 fast:quiet:slow10 fast:hog:same fast:hog:slow30
slow:quiet:same slow:quiet:slow30 slow:quiet:slow10 slow:hog:same slow:hog:slow30"}
OUT=${OUT:-$(mktemp -d -t readbench-ab.XXXXXX)}

cd "$(dirname "$0")/.."
mkdir -p "$OUT"
go build -o "$OUT/readbench" ./cmd/readbench
go build -o "$OUT/sdkserver" ./scripts/sdkserver
bin=$OUT/readbench

hogs=()
stop_hog() {
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${hogs[@]}"; do wait "$p" 2>/dev/null || true; done
	hogs=()
}
trap stop_hog EXIT
start_hog() {
	for _ in $(seq $((2 * $(nproc)))); do
		timeout 900 sh -c 'while :; do :; done' >/dev/null 2>&1 &
		hogs+=($!)
	done
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }

echo "| server | machine | change | gate | experiments | bound broken | not answered | passed | median rounds | median s | CPU contended (median) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for cond in $CONDITIONS; do
	IFS=: read -r speed machine change <<<"$cond"
	case $speed in fast) delay=5 ;; slow) delay=40 ;; *) echo "bad speed $speed" >&2; exit 2 ;; esac
	case $change in same) scale=1; gate=$GATE ;; slow10) scale=1.1; gate=$GATE10 ;; slow30) scale=1.3; gate=$GATE ;;
		*) echo "bad change $change" >&2; exit 2 ;; esac
	newdelay=$(awk -v d="$delay" -v s="$scale" 'BEGIN {printf "%.3fms", d*s}')
	broken=0 open=0 passed=0 rounds="" took="" cpu=""
	for i in $(seq "$E"); do
		dir=$OUT/$speed-$machine-$change/$i
		mkdir -p "$(dirname "$dir")"
		[ "$machine" = hog ] && start_hog
		start=$(date +%s.%N)
		code=0
		# shellcheck disable=SC2086
		"$bin" ab scripts/ab-sdk.yaml --base "stdio:$OUT/sdkserver --delay ${delay}ms" \
			--new "stdio:$OUT/sdkserver --delay $newdelay" --fail-on "$gate" -d "$D" --warmup "$WARMUP" \
			--format json -q --out "$dir" $AB_FLAGS >"$dir.json" 2>"$dir.err" || code=$?
		stop_hog
		took+="$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b-a}') "
		rounds+="$(jq -r '.answer.rounds_run' "$dir.json") "
		cpu+="$(jq -r '.answer.cpu_pressure // 0' "$dir.json") "
		sig=$(jq -r '[.bounds[] | select(.verdict == "fail" and .noise == "significant")] | length' "$dir.json")
		if [ "$code" -eq 1 ] && [ "$sig" -gt 0 ]; then broken=$((broken + 1))
		elif [ "$code" -eq 1 ]; then open=$((open + 1))
		elif [ "$code" -eq 0 ]; then passed=$((passed + 1))
		else echo "$cond #$i: exit $code (see $dir.err)" >&2; fi
	done
	printf '| %s (%d ms) | %s | %s | `%s` | %d | %d | %d | %d | %s | %s | %s |\n' "$speed" "$delay" "$machine" "$change" "$gate" "$E" \
		"$broken" "$open" "$passed" "$(tr ' ' '\n' <<<"$rounds" | grep . | median)" "$(tr ' ' '\n' <<<"$took" | grep . | median)" \
		"$(tr ' ' '\n' <<<"$cpu" | grep . | awk '{printf "%.0f%%\n", 100*$1}' | sort -n | median)"
done
echo
echo "runs and documents: $OUT"
