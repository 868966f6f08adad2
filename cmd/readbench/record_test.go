package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
	"github.com/readbench/readbench/record"
)

// sdkTurns are what the TypeScript SDK client reads through the proxy:
// turns of parallel reads, turnGap apart start to start, a not-found
// read among them.
var sdkTurns = [][]string{
	{"doc://text/1k", "doc://blob/4k", "doc://text/64k"},
	{"doc://sized/2048"},
	{"doc://text/1k", "doc://blob/4k"},
	{"doc://text/64k", "doc://missing/renamed.md"},
}

const turnGap = 300 * time.Millisecond

// freeAddr is a free port of 127.0.0.1.
func freeAddr(t *testing.T) string { return "127.0.0.1:" + strconv.Itoa(freePort(t)) }

// startRecord starts `readbench record --listen` in front of upstream,
// writing dir/out, and returns the proxy's endpoint and a stop that
// interrupts it (as Ctrl-C does) and waits for it: the file is then whole.
func startRecord(t *testing.T, dir, upstream, out string) (string, func()) {
	t.Helper()
	addr := freeAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := testproc.Own(t, exec.CommandContext(ctx, binary, "record", "--listen", addr, "--upstream", upstream, "--out", out))
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		defer cancel()
		cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != exitInterrupted) {
			t.Errorf("record: %v\n%s", err, stderr.String())
		}
	}
	t.Cleanup(stop)
	if !poll(30*time.Second, func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Fatalf("record never listened on %s:\n%s", addr, stderr.String())
	}
	return "http://" + addr + "/mcp", stop
}

// sdkClientTurns runs peers/sdk-client-turns.mjs with args after its
// turns, and fails the test when it fails.
// It returns what the client printed and the span of its turns' starts
// as it printed them: the span the recording must hold (a busy machine
// can stretch a turn past the gap, and the next starts later).
func sdkClientTurns(t *testing.T, node string, turns [][]string, args ...string) (string, time.Duration) {
	t.Helper()
	return sdkClientTurnsGap(t, node, turnGap, turns, args...)
}

// sdkClientTurnsGap is sdkClientTurns with turns gap apart, start to start.
func sdkClientTurnsGap(t *testing.T, node string, gap time.Duration, turns [][]string, args ...string) (string, time.Duration) {
	t.Helper()
	script, err := filepath.Abs("../../peers/sdk-client-turns.mjs")
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := json.Marshal(turns)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := testproc.Own(t, exec.CommandContext(ctx, node, append([]string{script, fmt.Sprint(gap.Milliseconds()), string(spec)}, args...)...)).CombinedOutput()
	if err != nil {
		t.Fatalf("sdk-client-turns: %v\n%s", err, out)
	}
	var first, last float64
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		var turn struct {
			StartMs *float64 `json:"start_ms"`
		}
		if json.Unmarshal([]byte(line), &turn) != nil || turn.StartMs == nil {
			continue
		}
		if n == 0 {
			first = *turn.StartMs
		}
		last, n = *turn.StartMs, n+1
	}
	if n != len(turns) {
		t.Fatalf("sdk-client-turns printed %d turns' starts, want %d:\n%s", n, len(turns), out)
	}
	return string(out), time.Duration((last - first) * float64(time.Millisecond))
}

