package main

import (
	"context"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
)

// The resource servers from npm that the tests below run besides
// server-everything, none written at readbench (pinned in peers/):
//
//   - @modelcontextprotocol/server-pdf: an MCP Apps server whose one
//     resource is a 4.3 MB ui:// HTML viewer, over stdio and stateless
//     Streamable HTTP (SDK v2);
//   - @modelcontextprotocol/server-basic-vanillajs: an MCP Apps server
//     with one 218 kB ui:// page, over stdio (SDK v2);
//   - @modelcontextprotocol/server-video-resource: an MCP Apps server
//     whose videos://{id} template answers a missing video -32603, over
//     stdio and stateless Streamable HTTP (videoresource_test.go);
//   - peers/sdk-resources.mjs: text, blob, template and slow resources
//     served by the official TypeScript SDK (@modelcontextprotocol/sdk
//     1.x) and its own transports: stdio, stateful Streamable HTTP
//     (JSON and SSE answers) and stateless; and HTTP+SSE with one global
//     transport, as single-client examples serve (globalsse_test.go).

// npmPeer returns the path of a file of an npm package in peers/.
func npmPeer(t *testing.T, what string, rel ...string) string {
	t.Helper()
	return needs.File(t, filepath.Join(append([]string{peersModules(t)}, rel...)...), what, installPeers)
}

// pdfServer, appServer and sdkServer return the entry points of the three.
func pdfServer(t *testing.T) string {
	return npmPeer(t, "@modelcontextprotocol/server-pdf", "@modelcontextprotocol", "server-pdf", "dist", "index.js")
}

func appServer(t *testing.T) string {
	return npmPeer(t, "@modelcontextprotocol/server-basic-vanillajs", "@modelcontextprotocol", "server-basic-vanillajs", "dist", "index.js")
}

