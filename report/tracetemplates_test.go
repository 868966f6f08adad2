package report

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// verifiedTemplates are the trace link forms docs/measurement.md (trace
// links) says were checked against each backend: a template readbench
// shows must be one of them.
var verifiedTemplates = []*regexp.Regexp{
	regexp.MustCompile(`^https://[^/]+/trace/\{trace_id\}$`),                                                               // Jaeger UI
	regexp.MustCompile(`^https://[^/]+/api/traces/\{trace_id\}$`),                                                          // Tempo API
	regexp.MustCompile(`^https://[^/]+/explore\?schemaVersion=1&orgId=1&panes=%7B.*\{trace_id\}.*%7D$`),                    // Grafana 10+
	regexp.MustCompile(`^https://ui\.honeycomb\.io/[^/]+/environments/[^/]+/datasets/[^/]+/trace\?trace_id=\{trace_id\}$`), // Honeycomb
}

// TestDocumentedTraceTemplates (issue 47, item 13): every --trace-url
// template readbench's help, README and docs show is one of the forms
// checked against its backend (docs/measurement.md, trace links), never
// the `explore?traceId=` that no Grafana reads; the Grafana form, linked,
// is an Explore pane whose Tempo TraceQL query is the trace id.
func TestDocumentedTraceTemplates(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	gos, _ := filepath.Glob("../cmd/readbench/*.go")
	own, _ := filepath.Glob("*.go") // the page's own note
	files = append(append(append(files, "../README.md"), gos...), own...)
	tmpl := regexp.MustCompile("https?://[^\\s'`\"|)]*\\{trace_id\\}[^\\s'`\"|)]*")
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "explore?traceId=") {
			t.Errorf("%s shows explore?traceId=, which no Grafana reads", f)
		}
		for _, m := range tmpl.FindAllString(string(b), -1) {
			m = strings.NewReplacer("JAEGER", "jaeger.example", "GRAFANA", "grafana.example", "TEMPO_UID", "tempo", "TEMPO", "tempo.example",
				"TEAM", "team", "ENV", "env", "DATASET", "ds").Replace(m)
			seen++
			ok := false
			for _, v := range verifiedTemplates {
				ok = ok || v.MatchString(m)
			}
			if !ok {
				t.Errorf("%s: template %s is none of the checked forms", f, m)
			}
			if _, err := ParseTraceURL(m); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
	if seen < 5 {
		t.Fatalf("found %d templates: the scan is broken", seen)
	}

	const id = "4bf92f3577b34da6a3ce929d0e0e4736"
	doc, _ := os.ReadFile("../docs/measurement.md")
	g := regexp.MustCompile("https://GRAFANA/explore\\?[^`]*").FindString(string(doc))
	u, err := ParseTraceURL(strings.ReplaceAll(g, "GRAFANA", "grafana.example"))
	if g == "" || err != nil {
		t.Fatalf("the Grafana form %q: %v", g, err)
	}
	link, err := url.Parse(u.Link(id))
	if err != nil {
		t.Fatal(err)
	}
	var panes map[string]struct {
		Queries []struct {
			QueryType  string `json:"queryType"`
			Query      string `json:"query"`
			Datasource struct {
				Type string `json:"type"`
			} `json:"datasource"`
		} `json:"queries"`
		Range struct{ From, To string } `json:"range"`
	}
	q := link.Query()
	if err := json.Unmarshal([]byte(q.Get("panes")), &panes); err != nil || q.Get("schemaVersion") != "1" || len(panes) != 1 {
		t.Fatalf("the Grafana link %s: panes %q (%v), schemaVersion %q", link, q.Get("panes"), err, q.Get("schemaVersion"))
	}
	for _, p := range panes {
		if len(p.Queries) != 1 || p.Queries[0].Query != id || p.Queries[0].QueryType != "traceql" || p.Queries[0].Datasource.Type != "tempo" || p.Range.From == "" {
			t.Errorf("the Grafana pane %+v: want one Tempo TraceQL query of the trace id, and a range", p)
		}
	}
}
