package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/targets"
)

// simStatefulHTTPPeer is readbench's simulated server over Streamable HTTP
// with sessions (Options.Stateful: a GET opens a session's standalone
// stream), on 127.0.0.1 in a child process: it prints its URL and serves
// until its stdin ends, so that what the client holds per legacy session
// is measured without the server's share.
const simStatefulHTTPPeer = "sim-http-stateful"

func serveSimStatefulHTTP() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "sim-http-stateful peer:", err)
		return 1
	}
	srv := simserver.New(simserver.Options{Stateful: true})
	hs := &http.Server{Handler: srv.Handler()}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); hs.Close() }()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "sim-http-stateful peer:", err)
		return 1
	}
	return 0
}

// BenchmarkLegacyListenSessions opens READBENCH_MEM_SESSIONS (default
// 500) sessions of the 2025-11-25 era to the simulated server with
// sessions, each with its handshake, one resources/subscribe and its
// standalone GET stream — a legacy listener of `readbench run` — and
// reports what the client holds per session once they are all open and
// each has been notified (bytes/session: heap spans and stacks in use
// after two collections, over the count; live-bytes/session the live
// objects alone, without the spans they share with freed ones;
// stack-bytes/session the stacks' part; goroutines/session), and the
// stacks right after the notification, before a collection shrinks them
// (notified-stack-bytes/session; opened-stack-bytes/session the same once
// opened and collected, before it): a notification must not grow the
// goroutine each session reads its stream on (TestNoticeKeepsStackSmall).
// The time per op means nothing here:
//
//	go test -run '^$' -bench BenchmarkLegacyListenSessions -benchtime 1x ./client/
//
// With READBENCH_MEM_HEAPPROFILE=FILE every allocation is sampled and the
// heap profile taken while the sessions are open is written to FILE (go
// tool pprof -sample_index=inuse_space FILE: what a legacy listener
// session holds).
func BenchmarkLegacyListenSessions(b *testing.B) {
	n := envInt(b, memSessionsEnv, 500)
	profile := os.Getenv(memProfileEnv)
	if profile != "" {
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 64
	}
	url := startPeerURL(b, simStatefulHTTPPeer)
	tg, err := targets.Parse(url)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const uri = "sim:///watched.md?mime=text/markdown&size=1KiB"
	for b.Loop() {
		before, routines := memInUse(), runtime.NumGoroutine()
		sessions := make([]*Session, n)
		var notified sync.WaitGroup
		notified.Add(n)
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range sessions {
			wg.Go(func() {
				s, _, err := Connect(ctx, Dial{Target: tg, Protocol: protocol.V20251125, HandshakeTimeout: time.Minute})
				if err != nil {
					errs <- err
					return
				}
				sessions[i] = s
				var once sync.Once
				if _, err := s.Subscribe(ctx, SubscribeSpec{URIs: []string{uri}}, func(Notification) { once.Do(notified.Done) }); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
		opened := memInUse() // the stacks opening grew, shrunk again
		// One change, told to every session on its standalone stream.
		var out map[string]any
		if err := sessions[0].Call(ctx, "tools/call", map[string]any{"name": "touch", "arguments": map[string]any{"uri": uri}}, &out); err != nil {
			b.Fatal(err)
		}
		notified.Wait()
		grown := stacksNow()
		after := memInUse()
		b.ReportMetric(float64(after.total()-before.total())/float64(n), "bytes/session")
		b.ReportMetric(float64(after.alloc-before.alloc)/float64(n), "live-bytes/session")
		b.ReportMetric(float64(after.stack-before.stack)/float64(n), "stack-bytes/session")
		b.ReportMetric(float64(grown-before.stack)/float64(n), "notified-stack-bytes/session")
		b.ReportMetric(float64(opened.stack-before.stack)/float64(n), "opened-stack-bytes/session")
		b.ReportMetric(float64(runtime.NumGoroutine()-routines)/float64(n), "goroutines/session")
		if profile != "" {
			writeHeapProfile(b, profile)
			profile = ""
		}
		for _, s := range sessions {
			s.Close()
		}
	}
}

// stacksNow is the goroutine stacks in use now, without a collection: the
// stacks as a notification's handling grew them (a collection shrinks
// them again, by half at most per cycle, only while they are idle).
func stacksNow() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.StackInuse)
}
