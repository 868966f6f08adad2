#!/usr/bin/env bash
# compare.sh — what readbench costs per read, against vegeta, bombardier
# and wrk on the same reads of the same server.
#
# Starts `readbench serve --listen` on 127.0.0.1 pinned to one core
# (GOMAXPROCS=1, taskset -c 1) and runs each generator, pinned to the other
# cores, for a fixed duration per case: generator CPU (user + sys of its
# process and its children, from getrusage to the microsecond) per read, the median over REPEAT rounds,
# for 1 KiB reads (closed loop: one read a turn without and with a turn
# deadline, four a turn with one; open loop at 1,000 and 10,000 reads/s),
# a 1 MiB and a 16 MiB blob (16 in flight) and a 40 MiB blob (4 in
# flight), and the default scenario (docs-attachments: 4 reads a turn, an
# 800 ms deadline) over HTTP, where the other tools read the very URIs
# readbench reads;
# and the readbench/vegeta ratio (the median of each round's ratio: the
# tools of a round share the machine's load of the moment), and the
# readbench/bombardier ratio the same way; and what trace context costs
# (four reads a turn with a deadline, run again with --trace-sample 0 in
# the same round: the median of the rounds' ratios). Each tool's peak RSS
# per case (ru_maxrss, the median over the rounds), and readbench's for
# the design-mockups scenario; readbench's scheduling lag at each open-loop
# rate (bombardier -r reports none: -l prints its latency distribution
# only); and
# the simulated server's capacity against what readbench can drive: over
# HTTP (reads/s under wrk at saturation, and CPU per read on one core
# each) and over stdio, the default target (each side's CPU per read from
# the result file's server_cost and generator blocks).
# HTTP/2 rows against h2load (nghttp2-client, from apt-get when missing): h2c and h2 (TLS), 1 KiB and 1 MiB; CASES=h2 runs only them.
#
#   ./scripts/compare.sh             # REPEAT=3 DURATION=5s; 17 minutes on 2 busy cores
#   REPEAT=5 ./scripts/compare.sh
#
# Needs Go, curl, python3 and taskset
# (util-linux); installs vegeta v12.13.0 and bombardier v1.2.6 with
# `go install` into a temporary GOBIN and wrk from Debian (apt-get) when it is missing (the wrk column is
# n/a when it cannot be installed). Every process it starts is ended on
# exit, Ctrl-C included.
set -euo pipefail

REPEAT=${REPEAT:-3}
DURATION=${DURATION:-5s}
VEGETA_VERSION=v12.13.0
BOMBARDIER_VERSION=v1.2.6
CONC=16

SCRIPT=compare.sh
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
for c in go curl python3; do command -v "$c" >/dev/null || die "needs $c"; done

echo "building readbench; installing vegeta $VEGETA_VERSION and bombardier $BOMBARDIER_VERSION (go install)…" >&2
go build -o "$tmp/readbench" ./cmd/readbench
GOBIN="$tmp/bin" go install "github.com/tsenart/vegeta/v12@$VEGETA_VERSION"
GOBIN="$tmp/bin" go install "github.com/codesenberg/bombardier@$BOMBARDIER_VERSION"
vegeta="$tmp/bin/vegeta" bombardier="$tmp/bin/bombardier"
wrk=$(command -v wrk || true)
if [[ -z $wrk ]]; then
	sudo=; [[ $(id -u) == 0 ]] || sudo="sudo -n"
	{ $sudo apt-get install -y wrk || { $sudo apt-get update && $sudo apt-get install -y wrk; }; } >&2 || true
	wrk=$(command -v wrk || true)
	[[ -n $wrk ]] || echo "compare.sh: wrk could not be installed; its column is n/a" >&2
fi

# Pinning: the server on core 1, the generators on the others.
ncpu=$(nproc)
pin_server=() pin_gen=()
if command -v taskset >/dev/null && ((ncpu >= 2)); then
	pin_server=(taskset -c 1)
	gen_cpus=0; ((ncpu > 2)) && gen_cpus="0,2-$((ncpu - 1))"
	pin_gen=(taskset -c "$gen_cpus")
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port/mcp"
GOMAXPROCS=1 "${pin_server[@]}" "$tmp/readbench" serve --listen "127.0.0.1:$port" 2>"$tmp/serve.log" &
server_pid=$!

# The request of a 2026-07-28 stateless read: its headers and its _meta.
body() {
	printf '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"%s","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"compare.sh","version":"1"}}}}' "$1"
}
headers=("Content-Type: application/json" "Accept: application/json, text/event-stream"
	"MCP-Protocol-Version: 2026-07-28" "Mcp-Method: resources/read")
curl_read() { # URI -> the answer; fails unless HTTP 200
	local h=() x
	for x in "${headers[@]}" "Mcp-Name: $1"; do h+=(-H "$x"); done
	curl -sS --fail --max-time 30 -X POST "${h[@]}" --data-binary "$(body "$1")" "$url"
}

text="sim:///compare/text.md?mime=text/markdown&size=1024"
png="sim:///compare/shot.png?mime=image/png&size=1048576"
png16="sim:///compare/big16.png?mime=image/png&size=16777216"
png40="sim:///compare/big.png?mime=image/png&size=41943040"
for _ in $(seq 50); do curl -s -o /dev/null "$url" 2>/dev/null && break; sleep 0.1; done
declare -A answer_bytes # URI -> the size of its answer's body (bombardier's check)
for u in "$text" "$png" "$png16" "$png40"; do # one request checked by hand, and the server's cache warmed
	curl_read "$u" >"$tmp/answer"
	python3 -c 'import json,sys; r=json.load(sys.stdin); c=r["result"]["contents"][0]; assert ("text" in c) != ("blob" in c), r' <"$tmp/answer" ||
		die "the check request for $u failed"
	answer_bytes[$u]=$(wc -c <"$tmp/answer")
