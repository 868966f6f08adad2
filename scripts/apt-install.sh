#!/bin/sh
# apt-install.sh PACKAGE...: install Debian packages for `make deps` (apt-get
# update, then install without recommends), waiting for another package
# manager instead of failing at once on its lock: an unattended upgrade or
# another job's `make deps` holds /var/lib/dpkg/lock-frontend or
# /var/lib/apt/lists/lock for a while. The wait is bounded by
# APT_LOCK_TIMEOUT seconds (300) in all, and said on stderr when it
# happens.
#
# apt-get waits for the dpkg lock itself when given DPkg::Lock::Timeout,
# but `apt-get update` fails at once on the lists lock whatever the option
# says (apt 2.6), so a failure that names a lock is retried every
# APT_LOCK_POLL seconds (2) until the time is up.
#
# APT_GET (apt-get) and APT_LOCKS (the lock files looked at to say who
# holds one) exist for the tests.
set -eu

timeout=${APT_LOCK_TIMEOUT:-300}
poll=${APT_LOCK_POLL:-2}
apt=${APT_GET:-apt-get}
locks=${APT_LOCKS:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock}
start=$(date +%s)
said=
err=$(mktemp)
trap 'rm -f "$err"' EXIT

# holder prints "process PID (NAME)" for a process holding one of the lock
# files (from /proc/locks, matched by inode), or nothing.
holder() {
	[ -r /proc/locks ] || return 0
	for f in $locks; do
		[ -e "$f" ] || continue
		ino=$(stat -c %i "$f")
		pid=$(awk -v ino="$ino" '$2 != "->" { n = split($6, a, ":"); if (a[n] == ino) { print $5; exit } }' /proc/locks)
		if [ -n "$pid" ] && [ "$pid" != "$$" ]; then
			name=$(cat "/proc/$pid/comm" 2>/dev/null || echo "?")
			echo "process $pid ($name)"
			return 0
		fi
	done
}

# waiting says once that the wait has begun, naming the holder when known.
waiting() {
	[ -z "$said" ] || return 0
	said=1
	who=$1
	[ -z "$who" ] || who=", held by $who"
	echo "deps: waiting for another package manager (dpkg lock$who), up to ${timeout}s…" >&2
}

# apt_run runs apt-get "$@", retrying while another package manager holds
# a lock and time is left.
apt_run() {
	while :; do
		left=$((timeout - ($(date +%s) - start)))
		[ "$left" -gt 0 ] || left=0
		who=$(holder)
		[ -z "$who" ] || waiting "$who"
		if DEBIAN_FRONTEND=noninteractive "$apt" -o DPkg::Lock::Timeout="$left" "$@" >/dev/null 2>"$err"; then
			return 0
		fi
		if ! grep -qi 'could not get lock\|unable to acquire the dpkg frontend lock\|unable to lock' "$err"; then
			cat "$err" >&2
			return 1
		fi
		if [ "$(($(date +%s) - start))" -ge "$timeout" ]; then
			cat "$err" >&2
			echo "deps: gave up after ${timeout}s waiting for another package manager; run make deps again when it is done (APT_LOCK_TIMEOUT sets the wait)" >&2
			return 1
		fi
		waiting "$(sed -n 's/.*It is held by \(process [0-9]* ([^)]*)\).*/\1/p' "$err" | head -n 1)"
		sleep "$poll"
	done
}

[ "$#" -gt 0 ] || { echo "usage: $0 PACKAGE..." >&2; exit 2; }
apt_run update -qq
apt_run install -y -qq --no-install-recommends "$@"
if [ -n "$said" ]; then
	echo "deps: the other package manager is done; installed $*" >&2
fi
