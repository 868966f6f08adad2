package runner

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// TestThresholdsNeedListeners: a command line's bound on the freshness
// loop is refused before a run without listeners (bad input, wrapping
// bounds.ErrUnknown), and accepted with them.
func TestThresholdsNeedListeners(t *testing.T) {
	more, err := bounds.ParseThresholds("errors<1%,ack.p99<1s")
	if err != nil {
		t.Fatal(err)
	}
	w := jobWorkload(t, true)
	if _, err := Thresholds(w, more); !errors.Is(err, bounds.ErrUnknown) || !strings.Contains(err.Error(), "ack.p99: unknown for this run") {
		t.Errorf("without listeners: %v, want ack.p99 refused", err)
	}
	w.Listen = &workload.Listen{Listeners: 1}
	if ts, err := Thresholds(w, more); err != nil || len(ts) != 2 {
		t.Errorf("with listeners: %v %v", ts, err)
	}
}

// TestListenedBeforeFinished: a job hands what its listeners recorded to
// Listened before Finished (the live metrics publish it before their
// final push), and a run without listeners calls it not at all.
func TestListenedBeforeFinished(t *testing.T) {
	for _, with := range []bool{true, false} {
		fine := situation{o: stats.OK, latency: 5 * time.Millisecond}
		listened := stats.NewListening()
		drive := func(ctx context.Context, o driver.Options) (*driver.Measurements, error) {
			m, err := fine.measured(ctx, o)
			if with {
				m.Meta.Listening = listened
			}
			return m, err
		}
		var order []string
		job := Job{Tool: results.Tool{Name: "readbench", Version: "test"}, drive: drive, Save: Place{Dir: t.TempDir()},
			Listened: func(l *stats.Listening) {
				if l != listened {
					t.Errorf("Listened got %p, want the run's %p", l, listened)
				}
				order = append(order, "listened")
			},
			Finished: func() *results.LiveMetrics { order = append(order, "finished"); return nil }}
		var err error
		if job.Options, err = job.Options.For(jobWorkload(t, true), driver.Overrides{}); err != nil {
			t.Fatal(err)
		}
		if _, err := job.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		want := "finished"
		if with {
			want = "listened finished"
		}
		if got := strings.Join(order, " "); got != want {
			t.Errorf("listeners %v: calls %q, want %q", with, got, want)
		}
	}
}
