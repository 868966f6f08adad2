package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// arrival is a read as the server saw it.
type arrival struct {
	at      time.Time
	session string
	uri     string
}

// TestRunKeepsAnExplicitSchedule: a run given a Schedule (readbench
// replay) sends each turn's own reads at its own time on its own session,
// instead of what the pacer and the plan would draw, and tells Told of
// every read with its digest.
func TestRunKeepsAnExplicitSchedule(t *testing.T) {
	srv := peertest.SDKServer(time.Millisecond)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var mu sync.Mutex
	var seen []arrival
	logged := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct {
			Method string
			Params struct{ URI string }
		}
		if json.Unmarshal(body, &m) == nil && m.Method == "resources/read" {
			mu.Lock()
			seen = append(seen, arrival{time.Now(), r.Header.Get("Mcp-Session-Id"), m.Params.URI})
			mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
	url := peertest.ServeLocal(t, logged).URL + "/mcp"
	w, err := yamlfile.Parse("s.yaml", []byte(fmt.Sprintf(`
name: schedule
target: %q
sessions: 2
load: {rate: 5/s, duration: 500ms}
turn: {attachments: 1, read_timeout: 60s}
mix:
  - {class: md, uri: "docs://onboarding/engineering"}
  - {class: png, uri: "file:///repo/architecture.png"}
`, url)))
	if err != nil {
		t.Fatal(err)
	}
	md := workload.Attachment{Class: 0, URI: "docs://onboarding/engineering"}
	png := workload.Attachment{Class: 1, URI: "file:///repo/architecture.png"}
	uni := workload.Attachment{Class: 0, URI: "docs://unicode"} // not in the class's uris: the schedule decides
	sched := &Schedule{Digest: true, Turns: []ScheduledTurn{
		{At: 0, Session: 0, Reads: []workload.Attachment{md, png, uni}},
		{At: 150 * time.Millisecond, Session: 1, Reads: []workload.Attachment{png}},
		{At: 400 * time.Millisecond, Session: 2, Reads: []workload.Attachment{uni, md}},
	}}
	var told sync.Map
	sched.Told = func(uri string, o stats.Outcome, a *client.Answer) {
		if o == stats.OK && a != nil && a.Digest != "" {
			n, _ := told.LoadOrStore(uri, new(atomic.Int64))
			n.(*atomic.Int64).Add(1) // called at once for reads in flight together
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := measure(ctx, Options{Workload: w, Client: client.Implementation{Name: "t", Version: "1"}, Schedule: sched})
	if err != nil {
		t.Fatal(err)
	}
	if rep.MeasuredPhase.Scheduled != 6 || rep.MeasuredPhase.Outcomes[stats.OK] != 6 {
		t.Fatalf("scheduled %d, outcomes %v", rep.MeasuredPhase.Scheduled, rep.MeasuredPhase.Outcomes.Map())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 6 {
		t.Fatalf("the server saw %d reads, want 6: %+v", len(seen), seen)
	}
	t0 := seen[0].at
	turnOf := func(a arrival) int {
		d := a.at.Sub(t0)
		switch {
		case d < 75*time.Millisecond:
			return 0
		case d < 275*time.Millisecond:
			return 1
		}
		return 2
	}
	got := map[int][]string{}
	sessions := map[int]string{}
	for _, a := range seen {
		k := turnOf(a)
		got[k] = append(got[k], a.uri)
		sessions[k] = a.session
	}
	if len(got[0]) != 3 || len(got[1]) != 1 || got[1][0] != png.URI || len(got[2]) != 2 {
		t.Errorf("turns as the server saw them: %v", got)
	}
	if sessions[0] == "" || sessions[0] == sessions[1] || sessions[0] != sessions[2] {
		t.Errorf("sessions of the turns %v: want turn 0 and 2 (sessions 0 and 2 of 2) on one, turn 1 on the other", sessions)
	}
	for _, u := range []string{md.URI, png.URI, uni.URI} {
		if n, ok := told.Load(u); !ok || n.(*atomic.Int64).Load() != 2 {
			t.Errorf("Told of %s with a digest: %v", u, n)
		}
	}
}
