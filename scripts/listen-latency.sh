#!/usr/bin/env bash
# listen-latency.sh — the latency of subscriptions on a server no one here
# wrote: the official Go SDK's (scripts/sdkserver, v1.8.0), at 10, 100 and
# 1,000 listeners, on every transport it serves, in both eras (issue 43's
# closing measurement).
#
# For each transport × era × listener count, one bounded `readbench run`:
# LISTENERS listeners, each holding one subscription to docs://sdk/1 (its
# listen stream in 2026-07-28, its resources/subscribe in the legacy era),
# opened during a warmup long enough for them all; then CHANGE_RATE
# changes a second for DURATION, each made with the server's touch tool
# (Server.ResourceUpdated) and timed from its send to each listener's
# arrival; no re-reads (the notifications' latency, not a re-read storm's
# load), and one read a second beside them.
#
#   transport         2026-07-28                          legacy (2025-11-25; HTTP+SSE 2024-11-05)
#   Streamable HTTP   subscriptions/listen, --stateless   resources/subscribe, its sessions' GET stream
#   stdio             subscriptions/listen                resources/subscribe
#   HTTP+SSE          (none: a legacy transport)          resources/subscribe, the session's stream
#
# Over stdio each listener is a server process of its own, and a change is
# the touch tool called on every listener's server at once (recorded as one
# change): at 1,000 listeners, 1,000 processes.
#
# Prints a markdown table: listeners open, ack p50/p99 (listen →
# acknowledged; legacy: subscribe → its answer), notify p50/p99 (change →
# arrival), and the accounting (expected = notified + coalesced + missed),
# violations counted by readbench. Exits 1 when a run fails or a count's
# identity breaks.
#
#   ./scripts/listen-latency.sh
#   COUNTS="10 100" TRANSPORTS=http ERAS=2026 ./scripts/listen-latency.sh
#
# Needs Go, python3 and jq. Every process it starts is ended on exit,
# Ctrl-C included.
set -euo pipefail

COUNTS=${COUNTS:-10 100 1000}
TRANSPORTS=${TRANSPORTS:-http stdio sse}
ERAS=${ERAS:-2026 legacy}
DURATION=${DURATION:-5s}
CHANGE_RATE=${CHANGE_RATE:-2/s}
DELAY=${DELAY:-1ms}

SCRIPT=listen-latency.sh
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
for c in go python3 jq; do command -v "$c" >/dev/null || die "needs $c"; done
[[ ${DURATION%s} =~ ^[0-9]+$ ]] || die "DURATION must be whole seconds, such as 5s"

echo "building readbench and sdkserver…" >&2
go build -o "$tmp/readbench" ./cmd/readbench
go build -o "$tmp/sdkserver" ./scripts/sdkserver


start_serve() { # FLAG PATH: sdkserver over HTTP on a free port, its URL in $url
	local port
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	"$tmp/sdkserver" --delay "$DELAY" "$1" "127.0.0.1:$port" "${@:3}" 2>"$tmp/serve.log" &
	server_pid=$!
	url="http://127.0.0.1:$port$2"
	for _ in $(seq 50); do
		python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$port" 2>/dev/null && return 0
		sleep 0.1
	done
	die "sdkserver did not start: $(cat "$tmp/serve.log")"
}

# workload NAME PROTOCOL LISTENERS WARMUP
workload() {
	cat >"$tmp/$1.yaml" <<YAML
name: $1
protocol: $2
sessions: 1
load: {rate: 1/s, duration: $DURATION, warmup: $4}
turn: {attachments: 1, read_timeout: 60s}
mix:
  - {class: doc, uri: "docs://sdk/1"}
listen: {listeners: $3, uris: ["docs://sdk/1"], reread: {on: false}}
changes: {rate: $CHANGE_RATE, via: {tool: touch, args: {uri: "{uri}"}}}
YAML
}

rows=()
fails=0
for transport in $TRANSPORTS; do
	for era in $ERAS; do
		[[ $transport == sse && $era == 2026 ]] && continue # HTTP+SSE has no 2026-07-28
		case $era in
		2026) proto=2026-07-28 ;;
		legacy) proto=2025-11-25 ;;
		*) die "ERAS: want 2026 and/or legacy, not $era" ;;
		esac
		for n in $COUNTS; do
			# Long enough to open them all: stdio starts a process each.
			per=200
			[[ $transport == stdio ]] && per=40
			warmup=$((2 + n / per))
			case $transport in
			http)
				if [[ $era == 2026 ]]; then start_serve --http /mcp --stateless; else start_serve --http /mcp; fi
				target=$url
				;;
			sse)
				proto=auto # the SDK's HTTP+SSE speaks 2024-11-05
				start_serve --sse /sse
				target=sse+$url
				;;
			stdio) target="stdio:$tmp/sdkserver --delay $DELAY" ;;
			*) die "TRANSPORTS: want http, stdio and/or sse, not $transport" ;;
			esac
			name="$transport-$era-$n"
			workload "$name" "$proto" "$n" "${warmup}s"
			echo "$transport $era: $n listeners (${warmup}s to open, $DURATION of changes at $CHANGE_RATE)…" >&2
			if ! timeout -k 5 $((warmup + ${DURATION%s} + 120)) "$tmp/readbench" run "$tmp/$name.yaml" --target "$target" \
				--quiet --no-live --out "$tmp/$name.json" 2>"$tmp/$name.log"; then
				tail -n 5 "$tmp/$name.log" >&2
				rows+=("| $transport | $era | $n | run failed (exit status above) | | | | | | | | |")
				fails=$((fails + 1))
				stop_server
				continue
			fi
			stop_server
			row=$(jq -r --arg t "$transport" --arg e "$era" --arg n "$n" '.subscriptions as $s | $s.notifications as $c |
				def ms: if . == null then "n/a" else (. * 10 | round / 10 | tostring) end;
				"| \($t) | \($e) (\($s.mode)) | \($n) | \($s.listeners.listening) | \($s.ack.p50_ms | ms) | \($s.ack.p99_ms | ms) | \($s.notify.p50_ms | ms) | \($s.notify.p99_ms | ms) | \($c.expected) | \($c.notified) | \($c.coalesced) | \($c.missed) | \([$s.violations[]] | add) |"' "$tmp/$name.json")
			ok=$(jq -r '.subscriptions.notifications.identity_ok' "$tmp/$name.json")
			[[ $ok == true ]] || fails=$((fails + 1))
			rows+=("$row")
		done
	done
done

echo
echo "Subscriptions on the official Go SDK's server (scripts/sdkserver, v1.8.0, reads ${DELAY}), $CHANGE_RATE changes for $DURATION, $(nproc) cores, $(date -u '+%F %H:%M') UTC:"
echo
echo "| transport | era | listeners | open | ack p50 ms | ack p99 ms | notify p50 ms | notify p99 ms | expected | notified | coalesced | missed | violations |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
exit $((fails > 0))
