package metrics

import (
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/promtest"
	"github.com/readbench/readbench/stats"
)

// A real Prometheus, exemplar storage on, gets the trace ids of traced
// reads both ways readbench hands it the series: by remote write and by
// scraping the listen endpoint (OpenMetrics); query_exemplars returns
// each one on the bucket its read fell in.
func TestMetricsExemplars(t *testing.T) {
	// One registry per route, told apart by run_id; the scrape endpoint
	// must be up before Prometheus reads its configuration.
	scraped := New(Options{})
	srv, err := Listen(scraped, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close(0)
	prom := promtest.Start(t, promtest.Options{Scrape: srv.Addr(), Features: []string{"exemplar-storage"}})
	from := time.Now().Add(-time.Minute)

	for _, tc := range []struct {
		name  string
		reg   *Registry
		send  func(t *testing.T, r *Registry) // hands the observed series to Prometheus
		first byte                            // the trace ids' first byte
	}{
		{"remote write", New(Options{}), func(t *testing.T, r *Registry) {
			p, err := StartPush(r, PushOptions{URL: prom + "/api/v1/write", Interval: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if sum := p.Close(10 * time.Second); sum.Dropped != 0 || sum.Sent == 0 {
				t.Fatalf("push: %+v", sum)
			}
		}, 0x10},
		{"scrape", scraped, func(*testing.T, *Registry) {}, 0x20}, // Prometheus scrapes it every second
	} {
		t.Run(tc.name, func(t *testing.T) {
			runID := fmt.Sprintf("exemplars-%x", tc.first)
			_, measured := tc.reg.Start(RunLabels{ID: runID}, []stats.ClassInfo{{Name: "a"}}, 0)
			want := map[string]string{} // trace id → le of its bucket
			for i, lat := range []time.Duration{3 * time.Millisecond, 30 * time.Millisecond, 300 * time.Millisecond} {
				tr := trace(tc.first + byte(i))
				measured.ObserveRead(stats.ReadSample{Class: 0, Outcome: stats.OK, Answered: true, Sent: true,
					Latency: lat, Service: lat / 2, Trace: tr, End: time.Now()})
				want[hexOf(tc.first+byte(i))] = formatLE(DefaultBuckets[bucketIndex(lat)])
			}
			measured.ObserveRead(stats.ReadSample{Class: 0, Outcome: stats.OK, Answered: true, Sent: true, Latency: 3 * time.Millisecond})
			tc.send(t, tc.reg)

			query := `readbench_read_latency_seconds_bucket{run_id="` + runID + `",phase="measured"}`
			var got map[string]string
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(250 * time.Millisecond) {
				got = queryExemplars(t, prom, query, from, time.Now().Add(time.Minute))
				if reflect.DeepEqual(got, want) || time.Now().After(deadline) {
					break
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("exemplars of %s: %v, want %v", query, got, want)
			}
		})
	}
}

// bucketIndex is the default bucket a latency falls in.
func bucketIndex(d time.Duration) int {
	for i, b := range DefaultBuckets {
		if d.Seconds() <= b {
			return i
		}
	}
	return len(DefaultBuckets)
}

// queryExemplars returns, for the exemplars Prometheus holds on query's
// series between start and end, each trace id's le.
func queryExemplars(t *testing.T, prom, query string, start, end time.Time) map[string]string {
	t.Helper()
	var data []struct {
		SeriesLabels map[string]string `json:"seriesLabels"`
		Exemplars    []struct {
			Labels map[string]string `json:"labels"`
		} `json:"exemplars"`
	}
	sec := func(at time.Time) string { return strconv.FormatFloat(float64(at.UnixMilli())/1e3, 'f', 3, 64) }
	q := url.Values{"query": {query}, "start": {sec(start)}, "end": {sec(end)}}
	if err := promtest.Get(prom, "/api/v1/query_exemplars", q, &data); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range data {
		for _, e := range s.Exemplars {
			out[e.Labels[ExemplarLabel]] = s.SeriesLabels["le"]
		}
	}
	return out
}
