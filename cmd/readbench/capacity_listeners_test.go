package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/internal/peertest"
)

// listenerWorkload reads one small document at 10 turns/s while the
// listeners follow another, changed by the simulated server's touch tool.
const listenerWorkload = `name: listeners
sessions: 1
load: {rate: 10/s}
turn: {attachments: 1, read_timeout: 5s, deadline: 5s}
mix:
  - {class: md, mime: text/markdown, size: 2KiB}
listen: {listeners: 1, uris: ["sim:///followed.md?mime=text/markdown&size=1KiB"], reread: {on: false}}
changes: {rate: 4/s, via: {tool: touch, args: {uri: "{uri}"}}}
`

// searchListeners runs `capacity --sweep listeners` against url and
// returns its finding and exit code; steps are short (a bounded search:
// from 2 to 16 listeners, a few refinements).
func searchListeners(t *testing.T, dir, url, slo string, extra ...string) (capacity.ListenerFinding, int) {
	t.Helper()
	w := writeWorkload(t, dir, listenerWorkload)
	args := append([]string{"capacity", w, "--target", url, "--sweep", "listeners", "--slo", slo,
		"--from", "2", "--to", "16", "--refine", "3", "--step-duration", "600ms", "--step-warmup", "700ms",
		"--retries", "1", "--format", "json", "--out", "caps", "--force", "-q"}, extra...)
	out, stderr, code := readbench(t, dir, args...)
	var rep capacity.ListenerFinding
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, stderr)
	}
	if known := rep.MaxListeners != nil; code > 1 || known != (code == 0) {
		t.Fatalf("exit %d with the count known: %v: %s", code, known, stderr)
	}
	return rep, code
}

// TestCapacityListenersLimit: against `readbench serve --max-listeners 6`
// the listener search finds 6 and names the limit reached (-32603 in an
// HTTP 200) as what refused first, at 7; the read p99 with no listener
// and at each count tried is in the finding. The refusal is the server's
// word, so a busy machine does not blur it (a loose ack bound alone could
// break on one, which the test does not set); a step below it that fails
// on a saturated machine makes the search say it could not tell, which
// the test accepts only with no count named.
func TestCapacityListenersLimit(t *testing.T) {
	dir := t.TempDir()
	url := startServe(t, "--max-listeners", "6")
	// On a saturated machine a step below the limit can fail otherwise
	// (a session that did not open in time) while the CPUs are
	// contended: the search then says it could not tell, and is tried
	// again, at most three times in all; what it must never do is name
	// another count.
	var rep capacity.ListenerFinding
	var code int
	for attempt := 1; attempt <= 3; attempt++ {
		rep, code = searchListeners(t, dir, url, "ack.p99<30s", "--hold", "1s", "--holds", "1")
		if rep.LimitedBy != capacity.LimitMachine && rep.LimitedBy != capacity.LimitGenerator {
			break
		}
		if in := rep.Interval; rep.MaxListeners != nil || in == nil || in.Low > 6 || in.High != 0 && in.High < 7 {
			t.Fatalf("could not tell, yet claims %v (interval %+v): %s", rep.MaxListeners, in, rep.Conclusion)
		}
		t.Logf("attempt %d: could not tell: %s", attempt, rep.Conclusion)
	}
	if rep.LimitedBy == capacity.LimitMachine || rep.LimitedBy == capacity.LimitGenerator {
		t.Logf("the machine did not let readbench tell three times; it said so, and named no count")
		return
	}
	got := -1
	if rep.MaxListeners != nil {
		got = *rep.MaxListeners
	}
	if code != 0 || got != 6 || rep.LimitedBy != capacity.LimitListeners || rep.RefusedFirst != capacity.RefusedLimit || rep.FirstBadListeners != 7 {
		t.Fatalf("found %d (limited by %s, refused first %q at %d), want 6, limit_reached at 7: %s", got, rep.LimitedBy, rep.RefusedFirst, rep.FirstBadListeners, rep.Conclusion)
	}
	if !strings.Contains(rep.RefusedWhy, "Subscription limit reached") || rep.Hold == nil || !rep.Hold.Pass {
		t.Errorf("why %q, hold %+v", rep.RefusedWhy, rep.Hold)
	}
	if len(rep.Interference) < 3 || rep.Interference[0].Listeners != 0 || rep.ReadP99AtZeroMs <= 0 {
		t.Errorf("interference %+v, baseline %v", rep.Interference, rep.ReadP99AtZeroMs)
	}
	for _, st := range rep.Steps {
		if st.Listeners > 6 && !st.Rerun && (st.Pass || st.Listen.LimitReached != int64(st.Listeners-6)) {
			t.Errorf("step at %d listeners: pass %v, limit reached %d", st.Listeners, st.Pass, st.Listen.LimitReached)
		}
	}
}

