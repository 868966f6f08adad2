package runner

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/metrics"
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

// TestJobDeliversMetrics: a job hands its run the live metrics'
// listeners' series (Options.Listened, which the driver calls once its
// listeners ended) and delivers the run's final counts as the driver
// returns: the one run of a command closes the metrics (the result's
// metrics key set, nothing pushed after), one of many pushes its counts
// and leaves them open for the next; without metrics the driver is handed
// no Listened and the result has no metrics key.
func TestJobDeliversMetrics(t *testing.T) {
	var pushes atomic.Int64
	rw := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pushes.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	for _, c := range []struct {
		name          string
		metrics, part bool
	}{{"no metrics", false, false}, {"one run", true, false}, {"one of many", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			var mx *metrics.Live
			if c.metrics {
				var err error
				if mx, err = StartMetrics(metrics.LiveOptions{Specs: []string{"prometheus-rw=" + rw.URL}, Interval: time.Hour}); err != nil {
					t.Fatal(err)
				}
				defer mx.Close(io.Discard)
			}
			fine := situation{o: stats.OK, latency: 5 * time.Millisecond}
			handed := false
			drive := func(ctx context.Context, o driver.Options) (*results.Result, error) {
				if handed = o.Listened != nil; handed {
					o.Listened(stats.NewListening())
				}
				if o.Observe != nil { // the run's series, to push
					o.Observe(stats.Ready{Workload: o.Workload.Name, Target: o.Workload.Target.String()})
				}
				return fine.measured(ctx, o)
			}
			job := Job{drive: drive, Save: Place{Dir: t.TempDir()}, Metrics: mx, Part: c.part}
			var err error
			if job.Options, err = job.Options.For(jobWorkload(t, true), driver.Overrides{}); err != nil {
				t.Fatal(err)
			}
			before := pushes.Load()
			done, err := job.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			pushedSince := func(n int64, wait time.Duration) bool { // pushes are sent by the pusher's own goroutine
				for end := time.Now().Add(wait); pushes.Load() == n && time.Now().Before(end); {
					time.Sleep(10 * time.Millisecond)
				}
				return pushes.Load() > n
			}
			if handed != c.metrics {
				t.Errorf("the driver was handed Listened: %v, want %v", handed, c.metrics)
			}
			if keyed := done.Result.Metrics != nil; keyed != (c.metrics && !c.part) {
				t.Errorf("the result's metrics key: %v, want %v", keyed, c.metrics && !c.part)
			}
			if c.metrics && !pushedSince(before, 10*time.Second) {
				t.Error("the run's final counts were not pushed")
			}
			if !c.metrics {
				return
			}
			before = pushes.Load()
			mx.Ended() // the next run's push: none once the job closed them
			if open := pushedSince(before, time.Second); open != c.part {
				t.Errorf("metrics still open after the job: %v, want %v", open, c.part)
			}
		})
	}
}
