package report

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// TestSlowReadsFoldedOnThePage: a result that kept many reads (an
// overloaded run keeps hundreds) shows the slowest ten of every class
// open, slowest first, and every kept read folded under a <details>, so
// the charts after the section are not pushed far down the page.
func TestSlowReadsFoldedOnThePage(t *testing.T) {
	r := fixture(t, false)
	for i := range r.Classes {
		var reads []stats.SlowRead
		for k := range 30 {
			reads = append(reads, stats.SlowRead{URI: "docs://x/" + r.Classes[i].Class + "-" + string(rune('a'+k)), Intended: time.Unix(0, 0).UTC(),
				Latency: stats.Milliseconds(time.Duration(100*i+k+1) * time.Millisecond), Outcome: stats.OK})
		}
		r.Classes[i].SlowReads = &stats.SlowReads{Slowest: reads}
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, []*results.Result{r}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	sec := page[strings.Index(page, `data-section="slow-reads"`):]
	sec = sec[:strings.Index(sec, "</section>")]
	open, folded, ok := strings.Cut(sec, `<details class="more"><summary>all `)
	if !ok {
		t.Fatalf("no folded table of every kept read:\n%.2000s", sec)
	}
	rows := regexp.MustCompile(`<tr><td>`).FindAllString(open, -1)
	if len(rows) != slowShown {
		t.Errorf("%d rows open, want %d", len(rows), slowShown)
	}
	lat := regexp.MustCompile(`<tr><td>[^<]*</td><td>([0-9.]+)ms</td>`).FindAllStringSubmatch(open, -1)
	if len(lat) != slowShown {
		t.Fatalf("%d latencies read in the open rows:\n%s", len(lat), open)
	}
	for i := 1; i < len(lat); i++ {
		a, _ := strconv.ParseFloat(lat[i-1][1], 64)
		b, _ := strconv.ParseFloat(lat[i][1], 64)
		if b > a {
			t.Errorf("open rows not slowest first: %s after %s", lat[i][1], lat[i-1][1])
		}
	}
	if n := len(regexp.MustCompile(`<tr><td>`).FindAllString(folded, -1)); n != 30*len(r.Classes) {
		t.Errorf("%d rows folded, want every kept read (%d)", n, 30*len(r.Classes))
	}
}
