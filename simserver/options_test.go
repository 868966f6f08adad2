package simserver

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/protocol"
)

// Server-wide options: delay, workers, stalls, crash-after.

// timeReads sends n reads of uri at once on stdio and returns how long the
// last answer took.
func timeReads(t *testing.T, s *Server, n int, uri string) time.Duration {
	t.Helper()
	p := startStdio(t, s)
	start := time.Now()
	for id := 1; id <= n; id++ {
		p.send(request(t, id, protocol.MethodResourcesRead, readParams(uri, "")))
	}
	for range n {
		decodeRead(t, p.next())
	}
	return time.Since(start)
}

func TestDelayAndWorkers(t *testing.T) {
	const d = 150 * time.Millisecond
	uri := "sim:///slow?size=10&delay=150ms"
	// Parallel reads overlap: the best of three tries (a busy machine can
	// stall any one of them) is far below the 600ms of four in a row.
	best := time.Hour
	for range 3 {
		best = min(best, timeReads(t, New(Options{}), 4, uri))
		if best < d {
			t.Fatalf("4 parallel reads of 150ms took %v, less than one delay", best)
		}
	}
	if best > 3*d {
		t.Errorf("4 parallel reads of 150ms took %v at best of 3, want about 150ms", best)
	}
	if got := timeReads(t, New(Options{Workers: 1}), 3, uri); got < 3*d {
		t.Errorf("3 reads of 150ms through 1 worker took %v, want at least 450ms", got)
	}
	if got := timeReads(t, New(Options{}), 1, "sim:///s?size=1&stall=150ms"); got < d {
		t.Errorf("stall=150ms answered after %v", got)
	}
	// A distribution is sampled per read and stays within reason.
	if got := timeReads(t, New(Options{}), 20, "sim:///d?size=1&delay=uniform(10ms,30ms)"); got < 10*time.Millisecond || got > time.Second {
		t.Errorf("uniform(10ms,30ms) reads took %v", got)
	}
}

func TestStallLeft(t *testing.T) {
	s := New(Options{StallEvery: time.Second, StallFor: 200 * time.Millisecond})
	for _, tc := range []struct{ at, want time.Duration }{
		{0, 0},
		{500 * time.Millisecond, 0}, // no stall before the first period ends
		{time.Second, 200 * time.Millisecond},
		{time.Second + 150*time.Millisecond, 50 * time.Millisecond},
		{time.Second + 200*time.Millisecond, 0},
		{3*time.Second + 10*time.Millisecond, 190 * time.Millisecond},
	} {
		if got := s.stallLeft(s.start.Add(tc.at)); got != tc.want {
			t.Errorf("at %v: stall left %v, want %v", tc.at, got, tc.want)
		}
	}
	if got := New(Options{}).stallLeft(time.Now().Add(time.Hour)); got != 0 {
		t.Errorf("no stall configured: %v", got)
	}
}

func TestStallHoldsReads(t *testing.T) {
	s := New(Options{StallEvery: 200 * time.Millisecond, StallFor: 150 * time.Millisecond})
	p := startStdio(t, s)
	// Wait until inside a stall with some of it left (a loaded machine may
	// wake us late: then wait for the next one).
	for s.stallLeft(time.Now()) < 60*time.Millisecond {
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	left := s.stallLeft(start)
	decodeRead(t, p.roundTrip(request(t, 1, protocol.MethodResourcesRead, readParams("sim:///x?size=1", ""))))
	if got := time.Since(start); got < left-10*time.Millisecond {
		t.Errorf("a read %v before the end of a stall took %v", left, got)
	}
}

func TestCrashAfterStdio(t *testing.T) {
	s := New(Options{CrashAfter: 2})
	serverIn, in := io.Pipe()
	out, serverOut := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), serverIn, serverOut) }()
	var wg sync.WaitGroup
	wg.Add(1)
	var answers []string
	go func() { // drain stdout
		defer wg.Done()
		b, _ := io.ReadAll(out)
		answers = strings.Split(strings.TrimSpace(string(b)), "\n")
	}()
	for id := 1; id <= 2; id++ {
		if _, err := io.WriteString(in, request(t, id, protocol.MethodResourcesRead, readParams("sim:///x?size=5", ""))+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrCrashed) {
			t.Errorf("ServeStdio = %v, want ErrCrashed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no crash after 2 reads")
	}
	serverOut.Close()
	wg.Wait()
	if len(answers) != 2 {
		t.Errorf("%d answers before the crash, want 2", len(answers))
	}
	select {
	case <-s.Crashed():
	default:
		t.Error("Crashed() not closed")
	}
}

func TestCrashAfterHTTP(t *testing.T) {
	s := New(Options{CrashAfter: 1})
	url := startHTTP(t, s)
	read := request(t, 1, protocol.MethodResourcesRead, readParams("sim:///x?size=5", ""))
	if status, _, _ := post(t, url, nil, read); status != 200 {
		t.Fatalf("first read: %d", status)
	}
	select {
	case <-s.Crashed():
	case <-time.After(5 * time.Second):
		t.Fatal("Crashed() not closed")
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(read))
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("a crashed server answered %d", resp.StatusCode)
	}
}

// TestServeStdioContextCancel: cancelling ctx ends ServeStdio and the reads
// in flight, which answer nothing.
func TestServeStdioContextCancel(t *testing.T) {
	s := New(Options{})
	serverIn, in := io.Pipe()
	out, serverOut := io.Pipe()
	go io.Copy(io.Discard, out)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, serverIn, serverOut) }()
	if _, err := io.WriteString(in, request(t, 1, protocol.MethodResourcesRead, readParams("sim:///slow?delay=10s", ""))+"\n"); err != nil {
		t.Fatal(err)
	}
	waitStats(t, s, "the read in flight", func(st Stats) bool { return st.InFlight == 1 })
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStdio = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after cancel")
	}
	serverOut.Close()
	if st := s.Stats(); st.InFlight != 0 || st.Answered != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestEOFWaitsForAnswers: `echo REQUEST | readbench serve --stdio` prints
// the answer: at EOF the reads in flight finish first.
func TestEOFWaitsForAnswers(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader(request(t, 1, protocol.MethodResourcesRead, readParams("sim:///x?size=5&delay=50ms", "")) + "\n")
	if err := New(Options{}).ServeStdio(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"contents"`) {
		t.Errorf("no answer: %q", out.String())
	}
}
