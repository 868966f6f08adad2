package report

import (
	"bytes"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
)

// TestHTMLSeveralResults: a page of several results (report runs/*.json)
// opens with an index of them, the newest first, each a link to its
// result, and no element id appears twice; a page of one has no index.
func TestHTMLSeveralResults(t *testing.T) {
	old, mid, newest := fixture(t, false), fixture(t, true), fixture(t, false)
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	old.Started, mid.Started, newest.Started = results.NewTimestamp(at), results.NewTimestamp(at.Add(time.Hour)), results.NewTimestamp(at.Add(2*time.Hour))
	var b bytes.Buffer
	if err := WriteHTML(&b, []*results.Result{old, mid, newest}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if seen[m[1]] {
			t.Errorf("id %q appears twice", m[1])
		}
		seen[m[1]] = true
	}
	index := sectionBetween(page, `<nav class="part" id="index"`, "</nav>")
	starts := regexp.MustCompile(`<tr><td>([0-9-]+ [0-9:]+Z)</td><td><a href="#(result[-0-9]*)">`).FindAllStringSubmatch(index, -1)
	var got []string
	for _, s := range starts {
		got = append(got, s[1]+" "+s[2])
		if !strings.Contains(page, `<section class="result" id="`+s[2]+`">`) {
			t.Errorf("the index links to #%s, which no result has", s[2])
		}
	}
	want := []string{"2026-12-01 12:00:00Z result", "2026-12-01 11:00:00Z result-2", "2026-12-01 10:00:00Z result-3"}
	if !slices.Equal(got, want) {
		t.Errorf("index %q, want the newest first %q", got, want)
	}
	// Results of one workload against two servers have one title: the
	// index names each one's target.
	for _, r := range []*results.Result{old, mid, newest} {
		if cell := "<td>" + where(r.Target) + "</td>"; r.Target.Address == "" || !strings.Contains(html.UnescapeString(index), cell) {
			t.Errorf("the index has no cell %s naming a result's target:\n%s", cell, index)
		}
	}
	b.Reset()
	if err := WriteHTML(&b, []*results.Result{old}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `id="index"`) {
		t.Error("a page of one result has an index")
	}
}

// sectionBetween is s from the first from to the next to after it ("" when
// from is not in s).
func sectionBetween(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}
