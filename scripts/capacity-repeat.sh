#!/usr/bin/env bash
# capacity-repeat.sh — how repeatable `readbench capacity` is: the README's
# knee example run N times against one simulated server.
#
# Builds readbench, starts `readbench serve --listen 127.0.0.1:PORT
# --workers 4` (four workers that hold each read 10 ms: at most 400
# reads/s), and runs the README's capacity search of knee.yaml N times
# (SLO read.p99<50ms,errors<1%, 100/s to 800/s, 2 s steps, three
# bisections, the default 20 s hold). For each run it prints the maximum
# sustainable rate, what ended the search, the hold (its rate and whether
# it held the SLO), the resolution and how many steps were run again;
# then the spread: lowest and highest rate reported, how many fell in
# 350–400 turns/s, how many the generator could not tell, how many were
# charged to the server below 350.
#
#   ./scripts/capacity-repeat.sh          # N=8; about a minute a run
#   N=4 HOLD=20s PORT=18437 ./scripts/capacity-repeat.sh
#   N=3 TARGET=sdk HOG=1 ./scripts/capacity-repeat.sh
#
# TARGET=sdk searches scripts/sdkserver instead (the official Go SDK's
# server, no one here wrote it: --delay 5ms --workers 2, at most ~400
# reads/s; three resources, one read a turn). HOG=1 keeps a CPU hog on
# every core through each run (bounded by timeout, ended with the run):
# the busy machine of a shared CI runner.
#
# Each run's JSON finding and step results are kept in OUT (default a
# temporary folder, removed on exit unless OUT is given). Needs Go and
# python3. The server it starts is ended on exit, Ctrl-C included.
set -euo pipefail

N=${N:-8}
PORT=${PORT:-18437}
HOLD=${HOLD:-20s}
TARGET=${TARGET:-sim}
HOG=${HOG:-0}

SCRIPT=capacity-repeat.sh
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
out=${OUT:-$tmp/runs}
mkdir -p "$out"
for c in go python3; do command -v "$c" >/dev/null || die "needs $c"; done

echo "building readbench…" >&2
go build -o "$tmp/readbench" ./cmd/readbench
case $TARGET in
sim) "$tmp/readbench" serve --listen "127.0.0.1:$PORT" --workers 4 >"$tmp/serve.log" 2>&1 & ;;
sdk)
	go build -o "$tmp/sdkserver" ./scripts/sdkserver
	"$tmp/sdkserver" --delay 5ms --workers 2 --http "127.0.0.1:$PORT" >"$tmp/serve.log" 2>&1 &
	;;
*) die "TARGET must be sim or sdk, not $TARGET" ;;
esac
server_pid=$!
for _ in $(seq 50); do
	if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then break; fi
	kill -0 "$server_pid" 2>/dev/null || die "the server did not start: $(cat "$tmp/serve.log")"
	sleep 0.1
done

if [ "$TARGET" = sdk ]; then
	printf '%s\n' 'name: knee-sdk' 'sessions: 4' 'load: {rate: 50/s}' 'turn: {attachments: 1, read_timeout: 5s, deadline: 3s}' \
		'mix: [{class: doc, weight: 1, uris: ["docs://sdk/1", "docs://sdk/2", "docs://sdk/3"]}]' >"$tmp/knee.yaml"
else
	printf '%s\n' 'name: knee' 'sessions: 4' 'load: {rate: 50/s}' 'turn: {attachments: 1, read_timeout: 5s, deadline: 3s}' \
		'mix: [{class: doc, weight: 1, mime: text/markdown, size: 1KiB, delay: 10ms}]' >"$tmp/knee.yaml"
fi

# hog starts a CPU hog per core for at most $1 seconds; unhog ends them.
hogs=()
hog() {
	for _ in $(seq "$(nproc)"); do
		timeout "$1" sh -c 'while :; do :; done' &
		hogs+=($!)
	done
}
unhog() {
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
	hogs=()
}
trap 'unhog; cleanup' EXIT

printf 'machine: %s cores, load average %s; target %s; hog per core: %s\n' "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)" "$TARGET" "$HOG"
printf '%-4s %-9s %-11s %-22s %-11s %-8s %s\n' run "max/s" limited_by hold resolution re-runs seconds
for i in $(seq "$N"); do
	start=$SECONDS
	if [ "$HOG" = 1 ]; then hog 120; fi
	code=0 # 1: the rate is not known (max_sustainable_rate null), which the finding says
	"$tmp/readbench" capacity "$tmp/knee.yaml" --target "http://127.0.0.1:$PORT/mcp" --slo 'read.p99<50ms,errors<1%' \
		--from 100/s --to 800/s --step-duration 2s --step-warmup 500ms --refine 3 --hold "$HOLD" \
		--format json -q --out "$out/run-$i" >"$out/run-$i.json" || code=$?
	[ "$code" -le 1 ] || die "run $i failed (exit $code)"
	unhog
	python3 - "$out/run-$i.json" "$i" $((SECONDS - start)) <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
h = r.get("hold")
hold = "none" if not h else "%g/s %gs %s" % (h["rate"], h["duration_s"], "pass" if h["pass"] else "FAIL")
reruns = sum(1 for s in r["steps"] if s.get("rerun"))
ps = []
for s in r["steps"]:
    try:
        p = json.load(open(s["file"]))["host"]["cpu_pressure"]
        if p is not None:
            ps.append(p)
    except (OSError, KeyError, ValueError):
        pass
iv = r.get("interval")
extra = "" if not iv else "  interval >= %g%s, unmeasured %s" % (iv["low"], ", < %g" % iv["high"] if iv["high"] else "", iv["unmeasured"])
if ps:
    extra += "  cpu_pressure %.2f-%.2f" % (min(ps), max(ps))
rate = r["max_sustainable_rate"]  # null: not known
print("%-4s %-9s %-11s %-22s %-11s %-8d %s%s" % (sys.argv[2], "-" if rate is None else "%g" % rate, r["limited_by"], hold,
      "%g/s" % r["resolution"] if r["resolution"] else "-", reruns, sys.argv[3], extra))
EOF
done

python3 - "$out" "$N" <<'EOF'
import json, sys
rs = [json.load(open("%s/run-%d.json" % (sys.argv[1], i))) for i in range(1, int(sys.argv[2]) + 1)]
rates = [r["max_sustainable_rate"] for r in rs]  # None: not known
told = [r for r in rs if r["limited_by"] in ("slo", "range", "hold")]  # charged to the server (hold: 0, no rate held)
tr = [r["max_sustainable_rate"] or 0 for r in told]
inband = sum(1 for v in tr if 350 <= v <= 400)
gen = sum(1 for r in rs if r["limited_by"] in ("generator", "machine"))
low = sum(1 for v in tr if v < 350)
held = sum(1 for r in rs if r.get("hold") and r["hold"]["pass"])
print()
print("reported: %s" % ", ".join("-" if v is None else "%g" % v for v in rates))
if tr:
    print("charged to the server: %d runs, %g–%g turns/s (spread %g), %d in 350–400, %d below 350" % (len(tr), min(tr), max(tr), max(tr) - min(tr), inband, low))
print("the generator or the machine could not tell: %d; every hold broke (none reported): %d; hold passed: %d of %d" % (gen, sum(1 for r in rs if r["limited_by"] == "hold"), held, len(rs)))
EOF
