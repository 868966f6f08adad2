#!/usr/bin/env bash
# scale-memory.sh — what a Streamable HTTP session and a read in flight cost
# readbench in memory, held to its budget: 10,000 reads in flight
# across 2,000 sessions under 256 MiB peak RSS, at most 16 KiB per read in
# flight and 8 KiB per idle session.
#
# Starts `readbench serve --listen` on 127.0.0.1 and runs readbench against
# it three times under /usr/bin/time (peak RSS of readbench alone: the
# server is another process), each for DURATION:
#
#   base      1 session, 1 turn a second: the process itself;
#   idle      SESSIONS sessions, 1 turn a second: (idle - base) / SESSIONS
#             is the cost of a session that does (almost) nothing;
#   in flight SESSIONS sessions, closed model, TURNS turns of 4 reads in
#             flight (4 × TURNS reads), each held 1 s by the server:
#             (in flight - idle) / reads is the cost of a read in flight.
#
# With REPEAT=n each run is done n times: the per-unit figures are of the
# median round of each run (peaks move between runs on a busy machine),
# the peak RSS bound is held by the largest round, so that it holds on
# every run. Prints the three peak RSS figures, then the three figures the
# bounds are about (peak RSS of SESSIONS sessions with 4 × TURNS reads in
# flight, KiB per read in flight, KiB per idle session), PASS or FAIL each;
# exits 1 when one fails. A peak includes opening the sessions (at most 64
# connecting at once: driver, connectParallel). readbench sets its own soft
# memory limit from the reads in flight and sessions of a Streamable HTTP
# run (cmd/readbench, memoryLimit); GOMEMLIMIT, exported, replaces it.
#
#   ./scripts/scale-memory.sh                  # 2,000 sessions, 10,000 reads in flight, 10s each
#   REPEAT=3 ./scripts/scale-memory.sh         # the median of 3 rounds; about 4 minutes
#   SESSIONS=500 TURNS=500 ./scripts/scale-memory.sh
#
# Needs Go, python3 and GNU time (/usr/bin/time). The open-files limit is
# raised to what the reads need (a connection each, on both sides), within
# the hard limit. Every process it starts is ended on exit, Ctrl-C
# included.
set -euo pipefail

REPEAT=${REPEAT:-1}
SESSIONS=${SESSIONS:-2000}
TURNS=${TURNS:-2500}
DURATION=${DURATION:-10s}
MAX_RSS_MIB=256
MAX_PER_READ_KIB=16
MAX_PER_SESSION_KIB=8
reads=$((TURNS * 4))

SCRIPT=scale-memory.sh
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
[[ -x /usr/bin/time ]] || die "needs GNU time at /usr/bin/time (Debian: apt-get install time)"
for c in go python3; do command -v "$c" >/dev/null || die "needs $c"; done
secs=${DURATION%s}
[[ $secs =~ ^[0-9]+$ ]] || die "DURATION must be whole seconds, such as 10s"
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || die "REPEAT must be a count of at least 1"

# A connection per read in flight and per session, on each side, and some
# to spare.
need=$((reads + SESSIONS + 1024))
hard=$(ulimit -Hn)
if [[ $hard != unlimited ]] && ((hard < need)); then
	die "the open-files hard limit is $hard, $reads reads in flight over $SESSIONS sessions need $need (ulimit -Hn; or fewer TURNS)"
fi
(($(ulimit -Sn) >= need)) || ulimit -Sn "$need"

echo "building readbench…" >&2
go build -o "$tmp/readbench" ./cmd/readbench

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port/mcp"
"$tmp/readbench" serve --listen "127.0.0.1:$port" 2>"$tmp/serve.log" &
server_pid=$!
for _ in $(seq 50); do
	python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$port" 2>/dev/null && break
	sleep 0.1
done

