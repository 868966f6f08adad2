package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/internal/testproc"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// What a session and a read in flight cost the generator in memory
// (the budget: at most 8 KiB per idle session and 16 KiB per read in flight
// over Streamable HTTP). The simulated server runs in a child process (the
// test binary re-executed as simHTTPPeer), so that the figures are the
// client's alone.

const simHTTPPeer = "sim-http" // readbench's simulated server on 127.0.0.1; prints its URL, ends with stdin

// What BenchmarkMemoryInFlight measures, from the environment: the
// sessions it opens, the reads it holds in flight at once, and the file
// it writes the heap profile taken while they are in flight to.
const (
	memSessionsEnv = "READBENCH_MEM_SESSIONS" // default 500
	memReadsEnv    = "READBENCH_MEM_READS"    // default 2500
	memProfileEnv  = "READBENCH_MEM_HEAPPROFILE"
)

// envInt is the integer in environment variable name, or def.
func envInt(b *testing.B, name string, def int) int {
	b.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("%s=%q: want a count of at least 1", name, v)
	}
	return n
}

// serveSimHTTP is the simulated server over Streamable HTTP on a loopback
// port. It prints the endpoint's URL on its first line of stdout and
// serves until stdin ends; GET /held answers how many reads it holds.
func serveSimHTTP() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "sim-http peer:", err)
		return 1
	}
	var held atomic.Int64
	srv := simserver.New(simserver.Options{})
	mux := http.NewServeMux()
	mcp := srv.Handler()
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		held.Add(1)
		defer held.Add(-1)
		mcp.ServeHTTP(w, r)
	}))
	mux.HandleFunc("/held", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, held.Load())
	})
	hs := &http.Server{Handler: mux}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); hs.Close() }()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "sim-http peer:", err)
		return 1
	}
	return 0
}

// startSimHTTP starts the simHTTPPeer child and returns its endpoint URL;
// it ends when the benchmark does.
func startSimHTTP(b *testing.B) string {
	b.Helper()
	return startPeerURL(b, simHTTPPeer)
}

// startPeerURL starts the peer child mode, which prints its endpoint's URL
// on its first line and serves until its stdin ends, and returns the URL;
// the child ends when the benchmark does.
func startPeerURL(b *testing.B, mode string) string {
	b.Helper()
	argv := peertest.Command(b, mode)
	cmd := testproc.Own(b, exec.Command(argv[0], argv[1:]...))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Close(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("%s peer: %v", mode, err)
	}
	return strings.TrimSpace(line)
}

// memUse is the heap and stacks in use after two collections: what the
// process holds, without the garbage waiting for the next one nor the
// buffers pooled for the next answers (a pool's are dropped over two).
type memUse struct{ heap, stack, alloc int64 }

func memInUse() memUse {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memUse{heap: int64(m.HeapInuse), stack: int64(m.StackInuse), alloc: int64(m.HeapAlloc)}
}

func (m memUse) total() int64 { return m.heap + m.stack }

// BenchmarkMemoryInFlight opens -mem.sessions sessions to the simulated
// server over Streamable HTTP and, per iteration, holds -mem.reads reads
// of 1 KiB in flight at once (the server delays each by 5 s). It reports
// the memory (heap and stacks in use) per idle session, measured once
// all sessions are open and have read once, and per read in flight,
// measured while the server holds every read:
//
//	go test -run '^$' -bench BenchmarkMemoryInFlight -benchtime 1x ./client/
//	READBENCH_MEM_HEAPPROFILE=/tmp/inflight.pprof go test -run '^$' -bench BenchmarkMemoryInFlight -benchtime 1x ./client/
//
// B/read-in-flight-stack is the part of B/read-in-flight that is
// goroutine stacks; B/idle-session-live the bytes of live objects of an
// idle session (HeapAlloc), without the spans they share with freed ones. With READBENCH_MEM_HEAPPROFILE every allocation is
// sampled and two profiles are written: FILE while the reads are in
// flight and FILE.idle with the sessions idle (go tool pprof
// -sample_index=inuse_space -base FILE.idle FILE: a read in flight).
func BenchmarkMemoryInFlight(b *testing.B) {
	nSessions, nReads := envInt(b, memSessionsEnv, 500), envInt(b, memReadsEnv, 2500)
	profile := os.Getenv(memProfileEnv)
	if profile != "" {
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 64
	}
	url := startSimHTTP(b)
	heldURL := strings.TrimSuffix(url, "/mcp") + "/held"
	tg, err := targets.Parse(url)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	base := memInUse()
	sessions := make([]Conn, nSessions)
	var wg sync.WaitGroup
	errs := make(chan error, nSessions)
	for i := range sessions {
		wg.Go(func() {
			s, _, err := Open(ctx, Dial{Target: tg, HandshakeTimeout: time.Minute})
			if err != nil {
				errs <- err
				return
			}
			sessions[i] = s
			// One read each, so that an idle session is one that has read.
			if _, err := s.ReadDocument(ctx, fmt.Sprintf("sim:///warm/%d?mime=text/markdown&size=1024", i), ReadSpec{}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	b.Cleanup(func() {
		for _, s := range sessions {
			if s != nil {
				s.Close()
			}
		}
	})
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	idle := memInUse()
	if profile != "" {
		writeHeapProfile(b, profile+".idle")
	}
	perSession := float64(idle.total()-base.total()) / float64(nSessions)
	perSessionLive := float64(idle.alloc-base.alloc) / float64(nSessions)

	var perRead, perReadStack float64
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		before := memInUse()
		var failed atomic.Int64
		var reads sync.WaitGroup
		for k := range nReads {
			s := sessions[k%nSessions]
			uri := fmt.Sprintf("sim:///held/%d-%d?mime=text/markdown&size=1024&delay=5s", n, k)
			reads.Go(func() {
				a, err := s.ReadDocument(ctx, uri, ReadSpec{})
				if err != nil || a.Outcome != stats.OK {
					failed.Add(1)
				}
			})
		}
		waitHeld(b, heldURL, nReads)
		during := memInUse()
		if n == 0 && profile != "" {
			writeHeapProfile(b, profile)
		}
		reads.Wait()
		if f := failed.Load(); f > 0 {
			b.Fatalf("%d of %d reads failed", f, nReads)
		}
		perRead += float64(during.total()-before.total()) / float64(nReads)
		perReadStack += float64(during.stack-before.stack) / float64(nReads)
	}
	b.StopTimer()
	b.ReportMetric(perSession, "B/idle-session")
	b.ReportMetric(perSessionLive, "B/idle-session-live")
	b.ReportMetric(perRead/float64(b.N), "B/read-in-flight")
	b.ReportMetric(perReadStack/float64(b.N), "B/read-in-flight-stack")
	b.ReportMetric(0, "ns/op")
}

// waitHeld polls the peer until it holds want reads.
func waitHeld(b *testing.B, heldURL string, want int) {
	b.Helper()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	limit := time.Now().Add(4 * time.Second)
	for {
		resp, err := hc.Get(heldURL)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		held, _ := strconv.Atoi(string(body))
		if held >= want {
			return
		}
		if time.Now().After(limit) {
			b.Fatalf("the server holds %d of %d reads after 4 s: the reads are not all in flight at once", held, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func writeHeapProfile(b *testing.B, path string) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}