done

# Per case: a readbench workload, a vegeta targets file, a wrk script.
# text-deadline and text-deadline-4 are text-closed's reads in turns with
# a deadline (never reached), 16 reads in flight: the other tools, which
# know no turns, send the same requests as for text-closed (case_req).
# default-http is the built-in scenario, set up below. The 40 MiB blob
# is read 4 at a time (CONC/4) by every tool: bombardier keeps each
# answer whole, 16 of them would be over 850 MiB.
# text-open-10k is text-open at 10,000 reads/s (wrk has no open loop).
case_names=(text-closed text-deadline text-deadline-4 png-closed png16-closed png40-closed text-open text-open-10k default-http)
declare -A case_uri=([text-closed]=$text [png-closed]=$png [png16-closed]=$png16 [png40-closed]=$png40 [text-open]=$text [text-open-10k]=$text)
declare -A case_req=([text-closed]=text-closed [text-deadline]=text-closed [text-deadline-4]=text-closed
	[png-closed]=png-closed [png16-closed]=png16-closed [png40-closed]=png40-closed [text-open]=text-open [text-open-10k]=text-open [default-http]=default-http)
declare -A case_conc=([png40-closed]=$((CONC / 4))) # reads in flight, CONC where not set
conc() { echo "${case_conc[$1]:-$CONC}"; }
declare -A open_rate=([text-open]=1000 [text-open-10k]=10000) # the open-loop cases' reads/s
declare -A case_load=(
	[text-closed]="{model: closed, concurrency: $CONC, duration: $DURATION}"
	[text-deadline]="{model: closed, concurrency: $CONC, duration: $DURATION}"
	[text-deadline-4]="{model: closed, concurrency: $((CONC / 4)), duration: $DURATION}"
	[png-closed]="{model: closed, concurrency: $CONC, duration: $DURATION}"
	[png16-closed]="{model: closed, concurrency: $CONC, duration: $DURATION}"
	[png40-closed]="{model: closed, concurrency: $(conc png40-closed), duration: $DURATION}"
	[text-open]="{rate: 1000/s, duration: $DURATION}"
	[text-open-10k]="{rate: 10000/s, duration: $DURATION}")
declare -A case_turn=([text-deadline]="attachments: 1, deadline: 5s" [text-deadline-4]="attachments: 4, deadline: 5s")
workload() { # NAME URI LOAD [ATTACHMENT-TIMEOUT] [TURN-KEYS]
	printf 'name: %s\nsessions: 1\nload: %s\nturn: {%s, read_timeout: %s}\nmix:\n  - {class: c, uri: "%s"}\n' \
		"$1" "$3" "${5:-attachments: 1}" "${4:-10s}" "$2" >"$tmp/$1.yaml"
}
for c in text-deadline text-deadline-4; do
	workload "$c" "$text" "${case_load[$c]}" 10s "${case_turn[$c]}"
done
workload text-open-10k "$text" "${case_load[text-open-10k]}"
for c in text-closed png-closed png16-closed png40-closed text-open; do
	u=${case_uri[$c]}
	t=10s; [[ $c == png16-closed || $c == png40-closed ]] && t=60s
	workload "$c" "$u" "${case_load[$c]}" "$t"
	body "$u" >"$tmp/$c.body"
	{ echo "POST $url"; printf '%s\n' "${headers[@]}" "Mcp-Name: $u"; echo "@$tmp/$c.body"; } >"$tmp/$c.targets"
	python3 - "$tmp/$c.body" "$u" "$c" >"$tmp/$c.lua" <<'PY'
import json, sys
body, uri, case = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
q = lambda s: json.dumps(s)  # a JSON string is a valid Lua string literal here (ASCII)
print('wrk.method = "POST"')
print('wrk.body = ' + q(body))
for k, v in [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream"),
             ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "resources/read"), ("Mcp-Name", uri)]:
    print('wrk.headers[%s] = %s' % (q(k), q(v)))
if case == "text-open":  # wrk has no open loop: each connection waits 16 ms between reads (~1,000/s)
    print('function delay() return 16 end')
PY
done

workload stdio "$text" "{model: closed, concurrency: $CONC, duration: $DURATION}" # target: embedded (the default)
secs=${DURATION%s}
[[ $secs =~ ^[0-9]+$ ]] || die "DURATION must be whole seconds, such as 5s"

# default-http: `readbench run --target URL --duration DURATION`, the
# built-in docs-attachments (10 turns/s of 4 reads after a 1 s warmup:
# 40 reads/s, open loop). vegeta sends the very URIs readbench's plan
# reads, in its order, at the same rate for as long (a targets file from
# scripts/planuris); bombardier, which sends one request, runs once per
# class at the class's share of the rate (markdown at the plan's mean
# size, so it moves the same bytes).
default_rate=40 default_secs=$((secs + 1))
go run ./scripts/planuris docs-attachments $((default_rate * default_secs / 4 + 10)) >"$tmp/default.uris"
mkdir -p "$tmp/default"
i=0
while read -r u; do # each read as the other cases' targets are written: body and headers
	body "$u" >"$tmp/default/$i.body"
	{ echo "POST $url"; printf '%s\n' "${headers[@]}" "Mcp-Name: $u"; echo "@$tmp/default/$i.body"; echo; } >>"$tmp/default-http.targets"
	i=$((i + 1))
