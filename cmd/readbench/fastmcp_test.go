package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"
)

// peers/fastmcp-resources.mjs serves text, blob and template resources
// with the fastmcp framework (npm fastmcp 4.20.16) over stdio and its HTTP
// stream, stateful and stateless. fastmcp answers a URI it has not got
// with -32601 (Method not found) "Resource not found: 'URI'. Available
// resources: …": a server that implements resources/read and misuses the
// code of a missing method, which readbench must tell from a server
// without the method (TestRunServerWithoutResourcesRead).

// fastmcpServer returns the path of peers/fastmcp-resources.mjs, once the
// framework is installed.
func fastmcpServer(t *testing.T) string {
	t.Helper()
	npmPeer(t, "fastmcp", "fastmcp", "package.json")
	p, err := filepath.Abs("../../peers/fastmcp-resources.mjs")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fastmcpTargets are the transports the tests read fastmcp over.
func fastmcpTargets() []struct {
	name   string
	target func(t *testing.T, node string) string
} {
	http := func(state string) func(t *testing.T, node string) string {
		return func(t *testing.T, node string) string {
			return startHTTPPeer(t, node, fastmcpServer(t), "http", "{port}", state)
		}
	}
	return []struct {
		name   string
		target func(t *testing.T, node string) string
	}{
		{"stdio", func(t *testing.T, node string) string { return "stdio:" + node + " " + fastmcpServer(t) + " stdio" }},
		{"http-stateful", http("stateful")},
		{"http-stateless", http("stateless")},
	}
}

// fastmcpMisuse is what the run's report and check say of the server.
const fastmcpMisuse = "the server answers a missing resource with -32601 (Method not found); a client would conclude resources/read is absent"

// TestRunFastMCPMissingResource: a 2 s run against fastmcp reads its
// documents ok with their sizes; the URI it has not got, answered -32601
// "Resource not found", meets the class's `expect: not_found` and is
// not_found in a class that expects nothing — never method_not_found,
// since the server answered reads with a result — whether those reads came
// before the first ok answer or after; the result counts them in
// totals.misused_method_not_found, and the report names the misuse, never
// a server without resources/read.
func TestRunFastMCPMissingResource(t *testing.T) {
	t.Parallel()
	for _, c := range fastmcpTargets() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			node := pinnedNode(t)
			dir := t.TempDir()
			wl := writeWorkload(t, dir, fmt.Sprintf(`
name: fastmcp
target: %q
sessions: 2
load: {rate: 10/s, duration: 2s}
turn: {attachments: 1, read_timeout: 30s}
mix:
  - {class: text, uri: "doc://text/1k"}
  - {class: blob, uri: "doc://blob/4k"}
  - {class: sized, template: "doc://sized/{bytes}", vars: {bytes: ["100"]}}
  - {class: missing, uri: "doc://no/such/document", expect: not_found, weight: 0.5}
  - {class: gone, uri: "doc://renamed/document", weight: 0.3}
`, c.target(t, node)))
			stdout, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json")
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			r := loadResult(t, filepath.Join(dir, "r.json")) // the identity
			sizes := map[string]int64{"text": 1024, "blob": 4096, "sized": 100}
			var misses int64
			for _, cl := range r.Classes {
				n := sumOutcomes(cl.Outcomes)
				switch want, sized := sizes[cl.Class]; {
				case sized:
					if ok := cl.Outcomes["ok"]; ok == 0 || ok != n || cl.DiskBytes != ok*want {
						t.Errorf("class %s: outcomes %v, disk bytes %d, want %d ok reads of %d bytes", cl.Class, cl.Outcomes, cl.DiskBytes, n, want)
					}
				case cl.Class == "missing":
					if cl.Outcomes["expected_error"] == 0 || cl.Outcomes["expected_error"] != n {
						t.Errorf("missing (expect: not_found): %v, want every read expected_error", cl.Outcomes)
					}
					misses += n
				case cl.Class == "gone":
					if cl.Outcomes["not_found"] == 0 || cl.Outcomes["not_found"] != n {
						t.Errorf("gone: %v, want every read not_found", cl.Outcomes)
					}
					misses += n
				default:
					t.Errorf("unexpected class %s", cl.Class)
				}
			}
			raw := rawResult(t, filepath.Join(dir, "r.json"))
			tot := raw["totals"].(map[string]any)
			if got := tot["misused_method_not_found"]; got != float64(misses) || r.Totals.Outcomes["method_not_found"] != 0 {
				t.Errorf("totals.misused_method_not_found %v, method_not_found %d; want %d and 0", got, r.Totals.Outcomes["method_not_found"], misses)
			}
			report := strings.Join(strings.Fields(stdout), " ") // the table wraps its lines
			if !strings.Contains(report, "misused "+fastmcpMisuse+": "+fmt.Sprint(misses)+" reads") {
				t.Errorf("the report does not name the misuse of -32601 for %d reads:\n%s", misses, stdout)
			}
			for _, out := range []string{stdout, stderr} {
				if strings.Contains(out, "does not implement") {
					t.Errorf("a server that served reads is called one without resources/read:\n%s", out)
				}
			}
			if n := strings.Count(stderr, "-32601 Method not found worded as a missing resource"); n != 1 {
				t.Errorf("the misuse is logged %d times, want once:\n%s", n, stderr)
			}
		})
	}
}

