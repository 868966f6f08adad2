package record

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"sync"
	"time"

	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// Stdio records a stdio host's traffic (`readbench record --stdio`): the
// host starts readbench as its server; readbench starts the upstream
// command, copies each line the host writes to the child's stdin and
// each line the child writes to the host, unchanged, and records the
// reads in between. The child's stderr is passed through. It returns
// when the host closes its end (the child's stdin is closed and the
// child waited for), the child exits, or ctx ends (the child is killed).
//
// With an http(s):// upstream the lines go to a Streamable HTTP server
// instead (bridge.go).
func Stdio(ctx context.Context, o Options, host io.Reader, toHost, stderr io.Writer) (err error) {
	if o.Upstream.Kind != targets.HTTP && (o.Upstream.Kind != targets.Stdio || len(o.Upstream.Argv) == 0) {
		return fmt.Errorf("record: --stdio forwards to a stdio:CMD or http(s):// upstream, not %s", o.Upstream.Redacted())
	}
	b, err := newBook(o, "stdio")
	if err != nil {
		return err
	}
	defer func() {
		if cerr := b.close(time.Now()); err == nil {
			err = cerr
		}
	}()
	if o.Upstream.Kind == targets.HTTP {
		rt := o.Transport
		if rt == nil {
			rt = &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second}
		}
		return (&bridge{o: o, b: b, rt: rt, host: toHost}).run(ctx, host)
	}
	cmd := exec.CommandContext(ctx, o.Upstream.Argv[0], o.Upstream.Argv[1:]...)
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("record: start %s: %w", o.Upstream.Redacted(), err)
	}
	w := &stdioWaits{m: map[string]*pending{}}
	limit := o.maxAnswer()
	// The host's lines go to the child; when the host is done, so is
	// the child's stdin. The goroutine ends with the host's stream or
	// when the child's stdin breaks (the child exited).
	hostDone := make(chan struct{})
	go func() {
		defer close(hostDone)
		defer in.Close()
		r := bufio.NewReaderSize(host, 64<<10)
		for {
			line, rerr := r.ReadBytes('\n')
			if len(line) > 0 {
				now := time.Now()
				for _, p := range b.requests(messages(line), "", false, now) {
					w.add(p)
				}
				if _, werr := in.Write(line); werr != nil {
					return
				}
			}
			if rerr != nil {
				return
			}
		}
	}()
	// The child's output goes to the host as it comes; each line is
	// spooled (a few MiB in memory, the rest in a file) to be matched and
	// classified whole. A line past the limit is passed and not matched:
	// its read ends as a transport failure when the child does.
	split := &lineSplitter{sp: spool{limit: limit, dir: o.SpillDir}}
	emit := func(msg []byte, framing int64, over bool) {
		if over {
			return
		}
		if p := w.take(msg); p != nil {
			b.response([]*pending{p}, msg, framing, time.Now())
		}
	}
	buf := make([]byte, 64<<10)
	for {
		n, rerr := out.Read(buf)
		if n > 0 {
			if _, werr := toHost.Write(buf[:n]); werr != nil {
				break
			}
			split.feed(buf[:n], emit)
		}
		if rerr != nil {
			if rerr == io.EOF {
				split.end(emit)
			}
			break
		}
	}
	split.sp.reset()
	werr := cmd.Wait()
	// A host that closed its end has ended the goroutine above; one still
	// writing when the child exited ends it at its next line or its end
	// (a read from a blocking stdin cannot be interrupted: the process's
	// exit, which follows, ends it).
	select {
	case <-hostDone:
	case <-time.After(100 * time.Millisecond):
	}
	b.unanswered(w.rest(), false, stats.Transport, time.Now())
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) && ctx.Err() == nil {
		return fmt.Errorf("record: %s: %w", o.Upstream.Redacted(), werr)
	}
	return nil
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// stdioWaits are the reads waiting for their answers on one pipe, by id.
type stdioWaits struct {
	mu sync.Mutex
	m  map[string]*pending
}

func (w *stdioWaits) add(p *pending) {
	w.mu.Lock()
	w.m[p.id] = p
	w.mu.Unlock()
}

// take returns the read a line of the child answers, nil for none.
func (w *stdioWaits) take(line []byte) *pending {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != "" || len(m.ID) == 0 {
		return nil
	}
	id := idKey(m.ID)
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.m[id]
	delete(w.m, id)
	return p
}

// rest is every read still waiting.
func (w *stdioWaits) rest() []*pending {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*pending
	for _, p := range w.m {
		out = append(out, p)
	}
	return out
}
