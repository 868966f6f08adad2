package driver

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/clock"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// The changer makes changes.rate changes per second over the measured
// phase, on the run's clock, each to the next URI of changes.uris in an
// order drawn from the seed, the way changes.via says: a tools/call on a
// session of its own, an HTTP request, or a command. Each change is
// recorded (stats.Freshness.Changed) at its send, before its request
// goes, because a server may notify before it answers; one whose request
// fails is marked failed afterwards (Freshness.Failed), which keeps it
// out of what the listeners are expected to be told unless they were.
type changer struct {
	r     *runner
	c     *workload.Changes
	uris  []string
	order []int
	fresh *stats.Freshness
	sess  *client.Session // via tool: the changer's own session
	// everyListener (via tool, a stdio target): each listener has a
	// server process of its own, where a document changes only when told
	// there, so a change is a call on every listener's session (its
	// server's copy of the document); sessions lists them.
	everyListener bool
	sessions      func() []*client.Session
	web           *http.Client // via http
	// recordOnly: another shard of the run makes the changes (the
	// first; --segment), and this one records each at its intended time,
	// on the clock the shards share, so that its listeners' notifications
	// match it; its notification latency then includes the changer's
	// scheduling lag (docs/results.md, subscriptions).
	recordOnly bool

	lagMu sync.Mutex
	lag   *stats.Histogram

	wg       sync.WaitGroup // every change in flight
	inFlight chan struct{}  // bounds changes in flight
	failMsg  saidOnce
}

// Bounds of the changer: changes in flight at once (past it the pacer
// waits, and the lag shows it), and how long one change may take; and
// how far ahead a shard that records the changes another makes records
// each (changer.recordOnly).
const (
	maxChangesInFlight = 64
	changeTimeout      = 10 * time.Second
	recordAhead        = 100 * time.Millisecond
)

// newChanger prepares the changes of c to uris: it opens the tool's
// session, or checks an HTTP change's host against allow_hosts as a
// target's is, before anything is changed.
func (r *runner) newChanger(ctx context.Context, c *workload.Changes, uris []string, fresh *stats.Freshness) (*changer, error) {
	ch := &changer{r: r, c: c, uris: uris, fresh: fresh, lag: stats.NewHistogram(), inFlight: make(chan struct{}, maxChangesInFlight)}
	ch.order = rand.New(rand.NewPCG(uint64(r.w.Seed), 43)).Perm(len(uris))
	switch v := c.Via; {
	case v.Tool != nil && (r.w.Target.Kind == targets.Stdio || r.w.Target.Kind == targets.Embedded || r.w.Target.Kind == ""):
		ch.everyListener = true // a process per session (listen.go sets sessions): every shard changes its own
	case r.o.Segment.K > 1:
		ch.recordOnly = true // the first shard makes the changes
	case v.Tool != nil:
		conn, _, err := client.Open(ctx, r.dialOf(nil))
		if err != nil {
			return nil, fmt.Errorf("changes: open the changer's session: %w", err)
		}
		s, ok := conn.(*client.Session)
		if !ok {
			_ = conn.Close()
			return nil, &workload.Error{Key: "changes.via.tool", Msg: "a tool is called over MCP: the target serves plain HTTP documents"}
		}
		ch.sess = s
	case v.HTTP != nil:
		t, err := targets.Parse(strings.ReplaceAll(v.HTTP.URL, workload.ChangeURI, "x"))
		if err != nil {
			return nil, &workload.Error{Key: "changes.via.http.url", Msg: err.Error()}
		}
		aim := targets.Aim{AllowHosts: r.w.AllowHosts, InsecureCredentials: r.w.InsecureCredentials}
		if err := targets.CheckAim(t, v.HTTP.Headers, aim); err != nil {
			return nil, fmt.Errorf("changes.via.http: %w", err)
		}
		ch.web = &http.Client{Timeout: changeTimeout}
	}
	return ch, nil
}

// run makes the changes from start for length (0: until stop closes),
// then waits for those in flight. A schedule of a length is made whole
// whatever stop says (only ctx ends it early): the reads' schedule of a
// shard ends with its own last turn, and every shard of a run must make
// or record the same changes.
func (ch *changer) run(ctx context.Context, start time.Time, length time.Duration, stop <-chan struct{}) {
	defer ch.wg.Wait()
	rate := ch.c.Rate.PerSecond
	if rate <= 0 || len(ch.uris) == 0 {
		return
	}
	if length <= 0 {
		length = 365 * 24 * time.Hour // ended by stop
	} else {
		stop = nil
	}
	p := &constantPacer{stretches: []stretch{{from: rate, to: rate, length: length}}}
	var sleeper clock.Sleeper
	for k := 0; ; k++ {
		at, ok := p.next()
		if !ok {
			return
		}
		intended := start.Add(at)
		wake := intended
		if ch.recordOnly {
			// Recorded ahead of its time, with its time: a notification
			// that the first shard's change starts may come before this
			// goroutine would wake at the change's time, and would then
			// find nothing to match (a notification is matched only to
			// changes recorded at or before its arrival).
			wake = intended.Add(-recordAhead)
		}
		if !sleeper.SleepUntil(wake, ctx.Done(), stop) {
			return
		}
		uri := ch.uris[ch.order[k%len(ch.order)]]
		if ch.recordOnly { // nothing sent: no slot in flight to take
			ch.fresh.Changed(uri, intended)
			continue
		}
		select {
		case ch.inFlight <- struct{}{}:
		case <-ctx.Done():
			return
		case <-stop:
			return
		}
		sent := time.Now()
		ch.lagMu.Lock()
		ch.lag.Record(sent.Sub(intended))
		ch.lagMu.Unlock()
		ch.fresh.Changed(uri, sent) // before the request: a notification may come before its answer
		ch.wg.Add(1)
		go func() {
			defer ch.wg.Done()
			defer func() { <-ch.inFlight }()
			if err := ch.change(ctx, uri); err != nil {
				ch.fresh.Failed(uri, sent)
				if ch.r.o.Logf != nil && ch.failMsg.first(err.Error()) {
					ch.r.o.Logf("change %s: %v", uri, err)
				}
			}
		}()
	}
}

