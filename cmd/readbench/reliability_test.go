package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Reliability, end to end: the readbench binary against servers that
// really misbehave (the simulated server's wire= faults and server
// options). Each run must end on time, save its result, classify every
// read, and keep the identity scheduled = Σ outcomes (loadResult checks
// it on every result).

// outcomeSet is the outcomes a run may end with and those it must show.
type outcomeSet struct {
	only []string // every read ends in one of these
	some []string // each of these is counted at least once
}

// check fails the test unless r's outcomes fit.
func (o outcomeSet) check(t *testing.T, r result) {
	t.Helper()
	var in int64
	for _, name := range o.only {
		in += r.Totals.Outcomes[name]
	}
	if in != r.Totals.Scheduled {
		t.Errorf("outcomes %v: want every read in %v", nonZero(r.Totals.Outcomes), o.only)
	}
	for _, name := range o.some {
		if r.Totals.Outcomes[name] == 0 {
			t.Errorf("outcomes %v: want some %s", nonZero(r.Totals.Outcomes), name)
		}
	}
}

func nonZero(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// runFor runs a workload body against target in a fresh directory and
// returns the result, failing when the run exits other than exitFor says
// or takes longer than limit.
func runFor(t *testing.T, target, body string, limit time.Duration, extra ...string) (result, string) {
	t.Helper()
	dir := t.TempDir()
	wl := writeWorkload(t, dir, body)
	start := time.Now()
	stdout, stderr, code := readbench(t, dir, append([]string{"run", wl, "--target", target, "--out", "r.json"}, extra...)...)
	if took := time.Since(start); took > limit {
		t.Errorf("the run took %v, want at most %v", took, limit)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	if want := wantExit(r); code != want { // a run in which no read succeeded exits 1
		t.Fatalf("exit %d, want %d\n%s\n%s", code, want, stdout, stderr)
	}
	t.Logf("%s: scheduled %d, outcomes %v", t.Name(), r.Totals.Scheduled, nonZero(r.Totals.Outcomes))
	return r, stderr
}

// TestWedgedStdioServer: a stdio server that stays alive but stops
// reading its stdin (its pipe fills with requests of 8 KB) must not hang
// the run: the reads end at their timeout, or at the turn deadline, the
// run ends on time and saves its result.
func TestWedgedStdioServer(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("p", 8000)
	for _, c := range []struct {
		turn string
		want outcomeSet
	}{
		{"{attachments: 4, read_timeout: 300ms}", outcomeSet{only: []string{"ok", "timeout"}, some: []string{"timeout"}}},
		{"{attachments: 4, read_timeout: 5s, deadline: 250ms}", outcomeSet{only: []string{"ok", "cancelled"}, some: []string{"cancelled"}}},
	} {
		t.Run(c.turn, func(t *testing.T) {
			t.Parallel()
			r, _ := runFor(t, fmt.Sprintf("stdio:%s serve --stdio --wedge-after 4", binary), fmt.Sprintf(`
name: wedged
load: {rate: 20/s, duration: 2s}
turn: %s
mix:
  - {class: long, uri: "sim:///%s?mime=text/plain&size=100"}
`, c.turn, long), 20*time.Second)
			c.want.check(t, r)
		})
	}
}

// wireFault is one wire= fault and the outcomes it must give on stdio
// (the embedded server) and on Streamable HTTP (readbench serve).
type wireFault struct {
	wire        string
	stdio, http outcomeSet
}

func wireFaults() []wireFault {
	all := func(o string) outcomeSet { return outcomeSet{only: []string{o}, some: []string{o}} }
	return []wireFault{
		{"garbage", all("ok"), all("ok")},               // a line / an event that is not JSON-RPC before the answer: skipped
		{"truncate", all("protocol"), all("transport")}, // half a line; a body shorter than its Content-Length
		// The connection closed mid-answer: the stdio child exits (code 1)
		// after half a line, so the rest of the run meets a dead server.
		{"close", outcomeSet{only: []string{"protocol", "transport"}, some: []string{"transport"}}, all("transport")},
		{"wrong_id", all("timeout"), all("protocol")}, // stdio: the read is never answered; HTTP: an answer to another request
		{"duplicate", all("ok"), all("ok")},
		{"unsolicited", all("ok"), all("ok")}, // an answer to an id never sent, before the answer
		{"ping", all("ok"), all("ok")},        // the server answers only after the client replied
		{"sampling", all("ok"), all("ok")},
		{"keepalive", all("timeout"), all("timeout")}, // HTTP: an SSE stream of keep-alive comments only
		{"lie_length", all("ok"), all("protocol")},    // HTTP: Content-Length claims 8 GiB
	}
}

// TestWireFaults: every wire= fault of the simulated server lands in its
// outcome on stdio, on Streamable HTTP in both eras, with the identity
// kept.
func TestWireFaults(t *testing.T) {
	t.Parallel()
	url := startServe(t) // its own: the ping fault's 500 ms read timeout, whatever other tests read
	for _, f := range wireFaults() {
		for _, tr := range []struct {
			name, target, protocol string
			want                   outcomeSet
		}{
			{"stdio", "embedded", "auto", f.stdio},
			{"http", url, "auto", f.http},
			{"http-2025-11-25", url, "2025-11-25", f.http},
		} {
			t.Run(f.wire+"/"+tr.name, func(t *testing.T) {
				t.Parallel()
				r, _ := runFor(t, tr.target, fmt.Sprintf(`
name: %s
load: {rate: 20/s, turns: 10}
turn: {attachments: 2, read_timeout: 500ms}
mix:
  - {class: c, uri: "sim:///f?mime=text/plain&size=1000&wire=%s"}
`, f.wire, f.wire), 30*time.Second, "--protocol", tr.protocol)
				tr.want.check(t, r)
			})
		}
	}
}

// TestAnswerOverTheLimit: answers bigger than the limit (the workload key
// turn.max_answer, or --max-answer) are protocol outcomes on stdio and on
// Streamable HTTP as JSON and as SSE; smaller ones in the same run stay ok.
func TestAnswerOverTheLimit(t *testing.T) {
	t.Parallel()
	url := sharedServe(t)
	body := `
name: limit
load: {rate: 20/s, turns: 10}
turn: {attachments: 2, read_timeout: 5s%s}
mix:
  - {class: big, uri: "sim:///big?mime=image/png&size=64KiB%s"}
  - {class: small, uri: "sim:///small?mime=image/png&size=1KiB%s"}
`
	for _, c := range []struct {
		name, target, key, sse string
		flags                  []string
	}{
		{"stdio, workload key", "embedded", ", max_answer: 16KiB", "", nil},
		{"stdio, flag", "embedded", "", "", []string{"--max-answer", "16KiB"}},
		{"http json", url, ", max_answer: 16KiB", "", nil},
		{"http sse", url, "", "&sse=true", []string{"--max-answer", "16KiB"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, stderr := runFor(t, c.target, fmt.Sprintf(body, c.key, c.sse, c.sse), 30*time.Second, c.flags...)
			big, small := r.Classes[0].Outcomes, r.Classes[1].Outcomes
			if big["protocol"] == 0 || big["protocol"] != sumOutcomes(big) || small["ok"] == 0 || small["ok"] != sumOutcomes(small) {
				t.Errorf("big %v, small %v: want every big read protocol, every small one ok", nonZero(big), nonZero(small))
			}
			if !strings.Contains(stderr, "over the size limit of 16KiB") {
				t.Errorf("the failure is not explained: %s", stderr)
			}
		})
	}
}

// TestServerRestartsMidRun: `readbench serve` killed and started again on
// the same port while a run loads it: the reads meanwhile fail as
// transport (never lost, never a hang), and reads succeed again once it is
// back, in the stateless era and in a stateful legacy session (which is
// renewed).
func TestServerRestartsMidRun(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		serve []string
		run   []string
	}{
		{"2026-07-28", nil, nil},
		{"stateful 2025-11-25", []string{"--stateful"}, []string{"--protocol", "2025-11-25"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			url, first := startServeProc(t, c.serve...)
			addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
			dir := t.TempDir()
			wl := writeWorkload(t, dir, `
name: restart
load: {rate: 20/s, duration: 4s}
turn: {attachments: 2, read_timeout: 1s}
mix:
  - {class: md, uri: "sim:///r?mime=text/markdown&size=2000&delay=5ms"}
`)
			done := make(chan struct{})
			var code int
			var stdout, stderr string
			go func() {
				defer close(done)
				stdout, stderr, code = readbench(t, dir, append([]string{"run", wl, "--target", url, "--out", "r.json"}, c.run...)...)
			}()
			time.Sleep(1500 * time.Millisecond)
			_ = first.Kill() // a crash: connections reset, the port closed
			time.Sleep(700 * time.Millisecond)
			startServeAt(t, addr, c.serve...)
			<-done
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			r := loadResult(t, filepath.Join(dir, "r.json"))
			t.Logf("%s: scheduled %d, outcomes %v", t.Name(), r.Totals.Scheduled, nonZero(r.Totals.Outcomes))
			outcomeSet{only: []string{"ok", "transport", "timeout"}, some: []string{"ok", "transport"}}.check(t, r)
			raw := rawResult(t, filepath.Join(dir, "r.json"))
			tl := raw["timeline"].([]any)
			last := tl[len(tl)-1].(map[string]any) // the last second: the server is back
			if reads, errs := last["reads"].(float64), last["errors"].(float64); reads == 0 || errs != 0 {
				t.Errorf("after the restart: second %v had %v reads, %v errors; want reads and no errors (timeline %v)", last["t_s"], reads, errs, tl)
			}
		})
	}
}

// TestChildExitsNonZero: a stdio server that exits with code 1 mid-run
// (--crash-after) turns the reads after it into transport outcomes at once,
// and the exit status is in the explanation.
func TestChildExitsNonZero(t *testing.T) {
	t.Parallel()
	r, stderr := runFor(t, fmt.Sprintf("stdio:%s serve --stdio --crash-after 10", binary), `
name: crash
load: {rate: 20/s, duration: 1s}
turn: {attachments: 2, read_timeout: 30s}
mix:
  - {class: md, uri: "sim:///a?mime=text/markdown&size=100"}
`, 20*time.Second)
	outcomeSet{only: []string{"ok", "transport"}, some: []string{"ok", "transport"}}.check(t, r)
	if !strings.Contains(stderr, "exit status 1") {
		t.Errorf("the child's exit code is not in the explanation:\n%s", stderr)
	}
}

// TestUnreachableTargetSaysSoOnce: several sessions failing alike print
// the reason once.
func TestUnreachableTargetSaysSoOnce(t *testing.T) {
	t.Parallel()
	_, stderr, code := readbench(t, t.TempDir(), "run", "--target", "http://127.0.0.1:1/mcp", "--sessions", "3", "--duration", "1s")
	if code != 1 || strings.Count(stderr, "connection refused") != 1 {
		t.Errorf("exit %d; want 1 and the reason once:\n%s", code, stderr)
	}
}
