package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/internal/golden"
	"github.com/readbench/readbench/results"
)

// checkFixture is a report with every status, a URI too long for the
// column, rows that share a URI and a detail with a control character.
func checkFixture() *results.CheckDocument {
	r := &results.CheckDocument{
		Tool: results.Tool{Name: "readbench", Version: "0.1.0"},
		Target: results.Target{Address: "http://127.0.0.1:8080/mcp", Transport: "http",
			Server: results.Server{Name: "docs-server", Version: "2.3.1"}, ProtocolVersion: "2025-11-25"},
		Era: "handshake",
		Checks: []results.Check{
			{Name: "handshake", Status: results.CheckPass, Detail: "protocol 2025-11-25 (handshake era: initialize)"},
			{Name: "server info", Status: results.CheckPass, Detail: "docs-server 2.3.1"},
			{Name: "resources/list", Status: results.CheckPass, Detail: "42 resources in 3 pages"},
			{Name: "read", Status: results.CheckPass, URI: "docs://onboarding/engineering", Detail: "1 entry, 9000 bytes on disk, 10574 on the wire, 2.1ms"},
			{Name: "read", Status: results.CheckFail, URI: "file:///repo/assets/very/deep/folder/structure/architecture-diagram-final-v2.png",
				Detail: "unusable answer: entry has neither text nor blob"},
			{Name: "read", Status: results.CheckFail, URI: "docs://renamed", Detail: "uri not echoed: the entry names another uri"},
			{Name: "read", Status: results.CheckFail, URI: "docs://renamed", Detail: "1 of 1 entries without mimeType"},
			{Name: "not-found error", Status: results.CheckFail, URI: "docs://onboarding/readbench-check/no-such-resource-7f3a9c",
				Detail: `answered ok (1 entry, 12 bytes) for a URI that cannot exist; a 2025-11-25 server answers -32002`},
			{Name: "malformed uri", Status: results.CheckPass, URI: "::::", Detail: "error -32602 \"bad\x1b[31m uri\""},
			{Name: "cancellation", Status: results.CheckSkip, Detail: "no slow resource to cancel: no sampled read took more than 50ms (give --cancel-uri)"},
			{Name: "read tool", Status: results.CheckSkip, Detail: "no tool named read in tools/list"},
		},
	}
	r.Finish()
	return r
}

func TestWriteCheckTableGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCheckTable(&buf, checkFixture()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "check.golden", "the report", buf.Bytes())
	out := buf.String()
	for i, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line %d is %d columns wide: %q", i+1, n, l)
		}
		if strings.HasSuffix(l, " ") || strings.Contains(l, "\x1b") {
			t.Errorf("line %d has trailing blanks or an escape sequence: %q", i+1, l)
		}
	}
	// The second row of a shared URI does not repeat it.
	if n := strings.Count(out, "docs://renamed"); n != 1 {
		t.Errorf("docs://renamed shown %d times", n)
	}
	if !strings.Contains(out, "FAIL: 5 passed, 4 failed, 2 skipped") {
		t.Errorf("no verdict line:\n%s", out)
	}
}

func TestWriteCheckJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCheckJSON(&buf, checkFixture()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "check.json.golden", "the report", buf.Bytes())
	var back results.CheckDocument
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Pass || len(back.Checks) != 11 || back.Checks[4].URI == "" || back.Target.ProtocolVersion != "2025-11-25" {
		t.Errorf("round trip: %+v", back)
	}
	// Every row keeps its URI in JSON, shared or not.
	if back.Checks[6].URI != "docs://renamed" {
		t.Errorf("row 7 URI %q", back.Checks[6].URI)
	}
}

// TestWriteCheckTableNotApplicable: an n/a row reads n/a, the verdict
// counts it apart and a report of n/a rows alone passes.
func TestWriteCheckTableNotApplicable(t *testing.T) {
	r := &results.CheckDocument{Tool: results.Tool{Name: "readbench", Version: "0.1.0"}, Checks: []results.Check{
		{Name: "handshake", Status: results.CheckPass, Detail: "protocol 2025-11-25"},
		{Name: "capabilities", Status: results.CheckNA, Detail: "the server declares no resources capability"},
		{Name: "resources/list", Status: results.CheckNA, Detail: "the server declares no resources capability"},
	}}
	r.Finish()
	var buf bytes.Buffer
	if err := WriteCheckTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "PASS: 1 passed, 0 failed, 0 skipped, 2 not applicable") || strings.Count(out, "| n/a") != 2 {
		t.Errorf("table:\n%s", out)
	}
}