func sdkServer(t *testing.T) string {
	t.Helper()
	npmPeer(t, "@modelcontextprotocol/sdk", "@modelcontextprotocol", "sdk", "package.json")
	p, err := filepath.Abs("../../peers/sdk-resources.mjs")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// pdfPage is a file the PDF server is given to serve (it needs one, or it
// offers a paper it would fetch from the network); check and run read only
// its viewer resource.
func pdfPage(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "empty.pdf")
	if err := os.WriteFile(p, []byte("%PDF-1.1\n%%EOF\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startHTTPPeer starts node with args on a free port of 127.0.0.1 (passed
// as PORT in its environment and wherever an argument is "{port}"), with
// peers/loopback.cjs preloaded so that every listener binds 127.0.0.1
// whatever the server asks for, and returns http://127.0.0.1:PORT/mcp once
// the port accepts connections (within 30 s). The process is ended when
// the test ends.
func startHTTPPeer(t *testing.T, node string, args ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	port := fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	preload, err := filepath.Abs("../../peers/loopback.cjs")
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{"--require", preload}
	for _, a := range args {
		argv = append(argv, strings.ReplaceAll(a, "{port}", port))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := testproc.Own(t, exec.CommandContext(ctx, node, argv...))
	cmd.Env = append(os.Environ(), "PORT="+port)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cancel(); <-exited })
	up := poll(30*time.Second, func() bool {
		select {
		case <-exited:
			return true
		default:
		}
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	select {
	case <-exited:
		t.Fatalf("%s %v exited before it listened on %s:\n%s", node, argv, addr, out.String())
	default:
	}
	if !up {
		t.Fatalf("%s %v: nothing listens on %s within 30s", node, argv, addr)
	}
	return "http://" + addr + "/mcp"
}

// peerCheck is what `readbench check` must say of one real server: every
// row it prints is named in exactly one of pass, skip, na, fail or
// neverFail.
type peerCheck struct {
	name   string
	target func(t *testing.T, node string) string
	args   []string // more arguments of check
	// pass: rows that pass; reads: URI -> what a read row of it says.
	pass  []string
	reads map[string]string
	// skip, na and fail: row -> what its detail says (for skip, any of
	// several reasons separated by "|"). A failed row is a real bug of the
	// server, never of readbench.
	skip, na, fail map[string]string
	// failAt: rows of one name that fail only for some URIs: "name URI"
	// -> what the detail of the failed row says (the other rows of that
	// name are judged as pass, skip, na or fail say).
	failAt map[string]string
	// neverFail: rows whose verdict depends on timing the server does not
	// promise (how fast it answers a read before a cancel can reach it):
	// they may pass, skip or be n/a, and must never fail. A server that
	// honours cancellation gets no false alarm.
	neverFail []string
}

// peerChecks are the real servers and what check must report of each.
func peerChecks() []peerCheck {
	pdfRows := []string{"handshake", "server info", "resources/list", "read", "not-found error", "not-found shaped", "malformed uri"}
	pdfRead := map[string]string{"ui://pdf-viewer/mcp-app.html": "1 entry, 4336789 bytes on disk"}
	// The MCP Apps servers list no size and no template.
	noReadTool := map[string]string{"read tool": "no tool named read", "template read": "the server lists no templates"}
	noSize := map[string]string{"listed size": "none of the 1 sampled resources lists a size"}
	pdfRows = append(pdfRows, "capabilities")
	sdkRows := []string{"handshake", "server info", "capabilities", "resources/list", "read", "template read", "not-found shaped"}
	// The SDK lists no size; its template doc://sized/{bytes} has no
	// completion and no listed instance, so the value is given.
	sdkArgs := []string{"--template-value", "bytes=100"}
	sdkSkip := map[string]string{"listed size": "none of the 4 sampled resources lists a size"}
	sdkReads := map[string]string{
		"doc://text/1k": "1 entry, 1024 bytes on disk", "doc://text/64k": "1 entry, 65536 bytes on disk",
		"doc://blob/4k": "1 entry, 4096 bytes on disk", "doc://slow": "1 entry, 16 bytes on disk",
	}
	// The SDK 1.x answers a malformed URI with -32603: McpServer parses it
	// with new URL() outside its own error handling (a bug of the SDK).
	// Its template's handler throws a plain Error for a size it has not
	// got, which the SDK sends as -32603: a host reading a missing
	// instance gets internal, so the generic probe's -32602 (the SDK's
	// router) does not pass alone.
	sdkFail := map[string]string{"malformed uri": `-32603 "Invalid URL"`,
		"not-found error": `but a missing resource of the server's own shape gets error -32603 "size readbench-no-such-7f3a9c is not 0 to 1048576" (doc://sized/readbench-no-such-7f3a9c)`}
	sdkFailAt := map[string]string{"not-found shaped doc://sized/readbench-no-such-7f3a9c": `error -32603 "size readbench-no-such-7f3a9c is not 0 to 1048576"; a 2025-11-25 server answers -32002; a run counts this answer internal`}
	sdkNA := map[string]string{"read tool": "declares no tools capability"}
	sdkHTTP := func(state, body string) func(t *testing.T, node string) string {
		return func(t *testing.T, node string) string {
			return startHTTPPeer(t, node, sdkServer(t), "http", "{port}", state, body)
		}
	}
	return withoutSubscriptions([]peerCheck{{
		name: "pdf/stdio",
		target: func(t *testing.T, node string) string {
			return "stdio:" + node + " " + pdfServer(t) + " --stdio " + pdfPage(t)
		},
		pass: pdfRows, reads: pdfRead, na: noReadTool,
		// A single-threaded server busy with the 4 MB answer reads the
		// cancel off its stdin only once the answer is on its way: check
		// sees it still unread when the first byte comes (or, starved, it
		// answers too soon to judge): pdfStdioCancel, a skip. On a machine
		// whose CPUs are all taken the order can turn (the cancel is read
		// before the answer starts, and honoured: a pass), so the row is
		// held only never to fail.
		skip:      map[string]string{"listed size": noSize["listed size"]},
		neverFail: []string{"cancellation"},
	}, {
		name: "pdf/http-stateless",
		target: func(t *testing.T, node string) string {
			return startHTTPPeer(t, node, pdfServer(t), pdfPage(t))
		},
		pass: pdfRows, reads: pdfRead, skip: noSize,
		na: map[string]string{"read tool": "no tool named read", "cancellation": "issued no Mcp-Session-Id", "template read": "the server lists no templates"},
	}, {
		name: "basic-vanillajs/stdio",
		target: func(t *testing.T, node string) string {
			return "stdio:" + node + " " + appServer(t) + " --stdio"
		},
		pass:  pdfRows,
		reads: map[string]string{"ui://get-time/mcp-app.html": "1 entry, 217951 bytes on disk"},
		na:    noReadTool, skip: noSize,
		// The page is answered in ~15 ms (a skip: nothing to cancel); on a
		// busy machine it can take longer than check's 50 ms.
		neverFail: []string{"cancellation"},
	}, {
		name: "sdk/stdio",
		target: func(t *testing.T, node string) string {
			return "stdio:" + node + " " + sdkServer(t) + " stdio"
		},
		pass: append(sdkRows, "cancellation"), reads: sdkReads, fail: sdkFail, failAt: sdkFailAt, na: sdkNA, args: sdkArgs, skip: sdkSkip,
	}, {
		name: "sdk/http-stateful-json", target: sdkHTTP("stateful", "json"),
		pass: append(sdkRows, "cancellation"), reads: sdkReads, fail: sdkFail, failAt: sdkFailAt, na: sdkNA, args: sdkArgs, skip: sdkSkip,
	}, {
		name: "sdk/http-stateful-sse", target: sdkHTTP("stateful", "sse"),
		pass: append(sdkRows, "cancellation"), reads: sdkReads, fail: sdkFail, failAt: sdkFailAt, na: sdkNA, args: sdkArgs, skip: sdkSkip,
	}, {
		name: "sdk/http-stateless-sse", target: sdkHTTP("stateless", "sse"),
		pass: sdkRows, reads: sdkReads, fail: sdkFail, failAt: sdkFailAt, args: sdkArgs, skip: sdkSkip,
		na: map[string]string{"read tool": "declares no tools capability", "cancellation": "issued no Mcp-Session-Id"},
	}})
}

// withoutSubscriptions gives each peer the subscription rows as not
// applicable: none of these servers declares resources.subscribe.
func withoutSubscriptions(cs []peerCheck) []peerCheck {
	for i := range cs {
		na := maps.Clone(cs[i].na)
		if na == nil {
			na = map[string]string{}
		}
		for _, r := range []string{"subscribe ack", "subscription ids", "requested types", "subscribed uri", "unsubscribe stops"} {
			na[r] = "does not declare resources.subscribe"
		}
		cs[i].na = na
	}
	return cs
}

// TestCheckMorePeers: `readbench check` against each real server reports
// every row as peerChecks says, and exits 1 exactly when a row failed.
func TestCheckMorePeers(t *testing.T) {
	t.Parallel()
	for _, c := range peerChecks() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			node := pinnedNode(t)
			d, code, stderr := runCheck(t, append([]string{"--target", c.target(t, node)}, c.args...)...)
			c.judge(t, d, code, stderr)
		})
	}
}

// judge asserts the check report d (exit code) against c.
func (c peerCheck) judge(t *testing.T, d checkDoc, code int, stderr string) {
	t.Helper()
	failed := false
	for _, r := range d.Checks {
		want, detail := "pass", ""
		switch {
		case slices.Contains(c.neverFail, r.Name):
			if r.Status == "fail" {
				t.Errorf("%s %s: fail %q: a false alarm (the server is right)", r.Name, r.URI, r.Detail)
			}
			t.Logf("%s %s: %s %q", r.Name, r.URI, r.Status, r.Detail)
			continue
		case c.failAt[r.Name+" "+r.URI] != "":
			want, detail = "fail", c.failAt[r.Name+" "+r.URI]
		case c.na[r.Name] != "":
			want, detail = "n/a", c.na[r.Name]
		case c.fail[r.Name] != "":
			want, detail = "fail", c.fail[r.Name]
		case c.skip[r.Name] != "":
			want, detail = "skip", oneOf(r.Detail, c.skip[r.Name])
		case r.Name == "read" && c.reads != nil:
			detail = c.reads[r.URI]
			if detail == "" {
				t.Errorf("read of %s, which the server does not list", r.URI)
			}
		case !slices.Contains(c.pass, r.Name):
			t.Errorf("unexpected row %s %s: %s %q", r.Name, r.URI, r.Status, r.Detail)
		}
		if r.Status != want || !strings.Contains(r.Detail, detail) {
			t.Errorf("%s %s: %s %q, want %s with %q", r.Name, r.URI, r.Status, r.Detail, want, detail)
		}
		failed = failed || r.Status == "fail"
	}
	for _, name := range c.pass {
		if len(d.rows(name)) == 0 {
			t.Errorf("no %q row", name)
		}
	}
	if n := len(d.rows("read")); n != len(c.reads) {
		t.Errorf("%d read rows, want one for each of the %d listed resources", n, len(c.reads))
	}
	if wantCode := map[bool]int{false: 0, true: 1}[failed]; code != wantCode || d.Pass == failed {
		t.Errorf("exit %d, pass %v; want exit %d\n%s", code, d.Pass, wantCode, stderr)
	}
}

// peerRun is a short `readbench run` against one real server: the target,
// the mix, and the decoded size of each class whose every read must come
// back ok with exactly that many bytes, and the reads per second (enough
// that the seeded plan draws every class in 2 s).
type peerRun struct {
	name   string
	rate   int
	target func(t *testing.T, node string) string
	mix    string
	size   map[string]int64
}

// sdkMix reads sdk-resources.mjs's text, blob and template documents and
// a URI it does not have.
const sdkMix = `
  - {class: text, uri: "doc://text/1k"}
  - {class: blob, uri: "doc://blob/4k"}
  - {class: sized, template: "doc://sized/{bytes}", vars: {bytes: ["100", "100"]}}
  - {class: missing, uri: "doc://no/such/document", expect: error, weight: 0.3}
`

func peerRuns() []peerRun {
	sdkSizes := map[string]int64{"text": 1024, "blob": 4096, "sized": 100}
	pdfMix := `
  - {class: viewer, uri: "ui://pdf-viewer/mcp-app.html"}
`
	pdfSize := map[string]int64{"viewer": 4336789}
	sdkHTTP := func(state, body string) func(t *testing.T, node string) string {
		return func(t *testing.T, node string) string {
			return startHTTPPeer(t, node, sdkServer(t), "http", "{port}", state, body)
		}
	}
	return []peerRun{{
		name: "sdk/stdio", rate: 10,
		target: func(t *testing.T, node string) string { return "stdio:" + node + " " + sdkServer(t) + " stdio" },
		mix:    sdkMix, size: sdkSizes,
	}, {
		name: "sdk/http-stateful-sse", rate: 10, target: sdkHTTP("stateful", "sse"), mix: sdkMix, size: sdkSizes,
	}, {
		name: "sdk/http-stateless-json", rate: 10, target: sdkHTTP("stateless", "json"), mix: sdkMix, size: sdkSizes,
	}, {
		name: "pdf/stdio", rate: 5,
		target: func(t *testing.T, node string) string {
			return "stdio:" + node + " " + pdfServer(t) + " --stdio " + pdfPage(t)
		},
		mix: pdfMix, size: pdfSize,
	}, {
		name: "pdf/http-stateless", rate: 5,
		target: func(t *testing.T, node string) string { return startHTTPPeer(t, node, pdfServer(t), pdfPage(t)) },
		mix:    pdfMix, size: pdfSize,
	}, {
		name: "basic-vanillajs/stdio", rate: 5,
		target: func(t *testing.T, node string) string { return "stdio:" + node + " " + appServer(t) + " --stdio" },
		mix: `
  - {class: page, uri: "ui://get-time/mcp-app.html"}
`,
		size: map[string]int64{"page": 217951},
	}}
}

// TestRunMorePeers: a 2 s run at 5 or 10 reads/s against each real server reads
// every document ok with its size, the URI it lacks as an expected error,
// and nothing else, and the accounting identity holds.
func TestRunMorePeers(t *testing.T) {
	t.Parallel()
	for _, c := range peerRuns() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			node := pinnedNode(t)
			dir := t.TempDir()
			wl := writeWorkload(t, dir, fmt.Sprintf(`
name: peer
target: %q
sessions: 2
load: {rate: %d/s, duration: 2s}
turn: {attachments: 1, read_timeout: 30s}
mix:%s`, c.target(t, node), c.rate, c.mix))
			stdout, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json")
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			r := loadResult(t, filepath.Join(dir, "r.json")) // the identity
			onlyGood(t, r)
			if r.Target.Server.Name == "" || r.Target.ProtocolVersion == "" {
				t.Errorf("server or protocol not recorded: %+v", r.Target)
			}
			seen := 0
			for _, cl := range r.Classes {
				want, sized := c.size[cl.Class]
				switch {
				case sized:
					seen++
					ok := cl.Outcomes["ok"]
					if ok == 0 || ok != sumOutcomes(cl.Outcomes) || cl.DiskBytes != ok*want {
						t.Errorf("class %s: outcomes %v, disk bytes %d, want %d ok reads of %d bytes", cl.Class, cl.Outcomes, cl.DiskBytes, ok, want)
					}
				case cl.Class == "missing":
					if n := cl.Outcomes["expected_error"]; n == 0 || n != sumOutcomes(cl.Outcomes) {
						t.Errorf("missing: %v", cl.Outcomes)
					}
				default:
					t.Errorf("unexpected class %s", cl.Class)
				}
			}
			if seen != len(c.size) {
				t.Errorf("%d of the %d classes in the result", seen, len(c.size))
			}
		})
	}
}

// oneOf is the reason of alternatives ("a|b") that detail gives, else the
// first: what a row that may be skipped for one of several reasons must say.
func oneOf(detail, alternatives string) string {
	reasons := strings.Split(alternatives, "|")
	for _, r := range reasons {
		if strings.Contains(detail, r) {
			return r
		}
	}
	return reasons[0]
}
