package simserver

import (
	"testing"
	"time"

	"github.com/readbench/readbench/protocol"
)

// TestAlterContent: a server with AlterContent returns other bytes of the
// same size and type for the URIs containing it, and the same bytes for
// every other URI, as text and as a blob.
func TestAlterContent(t *testing.T) {
	plain := startStdio(t, New(Options{}))
	altered := startStdio(t, New(Options{AlterContent: "doc-2?"}))
	id := 0
	read := func(p *stdioPipe, uri string) map[string]any {
		id++
		r := decodeRead(t, p.roundTrip(request(t, id, protocol.MethodResourcesRead, readParams(uri, ""))))
		return r.Contents[0]
	}
	for _, c := range []struct {
		uri     string
		changed bool
	}{
		{"sim:///doc-2?mime=text/markdown&size=3000", true},
		{"sim:///doc-2?mime=image/png&size=3000", true},
		{"sim:///doc-20?mime=text/markdown&size=3000", false}, // "doc-2?" is not in "doc-20?"
		{"sim:///doc-3?mime=image/png&size=3000", false},
	} {
		a, b := read(plain, c.uri), read(altered, c.uri)
		field := "text"
		if a["text"] == nil {
			field = "blob"
		}
		if (a[field] != b[field]) != c.changed {
			t.Errorf("%s: changed %v, want %v", c.uri, a[field] != b[field], c.changed)
		}
		if a["mimeType"] != b["mimeType"] || len(a[field].(string)) != len(b[field].(string)) {
			t.Errorf("%s: type or size differ: %v/%v, %d/%d", c.uri, a["mimeType"], b["mimeType"], len(a[field].(string)), len(b[field].(string)))
		}
	}
}

// TestDelayScale: DelayScale multiplies the sampled delay; 0 leaves it.
func TestDelayScale(t *testing.T) {
	spec, err := ParseSimURI("sim:///x?delay=10ms")
	if err != nil {
		t.Fatal(err)
	}
	for scale, want := range map[float64]time.Duration{0: 10 * time.Millisecond, 1: 10 * time.Millisecond, 1.3: 13 * time.Millisecond} {
		if got := New(Options{DelayScale: scale}).sampleDelay(spec); got != want {
			t.Errorf("scale %v: delay %v, want %v", scale, got, want)
		}
	}
}
