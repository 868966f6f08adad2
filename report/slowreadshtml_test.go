package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
)

// hostile is a result whose slow reads carry markup and quotes in their
// URI and trace id, as a file from anywhere may.
func hostile(t *testing.T) *results.Result {
	r := withSlowReads(fixture(t, false))
	k := r.Classes[1].SlowReads
	k.Slowest[0].URI = `docs://a/"><script>alert('x')</script>.png`
	k.Broke[0].URI = k.Slowest[0].URI
	k.Slowest[5].TraceID = `"><b>id&x=1`
	return r
}

// hrefs are the targets of the page's links, the page well-formed.
func hrefs(t *testing.T, page string) []string {
	t.Helper()
	var out []string
	d := xml.NewDecoder(strings.NewReader(page))
	d.Entity = xml.HTMLEntity
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local == "script" {
				t.Error("the page has a <script>")
			}
			for _, a := range se.Attr {
				if a.Name.Local == "href" && !strings.HasPrefix(a.Value, "#") {
					out = append(out, a.Value)
				}
			}
		}
	}
}

// TestHTMLSlowReads: the page lists every kept read under the latency,
// URIs and ids escaped (a <script> or a quote in them breaks nothing);
// with a trace URL each traced read links to its trace, the id escaped in
// the link; without one the page links nothing (it stays self-contained)
// and says how to link; an older result has no such section.
func TestHTMLSlowReads(t *testing.T) {
	grafana, err := ParseTraceURL("https://grafana.example/explore?left={trace_id}&x=1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		r     *results.Result
		o     Options
		links []string
	}{
		{"linked", hostile(t), Options{TraceURL: grafana}, []string{
			"https://grafana.example/explore?left=4bf92f3577b34da6a3ce929d0e0e0010&x=1",
			"https://grafana.example/explore?left=%22%3E%3Cb%3Eid%26x%3D1&x=1"}},
		{"plain", hostile(t), Options{}, nil},
		{"an older result", fixture(t, false), Options{}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := c.o.WriteHTML(&buf, []*results.Result{c.r}); err != nil {
				t.Fatal(err)
			}
			s := buf.String()
			got := hrefs(t, s)
			if !keptSlow(c.r) {
				if strings.Contains(s, `data-section="slow-reads"`) || len(got) != 0 {
					t.Error("an older result has a slow reads section")
				}
				return
			}
			sec := s[strings.Index(s, `data-section="slow-reads"`):]
			if strings.Index(s, `data-section="latency"`) > strings.Index(s, `data-section="slow-reads"`) {
				t.Error("the slow reads are not under the latency")
			}
			if strings.Contains(s, "<script>") || strings.Contains(s, `"><b>`) ||
				!strings.Contains(sec, "docs://a/&#34;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;.png") {
				t.Errorf("a URI or id is not escaped:\n%s", sec[:min(len(sec), 3000)])
			}
			traced := 9 // the reads kept, the untraced one not linked
			if c.links == nil {
				traced = 0
				if !strings.Contains(sec, "--trace-url") {
					t.Error("the page does not say how to link the trace ids")
				}
			}
			if len(got) != traced {
				t.Errorf("%d links, want %d: %v", len(got), traced, got)
			}
			for _, want := range c.links {
				found := false
				for _, h := range got {
					found = found || h == want
				}
				if !found {
					t.Errorf("no link to %q among %v", want, got)
				}
			}
		})
	}
}

// TestMarkdownSlowReadsLinked: with a trace URL, markdown links each
// traced read; a URI's markup is escaped either way.
func TestMarkdownSlowReadsLinked(t *testing.T) {
	u, err := ParseTraceURL("https://tempo.example/trace/{trace_id}?from=(now)")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := (Options{TraceURL: u}).WriteMarkdown(&buf, hostile(t)); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	for _, want := range []string{
		"| [4bf92f3577b34da6a3ce929d0e0e0010](https://tempo.example/trace/4bf92f3577b34da6a3ce929d0e0e0010?from=%28now%29) |",
		`docs://a/"&gt;&lt;script&gt;alert('x')&lt;/script&gt;.png`, "| not sampled |"} {
		if !strings.Contains(s, want) {
			t.Errorf("markdown lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "<script>") {
		t.Error("markup reaches the markdown")
	}
}
