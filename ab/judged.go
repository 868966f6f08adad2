package ab

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
)

// The figures a bound is judged on (docs/compare.md, "ab: a busy
// runner"). Latency from the intended start (read.*, read_ok.*, turn.*)
// holds the generator's scheduling lag: on a runner whose every core is
// contended the lag is a material share of a fast server's reads, and a
// round excluded for it is a round the verdict never gets, though both
// sides of the round suffer the same jitter. So when the lag at a bound's
// percentile is over Policy.MaxLagShare of read latency there in a kept
// run, a bound on read or read_ok latency is judged on service time at
// the same percentile (from the actual send: the lag is not in it), and
// a bound on a figure with no send-timed counterpart (turn, first_read, a
// class's or a turn size's reads) is not judged: inconclusive, saying why.

// judging is how one bound is judged.
type judging struct {
	bound bounds.Bound // the bound as checked: its metric replaced when judged on service time
	on    string       // the metric judged instead of the bound's, "" when its own
	skip  string       // why the bound cannot be judged; "" when it can
}

// lagged are the latency blocks timed from the intended start.
var lagged = map[string]bool{"read": true, "read_ok": true, "turn": true, "first_read": true}

// judgings are the bounds bs as the kept runs let them be judged.
func (o *Experiment) judgings(bs []bounds.Bound, p Policy) []judging {
	out := make([]judging, 0, len(bs))
	for _, b := range bs {
		j := judging{bound: b}
		block, stat, _ := strings.Cut(b.Metric.Key, ".")
		if !lagged[block] {
			out = append(out, j)
			continue
		}
		share, where := o.worstLag(stat)
		if share <= p.MaxLagShare {
			out = append(out, j)
			continue
		}
		why := fmt.Sprintf("the scheduling lag %s reached %.0f%% of read %s (%s; over %.3g%%: the machine, not the server)",
			stat, 100*share, stat, where, 100*p.MaxLagShare)
		if (block == "read" || block == "read_ok") && b.Metric.Class == "" && b.Metric.Attachments == 0 {
			if m, err := bounds.ParseMetric("service." + stat); err == nil {
				j.bound.Metric, j.on = m, m.Name
				out = append(out, j)
				continue
			}
		}
		j.skip = "cannot be judged: " + why + ", and " + b.Metric.Name + " has no counterpart timed from the send"
		out = append(out, j)
	}
	return out
}

// worstLag is the largest lag share at stat over the kept runs, and the
// run it was in.
func (o *Experiment) worstLag(stat string) (share float64, where string) {
	for _, side := range [][]compare.Labelled{o.Base, o.New} {
		for _, r := range side {
			if s := LagShare(r.Result, stat); s > share {
				share, where = s, filepath.Base(r.Label)
			}
		}
	}
	return share, where
}

// judgedNote is the note of a bound judged on service time.
func judgedNote(j judging, o *Experiment, p Policy) string {
	_, stat, _ := strings.Cut(j.on, ".")
	share, where := o.worstLag(stat)
	return fmt.Sprintf("%s judged on %s: the scheduling lag %s reached %.0f%% of read %s (%s; over %.3g%%), and service time (from the actual send) leaves the lag out",
		j.bound.Text, j.on, stat, 100*share, stat, where, 100*p.MaxLagShare)
}
