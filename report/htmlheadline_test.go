package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestResultPageLeadsWithTheHeadline: the page's first element is the
// headline: read and turn p50/p99, errors, the rate achieved against the
// rate asked, and the thresholds' verdict in colour and with a mark, the
// broken one first; the generator's note is said once on the page.
func TestResultPageLeadsWithTheHeadline(t *testing.T) {
	r := withThresholds(t)
	var b bytes.Buffer
	if err := WriteHTML(&b, []*results.Result{r}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	body := s[strings.Index(s, "<body>")+len("<body>\n"):]
	if !strings.HasPrefix(body, `<section class="result" id="result">`+"\n"+`<header class="headline" data-headline="report">`) {
		t.Fatalf("the page does not open with the headline:\n%.300s", body)
	}
	head := body[:strings.Index(body, "</header>")]
	// The banner's first line is the verdict that decided the exit, said
	// once: not again as the thresholds' verdict, nor as the health.
	if n := strings.Count(head, "1 of 2 thresholds broken"); n != 1 || !strings.Contains(head, `<p class="verdict ending fail" data-exit="failed"><span class="mark">✗</span> 1 of 2 thresholds broken</p>`) {
		t.Errorf("the headline says the verdict %d times, want once, as its first line:\n%s", n, head)
	}
	for _, want := range []string{"read p50 / p99", "turn p50 / p99", "errors", "rate achieved", "asked 10.5 turns/s",
		`<li class="fail"><span class="mark">✗</span> turn.p99&lt;800ms: measured 900ms</li>`} {
		if !strings.Contains(head, want) {
			t.Errorf("the headline lacks %q:\n%s", want, head)
		}
	}
	if strings.Index(head, "turn.p99&lt;800ms") > strings.Index(head, "errors&lt;1%") {
		t.Error("the broken threshold is not listed first")
	}
	r.Generator.Note = "readbench's own scheduling lag accounts for up to 1ms"
	b.Reset()
	if err := WriteHTML(&b, []*results.Result{r}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "readbench&#39;s own scheduling lag accounts"); n != 1 {
		t.Errorf("the generator's note is said %d times", n)
	}
}

func TestRateTileMarksAShortfall(t *testing.T) {
	r := fixture(t, false)
	if tl := rateTile(r); tl.Class != "" || tl.Sub != "asked 10.5 turns/s, 4 reads a turn" { // turns tied to the reads/s beside them
		t.Errorf("a run that kept its rate: %+v", tl)
	}
	short := 8.0
	r.Totals.AchievedRate = &short
	if tl := rateTile(r); tl.Class != "warn" || !strings.Contains(tl.Sub, "short of it") {
		t.Errorf("a run 24%% short: %+v", tl)
	}
}

// TestHealthSaidOnceInTheHeadline: a run held to no threshold ends on its
// health, so the banner's first line is the health, and the headline
// does not say it again under the title; its reasons are still there.
func TestHealthSaidOnceInTheHeadline(t *testing.T) {
	r := fixture(t, false)
	var b bytes.Buffer
	if err := WriteHTML(&b, []*results.Result{r}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	head := s[strings.Index(s, `<header class="headline"`):]
	head = head[:strings.Index(head, "</header>")]
	text := htmlHealthOf(r).Text
	if n := strings.Count(head, text); n != 1 {
		t.Errorf("the headline says the health %q %d times, want once:\n%s", text, n, head)
	}
	if !strings.Contains(head, `<div class="health" data-health="`) {
		t.Errorf("the health block (its reasons) is gone:\n%s", head)
	}
}