done <"$tmp/default.uris"
# bombardier's classes: name, URI (markdown at the plan's mean size, so
# that it moves the same bytes) and share of the reads
python3 - "$tmp/default.uris" >"$tmp/default-bombardier.tsv" <<'PY' || die "the default scenario's classes could not be made"
import sys, urllib.parse
uris = open(sys.argv[1]).read().split()
by = {}
for u in uris:
    by.setdefault(urllib.parse.urlparse(u).path.strip("/").split("-")[0] if u.startswith("sim:") else "notfound", []).append(u)
for name, us in by.items():
    u = us[0]
    if name == "markdown":
        q = lambda x: urllib.parse.parse_qs(urllib.parse.urlparse(x).query)
        mean = sum(int(q(x)["size"][0]) for x in us) // len(us)
        u = "sim:///markdown?mime=text%%2Fmarkdown&size=%d&delay=%s" % (mean, urllib.parse.quote(q(u)["delay"][0]))
    print("%s\t%s\t%.4f" % (name, u, len(us) / len(uris)))
PY
while IFS=$'\t' read -r name u _; do body "$u" >"$tmp/default-$name.body"; done <"$tmp/default-bombardier.tsv"
results="$tmp/results.tsv" # case tool round cpu_s reads wall_rate maxrss_kb
timed() { # OUTFILE CMD... : runs CMD bounded, its CPU and peak RSS in OUTFILE
	local out=$1; shift
	# getrusage of the waited-for children, to the microsecond (GNU time
	# prints centiseconds: 4% of a 0.27 s run of the default scenario),
	# less what the children had used before the call: a python3 that is
	# a wrapper (a pyenv shim, a bash script) starts with its own
	# children's CPU counted, 0.3-0.6 s here, which was added to every
	# tool's figure
	python3 -c '
import resource, subprocess, sys
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
code = subprocess.call(sys.argv[2:])
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.6f %.6f %d\n" % (r.ru_utime - r0.ru_utime, r.ru_stime - r0.ru_stime, r.ru_maxrss))
sys.exit(code)' "$out" timeout -k 5 $((secs + 120)) "$@"
}
run_readbench() { # CASE ROUND [TOOL FLAG...]: TOOL names a run with extra flags (readbench-untraced)
	local wl=("$tmp/$1.yaml") tool=${3:-readbench}
	[[ $1 == default-http ]] && wl=(--duration "$DURATION") # the built-in scenario
	rm -f "$tmp/r.json"
	local rc=0
	timed "$tmp/t" "${pin_gen[@]}" "$tmp/readbench" run "${wl[@]}" --target "$url" --quiet --out "$tmp/r.json" --force "${@:4}" || rc=$?
	# an open-loop run that dropped most of its turns at max_in_flight
	# exits 1 once its result is saved: its reads still count (below)
	((rc == 0)) || [[ $rc == 1 && -n ${open_rate[$1]:-} && -s $tmp/r.json ]] || die "readbench run $1 failed"
	python3 - "$tmp/t" "$tmp/r.json" "$1" "$2" "$tool" >>"$results" <<'PY'
import json, sys
u, s, m = open(sys.argv[1]).read().split()[-3:]
r = json.load(open(sys.argv[2])); t = r["totals"]; o = t["outcomes"]
good = o.get("ok", 0) + o.get("expected_error", 0)  # docs-attachments expects its renamed URI not found
# in the open loop, turns readbench dropped at max_in_flight were never
# sent: counted out of the reads, and said with the lag
dropped = o.get("dropped", 0) if sys.argv[3].startswith("text-open") else 0
assert good + dropped == t["scheduled"], "not every read was ok: %s" % o
# every read the process sent, the warmup's too, since its CPU covers them
reads = good + r["warmup"]["scheduled"]
conns = r["connections"]
# kept connections: none closed but by cut reads, none opened but for the reads in flight at once
assert conns["closed_by_server"] + conns["closed_by_client"] == 0 and conns["opened"] <= conns["peak_open"] + conns["closed_by_cut"], "connections churned: %s" % conns
print("\t".join(map(str, [sys.argv[3], sys.argv[5], sys.argv[4], float(u) + float(s), reads, t["reads_per_s"], m])))
PY
	if [[ -n ${open_rate[$1]:-} ]]; then # case p50 p99 max dropped-share
		python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); l=r["lag"]; t=r["totals"]
