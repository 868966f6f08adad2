package yamlfile

import (
	"strings"
	"testing"
)

// TestParseTraceSample: load.trace_sample is a share of turns, 1 when
// unset; a value outside 0..1 is an error at its line and column; a
// workload traceparent header is refused while readbench traces reads,
// and a tracestate header must be one.
func TestParseTraceSample(t *testing.T) {
	doc := func(load, headers string) []byte {
		return []byte("name: k\nload: {rate: 1/s, duration: 1s" + load + "}\nmix:\n  - {class: c, uri: \"docs://a\"}\n" + headers)
	}
	for _, c := range []struct {
		load, headers string
		want          float64
		wantErr       string
	}{
		{"", "", 1, ""},
		{", trace_sample: 0.1", "", 0.1, ""},
		{", trace_sample: 0", "headers: {traceparent: \"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\"}\n", 0, ""},
		{"", "headers: {tracestate: \"rojo=00f067aa0ba902b7\"}\n", 1, ""},
		{", trace_sample: 1.5", "", 0, "k.yaml:2:47: load.trace_sample: must be a share from 0 to 1"},
		{", trace_sample: often", "", 0, "k.yaml:2:47: load.trace_sample: want a number"},
		{"", "headers: {Traceparent: x}\n", 0, "readbench sets traceparent on every read it traces"},
		{"", "headers: {tracestate: \"Bad Key=1\"}\n", 0, "tracestate key"},
	} {
		w, err := Parse("k.yaml", doc(c.load, c.headers))
		switch {
		case c.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%q %q: %v, want %q", c.load, c.headers, err, c.wantErr)
			}
		case err != nil:
			t.Errorf("%q %q: %v", c.load, c.headers, err)
		case w.Load.TraceShare() != c.want:
			t.Errorf("%q: share %v, want %v", c.load, w.Load.TraceShare(), c.want)
		}
	}
}
