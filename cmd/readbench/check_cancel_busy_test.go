package main

import (
	"context"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// pdfStdioCancel is why check skips cancelling the PDF server's 4 MB
// page over stdio (either reason, "|"-separated, as peerCheck.skip has
// them): the server, single-threaded and busy with the answer, reads the
// cancel off its stdin only once the answer is on its way; or, on a
// machine starved of CPU, every sampled read answered too soon after the
// cancel to judge it. Both are skips: never a verdict on the server.
const pdfStdioCancel = "answered after the cancel|could not find a read slow enough to cancel"

// TestCheckCancelBusyPeerRepeat: identical checks of a real server that
// is right give the same cancellation verdict every time, and never a
// failure, on a machine made busy on purpose. The PDF server over stdio
// writes its 4 MB answer before it reads the cancel off its stdin; check
// used to time the cancel from when it entered the pipe and failed it as
// "ignored the cancel". Not parallel: the load it makes is its own.
func TestCheckCancelBusyPeerRepeat(t *testing.T) {
	const runs = 4
	node := pinnedNode(t)
	target := "stdio:" + node + " " + pdfServer(t) + " --stdio " + pdfPage(t)
	hog(t, runtime.NumCPU(), 3*time.Minute)
	var first string
	for i := range runs {
		d, _, _ := runCheck(t, "--target", target)
		r := d.rows("cancellation")
		if len(r) != 1 {
			t.Fatalf("run %d of %d: %d cancellation rows", i+1, runs, len(r))
		}
		if r[0].Status == "fail" {
			t.Errorf("run %d of %d: fail %q: a false alarm (the server is right)", i+1, runs, r[0].Detail)
		}
		if want := oneOf(r[0].Detail, pdfStdioCancel); r[0].Status != "skip" || !strings.Contains(r[0].Detail, want) {
			t.Errorf("run %d of %d: %s %q, want skip with %q", i+1, runs, r[0].Status, r[0].Detail, want)
		}
		if i == 0 {
			first = r[0].Status
		} else if r[0].Status != first {
			t.Errorf("run %d of %d: %s, run 1 gave %s: identical checks, different verdicts", i+1, runs, r[0].Status, first)
		}
	}
}

// hog keeps n CPUs busy with shell loops until the test ends or at most
// for limit, and waits for them to end.
func hog(t *testing.T, n int, limit time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	var loops []*exec.Cmd
	t.Cleanup(func() {
		cancel()
		for _, c := range loops {
			_ = c.Wait()
		}
	})
	for range n {
		c := testproc.Own(t, exec.CommandContext(ctx, "sh", "-c", "while :; do :; done"))
		if err := c.Start(); err != nil {
			t.Fatalf("CPU hog: %v", err)
		}
		loops = append(loops, c)
	}
}
