//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/internal/testproc"
)

// Interrupts, end to end: the binary is started against a stdio server
// that is slow, or stuck and deaf to SIGTERM, or silent, and sent SIGINT
// or SIGTERM; it must stop within 5 s, save what it measured as a partial
// result, and leave no process behind — not the server, nor what the
// server started.

// interruptible is a readbench run against a peer, to be signalled.
type interruptible struct {
	t                 *testing.T
	dir, pids, ready  string
	cmd               *exec.Cmd
	stdout, stderr    syncBuffer
	exited            chan struct{}
	exitedAt          time.Time
	code              int
	startedAt, sentAt time.Time
}

// startInterruptible starts `readbench run` against the peer of mode with
// a workload of slow reads, in a fresh folder (the peer finds its files
// in the environment: the test cannot run in parallel).
func startInterruptible(t *testing.T, mode string) *interruptible {
	t.Helper()
	argv := peertest.Command(t, mode)
	r := newInterruptible(t)
	t.Setenv(peerPIDsEnv, r.pids)
	t.Setenv(peerReadyEnv, r.ready)
	r.start(fmt.Sprintf("{stdio: [%q]}", argv[0]), "slow://doc")
	return r
}

// startRun starts `readbench run` against target (YAML) reading uri, in a
// fresh folder.
func startRun(t *testing.T, target, uri string) *interruptible {
	t.Helper()
	r := newInterruptible(t)
	r.start(target, uri)
	return r
}

func newInterruptible(t *testing.T) *interruptible {
	r := &interruptible{t: t, dir: t.TempDir(), exited: make(chan struct{})}
	r.pids, r.ready = filepath.Join(r.dir, "pids"), filepath.Join(r.dir, "ready")
	return r
}

// start starts the run of uri against target.
func (r *interruptible) start(target, uri string) {
	t := r.t
	t.Helper()
	wl := writeWorkload(t, r.dir, fmt.Sprintf(`
name: interrupted
target: %s
load: {rate: 20/s, duration: 60s}
turn: {attachments: 2, read_timeout: 30s}
mix:
  - {class: doc, uri: %q}
`, target, uri))
	r.cmd = testproc.Own(t, exec.Command(binary, "run", wl, "--quiet", "--out", "r.json"))
	r.cmd.Dir = r.dir
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.startedAt = time.Now()
	go func() {
		err := r.cmd.Wait()
		r.exitedAt = time.Now()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			r.code = ee.ExitCode()
		} else if err != nil {
			r.code = -1
		}
		close(r.exited)
	}()
	t.Cleanup(func() {
		_ = r.cmd.Process.Kill()
		<-r.exited
		for _, pid := range r.peerPIDs() { // a failed test leaves nothing running
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// waitReady waits until the peer says the moment to interrupt has come.
func (r *interruptible) waitReady() {
	r.t.Helper()
	r.waitFor("the peer to be ready", func() bool {
		_, err := os.Stat(r.ready)
		return err == nil
	})
}

// waitFor waits at most 30 s for cond, failing the test when readbench
// exits first.
func (r *interruptible) waitFor(what string, cond func() bool) {
	r.t.Helper()
	exited := false
	if !poll(30*time.Second, func() bool {
		select {
		case <-r.exited:
			exited = true
			return true
		default:
			return cond()
		}
	}) {
		r.t.Fatalf("waited 30 s for %s:\n%s", what, r.stderr.String())
	}
	if exited && !cond() {
		r.t.Fatalf("readbench exited %d before %s:\n%s", r.code, what, r.stderr.String())
	}
}

// said reports whether readbench wrote text on its stderr so far.
func (r *interruptible) said(text string) func() bool {
	return func() bool { return strings.Contains(r.stderr.String(), text) }
}

// signal sends sig to readbench.
func (r *interruptible) signal(sig os.Signal) {
	r.t.Helper()
	r.sentAt = time.Now()
	if err := r.cmd.Process.Signal(sig); err != nil {
		r.t.Fatal(err)
	}
}

// waitExit waits at most within for readbench to exit after the last
// signal, and fails the test when it takes longer.
func (r *interruptible) waitExit(within time.Duration) {
	r.t.Helper()
	select {
	case <-r.exited:
	case <-time.After(within + 5*time.Second): // kill it in Cleanup; report how late
		r.t.Fatalf("readbench still running %v after the signal:\n%s", within+5*time.Second, r.stderr.String())
	}
	if took := r.exitedAt.Sub(r.sentAt); took > within {
		r.t.Errorf("readbench took %v to exit after the signal, want at most %v:\n%s", took, within, r.stderr.String())
	}
}

// peerPIDs are the pids the peer recorded (itself and its child).
func (r *interruptible) peerPIDs() []int {
	data, _ := os.ReadFile(r.pids)
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// noneLeft fails unless every process the peer recorded is gone (a
// zombie waiting for init to reap it counts as gone) within a second.
func (r *interruptible) noneLeft(want int) {
	r.t.Helper()
	pids := r.peerPIDs()
	if len(pids) != want {
		r.t.Fatalf("the peer recorded %d pids, want %d: %v", len(pids), want, pids)
	}
	for _, pid := range pids {
		if !poll(time.Second, func() bool { return processGone(pid) }) {
			r.t.Errorf("process %d outlived readbench", pid)
		}
	}
}

// processGone reports whether pid no longer runs: no such process, or a
// zombie.
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z"))
}

// savedPartial checks the exit (130, as for any interrupt) and the saved
// result: partial, the identity kept, the server recorded, reads cut by
// the interrupt counted cancelled, and no temporary file left beside it.
func (r *interruptible) savedPartial(server string) {
	r.t.Helper()
	if r.code != exitInterrupted {
		r.t.Fatalf("exit %d after an interrupt that saved the result, want %d (a cancelled CI job must not look green):\n%s",
			r.code, exitInterrupted, r.stderr.String())
	}
	res := loadResult(r.t, filepath.Join(r.dir, "r.json"))
	if raw := rawResult(r.t, filepath.Join(r.dir, "r.json")); raw["partial"] != true {
		r.t.Errorf("partial = %v, want true", raw["partial"])
	}
	if res.Target.Server.Name != server || res.Target.Server.Version == "" {
		r.t.Errorf("server %+v", res.Target.Server)
	}
	if res.Totals.Outcomes["cancelled"] == 0 {
		r.t.Errorf("no read counted cancelled: %v", res.Totals.Outcomes)
	}
	if tmp, _ := filepath.Glob(filepath.Join(r.dir, ".r.json.tmp-*")); len(tmp) > 0 {
		r.t.Errorf("temporary files left: %v", tmp)
	}
	if !strings.Contains(r.stderr.String(), "interrupted") || !strings.Contains(r.stderr.String(), "partial") {
		r.t.Errorf("stderr does not say the run was interrupted and the result partial:\n%s", r.stderr.String())
	}
}

// TestInterruptSavesPartialResult (a): SIGINT or SIGTERM during a run
// against a server whose reads take a second: readbench exits within 5 s
// with a partial result whose accounting identity holds.
func TestInterruptSavesPartialResult(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			r := startInterruptible(t, slowPeer)
			r.waitReady() // a few reads in flight
			r.signal(sig)
			r.waitExit(5 * time.Second)
			r.savedPartial("signal-peer")
			r.noneLeft(1)
		})
	}
}

