package live

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// TestPerSecondChart: one column a second, errors stacked over the ok
// reads (one error still gets a cell), warmup seconds ░, on a ceiling
// that only grows: a quieter second is drawn lower, never rescaled.
func TestPerSecondChart(t *testing.T) {
	m := plainOf(120, Outline{Warmup: time.Second, Length: 9 * time.Second})
	ticks := []struct{ reads, errs int64 }{{40, 0}, {80, 0}, {120, 1}, {140, 21}, {150, 21}} // so far
	for i, tk := range ticks {
		s := second(i+1, 0, tk.reads, time.Millisecond)
		s.tick.Errors = tk.errs
		m = feed(m, s)
	}
	got := m.perSecondChart(40, 5) // a head and four rows of 10/s: 40/s on top
	want := []string{
		"reads/s · █ ok · ▒ errors · ░ warmup",
		"40.0/s ┤░█▒  ", // the third second: 40 reads, 1 an error
		"       ┤░██  ",
		"       ┤░██▒ ", // the fourth: 20 reads, all errors; the fifth: 10 ok
		"     0 ┤░██▒█",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("chart:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBinGroups: the histogram's lines run from the first bin with reads
// to the last, merged in aligned pairs (then fours) until they fit.
func TestBinGroups(t *testing.T) {
	var bins [stats.LiveBins]int64
	bins[31], bins[32], bins[35] = 5, 3, 1 // 10–12 ms, 12–15 ms, 25–30 ms
	if got := binGroups(bins, 10); len(got) != 5 || got[0].label() != "10.0ms–12.0ms" || got[4].n != 1 || got[2].n != 0 {
		t.Errorf("unmerged: %+v", got)
	}
	got := binGroups(bins, 3) // bins 30–31, 32–33, 34–35
	if len(got) != 3 || got[0].label() != "8.00ms–12.0ms" || got[0].n != 5 || got[1].n != 3 || got[2].label() != "20.0ms–30.0ms" {
		t.Errorf("pairs: %+v", got)
	}
	if got := binGroups([stats.LiveBins]int64{}, 3); got != nil {
		t.Errorf("no reads: %+v", got)
	}
}