print(sys.argv[2], l["p50_ms"], l["p99_ms"], l["max_ms"], t["outcomes"].get("dropped", 0) / max(t["scheduled"], 1), sep="\t")' "$tmp/r.json" "$1" >>"$tmp/lag.tsv"
	fi
}
# The default target: readbench's own stdio child, closed loop; each
# side's CPU per read as the result file gives it (server_cost: the child;
# generator: readbench's own process).
run_stdio() {
	timeout -k 5 $((secs + 120)) "$tmp/readbench" run "$tmp/stdio.yaml" --quiet --force --out "$tmp/s.json" || die "readbench run (stdio) failed"
	python3 - "$tmp/s.json" >>"$tmp/stdio.tsv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); t = r["totals"]; g = r["generator"]; c = r["server_cost"]
assert t["outcomes"].get("ok", 0) == t["scheduled"], "not every read was ok: %s" % t["outcomes"]
assert g["cpu_available"] and c["available"], "CPU not measured: %s %s" % (g, c)
print(g["cpu_ms_per_1000_reads"], c["cpu_ms_per_1000_reads"], t["reads_per_s"], sep="\t")
PY
}
run_vegeta() { # CASE ROUND
	local rate=(-rate=0 -workers="$(conc "$1")" -max-workers="$(conc "$1")") d=$DURATION
	# open loop: at most as many requests in flight as readbench's default
	# max_in_flight (1,000); unbounded, vegeta behind a busy server opened
	# connections without end and some were cut (EOF)
	[[ -n ${open_rate[$1]:-} ]] && rate=(-rate="${open_rate[$1]}/s" -max-workers=1000)
	[[ $1 == default-http ]] && rate=(-rate=$default_rate/s) d=${default_secs}s
	timed "$tmp/t" "${pin_gen[@]}" "$vegeta" attack -targets="$tmp/${case_req[$1]}.targets" "${rate[@]}" \
		-duration="$d" -max-body=0 -output="$tmp/v.bin" || die "vegeta $1 failed"
	"$vegeta" report -type=json "$tmp/v.bin" >"$tmp/v.json"
	python3 - "$tmp/t" "$tmp/v.json" "$1" "$2" >>"$results" <<'PY'
import json, sys
u, s, m = open(sys.argv[1]).read().split()[-3:]
r = json.load(open(sys.argv[2]))
codes = dict(r["status_codes"])
if sys.argv[3] == "default-http":  # the renamed URI's not-found answer comes with 400, as readbench reads it too
    codes.pop("400", None)
assert set(codes) == {"200"} and sum(r["status_codes"].values()) == r["requests"], "vegeta: not every request was 200: %s %s" % (r["status_codes"], r.get("errors"))
print("\t".join(map(str, [sys.argv[3], "vegeta", sys.argv[4], float(u) + float(s), r["requests"], r["throughput"], m])))
PY
}
# bombardier (fasthttp) checks no body: its status counts must all be 2xx,
# with no errors, and the bytes it read per request must hold the answer
# curl got (its body, plus a response head of under 1 KiB).
run_bombardier() { # CASE ROUND
	if [[ $1 == default-http ]]; then
		run_bombardier_mix "$2"
		return
	fi
	local rate=() req=${case_req[$1]}
	[[ -n ${open_rate[$1]:-} ]] && rate=(-r "${open_rate[$1]}")
	local h=() x
	for x in "${headers[@]}" "Mcp-Name: ${case_uri[$req]}"; do h+=(-H "$x"); done
	timed "$tmp/t" "${pin_gen[@]}" "$bombardier" -c "$(conc "$1")" -d "$DURATION" "${rate[@]}" -t 60s -m POST -f "$tmp/$req.body" \
		"${h[@]}" -p r -o json "$url" >"$tmp/b.json" || die "bombardier $1 failed"
	python3 - "$tmp/t" "$tmp/b.json" "$1" "$2" "${answer_bytes[${case_uri[$req]}]}" >>"$results" <<'PY'
import json, sys
u, s, m = open(sys.argv[1]).read().split()[-3:]
r = json.load(open(sys.argv[2]))["result"]
n, other = r["req2xx"], {k: r[k] for k in ("req1xx", "req3xx", "req4xx", "req5xx", "others")}
assert n > 0 and not any(other.values()) and not r.get("errors"), "bombardier: not every request was 2xx: %d 2xx, %s %s" % (n, other, r.get("errors"))
per, want = r["bytesRead"] / n, int(sys.argv[5])
assert want <= per < want + 1024, "bombardier: %.0f bytes read per request, the answer has %d" % (per, want)
print("\t".join(map(str, [sys.argv[3], "bombardier", sys.argv[4], float(u) + float(s), n, n / r["timeTakenSeconds"], m])))
PY
}
# The default scenario's mix for bombardier: one process per class, at
# the class's share of the reads per second, all at once; their CPU and
# requests add up.
run_bombardier_mix() { # ROUND
	local name u share k=0 pids=() h x
	while IFS=$'\t' read -r name u share; do
		h=()
		for x in "${headers[@]}" "Mcp-Name: $u"; do h+=(-H "$x"); done
		timed "$tmp/tb$k" "${pin_gen[@]}" "$bombardier" -c 4 -d "${default_secs}s" \
			-r "$(python3 -c "print(max(1, round($default_rate * $share)))")" -t 10s -m POST -f "$tmp/default-$name.body" \
			"${h[@]}" -p r -o json "$url" >"$tmp/b$k.json" &
		pids+=($!) k=$((k + 1))
	done <"$tmp/default-bombardier.tsv"
	for x in "${pids[@]}"; do wait "$x" || die "bombardier default-http failed"; done
	python3 - "$tmp" "$k" "$1" >>"$results" <<'PY'
import json, sys
tmp, k, rnd = sys.argv[1], int(sys.argv[2]), sys.argv[3]
cpu = n = rate = 0; rss = 0
for i in range(k):
    u, s, m = open("%s/tb%d" % (tmp, i)).read().split()[-3:]
    r = json.load(open("%s/b%d.json" % (tmp, i)))["result"]
    other = {k: r[k] for k in ("req1xx", "req3xx", "req5xx", "others")}  # 4xx: the renamed URI's not-found answer
    got = r["req2xx"] + r["req4xx"]
    assert got > 0 and not any(other.values()) and not r.get("errors"), "bombardier: %s %s" % (other, r.get("errors"))
    cpu += float(u) + float(s); n += got; rate += got / r["timeTakenSeconds"]; rss += int(m)
print("\t".join(map(str, ["default-http", "bombardier", rnd, cpu, n, rate, rss])))
PY
}
run_wrk() { # CASE ROUND
	[[ -n $wrk && $1 != default-http && $1 != text-open-10k ]] || return 0 # wrk sends one request, in no open loop
	timed "$tmp/t" "${pin_gen[@]}" "$wrk" -t1 -c"$(conc "$1")" -d"$DURATION" --timeout 60s -s "$tmp/${case_req[$1]}.lua" "$url" >"$tmp/w.txt" || die "wrk $1 failed"
	python3 - "$tmp/t" "$tmp/w.txt" "$1" "$2" "$secs" >>"$results" <<'PY'
import re, sys
u, s, m = open(sys.argv[1]).read().split()[-3:]
out = open(sys.argv[2]).read()
n = int(re.search(r"(\d+) requests in", out).group(1))
assert "Non-2xx" not in out and "Socket errors" not in out, "wrk: errors:\n" + out
print("\t".join(map(str, [sys.argv[3], "wrk", sys.argv[4], float(u) + float(s), n, n / float(sys.argv[5]), m])))
PY
}

