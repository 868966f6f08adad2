package driver

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// optionsWorkload is a workload with a staged load, two classes, a header
// and an allowed host: every part an override changes.
func optionsWorkload(t *testing.T) *workload.Workload {
	t.Helper()
	w, err := yamlfile.Parse("options.yaml", []byte(`
name: options
load:
  stages: [{rate: 10/s, for: 10s}, {rate: 100/s, for: 30s, ramp: true}]
turn: {attachments: 1, read_timeout: 5s, deadline: 10s}
sessions: 4
headers: {X-Team: reads}
allow_hosts: [staging.example.com]
mix:
  - {class: md, uri: "docs://onboarding/engineering", weight: 1}
  - {class: png, uri: "docs://logo", weight: 1}
`))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func ptr[T any](v T) *T { return &v }

// TestOverridesApply: each override replaces what the file says, and
// only that; one given on the command line is the whole of its part of
// the schedule.
func TestOverridesApply(t *testing.T) {
	for _, c := range []struct {
		name  string
		o     Overrides
		check func(t *testing.T, w *workload.Workload)
		err   string // a substring of the error, "" for none
	}{
		{"nothing given changes nothing", Overrides{}, func(t *testing.T, w *workload.Workload) {
			if len(w.Load.Stages) != 2 || w.Sessions != 4 || len(w.Mix) != 2 || w.Target.String() != "embedded" {
				t.Errorf("the workload changed: %+v", w)
			}
		}, ""},
		{"a rate and a duration replace the stages and turns", Overrides{Rate: &units.Rate{PerSecond: 5, Text: "5/s"}, Duration: ptr(3 * time.Second)}, func(t *testing.T, w *workload.Workload) {
			if w.Load.Rate.PerSecond != 5 || w.Load.Duration != 3*time.Second || w.Load.Turns != 0 || w.Load.Stages != nil {
				t.Errorf("rate %v, duration %v, turns %d, stages %v: want 5/s for 3s alone", w.Load.Rate, w.Load.Duration, w.Load.Turns, w.Load.Stages)
			}
		}, ""},
		{"a rate alone drops the stages, and with them the run's end", Overrides{Rate: &units.Rate{PerSecond: 5, Text: "5/s"}}, nil, "nothing ends the run"},
		{"a warmup replaces load.warmup", Overrides{Warmup: ptr(3 * time.Second)}, func(t *testing.T, w *workload.Workload) {
			if w.Load.Warmup != 3*time.Second || len(w.Load.Stages) != 2 {
				t.Errorf("warmup %v, stages %v: want a 3s warmup and the stages kept", w.Load.Warmup, w.Load.Stages)
			}
		}, ""},
		{"concurrency with a rate caps the open model's turns in flight", Overrides{Concurrency: ptr(7), Rate: &units.Rate{PerSecond: 5, Text: "5/s"}, Duration: ptr(time.Second)}, func(t *testing.T, w *workload.Workload) {
			if w.Load.Model != workload.ModelOpen || w.Load.MaxInFlight != 7 || w.Load.Concurrency != 0 || w.Load.Rate.PerSecond != 5 {
				t.Errorf("model %q, max_in_flight %d, concurrency %d, rate %v: want open at 5/s, at most 7 in flight", w.Load.Model, w.Load.MaxInFlight, w.Load.Concurrency, w.Load.Rate)
			}
		}, ""},
		{"concurrency alone is the closed model: the rate and stages go", Overrides{Concurrency: ptr(3), Duration: ptr(time.Second)}, func(t *testing.T, w *workload.Workload) {
			if w.Load.Model != workload.ModelClosed || w.Load.Concurrency != 3 || w.Load.Rate.PerSecond != 0 || w.Load.Stages != nil {
				t.Errorf("model %q, concurrency %d, rate %v, stages %v: want closed, 3 in flight", w.Load.Model, w.Load.Concurrency, w.Load.Rate, w.Load.Stages)
			}
		}, ""},
		{"concurrency out of range is the workload's error", Overrides{Concurrency: ptr(0), Duration: ptr(time.Second)}, nil, "load.concurrency"},
		{"target, sessions and protocol", Overrides{Target: ptr(mustTarget(t, "http://127.0.0.1:9/mcp")), Sessions: ptr(2), Protocol: ptr("2025-11-25")}, func(t *testing.T, w *workload.Workload) {
			if w.Target.String() != "http://127.0.0.1:9/mcp" || w.Sessions != 2 || w.Protocol != "2025-11-25" {
				t.Errorf("target %s, sessions %d, protocol %q", w.Target, w.Sessions, w.Protocol)
			}
		}, ""},
		{"classes keep only those named", Overrides{Classes: []string{"png"}}, func(t *testing.T, w *workload.Workload) {
			if len(w.Mix) != 1 || w.Mix[0].Name != "png" {
				t.Errorf("mix %+v: want png alone", w.Mix)
			}
		}, ""},
		{"headers add to the workload's, replacing one of the same name", Overrides{Headers: map[string]string{"X-Team": "writes", "Authorization": "Bearer x"}}, func(t *testing.T, w *workload.Workload) {
			if w.Headers["X-Team"] != "writes" || w.Headers["Authorization"] != "Bearer x" || len(w.Headers) != 2 {
				t.Errorf("headers %v", w.Headers)
			}
		}, ""},
		{"hosts add to allow_hosts; insecure credentials come from the command line", Overrides{AllowHosts: []string{"prod.example.com"}, InsecureCredentials: true}, func(t *testing.T, w *workload.Workload) {
			if !slices.Equal(w.AllowHosts, []string{"staging.example.com", "prod.example.com"}) || !w.InsecureCredentials {
				t.Errorf("allow_hosts %v, insecure %v", w.AllowHosts, w.InsecureCredentials)
			}
		}, ""},
		{"max answer", Overrides{MaxAnswer: 1 << 30}, func(t *testing.T, w *workload.Workload) {
			if w.Turn.MaxAnswer != 1<<30 {
				t.Errorf("max answer %d", w.Turn.MaxAnswer)
			}
		}, ""},
		{"an unknown class is an error", Overrides{Classes: []string{"pgn"}}, nil, `--class "pgn"`},
		{"a workload the overrides make invalid is refused", Overrides{Sessions: ptr(0)}, nil, "sessions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := optionsWorkload(t)
			err := c.o.Apply(w)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("Apply = %v, want an error with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, w)
		})
	}
}

func mustTarget(t *testing.T, s string) targets.Target {
	t.Helper()
	tg, err := targets.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// TestOptionsFor: what the options say of the process reaches the run's
// options, the workload is a copy with the changes made (the caller's is
// untouched, so two runs of one workload share nothing a change wrote:
// ab's two sides), and a share the workload cannot be split into is
// refused before the run.
func TestOptionsFor(t *testing.T) {
	w := optionsWorkload(t)
	w.Headers = map[string]string{"X-Base": "1"}
	start := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	base := Options{
		EmbeddedCommand: []string{"/bin/readbench", "serve", "--stdio"},
		Client:          client.Implementation{Name: "readbench", Version: "9.9.9"},
		ServerPID:       42, Segment: workload.Segment{K: 1, N: 3}, StartAt: start,
	}
	o, err := base.For(w, Overrides{Sessions: ptr(3), Headers: map[string]string{"X-Side": "a"}, Classes: []string{"md"}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Workload == w || o.Workload.Sessions != 3 || w.Sessions == 3 {
		t.Errorf("options' workload %p (sessions %d), want a copy of %p (sessions %d) with sessions 3", o.Workload, o.Workload.Sessions, w, w.Sessions)
	}
	if len(w.Headers) != 1 || o.Workload.Headers["X-Side"] != "a" || o.Workload.Headers["X-Base"] != "1" {
		t.Errorf("headers: caller's %v, run's %v: want the caller's untouched and the run's with both", w.Headers, o.Workload.Headers)
	}
	other, err := base.For(w, Overrides{Headers: map[string]string{"X-Side": "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Workload.Headers["X-Side"] != "a" || other.Workload.Headers["X-Side"] != "b" {
		t.Errorf("two runs of one workload share their headers: %v and %v", o.Workload.Headers, other.Workload.Headers)
	}
	if len(o.Workload.Mix) != 1 || len(other.Workload.Mix) != len(w.Mix) || len(w.Mix) != 2 {
		t.Errorf("--class on one run took classes from another: %d classes, want %d", len(other.Workload.Mix), len(w.Mix))
	}
	if !slices.Equal(o.EmbeddedCommand, base.EmbeddedCommand) || o.Client != base.Client || o.ServerPID != 42 || o.Segment != base.Segment || !o.StartAt.Equal(start) {
		t.Errorf("options %+v do not carry the base's %+v", o, base)
	}
	if o.Progress != nil || o.Logf != nil || o.Stderr != nil {
		t.Error("For set how the run is shown: that is the caller's")
	}
	if a := o.Aim(); !slices.Equal(a.AllowHosts, []string{"staging.example.com"}) || a.InsecureCredentials {
		t.Errorf("Aim = %+v, want the workload's allow_hosts", a)
	}

	if _, err := (Options{Segment: workload.Segment{K: 1, N: 5}}).For(optionsWorkload(t), Overrides{}); err == nil || !strings.Contains(err.Error(), "sessions") {
		t.Errorf("4 sessions in 5 shares: err = %v, want a sessions error", err)
	}
	if _, err := (Options{}).For(nil, Overrides{}); err == nil {
		t.Error("For(nil) = nil error, want one")
	}
}
