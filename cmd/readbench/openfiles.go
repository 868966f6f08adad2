package main

import (
	"fmt"
	"io"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// Open files and listeners: an HTTP/1.1 listen stream is a connection,
// and so a file descriptor, for as long as it is held. Go raises the
// soft RLIMIT_NOFILE to the hard limit when a program starts (Go 1.19,
// package os), and raiseOpenFiles does it again where the runtime did
// not; a run whose listeners need more than the limit then allows is
// told so on stderr before it starts, and the streams past the limit are
// counted as failed opens in the result's subscriptions block.

// openFilesSpare is what a run holds beside its listeners: its reading
// sessions' connections, the changer's session, the output files,
// stdio's pipes, the runtime's own.
const openFilesSpare = 256

// listenFiles is about how many file descriptors w's listeners hold at
// once: over HTTP a connection per 2026-07-28 listen stream, or per
// legacy session's standalone stream and its requests' connection (the
// larger of the two, the era being known only once connected); over
// stdio the three pipes of each listener's server process. 0: no
// listeners.
func listenFiles(w *workload.Workload) uint64 {
	if w.Listen == nil {
		return 0
	}
	n := uint64(max(w.Listen.Listeners, 1))
	switch w.Target.Kind {
	case targets.Stdio, targets.Embedded, "":
		return 3 * n
	default:
		return n * uint64(max(w.Listen.Streams, 2))
	}
}

// openFilesWarning is the line that says soft, the open-files limit, is
// too low for the listeners of w, "" when it is high enough.
func openFilesWarning(w *workload.Workload, soft, hard uint64) string {
	need := listenFiles(w)
	if need == 0 || need+openFilesSpare+uint64(max(w.Sessions, 0)) <= soft {
		return ""
	}
	return fmt.Sprintf("readbench: the open-files limit (RLIMIT_NOFILE) is %d (hard limit %d) and the listen streams of %d listeners need about %d file descriptors: the streams past the limit will fail to open, counted in the result as failed (raise the hard limit: ulimit -Hn, or LimitNOFILE= under systemd)",
		soft, hard, w.Listen.Listeners, need+openFilesSpare+uint64(max(w.Sessions, 0)))
}

// warnOpenFiles raises the open-files limit to its hard limit and says
// on stderr when it is still too low for w's listeners.
func warnOpenFiles(stderr io.Writer, w *workload.Workload) {
	soft, hard, ok := raiseOpenFiles()
	if !ok {
		return
	}
	if line := openFilesWarning(w, soft, hard); line != "" {
		fmt.Fprintln(stderr, line)
	}
}
