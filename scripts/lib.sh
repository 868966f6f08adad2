# lib.sh — what the measuring scripts (compare.sh, scale-memory.sh,
# capacity-repeat.sh) share, sourced after `set -euo pipefail` with SCRIPT
# set to the script's name: the repository root as the working folder, a
# temporary folder ($tmp) removed on exit, the server a script starts
# ($server_pid) ended on exit, Ctrl-C included, and die.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
server_pid=
cleanup() {
	if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() { echo "$SCRIPT: $*" >&2; exit 1; }
