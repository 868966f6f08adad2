package driver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// TestConnectAllIsBounded: sessions open at most par at a time, and with
// a rate the k-th starts no earlier than k/rate after the first.
func TestConnectAllIsBounded(t *testing.T) {
	var now, peak atomic.Int64
	var starts [20]time.Time
	var k atomic.Int64
	begin := time.Now()
	open := func(ctx context.Context) (client.Conn, error) {
		starts[k.Add(1)-1] = time.Now()
		n := now.Add(1)
		defer now.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(5 * time.Millisecond)
		return nil, errors.New("refused")
	}
	_, errs := connectAll(context.Background(), 20, 3, 0, open)
	if peak.Load() > 3 || peak.Load() < 1 {
		t.Errorf("%d sessions opened at once, want at most 3", peak.Load())
	}
	if c := sessionsOf(20, errs); c.Failed != 20 || len(c.Errors) != 1 || c.Errors[0].Count != 20 {
		t.Errorf("counts %+v, want 20 failed for one reason", c)
	}
	k.Store(0)
	begin = time.Now()
	connectAll(context.Background(), 10, 10, 100, open) // 100 sessions/s: the 10th at 90 ms or later
	last := starts[0]
	for _, s := range starts[:10] {
		if s.After(last) {
			last = s
		}
	}
	if el := last.Sub(begin); el < 85*time.Millisecond {
		t.Errorf("the last of 10 sessions at 100/s started %v after the first, want 90 ms or more", el)
	}
}

// slowWorkload is n sessions of the slow simulated server over stdio
// (every other child never starts), a 3 s handshake timeout (room for a
// busy machine to start the others), and
// min_sessions when above 0.
func slowWorkload(t *testing.T, n, minSessions int) *workload.Workload {
	t.Helper()
	exe := peertest.Command(t, slowSimStdio)[0]
	t.Setenv(slowDirEnv, t.TempDir())
	minKey := ""
	if minSessions > 0 {
		minKey = fmt.Sprintf(", min_sessions: %d", minSessions)
	}
	w, err := yamlfile.Parse("slow.yaml", []byte(fmt.Sprintf(`
name: slow
target: %q
sessions: %d
load: {rate: 20/s, duration: 1s, handshake_timeout: 3s%s}
turn: {attachments: 1, read_timeout: 30s}
mix:
  - {class: md, mime: text/markdown, size: 1KiB}
`, "stdio:"+exe, n, minKey)))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestFewerSessionsThanAsked: of sessions of a server half of whose
// children never answer, the run says how many of how many connected and
// why the others did not: with load.min_sessions met it goes on and
// records the count; unmet it fails with that count, never silently and
// never with a bare "context deadline exceeded".
func TestFewerSessionsThanAsked(t *testing.T) {
	const n = 8
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var logged []string
	rep, err := measure(ctx, Options{Workload: slowWorkload(t, n, n/2), Logf: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatalf("4 of 8 connect, min_sessions 4: %v", err)
	}
	s := rep.Meta.Sessions
	if s.Asked != n || s.Connected != n/2 || s.Failed != n/2 || len(s.Errors) != 1 || s.Errors[0].Count != n/2 ||
		!strings.Contains(s.Errors[0].Message, "handshake timeout of 3s") {
		t.Errorf("sessions %+v: want 4 of 8 connected, 4 failed for the handshake timeout", s)
	}
	if rep.MeasuredPhase.Outcomes.Errors() != 0 || rep.MeasuredPhase.Scheduled == 0 {
		t.Errorf("the run on 4 sessions: %v", rep.MeasuredPhase.Outcomes.Map())
	}
	if len(logged) == 0 || !strings.Contains(logged[0], "4 of 8 sessions connected, 4 failed") {
		t.Errorf("logged %q: want the shortfall said", logged)
	}
	_, err = measure(ctx, Options{Workload: slowWorkload(t, n, n/2+1)})
	if err == nil || !strings.Contains(err.Error(), "4 of 8 sessions connected, 4 failed: 4× no answer within the handshake timeout of 3s") ||
		!strings.Contains(err.Error(), "load.min_sessions needs 5") {
		t.Fatalf("4 of 8 connect, min_sessions 5: err = %v", err)
	}
}