# The server's capacity: wrk (vegeta without wrk) at saturation on the
# 1 KiB text, 64 connections, with the server's own CPU from /proc.
server_cpu() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }
run_capacity() { # ROUND
	local c0 c1 n
	c0=$(server_cpu)
	if [[ -n $wrk ]]; then
		timeout -k 5 $((secs + 60)) "${pin_gen[@]}" "$wrk" -t1 -c64 -d"$DURATION" -s "$tmp/text-closed.lua" "$url" >"$tmp/cap.txt"
		n=$(sed -nE 's/^ *([0-9]+) requests in.*/\1/p' "$tmp/cap.txt")
	else
		timeout -k 5 $((secs + 60)) "${pin_gen[@]}" "$vegeta" attack -targets="$tmp/text-closed.targets" -rate=0 -workers=64 -max-workers=64 \
			-duration="$DURATION" -max-body=0 -output="$tmp/cap.bin"
		n=$("$vegeta" report -type=json "$tmp/cap.bin" | python3 -c 'import json,sys; print(json.load(sys.stdin)["requests"])')
	fi
	c1=$(server_cpu)
	printf 'capacity\tserver\t%s\t%s\t%s\t%s\t0\n' "$1" "$(python3 -c "print(($c1 - $c0) / $(getconf CLK_TCK))")" "$n" \
		"$(python3 -c "print($n / $secs)")" >>"$results"
}

# HTTP/2 against h2load (nghttp2-client): the 1 KiB text and the 1 MiB
# blob, closed loop, 16 reads in flight on one connection, over h2c (prior
# knowledge, an http:// URI, to the server above, which speaks HTTP/1.1
# and h2c on one port) and over h2 (TLS: a second server, `readbench serve
# --tls-cert-out`, pinned as the first). readbench runs `--http 2` with
# the workload's http section at h2load's split (-c 1 -m 16: connections
# 1, streams_per_connection 16); h2load posts the same body with the same
# headers as bombardier gets, for as long (-D). Each tool's CPU per read
# as above (getrusage of the child over the reads that succeeded); the
# tools alternate which goes first from round to round; the ratio is the
# median of each round's. CASES=h2 runs only these rows.
CASES=${CASES:-all}
[[ $CASES == all || $CASES == h2 ]] || die "CASES must be all or h2, not $CASES"
H2_CONNS=1 H2_STREAMS=$CONC
h2load=$(command -v h2load || true)
if [[ -z $h2load ]]; then
	sudo=; [[ $(id -u) == 0 ]] || sudo="sudo -n"
	{ $sudo apt-get install -y nghttp2-client || { $sudo apt-get update && $sudo apt-get install -y nghttp2-client; }; } >&2 || true
	h2load=$(command -v h2load || true)
	[[ -n $h2load ]] || echo "compare.sh: h2load (nghttp2-client) could not be installed; its column is n/a" >&2
fi
h2_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
h2_tls_url="https://127.0.0.1:$h2_port/mcp" h2_cert="$tmp/h2-cert.pem"
GOMAXPROCS=1 "${pin_server[@]}" "$tmp/readbench" serve --listen "127.0.0.1:$h2_port" --tls-cert-out "$h2_cert" 2>"$tmp/serve-tls.log" &
h2_tls_pid=$!
stop_h2_server() { kill "$h2_tls_pid" 2>/dev/null || true; wait "$h2_tls_pid" 2>/dev/null || true; }
trap 'stop_h2_server; cleanup' EXIT
for _ in $(seq 50); do [[ -s $h2_cert ]] && curl -s -o /dev/null --cacert "$h2_cert" "$h2_tls_url" 2>/dev/null && break; sleep 0.1; done
[[ -s $h2_cert ]] || die "the TLS server did not start: $(cat "$tmp/serve-tls.log")"
h2_cases=(h2c-text h2-text h2c-png h2-png)
declare -A h2_url=([h2c-text]=$url [h2-text]=$h2_tls_url [h2c-png]=$url [h2-png]=$h2_tls_url)
declare -A h2_req=([h2c-text]=text-closed [h2-text]=text-closed [h2c-png]=png-closed [h2-png]=png-closed)
for c in "${h2_cases[@]}"; do # the target in the file: the http section needs an HTTP target to apply to
	u=${case_uri[${h2_req[$c]}]}
	printf 'name: %s\ntarget: "%s"\nsessions: 1\nload: {model: closed, concurrency: %d, duration: %s}\nhttp: {version: 2, connections: %d, streams_per_connection: %d}\nturn: {attachments: 1, read_timeout: 10s}\nmix:\n  - {class: c, uri: "%s"}\n' \
		"$c" "${h2_url[$c]}" "$CONC" "$DURATION" "$H2_CONNS" "$H2_STREAMS" "$u" >"$tmp/$c.yaml"
