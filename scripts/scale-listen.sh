#!/usr/bin/env bash
# scale-listen.sh — what open listen streams cost readbench in memory,
# held to its budget: 10,000 listen streams from one `readbench run` under
# 256 MiB peak RSS (issue 43, item 5).
#
# Starts `readbench serve --listen` on 127.0.0.1 (another process: its
# memory is not counted) and runs readbench against it under /usr/bin/time,
# for each era in ERAS:
#
#   2026    LISTENERS listeners × STREAMS subscriptions/listen streams over
#           Streamable HTTP (each stream a POST whose SSE answer stays
#           open: a connection each);
#   legacy  LISTENERS × STREAMS sessions of the 2025-11-25 era against
#           `serve --stateful`, each with its resources/subscribe and its
#           standalone GET stream (a legacy session has one stream of
#           notifications, so as many sessions as streams).
#
# Every listener subscribes to one document, which readbench's changer
# changes once a second with the server's touch tool (every stream is
# told: 10,000 notifications a second), without re-reads (the streams'
# cost, not the reads'). The listeners open during a WARMUP, then are held
# for DURATION. A run passes when every stream opened, nothing was
# missed, and readbench's peak RSS stayed under 256 MiB.
#
# Open files: a stream is a connection, a file descriptor on each side.
# readbench (and serve) raise their soft RLIMIT_NOFILE to the hard limit
# when they start, and `readbench run` says on stderr before the run when
# its listeners need more than that allows. When the hard limit is below
# what the streams need this script raises it (as root) or refuses to
# start, saying so.
#
#   ./scripts/scale-listen.sh                            # 10,000 streams, both eras
#   ERAS=2026 LISTENERS=10 STREAMS=100 ./scripts/scale-listen.sh
#
# Needs Go, python3, jq and GNU time (/usr/bin/time). Every process it
# starts is ended on exit, Ctrl-C included.
set -euo pipefail

LISTENERS=${LISTENERS:-100}
STREAMS=${STREAMS:-100}
ERAS=${ERAS:-2026 legacy}
WARMUP=${WARMUP:-20s}
DURATION=${DURATION:-10s}
MAX_RSS_MIB=256
total=$((LISTENERS * STREAMS))

SCRIPT=scale-listen.sh
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
[[ -x /usr/bin/time ]] || die "needs GNU time at /usr/bin/time (Debian: apt-get install time)"
for c in go python3 jq; do command -v "$c" >/dev/null || die "needs $c"; done
[[ ${DURATION%s} =~ ^[0-9]+$ && ${WARMUP%s} =~ ^[0-9]+$ ]] || die "DURATION and WARMUP must be whole seconds, such as 10s"
secs=$((${DURATION%s} + ${WARMUP%s}))

# A connection per 2026-07-28 stream and per listener's requests; two per
# legacy session (its standalone stream, its requests); on each side, and
# some to spare. Only root may raise a hard limit: when it cannot be
# raised, the legacy run is made with as many sessions as it allows, and
# says so.
need=$((total + LISTENERS + 1024))
legacy_need=$((2 * total + 1024))
case " $ERAS " in *" legacy "*) ((legacy_need > need)) && need=$legacy_need ;; esac
hard=$(ulimit -Hn)
if [[ $hard != unlimited ]] && ((hard < need)); then
	if ulimit -Hn "$need" 2>/dev/null; then
		echo "open files: hard limit raised from $hard to $need" >&2
		hard=$need
	fi
fi
if [[ $hard != unlimited ]] && ((hard < total + LISTENERS + 1024)); then
	die "the open-files hard limit is $hard, $total streams need $((total + LISTENERS + 1024)) (as root: ulimit -Hn $need; or fewer LISTENERS or STREAMS)"
fi
legacy_total=$total
if [[ $hard != unlimited ]] && ((hard < legacy_need)); then
	legacy_total=$(((hard - 1024) / 2))
	echo "open files: the hard limit $hard (not raised: $(id -un) may not) allows $legacy_total legacy sessions of 2 connections each, not $total" >&2
