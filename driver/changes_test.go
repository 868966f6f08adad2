package driver

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/simserver"
)

// postChange is the test binary as a change command: it POSTs its second
// argument (a URI) to the simulated server's changes endpoint, its first.
const postChange = "post-change"

// servePostChange makes one change through POST /changes?uri=URI and
// fails (exit 1) unless the server made it.
func servePostChange() int {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "post-change: want ENDPOINT URI")
		return 2
	}
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Post(os.Args[1]+"?uri="+url.QueryEscape(os.Args[2]), "", nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "post-change:", err)
		return 1
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, "post-change: HTTP", resp.StatusCode)
		return 1
	}
	return 0
}

// TestChangesVia: each way readbench makes a change reaches the server
// and is told to the listeners — an HTTP request to the simulated
// server's POST /changes, a command (this test binary, POSTing there),
// and the server's own changes, which readbench cannot time: then every
// notification is spontaneous, nothing is expected, matched or timed, and
// only counts are kept. A path that broke makes no change (or fails
// every one) and its case fails.
func TestChangesVia(t *testing.T) {
	for _, c := range []struct {
		name    string
		o       simserver.Options
		changes func(base string, t *testing.T) string
		check   func(t *testing.T, s *results.Subscriptions)
	}{
		{"http", simserver.Options{}, func(base string, _ *testing.T) string {
			return fmt.Sprintf(`changes: {rate: 10/s, via: {http: {url: "%s/changes?uri={uri}"}}}`, base)
		}, timedChanges("http")},
		{"command", simserver.Options{}, func(base string, t *testing.T) string {
			exe := peertest.Command(t, postChange)[0]
			return fmt.Sprintf(`changes: {rate: 10/s, via: {command: [%q, "%s/changes", "{uri}"]}}`, exe, base)
		}, timedChanges("command")},
		{"server", simserver.Options{Changes: 20}, func(string, *testing.T) string {
			return `changes: {via: server}`
		}, func(t *testing.T, s *results.Subscriptions) {
			n := s.Notifications
			if s.Changes.Via != "server" || s.Changes.Made != 0 || n.Received == 0 || n.Spontaneous != n.Received ||
				n.Expected != 0 || n.Notified != 0 || n.Missed != 0 || s.Notify.Count != 0 {
				t.Errorf("changes %+v notifications %+v notify %d values", s.Changes, n, s.Notify.Count)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := simserver.New(c.o)
			t.Cleanup(func() { _ = srv.Close() })
			mux := http.NewServeMux()
			mux.Handle("/mcp", srv.Handler())
			mux.Handle(simserver.ChangesPath, srv.Changes())
			hs := peertest.ServeLocal(t, mux)
			extra := fmt.Sprintf("listen: {listeners: 2, uris: [%s], reread: {on: false}}\n%s\n", listenURIs, c.changes(hs.URL, t))
			res := runListen(t, listenWorkload(t, hs.URL+"/mcp", "auto", extra))
			c.check(t, res.Subscriptions)
		})
	}
}

// timedChanges checks a run whose changes readbench made via via: made,
// none failed, each told to both listeners, none missed.
func timedChanges(via string) func(t *testing.T, s *results.Subscriptions) {
	return func(t *testing.T, s *results.Subscriptions) {
		n := s.Notifications
		if s.Changes.Via != via || s.Changes.Made < 5 || s.Changes.Failed != 0 {
			t.Errorf("changes %+v", s.Changes)
		}
		if n.Expected != 2*s.Changes.Made || n.Missed != 0 || n.Notified == 0 || n.Spontaneous != 0 || s.Notify.Count != n.Notified+n.Coalesced {
			t.Errorf("notifications %+v (changes made %d), notify %d values", n, s.Changes.Made, s.Notify.Count)
		}
		// Two listeners, one stream each: every change had two open for it.
		if b := s.NotifyByListeners; len(b) != 1 || b[0].Listeners != "2-10" || b[0].Latency.Count != s.Notify.Count {
			t.Errorf("notify_by_listeners %+v, want one 2-10 row of all %d", b, s.Notify.Count)
		}
	}
}