done
h2_results="$tmp/h2.tsv" # case tool round cpu_s reads reads_per_s
run_readbench_h2() { # CASE ROUND
	local env=()
	[[ ${h2_url[$1]} == https:* ]] && env=(env "SSL_CERT_FILE=$h2_cert")
	timed "$tmp/t" "${env[@]}" "${pin_gen[@]}" "$tmp/readbench" run "$tmp/$1.yaml" --http 2 --quiet --out "$tmp/r2.json" --force ||
		die "readbench run $1 failed"
	python3 - "$tmp/t" "$tmp/r2.json" "$1" "$2" "$H2_CONNS" "$H2_STREAMS" >>"$h2_results" <<'PY'
import json, sys
u, s, m = open(sys.argv[1]).read().split()[-3:]
r = json.load(open(sys.argv[2])); t = r["totals"]; o = t["outcomes"]
assert o.get("ok", 0) == t["scheduled"] > 0, "not every read was ok: %s" % o
reads = t["scheduled"] + r["warmup"]["scheduled"]
c = r["connections"]; h = c.get("http2")
assert h, "no HTTP/2 in the result: %s" % c
conns, streams = int(sys.argv[5]), int(sys.argv[6])
# the split h2load has: that many connections, kept, with at most that many streams each, none refused or reset
assert c["opened"] == conns and c["closed_by_server"] + c["closed_by_client"] == 0, "connections: %s" % c
assert h["streams"] >= reads and h["peak_streams"] <= conns * streams and h["refused"] == 0, "streams: %s" % h
assert h["goaway_by_server"] + h["rst_stream_by_server"] + h["rst_stream_by_client"] == 0, "resets: %s" % h
print("\t".join(map(str, [sys.argv[3], "readbench", sys.argv[4], float(u) + float(s), reads, t["reads_per_s"]])))
PY
}
# h2load checks no body: every request must have succeeded with a 2xx,
# over the protocol asked for, and the data it read must hold the answer
# curl got for each (and no more than one for each started).
run_h2load() { # CASE ROUND
	[[ -n $h2load ]] || return 0
	local req=${h2_req[$1]} h=() x proto=h2c
	[[ ${h2_url[$1]} == https:* ]] && proto=h2
	for x in "${headers[@]}" "Mcp-Name: ${case_uri[$req]}"; do h+=(-H "$x"); done
	timed "$tmp/t" "${pin_gen[@]}" "$h2load" -t 1 -c "$H2_CONNS" -m "$H2_STREAMS" -D "$secs" -d "$tmp/$req.body" "${h[@]}" \
		"${h2_url[$1]}" >"$tmp/h2load.txt" || die "h2load $1 failed: $(cat "$tmp/h2load.txt")"
	python3 - "$tmp/t" "$tmp/h2load.txt" "$1" "$2" "$proto" "${answer_bytes[${case_uri[$req]}]}" "$secs" >>"$h2_results" <<'PY'
import re, sys
u, s, m = open(sys.argv[1]).read().split()[-3:]
out = open(sys.argv[2]).read()
proto, want, secs = sys.argv[5], int(sys.argv[6]), float(sys.argv[7])
got = re.search(r"^Application protocol: (\S+)", out, re.M)
assert got and got.group(1) == proto, "h2load: not %s:\n%s" % (proto, out)
req = re.search(r"^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout", out, re.M)
codes = re.search(r"^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", out, re.M)
data = re.search(r"^traffic: .*\((\d+)\) data", out, re.M)
assert req and codes and data, "h2load: no summary:\n" + out
total, started, done, ok, failed, errored, timeouts = map(int, req.groups())
n = ok  # the status codes count the answers cut at the end too, whose heads had come
assert n > 0 and n == done == total and int(codes.group(1)) >= n and failed + errored + timeouts == 0 and sum(map(int, codes.groups()[1:])) == 0, "h2load: not every request was 2xx:\n" + out
# the data counts what came of the requests cut at the end too (started, not done)
got = int(data.group(1))
assert want * n <= got <= want * started, "h2load: %d bytes of data for %d requests, %d started; the answer has %d" % (got, n, started, want)
print("\t".join(map(str, [sys.argv[3], "h2load", sys.argv[4], float(u) + float(s), n, n / secs])))
PY
}
run_h2_rounds() {
	local round c
	for round in $(seq "$REPEAT"); do
		for c in "${h2_cases[@]}"; do
			echo "round $round/$REPEAT: $c (readbench, h2load)" >&2
			if ((round % 2)); then run_readbench_h2 "$c" "$round"; run_h2load "$c" "$round"
			else run_h2load "$c" "$round"; run_readbench_h2 "$c" "$round"; fi
		done
	done
}
print_h2_table() {
	python3 - "$h2_results" "$REPEAT" "$DURATION" "$H2_CONNS" "$H2_STREAMS" "${h2load:-}" "$h2_start" <<'PY'
import collections, platform, statistics, subprocess, sys
res, rounds, duration, conns, streams, h2load, start = sys.argv[1:]
rows = collections.defaultdict(dict)  # (case, round) -> tool -> (us/read, rate)
for line in open(res):
    case, tool, rnd, cpu, reads, rate = line.split("\t")
    rows[(case, rnd)][tool] = (float(cpu) / int(reads) * 1e6, float(rate))
titles = {"h2c-text": "1 KiB text, closed loop, h2c", "h2-text": "1 KiB text, closed loop, h2 (TLS)",
          "h2c-png": "1 MiB PNG blob, closed loop, h2c", "h2-png": "1 MiB PNG blob, closed loop, h2 (TLS)"}
version = subprocess.run([h2load, "--version"], capture_output=True, text=True).stdout.strip() if h2load else "h2load n/a"
model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
print()
print("HTTP/2 against h2load — %s, %s, %s cores (%s); median of %s rounds of %s each; %s connection(s), %s streams each (h2load -c %s -m %s)" %
      (start, version,
       subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip(), model, rounds, duration, conns, streams, conns, streams))
print()
print("| case | readbench µs CPU/read | h2load µs/req | readbench/h2load (each round's) | reads/s (readbench, h2load) |")
print("|---|---:|---:|---:|---|")
fmt = lambda v: "n/a" if v is None else "{:,.1f}".format(v)
for case, title in titles.items():
    rs = [v for (c, _), v in sorted(rows.items()) if c == case]
    med = lambda tool, i: statistics.median([r[tool][i] for r in rs if tool in r]) if any(tool in r for r in rs) else None
    ratios = [r["readbench"][0] / r["h2load"][0] for r in rs if "readbench" in r and "h2load" in r]
    ratio = "%.2f× (%s)" % (statistics.median(ratios), ", ".join("%.2f" % x for x in ratios)) if ratios else "n/a"
    rates = ", ".join("n/a" if med(t, 1) is None else "{:,.0f}".format(med(t, 1)) for t in ("readbench", "h2load"))
    print("| %s | %s | %s | %s | %s |" % (title, fmt(med("readbench", 0)), fmt(med("h2load", 0)), ratio, rates))
print()
print("target: readbench's CPU per read over h2 at most 1.0× h2load's")
PY
}
h2_start=$(date -u '+%Y-%m-%d %H:%M UTC') # the table's time: when these rows ran
run_h2_rounds
stop_h2_server # idle through the other cases
if [[ $CASES == h2 ]]; then
	print_h2_table
	exit 0
