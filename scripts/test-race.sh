#!/usr/bin/env bash
# test-race.sh — make test-race: every package's tests with the race
# detector, but those named in $RACEFREE (make test-norace runs them), as
# three go test processes at once:
#
#   1. every package but cmd/readbench, as go test ./... runs them;
#   2. cmd/readbench's serial tests (no t.Parallel: the ones that time a
#      run, make the machine busy on purpose or share a port), one at a
#      time, as go test runs them;
#   3. cmd/readbench's parallel tests, $TESTPARALLEL at a time.
#
# cmd/readbench's end-to-end tests are the suite's long pole: go test runs
# a package's parallel tests only after its serial ones, and the serial
# ones mostly wait on timed runs, so one process ran them end to end
# (about 380 s, then about 330 s) while the machine had a core to spare.
# scripts/serialtests lists the serial ones; -run with its pattern, then
# -skip with it, cover every test exactly once. The package's test binary
# is built once, then run twice from its folder (where go test runs it).
#
# Each process's output is printed as it ends: the packages' under a
# header with its wall time, each cmd/readbench process's as go test
# prints a package (its output only when it failed, then an ok/FAIL line
# with its wall time). The script exits 1 when any of them failed. Ctrl-C
# ends all three.
#
#   GO=go RACEFREE="./results/" TESTTIMEOUT=45m TESTPARALLEL=4 ./scripts/test-race.sh
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
TESTTIMEOUT=${TESTTIMEOUT:-45m}
TESTPARALLEL=${TESTPARALLEL:-4}
module=$($GO list -m)
e2e=$module/cmd/readbench

out=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$out"' EXIT
trap 'exit 130' INT TERM

# Every package but cmd/readbench and the race-free ones.
skip=("$e2e")
for p in ${RACEFREE:-}; do skip+=("$($GO list "$p")"); done
mapfile -t pkgs < <($GO list ./... | grep -vxF -f <(printf '%s\n' "${skip[@]}"))

serial=$($GO run ./scripts/serialtests ./cmd/readbench) || exit 1

# run NAME CMD...: CMD's output into $out/NAME, its exit status into
# $out/NAME.rc and its wall time into $out/NAME.s.
run() {
	local name=$1 start rc=0
	shift
	start=$EPOCHREALTIME
	"$@" >"$out/$name" 2>&1 || rc=$?
	echo "$rc" >"$out/$name.rc"
	awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }' >"$out/$name.t" && mv "$out/$name.t" "$out/$name.s"
}

run packages $GO test -race -count=1 -timeout "$TESTTIMEOUT" -parallel "$TESTPARALLEL" "${pkgs[@]}" &
pids+=($!)
if ! $GO test -race -c -o "$out/readbench.test" ./cmd/readbench; then
	echo "FAIL	$e2e [build failed]"
	wait
	cat "$out/packages"
	exit 1
fi
flags=(-test.count=1 -test.timeout="$TESTTIMEOUT" -test.paniconexit0)
(cd cmd/readbench && run serial "$out/readbench.test" "${flags[@]}" -test.run "$serial") &
pids+=($!)
(cd cmd/readbench && run parallel "$out/readbench.test" "${flags[@]}" -test.parallel "$TESTPARALLEL" -test.skip "$serial") &
pids+=($!)

# Print each process's output as it ends.
failed=0
declare -A said=()
while ((${#said[@]} < 3)); do
	ended=0
	wait -n 2>/dev/null || [[ -n $(jobs -rp) ]] || ended=1
	for name in packages serial parallel; do
		[[ -z ${said[$name]:-} ]] || continue
		if [[ ! -f $out/$name.s ]]; then
			((ended)) || continue
			echo "1" >"$out/$name.rc" && echo 0 >"$out/$name.s" # ended without a word
		fi
		said[$name]=1
		rc=$(cat "$out/$name.rc")
		if [[ $name == packages ]]; then
			echo "== packages but cmd/readbench: $(cat "$out/$name.s")s"
			cat "$out/$name"
		else
			# As go test prints a package: its output only when it failed.
			st=ok
			[[ $rc == 0 ]] || { st=FAIL; cat "$out/$name"; }
			printf '%s\t%s [%s tests]\t%ss\n' "$st" "$e2e" "$name" "$(cat "$out/$name.s")"
		fi
		[[ $rc == 0 ]] || failed=1
	done
done
exit $failed
