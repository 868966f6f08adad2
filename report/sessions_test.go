package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
)

// churned is the clean run with what a churned run adds: handshakes of 6
// sessions opened (2 asked, 1 of 3 failed to connect, 4 replaced) and the
// first read on each.
func churned(t testing.TB) *results.Result {
	r := fixture(t, false)
	r.Handshake = block(t, 40*time.Millisecond, 42*time.Millisecond, 44*time.Millisecond, 46*time.Millisecond, 48*time.Millisecond, 50*time.Millisecond)
	r.FirstRead = block(t, 30*time.Millisecond, 31*time.Millisecond, 32*time.Millisecond, 33*time.Millisecond, 34*time.Millisecond, 35*time.Millisecond)
	r.Sessions = results.Sessions{Asked: 3, Connected: 2, Failed: 1, Opened: 6, Replaced: 4,
		Errors: []results.SessionError{{Message: "no answer within the handshake timeout of 1s", Count: 1}}}
	r.Workload.Load.SessionTurns = 5
	return r
}

// TestSessionsInEveryFormat: the handshake and first read rows and the
// sessions line are in the table, the markdown and the HTML page.
func TestSessionsInEveryFormat(t *testing.T) {
	r := churned(t)
	want := []string{"handshake", "first read", "the run went on with 2 of 3 sessions: 1 failed to connect (1× no answer within the handshake timeout of 1s)",
		"churn: 6 sessions opened, 4 replaced (every 5 turns)"}
	var table, md bytes.Buffer
	if err := WriteFullTable(&table, r); err != nil { // the session rows are detail
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	html, _ := page(t, r)
	// The table wraps its lines under their labels: a sentence is read whole.
	unwrapped := strings.ReplaceAll(table.String(), "\n           ", " ")
	for name, out := range map[string]string{"table": unwrapped, "markdown": md.String(), "html": html} {
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q", name, w)
			}
		}
	}
	if !strings.Contains(table.String(), "Handshake: opening each session") {
		t.Errorf("table: no note on the session rows' clocks")
	}
	var plain bytes.Buffer
	if err := WriteTable(&plain, fixture(t, false)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "handshake") || strings.Contains(plain.String(), "sessions  ") {
		t.Errorf("a result with no session figures shows session rows:\n%s", plain.String())
	}
}

// TestSessionsInCompare: compare shows the handshake and first read
// deltas in every format once either side recorded them.
func TestSessionsInCompare(t *testing.T) {
	base, nw := churned(t), churned(t)
	nw.Handshake = block(t, 80*time.Millisecond, 84*time.Millisecond, 88*time.Millisecond, 92*time.Millisecond, 96*time.Millisecond, 99*time.Millisecond)
	nw.FirstRead = block(t, 60*time.Millisecond, 62*time.Millisecond, 64*time.Millisecond, 66*time.Millisecond, 68*time.Millisecond, 70*time.Millisecond)
	c, err := compare.Pair(base, nw, compare.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var table, md bytes.Buffer
	if err := WriteCompareTable(&table, c); err != nil {
		t.Fatal(err)
	}
	if err := WriteCompareMarkdown(&md, c); err != nil {
		t.Fatal(err)
	}
	unescaped := strings.ReplaceAll(md.String(), `\_`, "_")
	for name, out := range map[string]string{"table": table.String(), "markdown": unescaped} {
		for _, w := range []string{"handshake p99", "first read p50"} {
			if !strings.Contains(out, w) {
				t.Errorf("compare %s: no %q\n%s", name, w, out)
			}
		}
	}
	var plain bytes.Buffer
	p, _ := compare.Pair(fixture(t, false), fixture(t, false), compare.PairOptions{})
	if err := WriteCompareTable(&plain, p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "handshake") {
		t.Errorf("compare of results with no session figures shows them:\n%s", plain.String())
	}
}