fi

for round in $(seq "$REPEAT"); do
	for c in "${case_names[@]}"; do
		echo "round $round/$REPEAT: $c" >&2
		run_readbench "$c" "$round"
		# the default's shape without trace context, in the same round: its cost
		[[ $c == text-deadline-4 ]] && run_readbench "$c" "$round" readbench-untraced --trace-sample 0
		run_vegeta "$c" "$round"
		run_bombardier "$c" "$round"
		run_wrk "$c" "$round"
	done
	echo "round $round/$REPEAT: server capacity" >&2
	run_capacity "$round"
	echo "round $round/$REPEAT: stdio, the default target" >&2
	run_stdio
done

# Peak RSS of readbench alone (the server is another process) for the
# design-mockups scenario (40 × 3 MB in one answer) against the same server.
echo "memory: design-mockups" >&2
timed "$tmp/t" "${pin_gen[@]}" "$tmp/readbench" run design-mockups --target "$url" --quiet --out "$tmp/mock.json" || die "design-mockups failed"
rss_mock=$(awk '{print $3}' "$tmp/t")
cap_tool="wrk -t1 -c64"; [[ -n $wrk ]] || cap_tool="vegeta, 64 workers"

python3 - "$results" "$rss_mock" "$cap_tool" "$REPEAT" "$DURATION" "$tmp/lag.tsv" "$tmp/stdio.tsv" <<'PY'
import collections, statistics, subprocess, sys, platform, datetime
res, rss_mock, cap_tool, rounds, duration, lag_file, stdio_file = sys.argv[1:]
rows = collections.defaultdict(dict)  # (case, round) -> tool -> (us/read, rate, peak RSS in KiB)
for line in open(res):
    case, tool, rnd, cpu, reads, rate, rss = line.split("\t")
    rows[(case, rnd)][tool] = (float(cpu) / int(reads) * 1e6, float(rate), int(rss))
titles = {"text-closed": "1 KiB text, closed loop, 16 in flight",
          "text-deadline": "1 KiB text, closed loop, 16 in flight, a turn deadline (1 read a turn)",
          "text-deadline-4": "1 KiB text, closed loop, 16 in flight, 4 reads a turn with a deadline",
          "png-closed": "1 MiB PNG blob, closed loop, 16 in flight",
          "png16-closed": "16 MiB PNG blob, closed loop, 16 in flight",
          "png40-closed": "40 MiB PNG blob, closed loop, 4 in flight",
          "text-open": "1 KiB text, open loop, 1,000 reads/s",
          "text-open-10k": "1 KiB text, open loop, 10,000 reads/s",
          "default-http": "the default scenario over HTTP (docs-attachments, 40 reads/s)"}
model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
print("readbench compare — %s, %s cores (%s), %s; median of %s rounds of %s each" %
      (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), nproc, model, platform.release(), rounds, duration))
