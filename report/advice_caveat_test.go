package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestAdviceCaveatInEveryFormat: the advice of a contended run carries
// its caveat in every report, beside the recommendation (the brief and
// full terminal reports, markdown, HTML, the advice key of the JSON), and
// a withheld pair reads as withheld, never as "too little data"; a quiet
// run's reports say neither (no caveat cried).
func TestAdviceCaveatInEveryFormat(t *testing.T) {
	formats := []struct {
		name  string
		write func(*bytes.Buffer, *results.Result) error
	}{
		{"brief", func(b *bytes.Buffer, r *results.Result) error { return WriteTable(b, r) }},
		{"full", func(b *bytes.Buffer, r *results.Result) error { return WriteFullTable(b, r) }},
		{"markdown", func(b *bytes.Buffer, r *results.Result) error { return WriteMarkdown(b, r) }},
		{"html", func(b *bytes.Buffer, r *results.Result) error { return WriteHTML(b, []*results.Result{r}) }},
		{"json", func(b *bytes.Buffer, r *results.Result) error { return WriteJSON(b, []*results.Result{r}) }},
	}
	for _, c := range []struct {
		doc  string
		want map[string][]string // per format (absent: the default's), what it says
		not  []string            // what no format says
	}{
		{"contended.json", map[string][]string{
			"": {"turn deadline 500ms, read timeout 50.0s (with a caveat: the run was contended)"},
			"full": {"turn deadline 500ms, read timeout 50.0s (with a caveat: the run was contended)",
				"  ! Caveat: the run was contended: some task on the machine waited for a CPU during 70.0%"},
			"markdown": {"Recommended turn deadline **500ms**, read timeout **50.0s**.",
				"> **!** Caveat: the run was contended: some task on the machine waited for a CPU during 70.0%"},
			"html": {"(with a caveat: the run was contended)",
				`<p class="caveat">Caveat: the run was contended: some task on the machine waited for a CPU during 70.0%`},
			"json": {`"caveat": "Caveat: the run was contended: some task on the machine waited for a CPU during 70.0%`, `"withheld": false`},
		}, []string{"withheld, the run"}},
		{"withheld.json", map[string][]string{
			"":         {"recommend  none: withheld, the run was too contended to size limits on"},
			"full":     {"recommend  none: withheld, the run was too contended to size limits on", "  ! Withheld: the run was too contended to advise from: some task"},
			"markdown": {"Recommended turn deadline and read timeout: **none: withheld, the run was too contended to size limits on**.", "> **!** Withheld: the run was too contended"},
			"html":     {"Recommended: none: withheld, the run was too contended to size limits on.", `<p class="caveat">Withheld: the run was too contended`},
			"json":     {`"withheld": true`, `"recommended_deadline_ms": null`, `"recommended_timeout_ms": null`},
		}, []string{"too little data", "(with a caveat"}},
		{"result.json", map[string][]string{
			"":         {"recommend  turn deadline 10.0s, read timeout 10.0s\n"},
			"full":     {"recommend  turn deadline 10.0s, read timeout 10.0s\n"},
			"markdown": {"Recommended turn deadline **10.0s**, read timeout **10.0s**."},
			"html":     {"Recommended: turn deadline 10.0s, read timeout 10.0s."},
			"json":     {`"caveat": ""`, `"withheld": false`},
		}, []string{"contended", "withheld, the run", "  ! ", "> **!**", `class="caveat"`}},
	} {
		r := document(t, c.doc)
		for _, f := range formats {
			t.Run(c.doc+"/"+f.name, func(t *testing.T) {
				var b bytes.Buffer
				if err := f.write(&b, r); err != nil {
					t.Fatal(err)
				}
				out := b.String()
				if f.name == "html" {
					out = htmlUnescape(out)
				}
				want, ok := c.want[f.name]
				if !ok {
					want = c.want[""]
				}
				for _, s := range want {
					if !strings.Contains(out, s) {
						t.Errorf("%s does not say %q", f.name, s)
					}
				}
				for _, s := range c.not {
					if strings.Contains(out, s) {
						t.Errorf("%s says %q", f.name, s)
					}
				}
				if f.name == "json" && !json.Valid(b.Bytes()) {
					t.Error("invalid JSON")
				}
			})
		}
	}
}

// htmlUnescape undoes the escapes html/template puts in text, so the
// test reads the page's words.
func htmlUnescape(s string) string {
	return strings.NewReplacer("&#39;", "'", "&#34;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(s)
}
