package main

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
)

// checkDoc is the JSON readbench check --format json prints.
type checkDoc struct {
	Schema string `json:"schema"`
	Target struct {
		Transport string `json:"transport"`
		Server    struct {
			Name, Version string
		} `json:"server"`
		ProtocolVersion string `json:"protocol_version"`
	} `json:"target"`
	Era         string `json:"era"`
	Pass        bool   `json:"pass"`
	Unreachable string `json:"unreachable"`
	Summary     struct{ Pass, Fail, Skip, NA int }
	Checks      []checkRow `json:"checks"`
}

type checkRow struct {
	Name, Status, URI, Detail string
}

// runCheck runs readbench check --format json and decodes what it printed.
func runCheck(t *testing.T, args ...string) (checkDoc, int, string) {
	t.Helper()
	stdout, stderr, code := readbench(t, t.TempDir(), append([]string{"check", "--format", "json"}, args...)...)
	var d checkDoc
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatalf("exit %d, stdout is not the JSON report: %v\n%s\n%s", code, err, stdout, stderr)
	}
	if d.Schema != "readbench/check/v1" || len(d.Checks) == 0 {
		t.Fatalf("report %+v", d)
	}
	for _, c := range d.Checks {
		t.Logf("%-24s %-4s %s  %s", c.Name, c.Status, c.URI, c.Detail)
		if (c.Status == "skip" || c.Status == "n/a") && c.Detail == "" {
			t.Errorf("%s skipped without a reason", c.Name)
		}
	}
	return d, code, stderr
}

// rows returns the checks named name.
func (d checkDoc) rows(name string) []checkRow {
	var out []checkRow
	for _, c := range d.Checks {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// expect asserts that every row named name has status and, when given,
// a detail containing want.
func (d checkDoc) expect(t *testing.T, name, status, want string) {
	t.Helper()
	rows := d.rows(name)
	if len(rows) == 0 {
		t.Errorf("no %q row", name)
	}
	for _, r := range rows {
		if r.Status != status || !strings.Contains(r.Detail, want) {
			t.Errorf("%s %s: %s %q, want %s with %q", name, r.URI, r.Status, r.Detail, status, want)
		}
	}
}

// allPass asserts a report in which nothing failed or was skipped.
func allPass(t *testing.T, d checkDoc, code int) {
	t.Helper()
	if code != 0 || !d.Pass || d.Summary.Fail != 0 || d.Summary.Skip != 0 {
		t.Errorf("exit %d, pass %v, summary %+v", code, d.Pass, d.Summary)
	}
	for _, name := range []string{"handshake", "server info", "resources/list", "read", "not-found error", "malformed uri",
		"cancellation", "read tool: whole file", "read tool: range", "read tool: tail", "read tool: past the end",
		"read tool: length 0", "read tool: directory", "read tool: unknown path", "read tool: content type", "read tool: symlink"} {
		d.expect(t, name, "pass", "")
	}
	if n := len(d.rows("read")); n != 10 {
		t.Errorf("%d sampled reads, want --sample's default 10", n)
	}
}

func TestCheckEmbeddedPasses(t *testing.T) {
	t.Parallel()
	d, code, _ := runCheck(t)
	allPass(t, d, code)
	if d.Target.Server.Name != "readbench-simserver" || d.Target.ProtocolVersion != "2026-07-28" || d.Target.Transport != "stdio" || d.Era != "stateless" {
		t.Errorf("target %+v, era %q", d.Target, d.Era)
	}
	d.expect(t, "cancellation", "pass", "no answer within")
}

func TestCheckServeHTTPPasses(t *testing.T) {
	t.Parallel()
	url := sharedServe(t)
	d, code, _ := runCheck(t, "--target", url)
	allPass(t, d, code)
	d.expect(t, "cancellation", "pass", "by construction")
	// The table: one line per check, a verdict, exit 0.
	stdout, stderr, code := readbench(t, t.TempDir(), "check", "--target", url, "--sample", "2")
	if code != 0 || !strings.Contains(stdout, "PASS: ") || strings.Contains(stdout, "FAIL") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestCheckStatefulLegacyCancel: in the handshake era over HTTP the cancel
// is notifications/cancelled on the session, and the check keeps the
// stream open to see that nothing comes back.
func TestCheckStatefulLegacyCancel(t *testing.T) {
	t.Parallel()
	url := startServe(t, "--stateful")
	d, _, _ := runCheck(t, "--target", url, "--protocol", "2025-11-25", "--sample", "2")
	d.expect(t, "handshake", "pass", "2025-11-25")
	d.expect(t, "not-found error", "pass", "-32002")
	d.expect(t, "cancellation", "pass", "without an answer after notifications/cancelled")
}

// TestCheckIgnoredCancelFails: a sim: URI that ignores cancellation, over
// stdio, is a failed check and exit 1.
func TestCheckIgnoredCancelFails(t *testing.T) {
	t.Parallel()
	d, code, stderr := runCheck(t, "--sample", "1", "--cancel-uri", "sim:///slow?delay=400ms&honor_cancel=false")
	if code != 1 || d.Pass || d.Summary.Fail != 1 {
		t.Errorf("exit %d, summary %+v: %s", code, d.Summary, stderr)
	}
	d.expect(t, "cancellation", "fail", "ignored the cancel")
	if !strings.Contains(stderr, "breaks the read contract") {
		t.Errorf("stderr: %s", stderr)
	}
}

// brokenServer is a Go SDK server whose resources break the contract each
// in its own way, with a template that answers ok for any URI under
// docs://broken/.
func brokenServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "broken", Version: "0.0.1"}, nil)
	jpeg := append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, make([]byte, 60)...)
	docs := []struct {
		uri, mime string
		entry     mcp.ResourceContents
		delay     time.Duration
	}{
		{"docs://broken/good.md", "text/markdown", mcp.ResourceContents{MIMEType: "text/markdown", Text: "# fine"}, 0},
		{"docs://broken/neither.md", "text/markdown", mcp.ResourceContents{MIMEType: "text/markdown"}, 0},
		{"docs://broken/renamed.md", "text/markdown", mcp.ResourceContents{URI: "docs://broken/other.md", MIMEType: "text/markdown", Text: "x"}, 0},
		{"docs://broken/nomime.txt", "", mcp.ResourceContents{Text: "no type"}, 0}, // the SDK fills in the listed type
		{"docs://broken/fake.png", "image/png", mcp.ResourceContents{MIMEType: "image/png", Blob: jpeg}, 0},
		{"docs://broken/notjson.json", "application/json", mcp.ResourceContents{MIMEType: "application/json", Text: "not json"}, 0},
		// Slow and deaf to cancellation: the handler ignores its context.
		// A second is slow enough to tell even beside a saturated
		// machine's round trips (a 387 ms allowance was seen there).
		{"docs://broken/slow.md", "text/markdown", mcp.ResourceContents{MIMEType: "text/markdown", Text: "late"}, time.Second},
	}
	for _, d := range docs {
		s.AddResource(&mcp.Resource{URI: d.uri, Name: d.uri, MIMEType: d.mime}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			time.Sleep(d.delay)
			e := d.entry
			if e.URI == "" {
				e.URI = d.uri
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{&e}}, nil
		})
	}
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "docs://broken/{+path}", Name: "anything"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "made up"}}}, nil
		})
	return s
}

