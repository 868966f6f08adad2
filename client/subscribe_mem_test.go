package client

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// sdkSubHTTPPeer is sdkSubServer over stateless Streamable HTTP in a child
// process: it prints its URL, and serves until its stdin closes, so that
// what the client holds per stream is measured without the server's
// share.
const sdkSubHTTPPeer = "sdk-sub-http"

func serveSDKSubHTTP() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv := sdkSubServer()
	hs := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})}
	go func() { _ = hs.Serve(ln) }()
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until the parent closes it
	_ = hs.Close()
	return 0
}

// BenchmarkIdleListenStreams opens READBENCH_STREAMS (default 1,000)
// idle 2026-07-28 listen streams on one session against the Go SDK's
// server in a child process, and reports what the client holds per open
// stream: heap in use plus goroutine stacks, after a GC, over the count
// (bytes/stream), and the goroutines each stream keeps
// (goroutines/stream). The time per op means nothing here. With
// READBENCH_STREAMS_HEAPPROFILE=FILE every allocation is sampled and the
// heap profile taken while the streams are open is written to FILE (go
// tool pprof -sample_index=inuse_space FILE: what an open stream holds).
func BenchmarkIdleListenStreams(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("READBENCH_STREAMS")); err == nil && v > 0 {
		n = v
	}
	profile := os.Getenv("READBENCH_STREAMS_HEAPPROFILE")
	if profile != "" {
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 64
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), peertest.Env+"="+sdkSubHTTPPeer)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s, _, err := Connect(ctx, Dial{Target: targets.Target{Kind: targets.HTTP, Address: url[:len(url)-1]}, Protocol: protocol.V20260728})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for b.Loop() {
		before, stacks, routines := inUse(), stackInUse(), runtime.NumGoroutine()
		subs := make([]*Subscription, 0, n)
		for range n {
			sub, err := s.Subscribe(ctx, SubscribeSpec{URIs: []string{subURI}}, func(Notification) {})
			if err != nil {
				b.Fatalf("stream %d: %v", len(subs), err)
			}
			subs = append(subs, sub)
		}
		after := inUse()
		b.ReportMetric(float64(after-before)/float64(n), "bytes/stream")
		b.ReportMetric(float64(stackInUse()-stacks)/float64(n), "stack-bytes/stream")
		b.ReportMetric(float64(runtime.NumGoroutine()-routines)/float64(n), "goroutines/stream")
		if profile != "" {
			writeHeapProfile(b, profile)
			profile = ""
		}
		for _, sub := range subs {
			_ = sub.Close(ctx)
		}
	}
}

// stackInUse is the goroutine stacks in use, after a GC (which shrinks
// the stacks of parked goroutines that use little of theirs).
func stackInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.StackInuse)
}

// inUse is the heap in use and the goroutine stacks, after a GC.
func inUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse + m.StackInuse)
}
