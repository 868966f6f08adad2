package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestTableTimelineAndAdvice: the table shows the stalled second, the
// second where fewer turns were achieved than asked, the recommended pair
// and the warmup of a run recorded second by second (results'
// TestBuildTimelineAndAdvice checks the figures of the same document).
func TestTableTimelineAndAdvice(t *testing.T) {
	r := document(t, "timeline.json")
	var buf bytes.Buffer
	if err := WriteTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(buf.String()), " ") // the note wraps at 100 columns
	for _, want := range []string{"worst read p99 900ms in second 7", "achieved below asked in 1 second (second 7)",
		"recommend turn deadline 2.00s, read timeout 100s", "(2 warmup)"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestTimelineNote(t *testing.T) {
	for _, c := range []struct {
		name string // what the case proves
		tl   []results.Second
		want string
	}{
		{"an empty timeline says so", nil, "no per-second timeline in this result"},
		{"a steady run says achieved = asked",
			[]results.Second{{T: 0, Warmup: true, Asked: 5, Achieved: 5, Reads: 20, P99Ms: 12}, {T: 1, Asked: 5, Achieved: 5, Reads: 20, P99Ms: 30}},
			"2 s (1 warmup); worst read p99 30.0ms in second 1; achieved = asked every second"},
		{"a long list of behind seconds is cut at six", func() []results.Second {
			var tl []results.Second
			for i := range 9 {
				tl = append(tl, results.Second{T: i, Asked: 5, Achieved: 4})
			}
			return tl
		}(), "9 s (0 warmup); achieved below asked in 9 seconds (seconds 0, 1, 2, 3, 4, 5, ...)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := timelineNote(c.tl); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