# workload NAME SESSIONS LOAD: 1 KiB reads that the server holds 1 s each.
workload() {
	printf 'name: %s\nsessions: %s\nload: %s\nturn: {attachments: 4, read_timeout: 60s}\nmix:\n  - {class: held, mime: text/markdown, size: 1KiB, delay: 1s}\n' \
		"$1" "$2" "$3" >"$tmp/$1.yaml"
}
workload base 1 "{rate: 1/s, duration: $DURATION}"
workload idle "$SESSIONS" "{rate: 1/s, duration: $DURATION}"
workload inflight "$SESSIONS" "{model: closed, concurrency: $TURNS, duration: $DURATION}"

run() { # NAME: the peak RSS of readbench's run of workload NAME, in KiB
	timeout -k 5 $((secs + 300)) /usr/bin/time -f '%M' -o "$tmp/$1.time" \
		"$tmp/readbench" run "$tmp/$1.yaml" --target "$url" --quiet --no-live --out "$tmp/$1.json" 2>"$tmp/$1.log" ||
		{ cat "$tmp/$1.log" >&2; die "readbench run $1 failed"; }
	python3 - "$tmp/$1.json" "$1" <<'PY' >&2
import json, sys
t = json.load(open(sys.argv[1]))["totals"]
bad = {k: v for k, v in t["outcomes"].items() if k != "ok" and v}
print("  %s: %d reads, %d ok%s" % (sys.argv[2], t["scheduled"], t["outcomes"].get("ok", 0),
      "; not ok: %s" % bad if bad else ""))
PY
	tail -n 1 "$tmp/$1.time"
}
rss_base= rss_idle= rss_inflight=
for round in $(seq "$REPEAT"); do
	echo "round $round/$REPEAT" >&2
	echo "base: 1 session, 1 turn/s for $DURATION" >&2
	rss_base+="$(run base),"
	echo "idle: $SESSIONS sessions, 1 turn/s for $DURATION" >&2
	rss_idle+="$(run idle),"
	echo "in flight: $SESSIONS sessions, $reads reads in flight (closed model, $TURNS turns of 4, 1 s server delay) for $DURATION" >&2
	rss_inflight+="$(run inflight),"
done

python3 - "$rss_base" "$rss_idle" "$rss_inflight" "$SESSIONS" "$reads" \
	"$MAX_RSS_MIB" "$MAX_PER_READ_KIB" "$MAX_PER_SESSION_KIB" <<'PY'
import statistics, sys
rounds = [[int(x) for x in a.split(",") if x] for a in sys.argv[1:4]]
if len(rounds[0]) > 1:
    for name, r in zip(("base", "idle", "in flight"), rounds):
        print("peak RSS of %s, each round: %s MiB" % (name, ", ".join("%.1f" % (x / 1024) for x in r)))
base, idle, inflight = (statistics.median(r) for r in rounds)  # the median round of each
sessions, reads, max_rss, max_read, max_session = map(int, sys.argv[4:])
per_session = (idle - base) / sessions  # KiB
per_read = (inflight - idle) / reads
fails = 0
def line(what, value, bound, unit):
    global fails
    ok = value <= bound
    fails += not ok
    print("%-52s %9.1f %s  (bound %d %s)  %s" % (what, value, unit, bound, unit, "PASS" if ok else "FAIL"))
print("peak RSS of readbench (median round): base %.1f MiB, %d idle sessions %.1f MiB, %d reads in flight %.1f MiB"
      % (base / 1024, sessions, idle / 1024, reads, inflight / 1024))
worst = max(rounds[2])  # the bound holds on every round, not only the median
line("peak RSS, %d reads in flight over %d sessions%s" % (reads, sessions, " (largest round)" if len(rounds[2]) > 1 else ""),
     worst / 1024, max_rss, "MiB")
line("per read in flight ((in flight - idle) / reads)", per_read, max_read, "KiB")
line("per idle session ((idle - base) / sessions)", per_session, max_session, "KiB")
sys.exit(1 if fails else 0)
PY