fi
ulimit -Sn "$hard"
echo "open files: soft limit $(ulimit -Sn), hard $hard (readbench and serve raise their soft limit to the hard one)" >&2

echo "building readbench…" >&2
go build -o "$tmp/readbench" ./cmd/readbench


start_serve() { # FLAGS...: serve on a free port, its URL in $url
	local port
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	url="http://127.0.0.1:$port/mcp"
	"$tmp/readbench" serve --listen "127.0.0.1:$port" "$@" 2>"$tmp/serve.log" &
	server_pid=$!
	for _ in $(seq 50); do
		python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$port" 2>/dev/null && return 0
		sleep 0.1
	done
	die "readbench serve did not start: $(cat "$tmp/serve.log")"
}

workload() { # NAME PROTOCOL LISTENERS STREAMS
	cat >"$tmp/$1.yaml" <<YAML
name: $1
protocol: $2
sessions: 1
load: {rate: 1/s, duration: $DURATION, warmup: $WARMUP}
turn: {attachments: 1, read_timeout: 60s}
mix:
  - {class: md, mime: text/markdown, size: 1KiB}
listen:
  listeners: $3
  streams: $4
  uris: ["sim:///watched.md?mime=text/markdown&size=1KiB"]
  reread: {on: false}
changes: {rate: 1/s, via: {tool: touch, args: {uri: "{uri}"}}}
YAML
}

fails=0
results=()
for era in $ERAS; do
	case $era in
	2026) start_serve; workload "$era" auto "$LISTENERS" "$STREAMS" ;;
	legacy) start_serve --stateful; workload "$era" 2025-11-25 "$legacy_total" 1 ;;
	*) die "ERAS: want 2026 and/or legacy, not $era" ;;
	esac
	want=$total
	[[ $era == legacy ]] && want=$legacy_total
	echo "$era: $want listen streams for ${WARMUP} warmup + $DURATION…" >&2
	timeout -k 5 $((secs + 300)) /usr/bin/time -f '%M' -o "$tmp/$era.time" \
		"$tmp/readbench" run "$tmp/$era.yaml" --target "$url" --quiet --no-live --out "$tmp/$era.json" 2>"$tmp/$era.log" ||
		{ cat "$tmp/$era.log" >&2; die "readbench run $era failed"; }
	stop_server
	grep -i "open-files" "$tmp/$era.log" >&2 || true
	rss=$(tail -n 1 "$tmp/$era.time")
	line=$(jq -r --argjson rss "$rss" --argjson max $MAX_RSS_MIB '.subscriptions as $s |
		"\($s.mode) \($s.streams.opened)/\($s.streams.asked) \($s.notifications.expected) \($s.notifications.notified) \($s.notifications.missed) \($s.ack.p50_ms) \($s.ack.p99_ms) \($s.notify.p50_ms) \($s.notify.p99_ms) \($rss / 1024 * 10 | floor / 10)"' "$tmp/$era.json")
	read -r mode opened expected notified missed ackp50 ackp99 notp50 notp99 mib <<<"$line"
	verdict=PASS
	if ((rss > MAX_RSS_MIB * 1024)) || [[ $opened != "$want/$want" ]] || ((missed != 0)); then
		verdict=FAIL
		fails=$((fails + 1))
	fi
	results+=("| $era ($mode) | $opened | $mib | $expected | $notified | $missed | $ackp50 / $ackp99 | $notp50 / $notp99 | $verdict |")
done

echo
echo "readbench's peak RSS holding $total listen streams (bound $MAX_RSS_MIB MiB), $(nproc) cores, $(date -u +%F):"
echo
echo "| era | streams open | peak RSS MiB | expected | notified | missed | ack p50 / p99 ms | notify p50 / p99 ms | |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${results[@]}"
exit $((fails > 0))