// TestCheckFastMCP: `readbench check` against fastmcp passes its listing
// and reads, and fails the not-found rows naming the misuse of -32601 (the
// server has just answered the sampled reads: it implements
// resources/read), the shaped probes too, and a missing instance of its
// template answered -32603; its malformed URIs get the same -32601, a
// failed row too. Those are fastmcp 4.20.16's own answers, not readbench's.
func TestCheckFastMCP(t *testing.T) {
	t.Parallel()
	for _, tc := range fastmcpTargets() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := peerCheck{
				pass: []string{"handshake", "server info", "capabilities", "resources/list", "read", "template read"},
				reads: map[string]string{
					"doc://text/1k": "1 entry, 1024 bytes on disk", "doc://text/64k": "1 entry, 65536 bytes on disk",
					"doc://blob/4k": "1 entry, 4096 bytes on disk",
				},
				fail: map[string]string{
					"not-found error": `Resource not found: 'doc://text/readbench-check/no-such-resource-7f3a9c'`,
					"malformed uri":   `error -32601 "MCP error -32601: Resource not found:`,
				},
				// Its shaped probes are held to the same rule: the
				// listing's shapes get the same -32601, the template's
				// handler throws for a size it has not got (-32603).
				failAt: map[string]string{
					"not-found shaped doc://text/readbench-no-such-7f3a9c":  fastmcpMisuse + ", yet it answered 3 sampled reads",
					"not-found shaped doc://blob/readbench-no-such-7f3a9c":  fastmcpMisuse + ", yet it answered 3 sampled reads",
					"not-found shaped doc://sized/readbench-no-such-7f3a9c": `error -32603 "size readbench-no-such-7f3a9c is not 0 to 1048576"; a 2025-11-25 server answers -32002; a run counts this answer internal`,
				},
				// fastmcp lists no size.
				skip: map[string]string{"listed size": "none of the 3 sampled resources lists a size"},
				na:   map[string]string{"read tool": "declares no tools capability"},
				// Its documents answer in a few ms: nothing to cancel (a
				// skip), or n/a over stateless HTTP; never a fault.
				neverFail: []string{"cancellation"},
			}
			// fastmcp declares resources.subscribe and has no tool to
			// change a document: the subscription is acknowledged (over
			// stateless HTTP it cannot be made: no standalone GET stream,
			// HTTP 405), and the rows that need a notification are skipped.
			c.skip = maps.Clone(c.skip)
			for _, r := range []string{"requested types", "subscribed uri", "unsubscribe stops"} {
				c.skip[r] = "no change could be made|the server offers no standalone GET stream"
			}
			if tc.name == "http-stateless" {
				c.skip["subscribe ack"], c.skip["subscription ids"] = "the server offers no standalone GET stream", "the server offers no standalone GET stream"
			} else {
				c.pass = append(c.pass, "subscribe ack")
				c.na = map[string]string{"read tool": "declares no tools capability", "subscription ids": "the handshake era's notifications carry no subscriptionId"}
			}
			node := pinnedNode(t)
			d, code, stderr := runCheck(t, "--target", tc.target(t, node), "--template-value", "bytes=100")
			c.judge(t, d, code, stderr)
			rows := d.rows("not-found error")
			if len(rows) != 1 || !strings.Contains(rows[0].Detail, fastmcpMisuse+", yet it answered 3 sampled reads") {
				t.Errorf("not-found error rows %+v: want one naming the misuse of -32601 by a server that answered 3 reads", rows)
			}
		})
	}
}
