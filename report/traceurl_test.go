package report

import (
	"strings"
	"testing"
)

// TestParseTraceURL: a template needs {trace_id} and must be an http(s)
// URL (or a relative one); the id is escaped whole, so an id from a
// hostile file cannot add a parameter or leave the URL.
func TestParseTraceURL(t *testing.T) {
	for _, c := range []struct {
		template, id, want, err string
	}{
		{"", "abc", "", ""},
		{"https://grafana.example/explore?traceId={trace_id}", "4bf92f3577b34da6a3ce929d0e0e4736",
			"https://grafana.example/explore?traceId=4bf92f3577b34da6a3ce929d0e0e4736", ""},
		{"https://jaeger.example/trace/{trace_id}", "x&y=1 #z/../",
			"https://jaeger.example/trace/x%26y%3D1%20%23z%2F..%2F", ""},
		{"/traces/{trace_id}?a={trace_id}", "ab", "/traces/ab?a=ab", ""},
		{"https://grafana.example/explore?traceId={trace_id}", "", "", ""}, // not traced: no link
		{"https://grafana.example/explore", "", "", "no {trace_id}"},
		{"javascript:alert({trace_id})", "", "", "want an http or https URL"},
		{"https://exa mple.com/%zz{trace_id}", "", "", "is not a URL"},
	} {
		u, err := ParseTraceURL(c.template)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one saying %q", c.template, err, c.err)
			}
		case err != nil:
			t.Errorf("%q: %v", c.template, err)
		case u.Link(c.id) != c.want || u.IsZero() != (c.template == ""):
			t.Errorf("%q: link of %q is %q (zero %v), want %q", c.template, c.id, u.Link(c.id), u.IsZero(), c.want)
		}
	}
}