// TestCapacityListenersAck: against a server that delays each
// acknowledgement 40 ms for every listen stream open, an ack.p99 bound of
// 200 ms stops the search by the ack SLO, below 6 listeners (5 × 40 ms is
// the last to hold on a quiet machine; a slow machine only lowers it).
// On a busy machine the honest answer is "could not tell" (limited by the
// machine or the generator, no figure): then the test checks that, and
// that no count above the server's was claimed.
func TestCapacityListenersAck(t *testing.T) {
	dir := t.TempDir()
	url := startServe(t, "--ack-per-listener", "40ms")
	rep, _ := searchListeners(t, dir, url, "ack.p99<200ms", "--hold", "0")
	switch rep.LimitedBy {
	case capacity.LimitListeners, capacity.LimitFirstStep:
		if rep.RefusedFirst != capacity.RefusedAck {
			t.Fatalf("refused first %q (%s), want ack", rep.RefusedFirst, rep.Conclusion)
		}
		if rep.MaxListeners != nil && (*rep.MaxListeners > 5 || rep.FirstBadListeners > 6) {
			t.Fatalf("found %d, first bad %d: over what the server's ack allows: %s", *rep.MaxListeners, rep.FirstBadListeners, rep.Conclusion)
		}
	case capacity.LimitMachine, capacity.LimitGenerator:
		if rep.MaxListeners != nil || !strings.Contains(rep.Conclusion, "Could not tell") {
			t.Fatalf("limited by %s with a count: %s", rep.LimitedBy, rep.Conclusion)
		}
		if in := rep.Interval; in != nil && in.Low > 5 {
			t.Fatalf("interval %+v claims more than the server's ack allows", in)
		}
		t.Logf("the machine did not let readbench tell: %s", rep.Conclusion)
	default:
		t.Fatalf("limited by %s: %s", rep.LimitedBy, rep.Conclusion)
	}
	t.Log(fmt.Sprintf("%+v", rep.Interference))
}

// sdkListenWorkload reads one of the SDK server's documents while the
// listeners follow the other, changed by its touch tool.
const sdkListenWorkload = `name: sdk-listeners
sessions: 1
load: {rate: 10/s}
turn: {attachments: 1, read_timeout: 5s, deadline: 5s}
mix:
  - {class: doc, uri: "docs://sub/a"}
listen: {listeners: 1, uris: ["docs://sub/b"], reread: {on: false}}
changes: {rate: 4/s, via: {tool: touch, args: {uri: "{uri}"}}}
`

// TestCapacityListenersSDK: the listener search against a server no one
// here wrote, the official Go SDK's (v1.8.0, 2026-07-28
// subscriptions/listen over stateless Streamable HTTP, a touch tool
// announcing changes with its ResourceUpdated): it holds every count
// tried (2 to 8) within a loose SLO, every stream acknowledged and
// notified, so the search ends above the range — or, on a busy machine,
// says it could not tell; never a limit the server does not have.
func TestCapacityListenersSDK(t *testing.T) {
	dir := t.TempDir()
	s := peertest.SDKSubscribeServer("sdk-listen", "docs://sub/a", "docs://sub/b")
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true})
	url := peertest.ServeLocal(t, h).URL + "/mcp"
	w := writeWorkload(t, dir, sdkListenWorkload)
	out, stderr, code := readbench(t, dir, "capacity", w, "--target", url, "--sweep", "listeners", "--slo", "ack.p99<3s,notify.p99<3s",
		"--from", "2", "--to", "8", "--refine", "2", "--step-duration", "1s", "--step-warmup", "700ms", "--retries", "1", "--hold", "0",
		"--format", "json", "--out", "caps", "--force", "-q")
	var rep capacity.ListenerFinding
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, stderr)
	}
	switch rep.LimitedBy {
	case capacity.LimitRange:
		if code != 0 || rep.MaxListeners == nil || *rep.MaxListeners != 8 {
			t.Fatalf("exit %d, max %v: %s", code, rep.MaxListeners, rep.Conclusion)
		}
	case capacity.LimitMachine, capacity.LimitGenerator:
		if code != 1 || !strings.Contains(rep.Conclusion, "Could not tell") {
			t.Fatalf("exit %d: %s", code, rep.Conclusion)
		}
		t.Logf("the machine did not let readbench tell: %s", rep.Conclusion)
	default:
		t.Fatalf("limited by %s (refused first %q): %s", rep.LimitedBy, rep.RefusedFirst, rep.Conclusion)
	}
	for _, st := range rep.Steps {
		if l := st.Listen; l != nil && !st.Rerun && st.Pass && (l.StreamsOpened != l.StreamsAsked || l.Notifications == 0) {
			t.Errorf("step at %d listeners passed with %d of %d streams, %d notifications", st.Listeners, l.StreamsOpened, l.StreamsAsked, l.Notifications)
		}
	}
}

// TestCapacityListenersHTML: `capacity --sweep listeners --format html`
// writes the listener search's page (the answer, the chart of p99s
// against the listeners, the steps), where it used to be refused.
func TestCapacityListenersHTML(t *testing.T) {
	dir := t.TempDir()
	url := startServe(t, "--max-listeners", "3")
	w := writeWorkload(t, dir, listenerWorkload)
	out, stderr, code := readbench(t, dir, "capacity", w, "--target", url, "--sweep", "listeners", "--slo", "ack.p99<30s",
		"--from", "2", "--to", "4", "--refine", "0", "--hold", "0", "--step-duration", "600ms", "--step-warmup", "700ms",
		"--retries", "1", "--format", "html", "--out", "caps", "--force", "-q")
	if code > 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"<title>readbench listener search: ", `data-chart="capacity"`, "ack p99", `data-section="steps"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q:\n%.600s", want, out)
		}
	}
}
