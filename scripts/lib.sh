# lib.sh — what the measuring scripts (compare.sh, scale-memory.sh,
# capacity-repeat.sh) share, sourced after `set -euo pipefail` with SCRIPT
# set to the script's name: the repository root as the working folder, a
# temporary folder ($tmp) removed on exit, the server a script starts
# ($server_pid) ended on exit, Ctrl-C included, and die.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
server_pid=
# stop_server ends the server a script started ($server_pid), if any: on
# exit, and between runs of a script that starts one per run.
stop_server() {
	[[ -n $server_pid ]] || return 0
	kill "$server_pid" 2>/dev/null || true
	wait "$server_pid" 2>/dev/null || true
	server_pid=
}
cleanup() {
	stop_server
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() { echo "$SCRIPT: $*" >&2; exit 1; }
