package workload_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/readbench/readbench/internal/golden"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// TestSavedFilesRoundTrip: each built-in scenario and each valid test
// file, parsed, saves byte for byte as a result saved it before the
// workload marshalled itself (testdata/saved), and saved, read back and
// saved again, saves the same workload, which validates: what `run --like`
// of a run of it runs is what ran.
func TestSavedFilesRoundTrip(t *testing.T) {
	scenarios, _ := filepath.Glob("../scenarios/*.yaml")
	valid, _ := filepath.Glob("yamlfile/testdata/valid/*.yaml")
	if len(scenarios) == 0 || len(valid) == 0 {
		t.Fatal("no workload files found")
	}
	for _, file := range append(scenarios, valid...) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			// The source a file is saved with is the name it was read by.
			source, golden := file, "saved/scenario-"+filepath.Base(file)+".json"
			if filepath.Dir(file) != "../scenarios" {
				source, golden = "testdata/valid/"+filepath.Base(file), "saved/valid-"+filepath.Base(file)+".json"
			}
			w, err := yamlfile.Parse(source, data)
			if err != nil {
				t.Fatal(err)
			}
			saved := checkGolden(t, w, golden)
			var back workload.Workload
			if err := json.Unmarshal(saved, &back); err != nil {
				t.Fatal(err)
			}
			secrets := len(back.Headers) > 0 || back.Auth != nil || bytes.Contains(saved, []byte("xxxxx"))
			if err := back.Validate(); err != nil && !secrets { // with secrets, it must not (json_test.go)
				t.Errorf("read back, it does not validate: %v", err)
			}
			again, err := json.Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if once, _ := json.Marshal(w); !bytes.Equal(again, once) {
				t.Errorf("saved again:\n%s\nwant:\n%s", again, once)
			}
		})
	}
}

// checkGolden compares the saved form of w, indented as a result writes
// it, with testdata/name, and returns it.
func checkGolden(t *testing.T, w *workload.Workload, name string) []byte {
	t.Helper()
	b, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, name, "the saved form of "+w.Source, append(b, '\n'))
	return b
}
