package metrics

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/exp/api/remote"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/prometheus/prompb"
	"github.com/readbench/readbench/targets"
)

// PushOptions configure remote write.
type PushOptions struct {
	URL      string        // the receiver, e.g. http://127.0.0.1:9090/api/v1/write
	Interval time.Duration // between pushes (0: 5 s); also each push's time limit, retries included
	// Headers are sent on every push (READBENCH_METRICS_HEADERS), and
	// BasicAuth, "user:password", as its Authorization
	// (READBENCH_METRICS_BASIC_AUTH). Neither is ever printed.
	Headers   map[string]string
	BasicAuth string
	// Native sends native histograms too; a receiver that rejects a push
	// holding them gets the same push again without them, and no native
	// histograms from then on.
	Native bool
}

// queueLen bounds the pushes waiting to be sent: a slow endpoint drops
// the oldest (their samples counted), never holds memory or the run.
const queueLen = 4

// Pusher sends a Registry's series by remote write from goroutines of its
// own: every Interval, and once more when it is closed.
type Pusher struct {
	gather  func() ([]*dto.MetricFamily, error)
	api     *remote.API
	url     string // redacted, for messages
	every   time.Duration
	native  atomic.Bool
	queue   chan *prompb.WriteRequest
	stop    chan struct{}
	ctx     context.Context
	cancel  context.CancelFunc
	tick    sync.WaitGroup // the gathering goroutine
	send    sync.WaitGroup // the sending goroutine
	sent    atomic.Int64   // samples delivered
	dropped atomic.Int64   // samples not delivered
	secrets []string       // what the receiver was sent that must never be printed
	mu      sync.Mutex
	lastErr error
}

// PushSummary is what a Pusher did: said at the end of a run.
type PushSummary struct {
	URL           string // redacted
	Sent, Dropped int64  // samples
	LastErr       error  // why the last dropped push failed
}

// StartPush starts pushing r's series to o.URL.
func StartPush(r *Registry, o PushOptions) (*Pusher, error) {
	if o.Interval <= 0 {
		o.Interval = 5 * time.Second
	}
	client := &http.Client{Timeout: o.Interval, Transport: authTransport{base: http.DefaultTransport, headers: o.Headers, basic: o.BasicAuth}}
	api, err := remote.NewAPI(o.URL, remote.WithAPIPath(""), remote.WithAPIHTTPClient(client),
		remote.WithAPIBackoff(remote.BackoffConfig{Min: 100 * time.Millisecond, Max: o.Interval / 4, MaxRetries: 2}))
	if err != nil {
		return nil, fmt.Errorf("--metrics prometheus-rw=%s: %w", targets.RedactSecrets(o.URL), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pusher{
		gather: r.Gather, api: api, url: targets.RedactSecrets(o.URL), every: o.Interval,
		queue: make(chan *prompb.WriteRequest, queueLen), stop: make(chan struct{}), ctx: ctx, cancel: cancel,
	}
	p.secrets = secretsOf(o)
	p.native.Store(o.Native)
	p.tick.Add(1)
	go p.ticker()
	p.send.Add(1)
	go p.sender()
	return p, nil
}

// ticker gathers and queues a push every interval until stop.
func (p *Pusher) ticker() {
	defer p.tick.Done()
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.enqueue()
		}
	}
}

// Push gathers the series now and queues them, as every interval does: a
// command that makes several runs calls it at the end of each, before the
// next run's Start replaces the series, so that each run's final counts
// are sent.
func (p *Pusher) Push() { p.enqueue() }

// enqueue gathers the series now and queues them; a full queue loses its
// oldest push, whose samples are counted as dropped.
func (p *Pusher) enqueue() {
	families, err := p.gather()
	if err != nil || len(families) == 0 {
		return
	}
	req := toWrite(families, time.Now().UnixMilli(), p.native.Load())
	for {
		select {
		case p.queue <- req:
			return
		default:
		}
		select {
		case old := <-p.queue:
			p.drop(old, errors.New("the endpoint is slower than the push interval"))
		default:
		}
	}
}

