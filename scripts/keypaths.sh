#!/usr/bin/env bash
# keypaths.sh BINARY OUTDIR — the set of JSON key paths of every result
# document readbench writes (run, compare, capacity, check, merge), one
# sorted file per command in OUTDIR, so two trees compare by shape:
# `diff -r BEFORE AFTER` after a refactor shows any key that appeared or
# went (a list that is empty in one run, such as compare's notes, shows
# its [] only when it has members). Short runs against the embedded server.
set -euo pipefail
bin=$(realpath "$1"); out=$(realpath -m "$2")
mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
# Array indices fold to [], and the URIs that key digests to <uri> (which
# URIs a short run read ok varies with the machine).
paths() {
	jq -r '[paths|map(if type=="number" then "[]" else tostring end)
		|if .[0]=="digests" and length>1 then .[1]="<uri>" else . end|join(".")]|unique|.[]' "$1"
}
q=(--quiet)
"$bin" run "${q[@]}" --duration 2s --rate 20/s --out a.json >/dev/null
"$bin" run "${q[@]}" --duration 2s --rate 20/s --out b.json >/dev/null
paths a.json > "$out/run.paths"
"$bin" compare a.json b.json --format json > compare.json || true
paths compare.json > "$out/compare.paths"
"$bin" capacity "${q[@]}" --slo 'read.p99<500ms' --from 10/s --to 20/s --refine 0 \
	--step-duration 1s --step-warmup 200ms --format json --out caps > capacity.json || true
paths capacity.json > "$out/capacity.paths"
"$bin" check --format json > check.json || true
paths check.json > "$out/check.paths"
at=$(date -u -d '+4 seconds' +%Y-%m-%dT%H:%M:%SZ)
"$bin" run "${q[@]}" --duration 2s --rate 20/s --segment 1/2 --start-at "$at" --out s1.json >/dev/null &
"$bin" run "${q[@]}" --duration 2s --rate 20/s --segment 2/2 --start-at "$at" --out s2.json >/dev/null
wait
"$bin" merge --quiet --out merged.json s1.json s2.json >/dev/null
paths merged.json > "$out/merge.paths"
wc -l "$out"/*.paths
