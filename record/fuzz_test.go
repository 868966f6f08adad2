package record

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParse: a recording parser must never panic, and what it accepts
// must survive being written and read again unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"type":"header","format":"readbench/recording","version":1,"upstream":"u","started":"2026-12-03T12:00:00Z"}
{"type":"read","at_ms":1,"session":"s1","turn":1,"uri":"doc://a","outcome":"ok","bytes":1,"wire_bytes":2,"latency_ms":1}
{"type":"methods","counts":{"resources/read":1},"ended":"2026-12-03T12:00:01Z"}`))
	f.Add([]byte(`{"type":"header","format":"readbench/recording","version":1}` + "\n" + `{"type":"read"}`))
	f.Add([]byte("{}\n[]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Parse(bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Errorf("error without a line: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		w, err := NewWriter(&buf, rec.Header)
		if err != nil {
			t.Fatal(err)
		}
		for _, rd := range rec.Reads {
			if err := w.Read(rd); err != nil {
				t.Fatal(err)
			}
		}
		again, err := Parse(&buf)
		if err != nil {
			t.Fatalf("a parsed recording written again does not parse: %v\n%s", err, buf.String())
		}
		if len(again.Reads) != len(rec.Reads) {
			t.Fatalf("%d reads, then %d", len(rec.Reads), len(again.Reads))
		}
		for i := range rec.Reads {
			if again.Reads[i] != rec.Reads[i] {
				t.Fatalf("read %d: %+v, then %+v", i, rec.Reads[i], again.Reads[i])
			}
		}
	})
}
