#!/usr/bin/env bash
# listen-repeat.sh RB CASE N — N listener searches (capacity --sweep
# listeners) with the readbench binary RB, each against a fresh
# `readbench serve` on 127.0.0.1 whose answer is known, one line each:
#   CASE repeat limited_by max_listeners refused_first first_bad_listeners
# CASE limit: --max-listeners 20 (the truth: 20, limit_reached at 21);
# CASE ack:   --ack-per-listener 10ms with ack.p99<200ms (the truth: 19,
#             ack at 20). Each search is bounded (timeout 240 s), each
# server too (300 s). docs/compare.md, "The listener search's verdicts".
set -euo pipefail
rb=$1 case=$2 n=$3
dir=$(mktemp -d)
cat > "$dir/w.yaml" <<'Y'
name: listeners
sessions: 1
load: {rate: 10/s}
turn: {attachments: 1, read_timeout: 5s, deadline: 5s}
mix:
  - {class: md, mime: text/markdown, size: 2KiB}
listen: {listeners: 1, uris: ["sim:///followed.md?mime=text/markdown&size=1KiB"], reread: {on: false}}
changes: {rate: 4/s, via: {tool: touch, args: {uri: "{uri}"}}}
Y
case $case in
  limit) serve=(--max-listeners 20); slo='ack.p99<1s,interference<3x' ;;
  ack) serve=(--ack-per-listener 10ms); slo='ack.p99<200ms' ;;
esac
for i in $(seq "$n"); do
  port=$((18500 + RANDOM % 400))
  timeout 300 "$rb" serve --listen 127.0.0.1:$port "${serve[@]}" >/dev/null 2>&1 &
  spid=$!
  sleep 1
  timeout 240 "$rb" capacity "$dir/w.yaml" --target http://127.0.0.1:$port/mcp --sweep listeners --slo "$slo" \
    --from 4 --to 64 --refine 5 --step-duration 1s --step-warmup 1s --hold 2s --holds 2 --retries 1 \
    --format json --out "$dir/out$i" -q --fail-on-unknown=false 2>/dev/null > "$dir/f$i.json" || true
  kill $spid 2>/dev/null; wait $spid 2>/dev/null || true
  [ -s "$dir/f$i.json" ] || { printf "%s\t%s\ttimeout\n" "$case" "$i"; continue; }
  jq -r --arg c "$case" --arg i "$i" '[$c, $i, .limited_by, (.max_listeners // "null"), .refused_first, .first_bad_listeners] | @tsv' "$dir/f$i.json"
done
rm -rf "$dir"
