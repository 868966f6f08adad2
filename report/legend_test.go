package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestSpectrumLegendsSayWords: the spectra's legends name the blocks as
// the tables' rows do ("all reads", "ok reads", "turns"), never a result
// key such as read_ok, which stays in data-series for scripts (issue 46,
// item 13); on the compare page too ("base ok reads").
func TestSpectrumLegendsSayWords(t *testing.T) {
	r := fixture(t, false)
	var page bytes.Buffer
	if err := WriteHTML(&page, []*results.Result{r}); err != nil {
		t.Fatal(err)
	}
	out := page.String()
	for _, w := range []string{">all reads<", ">ok reads<", ">turns<", `data-series="read_ok"`} {
		if !strings.Contains(out, w) {
			t.Errorf("the page lacks %s", w)
		}
	}
	if strings.Contains(out, ">read_ok<") {
		t.Error("a legend says read_ok")
	}
}
