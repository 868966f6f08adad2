#!/usr/bin/env bash
# ab-experiments.sh: how often `readbench ab` cries wolf, and how often it
# finds a slower server, on this machine (docs/compare.md, "ab").
#
# Builds readbench, then runs E experiments per condition, each an `ab` of
# R rounds x D of scripts/ab-experiment.yaml against two `readbench serve
# --stdio` servers:
#   same    the same server on both sides            (a false alarm: exit 1)
#   slow30  the new one 30% slower (--delay-scale 1.3) (found: exit 1)
#   slow20  the new one 20% slower (--delay-scale 1.2)
#   p99     20% slower, at a larger budget (P99_R x P99_D), gated on the tail
# During every other experiment a CPU hog (one busy loop per core) starts
# halfway through and runs for HOG_S seconds (bounded; killed after the
# experiment in any case), so some rounds meet a busy machine.
# The gate is 'read.p50=+10%' (the README's); the JSON of each experiment
# also gives the verdicts of service.p50 and service.p99 bounds, counted
# apart (service time is from the actual send: the generator's lag is not
# in it). Every experiment's runs are kept under OUT.
#
# Usage: scripts/ab-experiments.sh            (E=20 R=5 D=2s)
#        E=5 CONDITIONS="same slow30" scripts/ab-experiments.sh
set -euo pipefail

E=${E:-20}
R=${R:-5}
D=${D:-2s}
P99_E=${P99_E:-5}
P99_R=${P99_R:-8}
P99_D=${P99_D:-5s}
HOG_S=${HOG_S:-8}
CONDITIONS=${CONDITIONS:-"same slow30 slow20 p99"}
OUT=${OUT:-$(mktemp -d -t readbench-ab.XXXXXX)}
GATE='read.p50=+10%'
BOUNDS="$GATE,service.p50=+10%,service.p99=+10%"

cd "$(dirname "$0")/.."
mkdir -p "$OUT"
go build -o "$OUT/readbench" ./cmd/readbench
bin=$OUT/readbench

cp scripts/ab-experiment.yaml "$OUT/w.yaml"

hogs=()
stop_hog() {
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${hogs[@]}"; do wait "$p" 2>/dev/null || true; done
	hogs=()
}
trap stop_hog EXIT

# start_hog AFTER: one busy loop per core, from AFTER seconds on, for
# HOG_S seconds at most.
start_hog() {
	local n
	n=$(nproc)
	for _ in $(seq "$n"); do
		(sleep "$1" && exec timeout "$HOG_S" sh -c 'while :; do :; done') >/dev/null 2>&1 &
		hogs+=($!)
	done
}

# seconds of a duration like 2s or 500ms, rounded up.
secs() { case $1 in *ms) echo 1 ;; *s) echo "${1%s}" ;; esac; }

# experiment NAME SCALE ROUNDS DURATION I: one ab; prints the exit code and
# whether each bound failed (1) or passed (0).
experiment() {
	local name=$1 scale=$2 rounds=$3 dur=$4 i=$5 dir code
	dir=$OUT/$name/$i
	mkdir -p "$OUT/$name"
	if ((i % 2 == 1)); then
		start_hog $((rounds * 2 * ($(secs "$dur") + 1) / 2))
	fi
	code=0
	"$bin" ab "$OUT/w.yaml" --base "stdio:$bin serve --stdio" --new "stdio:$bin serve --stdio --delay-scale $scale" \
		--rounds "$rounds" --duration "$dur" --fail-on "$BOUNDS" --format json -q --out "$dir" \
		>"$dir.json" 2>"$dir.err" || code=$?
	stop_hog
	local fails
	fails=$(jq -r '[.bounds[] | if .pass then 0 else 1 end] | map(tostring) | join(" ")' "$dir.json" 2>/dev/null || echo "? ? ?")
	local excluded
	excluded=$(find "$dir/excluded" -name '*.json' 2>/dev/null | wc -l)
	echo "$code $fails $excluded"
}

# condition NAME SCALE ROUNDS DURATION COUNT
condition() {
	local name=$1 scale=$2 rounds=$3 dur=$4 count=$5
	local exit1=0 p50=0 s50=0 s99=0 other=0 excl=0 i line code a b c x
	for i in $(seq "$count"); do
		line=$(experiment "$name" "$scale" "$rounds" "$dur" "$i")
		read -r code a b c x <<<"$line"
		case $code in 0) ;; 1) exit1=$((exit1 + 1)) ;; *) other=$((other + 1)) ;; esac
		[[ $a == 1 ]] && p50=$((p50 + 1))
		[[ $b == 1 ]] && s50=$((s50 + 1))
		[[ $c == 1 ]] && s99=$((s99 + 1))
		excl=$((excl + x))
		printf '%s %2d/%d: exit %s, read.p50 %s service.p50 %s service.p99 %s, excluded runs %s\n' \
			"$name" "$i" "$count" "$code" "$a" "$b" "$c" "$x" >&2
	done
	printf '%-7s x%-4s %2d x %-4s %2d experiments: exit 1 in %2d; broken: read.p50=+10%% %2d, service.p50=+10%% %2d, service.p99=+10%% %2d; other exits %d; excluded runs %d\n' \
		"$name" "$scale" "$rounds" "$dur" "$count" "$exit1" "$p50" "$s50" "$s99" "$other" "$excl"
}

echo "readbench ab experiments, $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); runs in $OUT"
for cond in $CONDITIONS; do
	case $cond in
	same) condition same 1 "$R" "$D" "$E" ;;
	slow30) condition slow30 1.3 "$R" "$D" "$E" ;;
	slow20) condition slow20 1.2 "$R" "$D" "$E" ;;
	p99) condition p99 1.2 "$P99_R" "$P99_D" "$P99_E" ;;
	*) echo "unknown condition $cond" >&2 && exit 2 ;;
	esac
done