print("server: readbench serve --listen, GOMAXPROCS=1, pinned to core 1; generators on the other cores")
print()
print("| case | readbench µs CPU/read | vegeta µs/req | bombardier µs/req | wrk µs/req | readbench/vegeta | readbench/bombardier | reads/s (readbench, vegeta, bombardier, wrk) | peak RSS MiB (readbench, vegeta, bombardier, wrk) |")
print("|---|---:|---:|---:|---:|---:|---:|---|---|")
fmt = lambda v: "n/a" if v is None else "{:,.1f}".format(v)
rb_us = []
per_case = {}
for case in titles:
    rs = [v for (c, _), v in rows.items() if c == case]
    med = lambda tool, i: statistics.median([r[tool][i] for r in rs if tool in r]) if any(tool in r for r in rs) else None
    ratio = lambda tool: statistics.median([r["readbench"][0] / r[tool][0] for r in rs if tool in r and "readbench" in r])
    tools = ("readbench", "vegeta", "bombardier", "wrk")
    rates = ", ".join("{:,.0f}".format(med(t, 1)) if med(t, 1) else "n/a" for t in tools)
    rss = ", ".join("{:,.0f}".format(med(t, 2) / 1024) if med(t, 2) else "n/a" for t in tools)
    print("| %s | %s | %s | %s | %s | %.2f× | %.2f× | %s | %s |" % (titles[case], fmt(med("readbench", 0)), fmt(med("vegeta", 0)), fmt(med("bombardier", 0)),
          fmt(med("wrk", 0)), ratio("vegeta"), ratio("bombardier"), rates, rss))
    per_case[case] = [r["readbench"][0] for r in rs if "readbench" in r]
    if case == "text-closed":
        rb_us = med("readbench", 0)
print("| readbench run design-mockups (40 × 3 MB in one answer) | | | | | | | | %.0f (readbench) |" % (int(rss_mock) / 1024))
cap = [v for (c, _), v in rows.items() if c == "capacity"]
drive = {rnd: v["readbench"][1] for (c, rnd), v in rows.items() if c == "text-closed" and "readbench" in v}
served = statistics.median(v["server"][1] for v in cap)
server_us = statistics.median(v["server"][0] for v in cap)
headroom = statistics.median(rows[("capacity", rnd)]["server"][1] / d for rnd, d in drive.items() if ("capacity", rnd) in rows)
lags = collections.defaultdict(list)  # case -> [p50, p99, max, dropped share] per round
for l in open(lag_file):
    case, *v = l.split()
    lags[case].append(list(map(float, v)))
stdio = [list(map(float, l.split())) for l in open(stdio_file)]
span = lambda xs: ("%.2f" % min(xs)) if min(xs) == max(xs) else "%.2f–%.2f" % (min(xs), max(xs))
base = per_case["text-closed"]
for case, what in (("text-deadline", "1 read a turn"), ("text-deadline-4", "4 reads a turn")):
    ratios = [d / b for d, b in zip(per_case[case], base)]  # the same round's: the machine's load of the moment
    print()
    print("a turn deadline, %s: %.2f× the CPU per read without one (the median of each round's ratio; target 1.2×)" % (what, statistics.median(ratios)))
traced = [v["readbench"][0] / v["readbench-untraced"][0] for (c, _), v in rows.items() if c == "text-deadline-4" and "readbench-untraced" in v]
print()
print("trace context (a traceparent in the header and _meta of every read), 4 reads a turn with a deadline: %.3f× the CPU per read without it (the median of each round's ratio, %s; target within a few percent)" %
      (statistics.median(traced), ", ".join("%.3f" % x for x in sorted(traced))))
for case, rate in (("text-open", "1,000"), ("text-open-10k", "10,000")):
    ls = lags[case]
    print()
    print("open loop at %s reads/s: readbench's scheduling lag (intended start to send) p50 %s ms, p99 %s ms, max %s ms over the rounds%s;" %
          (rate, span([l[0] for l in ls]), span([l[1] for l in ls]), span([l[2] for l in ls]),
           "" if max(l[3] for l in ls) == 0 else ", %s%% of its turns dropped at max_in_flight" % span([100 * l[3] for l in ls])))
    print("bombardier -r %s: lag not reported (bombardier -l prints the latency distribution only)" % rate.replace(",", ""))
print()
print("server capacity over HTTP (1 KiB text, GOMAXPROCS=1, %s at saturation): %s reads/s, %.1f µs of server CPU per read;" % (cap_tool, "{:,.0f}".format(served), server_us))
print("readbench drives %s reads/s against it (closed loop, %s in flight, %.1f µs CPU/read): the server serves %.1f× what the generator drives;" %
      ("{:,.0f}".format(statistics.median(drive.values())), 16, rb_us, headroom))
print("CPU per read, generator over server, one core each: %.2f×" % (rb_us / server_us))
print()
gen, srv = statistics.median(x[0] for x in stdio), statistics.median(x[1] for x in stdio)
print("over stdio, the default target (1 KiB text, closed loop, %d in flight, the result file's figures): readbench %.1f µs CPU/read, the simulated server %.1f µs;" % (16, gen, srv))
print("per core the server serves %.2f× what the generator can drive (the median of the rounds' ratios: %.2f×; %s reads/s)" %
      (gen / srv, statistics.median(x[0] / x[1] for x in stdio), "{:,.0f}".format(statistics.median(x[2] for x in stdio))))
PY
print_h2_table
