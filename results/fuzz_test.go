package results

import (
	"io"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the loader: it must never panic, and
// whatever it accepts must render as a report and save and load again,
// since `readbench report` and `merge` take files from anywhere.
func FuzzLoad(f *testing.F) {
	good, err := fixture(f, true).Marshal()
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
		r, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		if err := WriteTable(io.Discard, r); err != nil {
			t.Fatalf("report of an accepted file: %v", err)
		}
		b, err := r.Marshal()
		if err != nil {
			t.Fatalf("an accepted file cannot be saved: %v", err)
		}
		if _, err := Parse("again.json", b); err != nil {
			t.Fatalf("a saved accepted file does not load: %v", err)
		}
	})
}
