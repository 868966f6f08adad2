package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
)

// TestInitSaysWhatReadsAnswered (issue 47, item 4): init against the
// official Go SDK's server listing five resources as text/csv that read
// as text/markdown and text/plain warns on stderr and in the file, and
// keeps the listed type, which is what selects them.
func TestInitSaysWhatReadsAnswered(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "mislisting", Version: "1.0.0"}, nil)
	for i, answered := range []string{"text/markdown", "text/markdown", "text/markdown", "text/plain", "text/plain"} {
		uri := "docs://table-" + string(rune('a'+i)) + ".csv"
		srv.AddResource(&mcp.Resource{URI: uri, MIMEType: "text/csv", Name: uri},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: answered, Text: "# title\n"}}}, nil
			})
	}
	url := peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)).URL + "/mcp"
	stdout, stderr, code := readbench(t, t.TempDir(), "init", "--target", url)
	if code != 0 {
		t.Fatalf("init: exit %d\n%s", code, stderr)
	}
	const warning = "resources listed as text/csv: 5 of 5 reads answered another mimeType (text/markdown 3, text/plain 2)"
	if !strings.Contains(stderr, "readbench: init: "+warning) {
		t.Errorf("stderr does not warn %q:\n%s", warning, stderr)
	}
	for _, want := range []string{"# Discovery warning: " + warning, "# WARNING: listed as text/csv, but 5 of 5 reads answered", "mime: text/csv"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the starter lacks %q:\n%s", want, stdout)
		}
	}
}

// TestInitMasksAPasswordArgument (issue 47, item 4): a stdio server given
// its database as a URL argument (as @modelcontextprotocol/server-postgres
// takes it) is written with the password masked and a warning, on stderr
// too; the file refuses to run with the mask as the password, and runs
// once --target gives the target whole. The server is readbench's own
// behind sh -c, which ignores the URL.
func TestInitMasksAPasswordArgument(t *testing.T) {
	t.Parallel()
	const secret = "pg-pa55word"
	dir := t.TempDir()
	target := "stdio:sh -c 'exec " + binary + " serve --stdio' sh postgresql://bench:" + secret + "@db.example.com/app"
	stdout, stderr, code := readbench(t, dir, "init", "--target", target, "--out", "w.yaml")
	if code != 0 {
		t.Fatalf("init: exit %d\n%s\n%s", code, stdout, stderr)
	}
	file, err := os.ReadFile(filepath.Join(dir, "w.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(file)+stdout+stderr, secret) {
		t.Errorf("init shows the password:\n%s\n%s\n%s", file, stdout, stderr)
	}
	if !strings.Contains(string(file), "postgresql://bench:xxxxx@db.example.com/app") || !strings.Contains(string(file), "# WARNING: the target's secrets are written masked") {
		t.Errorf("the starter does not mask the password and say so:\n%s", file)
	}
	if !strings.Contains(stderr, "the target's secrets are written masked") {
		t.Errorf("stderr does not say the target was masked:\n%s", stderr)
	}
	stdout, stderr, code = readbench(t, dir, "run", "w.yaml", "--duration", "1s", "--warmup", "0s", "--out", "r1.json")
	if code != 2 || !strings.Contains(stderr, "postgresql://bench:xxxxx@db.example.com/app is masked") {
		t.Errorf("run with the mask: exit %d, want 2 and the masked argument named\n%s\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = readbench(t, dir, "run", "w.yaml", "--target", target, "--duration", "1s", "--warmup", "0s", "--out", "r2.json")
	if code != 0 || strings.Contains(stdout+stderr, secret) {
		t.Errorf("run with --target: exit %d (want 0), or the password shown\n%s\n%s", code, stdout, stderr)
	}
}