// startBrokenServer serves brokenServer in the handshake era, over
// stateful Streamable HTTP (http) or HTTP+SSE (sse), and returns the target.
func startBrokenServer(t *testing.T, transport string) string {
	t.Helper()
	s := brokenServer()
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	path, scheme := "/mcp", ""
	if transport == "sse" {
		h = mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
		path, scheme = "/sse", "sse+"
	}
	return scheme + peertest.ServeLocal(t, h).URL + path
}

func TestCheckBrokenServerFails(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"http", "sse"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			checkBroken(t, startBrokenServer(t, transport))
		})
	}
}

// checkBroken asserts that each fault of brokenServer is a failed row
// naming its URI, and that the check exits 1.
func checkBroken(t *testing.T, target string) {
	machine := watchMachine()
	d, code, _ := runCheck(t, "--target", target)
	if code != 1 || d.Pass {
		t.Fatalf("exit %d, pass %v", code, d.Pass)
	}
	d.expect(t, "handshake", "pass", "handshake era")
	d.expect(t, "resources/list", "pass", "7 resources")
	want := map[string]string{
		"docs://broken/good.md":      "pass:1 entry",
		"docs://broken/neither.md":   "fail:neither text nor blob",
		"docs://broken/renamed.md":   "fail:uri not echoed",
		"docs://broken/nomime.txt":   "fail:without mimeType",
		"docs://broken/fake.png":     "fail:magic bytes contradict",
		"docs://broken/notjson.json": "fail:their text contradicts (a binary type on text, or a JSON type on text that is not JSON)",
		"docs://broken/slow.md":      "pass:1 entry",
	}
	for _, r := range d.rows("read") {
		w, ok := want[r.URI]
		status, text, _ := strings.Cut(w, ":")
		if !ok || r.Status != status || !strings.Contains(r.Detail, text) {
			t.Errorf("read %s: %s %q, want %s", r.URI, r.Status, r.Detail, w)
		}
		delete(want, r.URI)
	}
	if len(want) > 0 {
		t.Errorf("not read: %v", want)
	}
	d.expect(t, "not-found error", "fail", "answered ok")
	// Where the machine's round trips are too slow to tell a cancel
	// ignored from one that crossed the answer, the check says so and
	// skips: its honest answer on a busy machine only.
	switch r := d.rows("cancellation"); {
	case len(r) != 1:
		t.Errorf("%d cancellation rows, want 1", len(r))
	case r[0].Status == "skip" && strings.Contains(r[0].Detail, "round-trip allowance") && machine.Busy():
		t.Logf("cancellation skipped on a busy machine, readbench's own answer (%s): %s", machine, r[0].Detail)
	case r[0].Status != "fail" || !strings.Contains(r[0].Detail, "ignored the cancel") || r[0].URI != "docs://broken/slow.md":
		t.Errorf("cancellation %s: %s %q, want docs://broken/slow.md (the slowest sampled read) fail with %q (%s)",
			r[0].URI, r[0].Status, r[0].Detail, "ignored the cancel", machine)
	}
	d.expect(t, "read tool", "n/a", "")
}

