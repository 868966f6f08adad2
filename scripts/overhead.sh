#!/usr/bin/env bash
# overhead.sh — what readbench itself adds to a read. The simulated server
# waits a fixed 20 ms per read; the difference between the reported median
# and 20 ms is the client's (and the transport's) overhead. Run it on an
# idle machine: ./scripts/overhead.sh [rate] [duration]
set -euo pipefail
rate=${1:-50/s}
duration=${2:-10s}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/readbench" ./cmd/readbench
cat >"$tmp/w.yaml" <<YAML
name: overhead-20ms
load: {rate: $rate, warmup: 1s, duration: $duration}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: fixed, uri: "sim:///fixed?mime=text/markdown&size=1024&delay=20ms"}
YAML
port=$((20000 + RANDOM % 20000))
"$tmp/readbench" serve --listen "127.0.0.1:$port" 2>/dev/null &
sleep 0.5
median() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("p50 %.3f ms  p99 %.3f ms  service p50 %.3f ms" % (r["read"]["p50_ms"], r["read"]["p99_ms"], r["service"]["p50_ms"]))' "$1"; }
for target in embedded "http://127.0.0.1:$port/mcp"; do
  "$tmp/readbench" run "$tmp/w.yaml" --target "$target" --quiet --out "$tmp/r.json" --force
  printf '%-32s %s\n' "$target" "$(median "$tmp/r.json")"
done
