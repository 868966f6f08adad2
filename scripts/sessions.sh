#!/usr/bin/env bash
# sessions.sh — many stdio sessions of a slow-starting server: every child
# is `readbench serve --stdio` behind a start delay (or, with SERVER set, that
# command, such as a Node server from peers/), connected a bounded number at a
# time. Prints how long connecting took, how many of how many sessions
# connected and why the others did not, the handshake and first-read figures,
# and the reads of the run.
#   ./scripts/sessions.sh [sessions] [start-delay] [handshake-timeout] [connect-rate]
#   defaults: 200 sessions, 0.5 s start, 30s timeout, no rate (as fast as allowed)
#   SERVER='node peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio' \
#   MIX='{class: text, template: "demo://resource/dynamic/text/{id}", vars: {id: ["1", "2"]}}' ./scripts/sessions.sh 200 0
set -euo pipefail
n=${1:-200}
delay=${2:-0.5}
timeout=${3:-30s}
rate=${4:-}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/readbench" ./cmd/readbench
server=${SERVER:-"$tmp/readbench serve --stdio"}
extra=""
[ -n "$rate" ] && extra=", connect_rate: $rate"
mix=${MIX:-'{class: md, mime: text/markdown, size: 1KiB}'}
cat > "$tmp/w.yaml" <<YAML
name: sessions-$n
target: {stdio: [sh, -c, "sleep $delay; exec $server"]}
sessions: $n
load: {rate: 100/s, duration: 5s, handshake_timeout: $timeout, min_sessions: 1$extra}
turn: {attachments: 1, read_timeout: 10s}
mix:
  - $mix
YAML
start=$(date +%s.%N)
set +e
"$tmp/readbench" run "$tmp/w.yaml" --quiet --out "$tmp/r.json" 2>"$tmp/err.log"
code=$?
set -e
end=$(date +%s.%N)
echo "exit $code after $(echo "$end - $start" | bc) s (connect, 5 s of load, close)"
if [ ! -f "$tmp/r.json" ]; then
  cat "$tmp/err.log"
  exit "$code"
fi
grep -v '^$' "$tmp/err.log" | head -5 || true
jq -r '"sessions: \(.sessions.connected) of \(.sessions.asked) connected, \(.sessions.failed) failed",
  (.sessions.errors[] | "  \(.count)× \(.message)"),
  "handshake: n \(.handshake.count), p50 \(.handshake.p50_ms) ms, p99 \(.handshake.p99_ms) ms, max \(.handshake.max_ms) ms",
  "first read: n \(.first_read.count), p50 \(.first_read.p50_ms) ms, p99 \(.first_read.p99_ms) ms",
  "reads: \(.totals.scheduled) scheduled, ok \(.totals.outcomes.ok), read p99 \(.read.p99_ms) ms"' "$tmp/r.json"
