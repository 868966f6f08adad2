package metrics

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/promtest"
	"github.com/readbench/readbench/stats"
)

// A real Prometheus gets a run's subscription series both ways readbench
// hands them over, remote write (the summaries converted to their
// quantile, _sum and _count series) and a scrape of the listen endpoint,
// and a query returns the accounting's counts and the notification p99.
func TestSubscriptionSeriesInPrometheus(t *testing.T) {
	scraped := New(Options{})
	srv, err := Listen(scraped, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close(0)
	prom := promtest.Start(t, promtest.Options{Scrape: srv.Addr()})
	l := listening(true, 2)
	p99 := l.Freshness.Notify.Quantile(99).Seconds()
	for _, tc := range []struct {
		name string
		reg  *Registry
		send func(t *testing.T, r *Registry)
	}{
		{"remote write", New(Options{}), func(t *testing.T, r *Registry) {
			p, err := StartPush(r, PushOptions{URL: prom + "/api/v1/write", Interval: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if sum := p.Close(10 * time.Second); sum.Dropped != 0 || sum.Sent == 0 {
				t.Fatalf("push: %+v", sum)
			}
		}},
		{"scrape", scraped, func(*testing.T, *Registry) {}}, // Prometheus scrapes it every second
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := "subs-" + strconv.Itoa(len(tc.name))
			tc.reg.Start(RunLabels{ID: run}, []stats.ClassInfo{{Name: "a"}}, 1)
			tc.reg.Subscriptions("", l)
			tc.send(t, tc.reg)
			sel := `{run_id="` + run + `"`
			for _, q := range []struct {
				query string
				want  float64
			}{
				{`readbench_notifications_total` + sel + `,kind="missed"}`, 1},
				{`readbench_notifications_total` + sel + `,kind="expected"}`, 8},
				{`readbench_notification_violations_total` + sel + `,violation="wrong_subscription_id"}`, 2},
				{`readbench_subscriptions` + sel + `,state="opened"}`, 2},
				{`readbench_notification_latency_seconds` + sel + `,quantile="0.99"}`, p99},
				{`readbench_notification_latency_seconds_count` + sel + `}`, float64(l.Freshness.Notify.Count())},
			} {
				got, ok := 0.0, false
				for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(250 * time.Millisecond) {
					if got, ok = instant(t, prom, q.query); ok || time.Now().After(deadline) {
						break
					}
				}
				if !ok || got != q.want {
					t.Errorf("%s = %v (found %v), want %v", q.query, got, ok, q.want)
				}
			}
		})
	}
}

// instant is the value of query's one series now, false when there is
// none.
func instant(t *testing.T, prom, query string) (float64, bool) {
	t.Helper()
	var data struct {
		Result []struct {
			Value [2]any `json:"value"`
		} `json:"result"`
	}
	if err := promtest.Get(prom, "/api/v1/query", url.Values{"query": {query}}, &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Result) != 1 {
		return 0, false
	}
	s, _ := data.Result[0].Value[1].(string)
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}
