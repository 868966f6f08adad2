#!/usr/bin/env bash
# ab-experiments.sh: how often a release gate cries wolf, finds a slower
# server, or cannot answer, against a server no one here wrote — the
# official Go SDK's (scripts/sdkserver, a fixed read time) — on a quiet
# machine, a busy one and a saturated one (docs/compare.md, "ab: measured").
#
# Each condition is [TOOL:]SPEED:MACHINE:CHANGE:
#   TOOL     ab (the default): one `readbench ab` an experiment, at its
#            defaults (6 rounds to the first look, up to 16, a 5 minute
#            budget); or compare: N runs of each side, alternating, then
#            `readbench compare base/ new/` (N=5)
#   SPEED    fast (every read 5 ms) or slow (40 ms)
#   MACHINE  quiet: no load of ours (other work may share the machine);
#            busy: one busy shell loop per core;
#            hog: two busy shell loops per core;
#            saturated: four busy loops per core and a second load beside
#            them (a readbench run against its embedded server, again and
#            again): load average 10 or more on 2 cores
#            — each load bounded by a timeout and killed after the experiment
#   CHANGE   same (A/A: exit 1 is a false alarm), slow10 or slow30 (the new
#            side's reads 10% or 30% slower: exit 0 is a regression passed)
# E experiments a condition, of scripts/ab-sdk.yaml (100 turns/s, one read a
# turn) with runs of D after WARMUP. The gate is GATE (the README's:
# read.p50 and service.p50 within +10%, errors within +0.5 points);
# slow10 is gated on GATE10 (the same at +5%: a 10% change against a 10%
# bound is a coin toss).
# Prints one markdown table row per condition: experiments, gated (exit 1
# with a bound broken by a significant change), not answered (exit 1 with no
# bound broken), passed (exit 0), the median rounds (runs for compare) and
# seconds per experiment, and the runs' median CPU pressure.
#
# Usage: scripts/ab-experiments.sh                                   (E=8, the ab conditions)
#        E=3 CONDITIONS="fast:saturated:same compare:fast:saturated:slow30" scripts/ab-experiments.sh
set -euo pipefail

