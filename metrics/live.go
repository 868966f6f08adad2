package metrics

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/readbench/readbench/stats"
)

// LiveOptions are a command's --metrics settings (docs/metrics.md).
type LiveOptions struct {
	// Specs say where the series go: "prometheus-rw=URL" pushes to a
	// remote-write receiver, "listen=ADDR" serves them for scraping.
	Specs    []string
	Interval time.Duration // between pushes, and each push's limit
	Buckets  string        // the latency histograms' classic buckets (ParseBuckets; "": the default)
	Native   bool          // send native histograms too
	// Linger keeps a scrape endpoint open after the command until one
	// more scrape, at most this long, so the scraper has the final counts.
	Linger time.Duration
	// Headers ("Name: value", one a line) and BasicAuth ("user:password")
	// go with every push; they are never printed.
	Headers, BasicAuth string
	// RunID labels every series of the command's runs ("": NewRunID of
	// Start, so shards started together at one instant share it).
	RunID string
	Start time.Time
}

// Live is a command's live metrics from its first run to its end: the
// series, and where they go. Every run of the command feeds it (Hooks),
// each labelled with its part; Close delivers the final counts. A nil
// *Live is a command without --metrics: every method does nothing.
type Live struct {
	reg     *Registry
	runID   string
	pushers []*Pusher
	servers []*Server
	linger  time.Duration
	// undelivered counts the samples the closed pushers dropped: the
	// result's metrics.undelivered_samples.
	undelivered int64
}

// StartLive starts what o asks for: nil when it asks for nothing. An error
// is a bad setting, or an address that cannot be listened on.
func StartLive(o LiveOptions) (*Live, error) {
	if len(o.Specs) == 0 {
		return nil, nil
	}
	ro := Options{Native: o.Native}
	if o.Buckets != "" {
		var err error
		if ro.Buckets, err = ParseBuckets(o.Buckets); err != nil {
			return nil, err
		}
	}
	headers, err := ParseHeaders(o.Headers)
	if err != nil {
		return nil, err
	}
	m := &Live{reg: New(ro), runID: o.RunID, linger: o.Linger}
	if m.runID == "" {
		m.runID = NewRunID(o.Start)
	}
	for _, spec := range o.Specs {
		kind, value, _ := strings.Cut(spec, "=")
		switch {
		case kind == "prometheus-rw" && value != "":
			p, err := StartPush(m.reg, PushOptions{URL: value, Interval: o.Interval, Headers: headers, BasicAuth: o.BasicAuth, Native: o.Native})
			if err != nil {
				m.Close(io.Discard)
				return nil, err
			}
			m.pushers = append(m.pushers, p)
		case kind == "listen" && value != "":
			s, err := Listen(m.reg, value)
			if err != nil {
				m.Close(io.Discard)
				return nil, err
			}
			m.servers = append(m.servers, s)
		default:
			m.Close(io.Discard)
			return nil, fmt.Errorf("--metrics %q: want prometheus-rw=URL or listen=ADDR", spec)
		}
	}
	return m, nil
}

// Hooks are what one run of the command hands its driver: the observers
// of its two phases, once the run is ready (its labels: part tells the
// runs of one command apart, its Step, or Side and Round; zero for
// readbench run), and its progress, which sets the in-flight gauge before
// going on to next. Nil hooks on a nil Live: next is then the progress.
func (m *Live) Hooks(part RunLabels, next func(stats.Progress)) (observe func(stats.Ready) (warmup, measured stats.Observer), progress func(stats.Progress)) {
	if m == nil {
		return nil, next
	}
	run := part
	run.ID = m.runID
	return m.reg.Observer(run), m.reg.Progress(part.Side, next)
}

// Subscriptions publishes what the listeners of side's run recorded
// ("" outside ab) on its series, once the run ended and before its final
// push (Registry.Subscriptions: a run's driver.Options.Listened, which
// runner wires); nothing on a nil Live.
func (m *Live) Subscriptions(side string, l *stats.Listening) {
	if m != nil {
		m.reg.Subscriptions(side, l)
	}
}

// Ended pushes the counts of one of the command's runs as they ended,
// before the next run replaces them (a scrape endpoint has them until
// then).
func (m *Live) Ended() {
	if m == nil {
		return
	}
	for _, p := range m.pushers {
		p.Push()
	}
}

// Close pushes the final counts, keeps the scrape endpoints for their
// final scrape (Linger) and says on w what was not delivered. It is safe
// to call twice.
func (m *Live) Close(w io.Writer) {
	if m == nil {
		return
	}
	m.reg.Idle()
	for _, p := range m.pushers {
		sum := p.Close(10 * time.Second)
		m.undelivered += sum.Dropped
		if s := sum.String(); s != "" {
			fmt.Fprintf(w, "readbench: %s\n", s)
		}
	}
	for _, s := range m.servers {
		s.Close(m.linger)
	}
	m.pushers, m.servers = nil, nil
}

// Undelivered is how many samples the pushers dropped, once closed: the
// result's metrics.undelivered_samples.
func (m *Live) Undelivered() int64 {
	if m == nil {
		return 0
	}
	return m.undelivered
}