// change makes one change of uri as changes.via says.
func (ch *changer) change(ctx context.Context, uri string) error {
	ctx, cancel := context.WithTimeout(ctx, changeTimeout)
	defer cancel()
	switch v := ch.c.Via; {
	case v.Tool != nil && ch.everyListener:
		return ch.callEvery(ctx, v.Tool, uri)
	case v.Tool != nil:
		return ch.callTool(ctx, ch.sess, v.Tool, uri)
	case v.HTTP != nil:
		return ch.request(ctx, v.HTTP, uri)
	case len(v.Command) > 0:
		argv := make([]string, len(v.Command))
		for i, a := range v.Command {
			argv[i] = strings.ReplaceAll(a, workload.ChangeURI, uri)
		}
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.WaitDelay = time.Second
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("command %s: %w: %s", argv[0], err, strings.TrimSpace(string(out[:min(len(out), 200)])))
		}
	}
	return nil
}

// callTool calls the change's tool with its arguments, ChangeURI replaced
// by uri; an error answer or a result with isError is a failed change.
func (ch *changer) callTool(ctx context.Context, s *client.Session, t *workload.ToolChange, uri string) error {
	params := map[string]any{"name": t.Name, "arguments": withURI(t.Args, uri)}
	req, err := s.NewRequest(protocol.MethodToolsCall, t.Name, params)
	if err != nil {
		return fmt.Errorf("tool %s: %w", t.Name, err)
	}
	resp, err := s.Do(ctx, req)
	if err != nil {
		return fmt.Errorf("tool %s: %w", t.Name, err)
	}
	m, err := protocol.Decode(resp.Body)
	if err != nil {
		return fmt.Errorf("tool %s: %w", t.Name, err)
	}
	if m.Error != nil {
		return fmt.Errorf("tool %s: %w", t.Name, m.Error)
	}
	var res struct {
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil {
		return fmt.Errorf("tool %s: result: %w", t.Name, err)
	}
	if res.IsError {
		return fmt.Errorf("tool %s answered isError: %.200s", t.Name, m.Result)
	}
	return nil
}

// callEvery calls the change's tool on every listener's session at once:
// the change of a document served by a process per session. One failed
// call fails the change (the subscriptions of that process are then not
// expected to be told of it).
func (ch *changer) callEvery(ctx context.Context, t *workload.ToolChange, uri string) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for _, s := range ch.sessions() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := ch.callTool(ctx, s, t, uri); err != nil {
				mu.Lock()
				first = cmp.Or(first, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// request sends the change's HTTP request, ChangeURI replaced by uri
// (query-escaped in the URL); a status of 400 or more is a failed change.
func (ch *changer) request(ctx context.Context, h *workload.HTTPChange, uri string) error {
	method := h.Method
	if method == "" {
		method = http.MethodPost
	}
	u := strings.ReplaceAll(h.URL, workload.ChangeURI, url.QueryEscape(uri))
	req, err := http.NewRequestWithContext(ctx, method, u, strings.NewReader(strings.ReplaceAll(h.Body, workload.ChangeURI, uri)))
	if err != nil {
		return fmt.Errorf("http change: %w", err)
	}
	for k, v := range h.Headers {
		req.Header.Set(k, strings.ReplaceAll(v, workload.ChangeURI, uri))
	}
	resp, err := ch.web.Do(req)
	if err != nil {
		return fmt.Errorf("http change: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode >= 400 {
		return fmt.Errorf("http change: %s %s: HTTP %d", method, targets.RedactSecrets(u), resp.StatusCode)
	}
	return nil
}

// withURI is v with ChangeURI replaced by uri in every string it holds.
func withURI(v any, uri string) any {
	switch t := v.(type) {
	case string:
		return strings.ReplaceAll(t, workload.ChangeURI, uri)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = withURI(e, uri)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = withURI(e, uri)
		}
		return out
	}
	return v
}

// close closes the changer's session, if any.
func (ch *changer) close() {
	if ch.sess != nil {
		_ = ch.sess.Close()
	}
}

// lagCopy is the changes' lag block (a copy, once the changer ended).
func (ch *changer) lagCopy() *stats.Histogram {
	ch.lagMu.Lock()
	defer ch.lagMu.Unlock()
	h := stats.NewHistogram()
	h.Merge(ch.lag)
	return h
}