// TestCheckServerEverything: the reference server from npm over stdio. Its
// listed documents are well formed; it answers an unknown URI of its
// listing's shape with -32602 in the handshake era (SEP-2164, as the SDKs
// do: passes, with the era's code named), a missing instance of its
// templates with -32603 (fails: a host gets internal, and the generic
// probe does not pass alone) and a malformed one with -32603 (fails); its reads are too
// fast to cancel and it offers no read tool.
func TestCheckServerEverything(t *testing.T) {
	t.Parallel()
	entry := serverEverything(t)
	d, code, _ := runCheck(t, "--target", "stdio:node "+entry+" stdio")
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	d.expect(t, "handshake", "pass", "handshake era")
	d.expect(t, "server info", "pass", "")
	d.expect(t, "resources/list", "pass", "")
	d.expect(t, "read", "pass", "1 entry")
	// Its own URIs' shape and its router: -32602 worded as missing. Its
	// templates (demo://resource/dynamic/text/{resourceId}, …/blob/…)
	// throw "Unknown resource" for an id they have not got, which the SDK
	// sends as -32603: what a host gets for a missing one, so the generic
	// -32602 does not pass alone.
	d.expectRow(t, readRow{"not-found shaped", "demo://resource/static/document/readbench-no-such-7f3a9c.md", "pass", "since SEP-2164"})
	for _, kind := range []string{"text", "blob"} {
		uri := "demo://resource/dynamic/" + kind + "/readbench-no-such-7f3a9c"
		d.expectRow(t, readRow{"not-found shaped", uri, "fail", `error -32603 "Unknown resource: ` + uri + `"; a 2025-11-25 server answers -32002; a run counts this answer internal`})
	}
	d.expect(t, "not-found error", "fail", `(-32602, as the SDKs answer in every era since SEP-2164; this era's code is -32002); but a missing resource of the server's own shape gets error -32603 "Unknown resource: demo://resource/dynamic/text/readbench-no-such-7f3a9c"`)
	d.expect(t, "malformed uri", "fail", "-32603")
	// A read that took over 50 ms (a cold start) is cancelled; the SDK
	// then drops the answer.
	if r := d.rows("cancellation"); len(r) != 1 || r[0].Status == "fail" {
		t.Errorf("cancellation %+v", r)
	}
	d.expect(t, "read tool", "n/a", "no tool named read")
}

func TestCheckUsageAndUnreachable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"check", "--format", "xml"}, 2, "--format"},
		{[]string{"check", "extra"}, 2, "no arguments"},
		{[]string{"check", "--target", "ftp://x"}, 2, "--target"},
		{[]string{"check", "--sample", "0"}, 2, "--sample"},
		// A target that is not running is not reached, and never said to
		// break the read contract it was never asked about.
		{[]string{"check", "--target", "http://127.0.0.1:1/mcp"}, 1, "check: could not reach http://127.0.0.1:1/mcp: "},
		{[]string{"check", "--target", "sse+http://127.0.0.1:1/sse"}, 1, "check: could not reach sse+http://127.0.0.1:1/sse: "},
		{[]string{"check", "--target", "stdio:readbench-no-such-command --stdio"}, 1, `could not reach stdio:readbench-no-such-command --stdio: stdio target: no command "readbench-no-such-command" on the PATH`},
		{[]string{"check", "--target", "stdio:" + filepath.Join(dir, "missing")}, 1, `missing" does not exist`},
		// A command that starts and exits is reached: its handshake failed.
		{[]string{"check", "--target", "stdio:false"}, 1, "check: stdio:false: the handshake failed, so no check of the read contract ran: the server exited (exit status 1)"},
	} {
		stdout, stderr, code := readbench(t, dir, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "breaks the read contract") {
			t.Errorf("%v: exit %d, want %d with %q\n%s\n%s", c.args, code, c.code, c.want, stdout, stderr)
		}
		if c.code == 1 && strings.Contains(c.want, "could not reach") && !strings.Contains(stdout, "verdict    UNREACHABLE: the target could not be reached, so no check ran") {
			t.Errorf("%v: the table's verdict does not say the target was not reached:\n%s", c.args, stdout)
		}
	}
	d, code, _ := runCheck(t, "--target", "http://127.0.0.1:1/mcp")
	if code != 1 || d.Checks[0].Name != "handshake" || d.Checks[0].Status != "fail" || !strings.Contains(d.Checks[0].Detail, "127.0.0.1:1") ||
		!strings.Contains(d.Unreachable, "connection refused") || d.Checks[1].Detail != "no session: the target could not be reached" {
		t.Errorf("exit %d, unreachable %q, checks %+v", code, d.Unreachable, d.Checks[:2])
	}
	stdout, _, code := readbench(t, dir, "check", "--help")
	if code != 0 || !strings.Contains(stdout, "readbench check") {
		t.Errorf("check --help (exit %d) shows no example:\n%s", code, stdout)
	}
}