E=${E:-8}
D=${D:-1s}
WARMUP=${WARMUP:-300ms}
N=${N:-5}
GATE=${GATE:-'read.p50=+10%,service.p50=+10%,errors=+0.5pp'}
GATE10=${GATE10:-'read.p50=+5%,service.p50=+5%,errors=+0.5pp'}
AB_FLAGS=${AB_FLAGS:-}
CONDITIONS=${CONDITIONS:-"fast:quiet:same fast:quiet:slow30 fast:quiet:slow10 fast:hog:same fast:hog:slow30
fast:saturated:same fast:saturated:slow30 slow:quiet:same slow:quiet:slow30 slow:quiet:slow10 slow:hog:same
slow:hog:slow30 slow:saturated:same slow:saturated:slow30"}
OUT=${OUT:-$(mktemp -d -t readbench-ab.XXXXXX)}

cd "$(dirname "$0")/.."
mkdir -p "$OUT"
go build -o "$OUT/readbench" ./cmd/readbench
go build -o "$OUT/sdkserver" ./scripts/sdkserver
bin=$OUT/readbench

loads=()
stop_load() {
	for p in "${loads[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done
	for p in "${loads[@]}"; do wait "$p" 2>/dev/null || true; done
	loads=()
}
trap stop_load EXIT
start_load() { # $1: busy loops per core; $2: "second" for a second load beside them
	for _ in $(seq $(($1 * $(nproc)))); do
		timeout 900 sh -c 'while :; do :; done' >/dev/null 2>&1 &
		loads+=($!)
	done
	if [ "${2:-}" = second ]; then
		setsid timeout 900 sh -c "cd '$OUT' && while :; do '$bin' run --rate 200/s --duration 5s --warmup 0s -q --out second.json --force >/dev/null 2>&1 || sleep 0.1; done" &
		loads+=($!)
	fi
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }

# experiment DIR BASE NEW GATE TOOL: one experiment, its document in DIR.json;
# prints "EXIT UNITS" (the rounds or runs it took).
experiment() {
	local dir=$1 base=$2 new=$3 gate=$4 tool=$5 code=0
	if [ "$tool" = ab ]; then
		# shellcheck disable=SC2086
		"$bin" ab scripts/ab-sdk.yaml --base "$base" --new "$new" --fail-on "$gate" -d "$D" --warmup "$WARMUP" \
			--format json -q --out "$dir" $AB_FLAGS >"$dir.json" 2>"$dir.err" || code=$?
		echo "$code $(jq -r '.answer.rounds_run' "$dir.json")"
		return
	fi
	mkdir -p "$dir/base" "$dir/new"
	for i in $(seq "$N"); do
		for side in base new; do
			local t=$base
			[ "$side" = new ] && t=$new
			"$bin" run scripts/ab-sdk.yaml --target "$t" -d "$D" --warmup "$WARMUP" -q \
				--out "$dir/$side/run-$i.json" >/dev/null 2>>"$dir.err" || true
		done
	done
	"$bin" compare "$dir/base" "$dir/new" --fail-on "$gate" --format json >"$dir.json" 2>>"$dir.err" || code=$?
	echo "$code $N"
}

echo "| tool | server | machine | change | gate | experiments | gated | not answered | passed | median rounds | median s | CPU contended (median) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for cond in $CONDITIONS; do
	tool=ab
	case $cond in compare:*) tool=compare; cond=${cond#compare:} ;; ab:*) cond=${cond#ab:} ;; esac
	IFS=: read -r speed machine change <<<"$cond"
	case $speed in fast) delay=5 ;; slow) delay=40 ;; *) echo "bad speed $speed" >&2; exit 2 ;; esac
	case $change in same) scale=1; gate=$GATE ;; slow10) scale=1.1; gate=$GATE10 ;; slow30) scale=1.3; gate=$GATE ;;
		*) echo "bad change $change" >&2; exit 2 ;; esac
	case $machine in quiet | busy | hog | saturated) ;; *) echo "bad machine $machine" >&2; exit 2 ;; esac
	newdelay=$(awk -v d="$delay" -v s="$scale" 'BEGIN {printf "%.3fms", d*s}')
	broken=0 open=0 passed=0 units="" took="" cpu=""
	for i in $(seq "$E"); do
		dir=$OUT/$tool-$speed-$machine-$change/$i
		mkdir -p "$(dirname "$dir")"
		case $machine in busy) start_load 1 ;; hog) start_load 2 ;; saturated) start_load 4 second ;; esac
		start=$(date +%s.%N)
		read -r code n < <(experiment "$dir" "stdio:$OUT/sdkserver --delay ${delay}ms" "stdio:$OUT/sdkserver --delay $newdelay" "$gate" "$tool")
		stop_load
		took+="$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b-a}') "
		units+="$n "
		cpu+="$(jq -r '.answer.cpu_pressure // 0' "$dir.json") "
		sig=$(jq -r '[.bounds[] | select(.verdict == "fail" and .noise == "significant")] | length' "$dir.json")
		if [ "$code" -eq 1 ] && [ "$sig" -gt 0 ]; then broken=$((broken + 1))
		elif [ "$code" -eq 1 ]; then open=$((open + 1))
		elif [ "$code" -eq 0 ]; then passed=$((passed + 1))
		else echo "$tool $cond #$i: exit $code (see $dir.err)" >&2; fi
	done
	printf '| %s | %s (%d ms) | %s | %s | `%s` | %d | %d | %d | %d | %s | %s | %s |\n' "$tool" "$speed" "$delay" "$machine" "$change" "$gate" "$E" \
		"$broken" "$open" "$passed" "$(tr ' ' '\n' <<<"$units" | grep . | median)" "$(tr ' ' '\n' <<<"$took" | grep . | median)" \
		"$(tr ' ' '\n' <<<"$cpu" | grep . | awk '{printf "%.0f%%\n", 100*$1}' | sort -n | median)"
done
echo
echo "runs and documents: $OUT"
