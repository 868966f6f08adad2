// Package golden compares test output with files under testdata/, and
// rewrites them when a test binary runs with -update: the reports and the
// result document are pinned byte for byte, so any change to what a user
// sees is reviewed as a diff. Test code only.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update is registered once per test binary that imports this package.
var update = flag.Bool("update", false, "rewrite testdata/ golden files from the current output")

// Check compares got with testdata/name, or writes it there under -update.
// what names the output in the failure message.
func Check(t testing.TB, name, what string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s: review the change, then go test -update rewrites it\n--- got:\n%s\n--- want:\n%s", what, path, got, want)
	}
}
