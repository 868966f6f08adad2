package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestRunAgainstServerEverything drives @modelcontextprotocol/server-everything,
// the reference server from npm (pinned in peers/, installed by make test),
// over stdio: templates, text and blob resources, a static document of
// known size and a URI it does not have.
func TestRunAgainstServerEverything(t *testing.T) {
	t.Parallel()
	entry := serverEverything(t)
	doc, err := os.Stat(filepath.Join(filepath.Dir(entry), "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wl := filepath.Join(dir, "everything.yaml")
	err = os.WriteFile(wl, []byte(fmt.Sprintf(`
name: everything
target: {stdio: [node, %q, stdio]}
sessions: 2
load: {rate: 10/s, duration: 2s}
turn: {attachments: 3, read_timeout: 10s}
mix:
  - {class: text, template: "demo://resource/dynamic/text/{id}", vars: {id: ["1", "2", "3"]}}
  - {class: blob, template: "demo://resource/dynamic/blob/{id}", vars: {id: ["1", "2"]}}
  - {class: doc, uri: "demo://resource/static/document/architecture.md"}
  - {class: missing, uri: "demo://no/such/resource", expect: error, weight: 0.3}
`, entry)), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	onlyGood(t, r)
	if r.Target.Server.Name == "" || r.Target.Server.Version == "" || r.Target.ProtocolVersion == "" {
		t.Errorf("server or protocol not recorded: %+v", r.Target)
	}
	for _, c := range r.Classes[:3] {
		if c.Outcomes["ok"] == 0 {
			t.Errorf("class %s: no ok reads: %v", c.Class, c.Outcomes)
		}
	}
	if d := r.Classes[2]; d.DiskBytes != d.Outcomes["ok"]*doc.Size() {
		t.Errorf("doc: disk bytes %d for %d reads of a %d-byte file", d.DiskBytes, d.Outcomes["ok"], doc.Size())
	}
	if b := r.Classes[1]; b.Base64Bytes == 0 || b.DiskBytes == 0 {
		t.Errorf("blob: disk %d, base64 %d", b.DiskBytes, b.Base64Bytes)
	}
	if r.Classes[3].Outcomes["expected_error"] == 0 {
		t.Errorf("missing: %v", r.Classes[3].Outcomes)
	}
}