// sender sends queued pushes one at a time until the queue is closed.
func (p *Pusher) sender() {
	defer p.send.Done()
	for req := range p.queue {
		if p.ctx.Err() != nil {
			p.drop(req, context.Cause(p.ctx))
			continue
		}
		p.write(req)
	}
}

// write sends one push within the interval, bounded retries included.
func (p *Pusher) write(req *prompb.WriteRequest) {
	ctx, cancel := context.WithTimeout(p.ctx, p.every)
	defer cancel()
	_, err := p.api.Write(ctx, remote.WriteV1MessageType, req)
	if err != nil && hasNative(req) {
		// A receiver without native histograms refuses the whole push (a 400,
		// or a 500 from a Prometheus without the feature):
		// send it again without them, and none from now on.
		p.native.Store(false)
		req = withoutNative(req)
		_, err = p.api.Write(ctx, remote.WriteV1MessageType, req)
	}
	if err != nil {
		p.drop(req, err)
		return
	}
	p.sent.Add(int64(len(req.Timeseries)))
}

func (p *Pusher) drop(req *prompb.WriteRequest, err error) {
	p.dropped.Add(int64(len(req.Timeseries)))
	p.mu.Lock()
	p.lastErr = errors.New(redact(err.Error(), p.secrets))
	p.mu.Unlock()
}

// secretsOf lists the credentials a push carries, in every form they
// travel in: a receiver's error may echo them back, and its message is
// printed at the end of the run.
func secretsOf(o PushOptions) []string {
	var out []string
	for _, v := range o.Headers {
		out = append(out, v)
	}
	if o.BasicAuth != "" {
		out = append(out, o.BasicAuth, base64.StdEncoding.EncodeToString([]byte(o.BasicAuth)))
		if _, pass, ok := strings.Cut(o.BasicAuth, ":"); ok {
			out = append(out, pass)
		}
	}
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}

// redact replaces every secret in s.
func redact(s string, secrets []string) string {
	for _, v := range secrets {
		s = strings.ReplaceAll(s, v, "[redacted]")
	}
	return s
}

// Close pushes the series once more, waits up to grace for the queue to
// be sent (what is left then is dropped) and says what was delivered.
func (p *Pusher) Close(grace time.Duration) PushSummary {
	close(p.stop)
	p.tick.Wait()
	p.enqueue()
	close(p.queue)
	done := make(chan struct{})
	go func() { p.send.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		p.cancel()
		<-done
	}
	p.cancel()
	p.mu.Lock()
	defer p.mu.Unlock()
	return PushSummary{URL: p.url, Sent: p.sent.Load(), Dropped: p.dropped.Load(), LastErr: p.lastErr}
}

// String is the end-of-run sentence, or "" when every sample arrived.
func (s PushSummary) String() string {
	if s.Dropped == 0 {
		return ""
	}
	why := ""
	if s.LastErr != nil {
		why = ": " + targets.RedactSecrets(s.LastErr.Error())
	}
	return fmt.Sprintf("metrics: %d of %d samples not delivered to %s%s", s.Dropped, s.Dropped+s.Sent, s.URL, why)
}

func hasNative(req *prompb.WriteRequest) bool {
	for _, ts := range req.Timeseries {
		if len(ts.Histograms) > 0 {
			return true
		}
	}
	return false
}

func withoutNative(req *prompb.WriteRequest) *prompb.WriteRequest {
	out := &prompb.WriteRequest{Timeseries: make([]prompb.TimeSeries, 0, len(req.Timeseries))}
	for _, ts := range req.Timeseries {
		if len(ts.Histograms) == 0 {
			out.Timeseries = append(out.Timeseries, ts)
		}
	}
	return out
}

// authTransport adds the configured headers and basic auth to every
// push.
type authTransport struct {
	base    http.RoundTripper
	headers map[string]string
	basic   string
}

func (t authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 || t.basic != "" {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
		if user, pass, ok := strings.Cut(t.basic, ":"); ok {
			req.SetBasicAuth(user, pass)
		}
	}
	return t.base.RoundTrip(req)
}