// loadRecording parses a recording the test made.
func loadRecording(t *testing.T, path string) (*record.Recording, string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Parse(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rec, string(b)
}

// turnsOf is a recording's turns as their URIs (sorted: reads of a turn
// are sent together, in no order) and each turn's start in ms.
func turnsOf(rec *record.Recording) ([][]string, []float64) {
	var uris [][]string
	var starts []float64
	index := map[int]int{}
	for _, rd := range rec.Reads {
		k, ok := index[rd.Turn]
		if !ok {
			k = len(uris)
			index[rd.Turn] = k
			uris = append(uris, nil)
			starts = append(starts, rd.AtMs)
		}
		uris[k] = append(uris[k], rd.URI)
		starts[k] = math.Min(starts[k], rd.AtMs)
	}
	for _, u := range uris {
		slices.Sort(u)
	}
	return uris, starts
}

func sortedTurns(turns [][]string) [][]string {
	out := make([][]string, len(turns))
	for i, t := range turns {
		out[i] = slices.Sorted(slices.Values(t))
	}
	return out
}

// checkSameTurns checks that rec holds want's turns in order, their
// starts span apart in all (within tol). The recording proxy groups reads
// into turns by when they arrive: on a contended machine (machine) a
// turn's reads can arrive further apart than the gap between turns, at 4×
// 75 ms, so the grouping and the span are the machine's; the same reads
// must still arrive.
func checkSameTurns(t *testing.T, what string, rec *record.Recording, want [][]string, span, tol time.Duration, machine *contention) {
	t.Helper()
	got, starts := turnsOf(rec)
	gotSpan := time.Duration((starts[len(starts)-1] - starts[0]) * float64(time.Millisecond))
	if fmt.Sprint(got) == fmt.Sprint(sortedTurns(want)) && gotSpan >= span-tol && gotSpan <= span+tol {
		return
	}
	if !machine.Busy() {
		if fmt.Sprint(got) != fmt.Sprint(sortedTurns(want)) {
			t.Fatalf("%s: turns %v, want %v (%s)", what, got, sortedTurns(want), machine)
		}
		t.Errorf("%s: span %s, want %s ± %s (starts %v ms; %s)", what, gotSpan, span, tol, starts, machine)
		return
	}
	if flat, wantFlat := slices.Sorted(slices.Values(slices.Concat(got...))), slices.Sorted(slices.Values(slices.Concat(want...))); fmt.Sprint(flat) != fmt.Sprint(wantFlat) {
		t.Fatalf("%s: reads %v, want %v (%s)", what, flat, wantFlat, machine)
	}
	t.Logf("%s: turns %v over %s, want %v over %s ± %s: grouped by a busy machine's arrival times (%s)", what, got, gotSpan, sortedTurns(want), span, tol, machine)
}

// TestRecordSDKClientReplayInitFrom is the whole story with programs no
// one here wrote: the TypeScript SDK's client reads turns of parallel
// reads through `readbench record` from the SDK's server; the recording
// holds those turns at those gaps, and no header's secret. Replayed
// against a second server (stateless, JSON answers) through a second
// recording proxy at 1x and at 4x, the same URIs go in the same turns
// with the same span (a quarter at 4x, within 100 ms), and the replay's result is an
// ordinary one. --diff finds nothing against the same documents and
// finds every changed answer against a server without them; init --from
// writes a workload that runs.
func TestRecordSDKClientReplayInitFrom(t *testing.T) {
	node := needs.Tool(t, "node", installNode)
	sdk := sdkServer(t)
	dir := t.TempDir()
	machine := watchMachine()
	serverA := startHTTPPeer(t, node, sdk, "http", "{port}", "stateful", "sse")
	proxy, stop := startRecord(t, dir, serverA, "rec.jsonl")
	_, span := sdkClientTurns(t, node, sdkTurns, "http", proxy, "Bearer s3cr3t-token")
	stop()
	rec, text := loadRecording(t, filepath.Join(dir, "rec.jsonl"))
	if strings.Contains(text, "s3cr3t") || strings.Contains(strings.ToLower(text), "authorization") {
		t.Errorf("the recording holds the Authorization header:\n%s", text)
	}
	checkSameTurns(t, "recorded", rec, sdkTurns, span, 100*time.Millisecond, machine)
	if rec.Methods == nil || rec.Methods.Counts["initialize"] != 1 || rec.Methods.Counts["resources/read"] != 8 {
		t.Errorf("methods: %+v", rec.Methods)
	}
	for _, rd := range rec.Reads {
		want := map[string]int64{"doc://text/1k": 1024, "doc://blob/4k": 4096, "doc://text/64k": 65536, "doc://sized/2048": 2048}[rd.URI]
		if (want == 0) != (rd.Outcome != "ok") || rd.Bytes != want || rd.Session != "s1" {
			t.Errorf("recorded %+v", rd)
		}
	}
	recSpan := func() time.Duration {
		_, s := turnsOf(rec)
		return time.Duration((s[len(s)-1] - s[0]) * float64(time.Millisecond))
	}()

	serverB := startHTTPPeer(t, node, sdk, "http", "{port}", "stateless", "json")
	for _, speed := range []int{1, 4} {
		t.Run(fmt.Sprintf("replay-%dx", speed), func(t *testing.T) {
			out := fmt.Sprintf("replay%dx.jsonl", speed)
			proxyB, stopB := startRecord(t, dir, serverB, out)
			res := fmt.Sprintf("r%dx.json", speed)
			stdout, stderr, code := readbench(t, dir, "replay", "rec.jsonl", "--target", proxyB, "--speed", fmt.Sprintf("%dx", speed),
				"--diff", "--threshold", "errors<30%", "--out", res)
			if code != 0 {
				t.Fatalf("replay exit %d\n%s\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stdout, "0 of 8 answers differ") {
				t.Errorf("replay --diff against the same documents:\n%s", stdout)
			}
			stopB()
			again, _ := loadRecording(t, filepath.Join(dir, out))
			checkSameTurns(t, "replayed", again, sdkTurns, recSpan/time.Duration(speed), 100*time.Millisecond, machine)
			r := loadResult(t, filepath.Join(dir, res))
			if r.Totals.Scheduled != 8 || r.Totals.Outcomes["ok"] != 7 || r.Totals.Outcomes["expected_error"] != 1 {
				t.Errorf("replay result: %+v", r.Totals)
			}
		})
	}

	t.Run("diff-finds-changes", func(t *testing.T) {
		stdout, stderr, code := readbench(t, dir, "replay", "rec.jsonl", "--diff", "--out", "embedded.json") // the simulated server has none of these
		if code != exitFail || !strings.Contains(stdout, "7 of 8 answers differ") || !strings.Contains(stdout, "doc://blob/4k: recorded ok 4096 B sha256:") {
			t.Errorf("replay --diff against a server without the documents: exit %d\n%s\n%s", code, stdout, stderr)
		}
	})

	t.Run("init-from", func(t *testing.T) {
		if _, stderr, code := readbench(t, dir, "init", "--from", "rec.jsonl", "--out", "from.yaml"); code != 0 {
			t.Fatalf("init --from: exit %d\n%s", code, stderr)
		}
		w, _ := os.ReadFile(filepath.Join(dir, "from.yaml"))
		// The attachments are the recording's turns (on a quiet machine the
		// client's: {1: 1, 2: 2, 3: 1}); a contended one may have grouped
		// them otherwise, which checkSameTurns judged above.
		for _, want := range []string{"attachments: " + attachmentsOf(rec), `"doc://blob/4k"`, "expect: not_found", "weight: "} {
			if !strings.Contains(string(w), want) {
				t.Errorf("no %q in the workload:\n%s", want, w)
			}
		}
		stdout, stderr, code := readbench(t, dir, "run", "from.yaml", "--target", serverB, "--duration", "1s", "--warmup", "0s", "--out", "from.json")
		if code != 0 {
			t.Fatalf("run the drawn workload: exit %d\n%s\n%s\n%s", code, w, stdout, stderr)
		}
		onlyGood(t, loadResult(t, filepath.Join(dir, "from.json")))
	})
}

// attachmentsOf is turn.attachments as init --from writes it for rec's
// turns: "3" when every turn read three, else "{1: 1, 2: 2, 3: 1}".
func attachmentsOf(rec *record.Recording) string {
	turns, _ := turnsOf(rec)
	counts := map[int]int{}
	for _, t := range turns {
		counts[len(t)]++
	}
	keys := slices.Sorted(maps.Keys(counts))
	if len(keys) == 1 {
		return strconv.Itoa(keys[0])
	}
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d: %d", k, counts[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// TestRecordStdioSDKClient: a stdio host (the TypeScript SDK's client)
// starts `readbench record --stdio` as its server, which forwards to the
// SDK's server as a stdio child, or over Streamable HTTP (stateful with
// SSE answers, stateless with JSON ones): the reads pass unchanged and
// the recording holds their turns.
func TestRecordStdioSDKClient(t *testing.T) {
	node := needs.Tool(t, "node", installNode)
	sdk := sdkServer(t)
	machine := watchMachine()
	for _, tc := range []struct {
		name     string
		upstream func() string
	}{
		{"stdio-child", func() string { return "stdio:" + node + " " + sdk + " stdio" }},
		{"http-stateful-sse", func() string { return startHTTPPeer(t, node, sdk, "http", "{port}", "stateful", "sse") }},
		{"http-stateless-json", func() string { return startHTTPPeer(t, node, sdk, "http", "{port}", "stateless", "json") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "stdio.jsonl")
			printed, span := sdkClientTurns(t, node, sdkTurns, "stdio", binary, "record", "--stdio", "--upstream", tc.upstream(), "--out", out)
			for _, want := range []string{`{"uri":"doc://text/64k","bytes":65536}`, `{"uri":"doc://blob/4k","bytes":4096}`, `{"uri":"doc://missing/renamed.md","error":"-32602"}`} {
				if !strings.Contains(printed, want) {
					t.Errorf("no %s in the client's reads through the proxy:\n%s", want, printed)
				}
			}
			rec, _ := loadRecording(t, out)
			checkSameTurns(t, "stdio", rec, sdkTurns, span, 100*time.Millisecond, machine)
			if rec.Header.Transport != "stdio" || rec.Methods == nil || rec.Methods.Counts["initialize"] != 1 || rec.Methods.Counts["resources/read"] != 8 {
				t.Errorf("header %+v, methods %+v", rec.Header, rec.Methods)
			}
		})
	}
}

// TestRecordReplayBadInput: what record, replay and init --from refuse
// before anything starts, each exit 2 with the reason.
func TestRecordReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	header := `{"type":"header","format":"readbench/recording","version":1,"upstream":"u","started":"2026-12-03T12:00:00Z"`
	files := map[string]string{
		"bad.jsonl":      header + "}\n{\"type\":\"read\",\"session\":\"s1\",\"turn\":1,\"outcome\":\"ok\"}\n",
		"redacted.jsonl": header + `,"redacted_uris":true}` + "\n" + `{"type":"read","at_ms":0,"session":"s1","turn":1,"uri":"redacted:doc:00","outcome":"ok","latency_ms":1}` + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"record", "--listen", "127.0.0.1:0", "--upstream", "stdio:cat", "--out", "x.jsonl"}, "forwards to an http(s)://"},
		{[]string{"record", "--stdio", "--listen", "127.0.0.1:0", "--upstream", "stdio:cat", "--out", "x.jsonl"}, "exactly one of --listen ADDR or --stdio"},
		{[]string{"record", "--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1/mcp", "--out", "bad.jsonl"}, "exists (--force overwrites it)"},
		{[]string{"replay", "bad.jsonl"}, "bad.jsonl:line 2: read: no uri"},
		{[]string{"replay", "redacted.jsonl"}, "redacted"},
		{[]string{"replay", "redacted.jsonl", "--speed", "0x"}, "--speed"},
		{[]string{"init", "--from", "bad.jsonl"}, "bad.jsonl:line 2"},
	} {
		_, stderr, code := readbench(t, dir, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, want 2 saying %q:\n%s", tc.args, code, tc.want, stderr)
		}
	}
}
