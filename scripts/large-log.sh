#!/usr/bin/env bash
# large-log.sh — the wire cost of MCP against raw bytes, for one 12 MiB log
# (the built-in large-log scenario): read whole over MCP (resources/read),
# in MCP ranged chunks (the read tool of seed 004) and in plain HTTP Range
# requests, all from one `readbench serve`, each way in a process of its
# own (run --class), so each process's peak memory is that way's alone.
# Prints `readbench report --format modes`: wire bytes, inflation, time to
# the first usable byte and to the last, parts, and the client's peak RSS.
#   ./scripts/large-log.sh [duration]     (default 20s, the scenario's)
set -euo pipefail
duration=${1:-20s}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/readbench" ./cmd/readbench
"$tmp/readbench" serve --listen 127.0.0.1:0 2>"$tmp/serve.log" &
for _ in $(seq 50); do
  addr=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$tmp/serve.log" | head -1 || true)
  [ -n "$addr" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { echo "large-log.sh: readbench serve printed no address" >&2; cat "$tmp/serve.log" >&2; exit 1; }
run() { # out class target
  "$tmp/readbench" run large-log --class "$2" --target "$3" --duration "$duration" --quiet --out "$tmp/$1"
}
run whole.json whole "$addr/mcp"
run mcp-chunks.json chunked "$addr/mcp"
run http-ranges.json chunked "range+$addr/files/"
"$tmp/readbench" report --format modes "$tmp/whole.json" "$tmp/mcp-chunks.json" "$tmp/http-ranges.json"
