#!/usr/bin/env bash
# turns-asked.sh — false alarms and detections of the generator verdict's
# turns asked (results/generator.go), before and after a run of a count
# of turns was asked for that count at most: on a quiet machine, with one
# busy loop per core, and saturated (four per core), against the official
# Go SDK's server (scripts/sdkserver over stdio, 50 ms reads).
#
#   ./scripts/turns-asked.sh              # RUNS=10 runs of each kind a binary and a machine; about 5 minutes
#   BASE=50173c0^ RUNS=20 ./scripts/turns-asked.sh
#
# False alarm: `turns: 20` at 100/s, 2 reads a turn — every turn is
# scheduled, so "scheduled only N of the M turns asked" is always false
# (before the bound, a last turn launched 21 ms late made the turns asked
# rate × span = 19 + 2.1 > 20 / 0.95).
# Detection: 20,000 turns/s for 1 s, which no generator here keeps:
# generator_bound must be true. Builds readbench from the working tree
# and from BASE (git archive), and the SDK server.
set -euo pipefail
RUNS=${RUNS:-10}
BASE=${BASE:-50173c0^}
SCRIPT=turns-asked.sh
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
busy=()
stop_busy() {
	if ((${#busy[@]})); then kill "${busy[@]}" 2>/dev/null || true; wait "${busy[@]}" 2>/dev/null || true; fi
	busy=()
}
trap 'stop_busy; cleanup' EXIT

echo "building readbench (working tree and $BASE) and the SDK server…" >&2
go build -o "$tmp/new" ./cmd/readbench
mkdir "$tmp/base" && git archive "$BASE" | tar -x -C "$tmp/base"
(cd "$tmp/base" && go build -o "$tmp/old" ./cmd/readbench)
go build -o "$tmp/sdkserver" ./scripts/sdkserver
target="stdio:$tmp/sdkserver --delay 50ms"
printf 'name: fa\nload: {rate: 100/s, turns: 20, warmup: 0s}\nturn: {attachments: 2, read_timeout: 5s}\nmix: [{class: c, uri: "docs://sdk/1"}]\n' >"$tmp/fa.yaml"
printf 'name: det\nsessions: 2\nload: {rate: 20000/s, duration: 1s, warmup: 0s}\nturn: {attachments: 1, read_timeout: 5s}\nmix: [{class: c, uri: "docs://sdk/1"}]\n' >"$tmp/det.yaml"

# flagged FILE: 1 when the result says the generator scheduled too few
# turns, or (DET) that the generator limited the run
flagged() {
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
if sys.argv[2] == "fa":
    print(int("turns asked" in (r["generator"].get("saturation") or "")))
else:
    print(int(bool(r["generator_bound"])))' "$1" "$2"
}
printf '| machine | binary | false alarms (turns: 20 at 100/s) | detections (20,000/s) |\n|---|---|---:|---:|\n'
for machine in quiet busy saturated; do
	n=0
	case $machine in busy) n=1 ;; saturated) n=4 ;; esac
	for _ in $(seq $((n * $(nproc)))); do (while :; do :; done) & busy+=($!); done
	for bin in old new; do
		fa=0 det=0
		for i in $(seq "$RUNS"); do
			"$tmp/$bin" run "$tmp/fa.yaml" --target "$target" --out "$tmp/r.json" --force -q >/dev/null 2>&1 || true
			fa=$((fa + $(flagged "$tmp/r.json" fa)))
		done
		for i in $(seq $(((RUNS + 2) / 3))); do
			"$tmp/$bin" run "$tmp/det.yaml" --target "$target" --out "$tmp/r.json" --force -q >/dev/null 2>&1 || true
			det=$((det + $(flagged "$tmp/r.json" det)))
		done
		label=$([[ $bin == old ]] && echo "$BASE" || echo "working tree")
		printf '| %s (%d busy loops a core) | %s | %d of %d | %d of %d |\n' "$machine" "$n" "$label" "$fa" "$RUNS" "$det" $(((RUNS + 2) / 3))
	done
	stop_busy
done