// TestInterruptHTTP (a) over Streamable HTTP: reads of 3 s from
// `readbench serve`, cut by the interrupt (their streams closed).
func TestInterruptHTTP(t *testing.T) {
	t.Parallel()
	reads := countReads(t, startServe(t))
	r := startRun(t, reads.url, "sim:///slow?mime=text/plain&size=100&delay=3s")
	r.waitFor("reads in flight", func() bool { return reads.n.Load() >= readyReads })
	r.signal(os.Interrupt)
	r.waitExit(5 * time.Second)
	r.savedPartial("readbench-simserver")
}

// TestInterruptStuckServer (b, c): the server answers the handshake, then
// no read, ignores the cancellations, its stdin closing and SIGTERM, and
// has a child that ignores SIGTERM too: readbench still exits within 5 s
// with a partial result, and neither process is left.
func TestInterruptStuckServer(t *testing.T) {
	r := startInterruptible(t, stuckPeer)
	r.waitReady()
	r.signal(os.Interrupt)
	r.waitExit(5 * time.Second)
	r.savedPartial("signal-peer")
	r.noneLeft(2)
}

// TestInterruptSilentServer (b, c): the server never says a word, so the
// handshake never ends: an interrupt ends readbench within 5 s, saying
// that nothing was measured (exit 130), and no process is left.
func TestInterruptSilentServer(t *testing.T) {
	r := startInterruptible(t, silentPeer)
	r.waitReady()
	r.signal(os.Interrupt)
	r.waitExit(5 * time.Second)
	if r.code != exitInterrupted || !strings.Contains(r.stderr.String(), "nothing saved") {
		t.Errorf("exit %d, want %d saying no result was saved:\n%s", r.code, exitInterrupted, r.stderr.String())
	}
	if strings.Count(r.stderr.String(), "readbench: interrupted before") != 1 {
		t.Errorf("the failure is not said exactly once:\n%s", r.stderr.String())
	}
	r.noneLeft(2)
}

// TestSecondInterruptQuitsAtOnce (d): a second interrupt, while the first
// waits on a stuck server, ends readbench within secondGrace (a result
// being saved may finish in it) and leaves no process.
func TestSecondInterruptQuitsAtOnce(t *testing.T) {
	r := startInterruptible(t, stuckPeer)
	r.waitReady()
	r.signal(os.Interrupt)
	// The first is closing the sessions: the stuck server waits for SIGKILL.
	r.waitFor("the first interrupt to be handled", r.said("readbench: interrupted: stopping"))
	r.signal(os.Interrupt)
	r.waitExit(secondGrace + 300*time.Millisecond)
	if !strings.Contains(r.stderr.String(), "interrupted again") {
		t.Errorf("stderr does not acknowledge the second interrupt:\n%s", r.stderr.String())
	}
	if r.code != exitInterrupted { // whether or not the partial result was saved within the grace
		t.Errorf("exit %d, want %d:\n%s", r.code, exitInterrupted, r.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(r.dir, "r.json")); err == nil {
		loadResult(t, filepath.Join(r.dir, "r.json"))
	}
	if tmp, _ := filepath.Glob(filepath.Join(r.dir, ".r.json.tmp-*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
	r.noneLeft(2)
}

// syncBuffer is a bytes.Buffer a test may read while the process it is the
// stdout or stderr of still writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// readCounter is a reverse proxy that counts the resources/read requests
// it passes on to a server, so that a test can wait for reads in flight.
type readCounter struct {
	url string // the proxy's MCP endpoint
	n   atomic.Int64
}

// countReads starts a readCounter in front of the MCP endpoint upstream,
// closed when the test ends.
func countReads(t *testing.T, upstream string) *readCounter {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	c := &readCounter{}
	proxy := &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(&url.URL{Scheme: u.Scheme, Host: u.Host}) },
		FlushInterval: -1, // SSE answers pass at once
	}
	c.url = peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"resources/read"`)) {
			c.n.Add(1)
		}
		proxy.ServeHTTP(w, r)
	})).URL + u.Path
	return c
}
