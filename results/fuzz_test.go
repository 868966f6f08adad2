package results_test

import (
	"io"
	"os"
	"testing"

	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
)

// FuzzLoad feeds arbitrary bytes to the loader: it must never panic, and
// whatever it accepts must render as a report and save and load again,
// since `readbench report` and `merge` take files from anywhere. It is an
// external test (package results_test) because the report it renders is
// package report's, which imports results.
func FuzzLoad(f *testing.F) {
	good, err := os.ReadFile("testdata/troubled.json") // Build's document of the troubled fixture
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"schema":"readbench/result/v1"}`))
	f.Add([]byte(`{"schema":"readbench/result/v1","read":{"hdr":"HISTFAAAAAA="}}`))
	f.Add([]byte(`{"schema":"readbench/result/v1","started":"0000-01-01T00:00:00+01:00"}`))
	f.Add([]byte(`{"schema":"readbench/result/v2"}`))
	f.Add([]byte(`[{"schema":1}]`))
	f.Add([]byte("{\n\"schema\": \"readbench/result/v1\",\n x}"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := results.Parse("fuzz.json", data)
		if err != nil {
			return
		}
		if err := report.WriteTable(io.Discard, r); err != nil {
			t.Fatalf("report of an accepted file: %v", err)
		}
		b, err := r.Marshal()
		if err != nil {
			t.Fatalf("an accepted file cannot be saved: %v", err)
		}
		if _, err := results.Parse("again.json", b); err != nil {
			t.Fatalf("a saved accepted file does not load: %v", err)
		}
	})
}
