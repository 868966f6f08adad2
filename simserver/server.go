// Package simserver is readbench's simulated MCP resource server: a
// stateless server whose sim: URIs describe the resource they name
// (sim:///NAME?mime=image/png&size=1834208&delay=lognormal(12ms,40ms)), so
// any workload can be served without a corpus, over stdio or Streamable
// HTTP, in both protocol eras (2026-07-28 and the handshake-era versions).
//
// With OAuth (NewOAuth; readbench serve --oauth) it is also an
// OAuth-protected resource as the MCP authorization specification
// describes, with a small authorization server beside it that approves at
// once, so readbench's OAuth client can be tested, and authorization's
// cost measured, without a real identity provider.
//
// It shares nothing with the driver but the wire vocabulary of package
// protocol: the client that measures and the server that is measured meet
// only on the wire, as a real client and server do.
package simserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/internal/clock"
)

// Options shape the server as a whole; per-resource behaviour lives in the
// sim: URI.
type Options struct {
	// Name and Version are the serverInfo reported to clients; a result
	// records them, so compare can tell server versions apart. Defaults:
	// "readbench-simserver" and "dev".
	Name, Version string
	// Workers bounds the reads handled at once (their delay included); the
	// rest queue. 0 means unlimited. A bound gives capacity tests a real
	// knee: past Workers/mean-delay reads per second, latency climbs.
	Workers int
	// Stateful makes the HTTP handler issue an Mcp-Session-Id on a legacy
	// initialize, require it on later legacy requests (404 for an unknown
	// one) and end it on DELETE. 2026-07-28 requests never need one.
	Stateful bool
	// SSE makes the HTTP handler answer every request as a text/event-stream
	// instead of one JSON body (a read can also ask with sse=true).
	SSE bool
	// StallEvery and StallFor inject a server-wide hiccup: every StallEvery
	// since start, for StallFor, no read completes (a GC pause, a failover).
	StallEvery, StallFor time.Duration
	// CrashAfter makes the server crash after answering that many reads:
	// ServeStdio returns ErrCrashed (the process then exits) and the HTTP
	// handler aborts every connection from then on. 0 never crashes.
	CrashAfter int
	// WedgeAfter wedges the server's event loop after that many messages
	// (of any kind): a stdio connection never reads its input again,
	// though the process stays alive and the requests already read are
	// answered; an HTTP request waits, unanswered, until the client goes.
	// 0 never wedges.
	WedgeAfter int
	// CatalogSize is the number of resources resources/list returns
	// (default 100); PageSize the page size of its cursor pagination
	// (default 50).
	CatalogSize, PageSize int
	// CacheBytes bounds the cache of encoded answers (default 32 MiB;
	// negative disables it). Small on purpose: a miss costs well under a
	// millisecond even for a 1.8 MB PNG, while a large cache filling up
	// would look, in readbench's own server-cost report, like a leak.
	CacheBytes int64
	// DelayScale multiplies every read's sampled delay (0 means 1): the
	// same workload against a server made 30% slower (1.3), for compare's
	// tests and demos.
	DelayScale float64
	// AlterContent, when set, makes reads of URIs containing it return
	// other bytes of the same size and MIME type: a server version that
	// silently changed a document, for compare's content check.
	AlterContent string
	// MaxMessage, when above 0, caps the encoded size (bytes) of a read's
	// answer, the way SDKs with a message limit fail: an answer that would
	// exceed it is replaced by a JSON-RPC error -32603 naming the cap and
	// the size, so a size sweep has a server's message cap to find.
	MaxMessage int64
	// TraceLog, when set, receives one JSON line per read: its URI and
	// the trace context it carried by each route (traces.go; readbench
	// serve --trace-log). It is written from a goroutine of the server's,
	// which Close stops; a line the writer lags too far behind for is
	// dropped (Stats.Traces.LogDropped), never waited for.
	TraceLog io.Writer
	// Changes, when above 0, changes resources on their own at that many
	// per second: the URIs someone follows, round-robin in sorted order
	// (changes.go; readbench serve --changes RATE). Close stops it.
	Changes float64
	// KeepAlive spaces the SSE comments sent on an idle listen or session
	// stream (0: 15 s; negative: none).
	KeepAlive time.Duration
	// SubscriptionFault makes every listen and session stream misbehave
	// (subfaults.go; WireNone: none). wire=MODE on a followed URI does it
	// for the streams following that URI.
	SubscriptionFault Wire
	// MaxListeners, when above 0, bounds the open 2026-07-28 listen
	// streams; past it a listen is answered with -32603
	// protocol.SubscriptionLimitMessage (over HTTP with status 200).
	MaxListeners int
	// AckPerListener, when above 0, delays each 2026-07-28 listen's
	// acknowledgement by this much for every listen stream open (its own
	// included): a server whose fan-out state slows as listeners grow,
	// so that a listener search has an ack knee to find.
	AckPerListener time.Duration
	// DropStreamsAfter, when above 0, ends every HTTP listen and session
	// stream that long after it opened, without a result: a proxy cutting
	// long-lived streams, so that a client's re-listen can be tested.
	DropStreamsAfter time.Duration
	// EndlessHandshake makes the server hostile from its first answer:
	// initialize and server/discover are answered with a message that
	// never ends (endless.go; readbench serve --endless-handshake), so a
	// client's bound on what it keeps whole can be tested end to end.
	EndlessHandshake bool
	// Logf, when set, receives diagnostics (stderr for a stdio server, whose
	// stdout is the protocol).
	Logf func(format string, args ...any)
}

// ErrCrashed is returned by ServeStdio when Options.CrashAfter is reached.
var ErrCrashed = errors.New("simserver: crashed on purpose (crash-after reached, or wire=close)")

// Server is the simulated MCP resource server. One Server may serve any
// number of stdio connections and HTTP requests at once.
type Server struct {
	opts    Options
	gen     *generator
	cache   *answerCache
	workers chan struct{} // nil: unlimited
	start   time.Time
	meta    []byte // `"_meta":{serverInfo}` of every 2026-07-28 result

	crashOnce sync.Once
	crashed   chan struct{}
	sleeper   clock.Sleeper // precise delays without spinning; it learns this machine's timer lateness
	specs     specCache     // parsed sim: URIs, by URI

	sessMu       sync.Mutex
	sessions     map[string]string             // stateful HTTP: session id -> negotiated version
	httpInflight map[string]context.CancelFunc // stateful HTTP: session+id -> cancel

	srvReqs atomic.Int64             // requests sent to clients (wire=ping, wire=sampling)
	waitMu  sync.Mutex               // guards waiting
	waiting map[string]chan struct{} // their raw ids -> closed at the client's reply

	stats  counters
	traces traceCounters
	tlog   *traceLog // nil without Options.TraceLog

	hub      *hub                   // who listens to what (hub.go)
	revs     revisions              // the documents' revisions (changes.go)
	sessSubs map[string]*subscriber // stateful HTTP: session id -> its subscriber; guarded by sessMu

	closing   chan struct{} // closed by Close: every stream ends
	closeOnce sync.Once
	closeErr  error
	stopBG    context.CancelFunc // stops the server's own goroutines (Options.Changes)
	bg        sync.WaitGroup     // ... which Close waits for
}

type counters struct {
	reads, answered, cancelled, late, inFlight atomic.Int64
	requests                                   atomic.Int64 // every request, for WedgeAfter
	changes                                    atomic.Int64 // resources changed (changes.go)
	bytes                                      atomic.Int64 // of the read answers sent
	codesMu                                    sync.Mutex
	codes                                      map[int]int64 // read answers sent, by error code (0: a result)
}

// Stats counts reads, for tests and for readbench serve's summary.
type Stats struct {
	Reads     int64 // resources/read requests received
	Answered  int64 // reads answered (contents or error)
	Cancelled int64 // reads whose request was cancelled before the answer
	Late      int64 // cancelled reads answered anyway (honor_cancel=false)
	InFlight  int64 // reads being handled now
	// Codes counts the read answers sent by their JSON-RPC error code, 0
	// for a result: what readbench serve --metrics exports by outcome.
	Codes map[int]int64
	Bytes int64 // bytes of the read answers sent (their JSON-RPC messages)
	// Traces counts the trace context the reads carried (traces.go).
	Traces TraceStats
	// Subscriptions counts listeners, changes and notifications.
	Subscriptions SubscriptionStats
}

// New returns a server with the given options, defaults filled in.
func New(o Options) *Server {
	if o.Name == "" {
		o.Name = "readbench-simserver"
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.CatalogSize <= 0 {
		o.CatalogSize = 100
	}
	if o.PageSize <= 0 {
		o.PageSize = 50
	}
	if o.CacheBytes == 0 {
		o.CacheBytes = 32 << 20
	}
	s := &Server{
		opts:     o,
		gen:      newGenerator().altering(o.AlterContent),
		cache:    newAnswerCache(max(o.CacheBytes, 0)),
		start:    time.Now(),
		crashed:  make(chan struct{}),
		sessions: map[string]string{},

		httpInflight: map[string]context.CancelFunc{},
		waiting:      map[string]chan struct{}{},
		hub:          newHub(),
		sessSubs:     map[string]*subscriber{},
		closing:      make(chan struct{}),
		stopBG:       func() {},
	}
	if o.Workers > 0 {
		s.workers = make(chan struct{}, o.Workers)
	}
	s.meta = s.serverInfoMeta()
	if o.TraceLog != nil {
		s.tlog = startTraceLog(o.TraceLog, s.logf)
	}
	if o.Changes > 0 {
		ctx, cancel := context.WithCancel(context.Background())
		s.stopBG = cancel
		s.bg.Add(1)
		go func() {
			defer s.bg.Done()
			s.runChanges(ctx, o.Changes)
		}()
	}
	return s
}

// Stats returns the read counters.
func (s *Server) Stats() Stats {
	return Stats{
		Reads:     s.stats.reads.Load(),
		Answered:  s.stats.answered.Load(),
		Cancelled: s.stats.cancelled.Load(),
		Late:      s.stats.late.Load(),
		InFlight:  s.stats.inFlight.Load(),
		Codes:     s.stats.codeCounts(),
		Bytes:     s.stats.bytes.Load(),
		Traces:    s.traceStats(),

		Subscriptions: s.subscriptionStats(),
	}
}

func (s *Server) subscriptionStats() SubscriptionStats {
	st := s.hub.stats()
	st.Changes = s.stats.changes.Load()
	return st
}

// codeCounts copies the answers by code.
func (c *counters) codeCounts() map[int]int64 {
	c.codesMu.Lock()
	defer c.codesMu.Unlock()
	out := make(map[int]int64, len(c.codes))
	for k, v := range c.codes {
		out[k] = v
	}
	return out
}

// Crashed is closed when Options.CrashAfter is reached, so that whoever
// runs the HTTP handler can stop its server and exit with an error.
func (s *Server) Crashed() <-chan struct{} { return s.crashed }

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// answered records a read answer sent (its code and size) and crashes
// the server when CrashAfter answers have gone out.
func (s *Server) answered(a *answer) {
	if a.late {
		s.stats.late.Add(1)
	}
	s.stats.bytes.Add(int64(a.size()))
	s.stats.codesMu.Lock()
	if s.stats.codes == nil {
		s.stats.codes = map[int]int64{}
	}
	s.stats.codes[a.code]++
	s.stats.codesMu.Unlock()
	n := s.stats.answered.Add(1)
	if s.opts.CrashAfter > 0 && n >= int64(s.opts.CrashAfter) {
		s.crash(fmt.Sprintf("crashing after %d reads", n))
	}
}

// isCrashed reports whether CrashAfter was reached.
func (s *Server) isCrashed() bool {
	select {
	case <-s.crashed:
		return true
	default:
		return false
	}
}

// sleep waits for d, or until ctx is done or the server crashes; it reports
// whether the whole wait elapsed.
func (s *Server) sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	// Precise: a simulated 20 ms must be 20 ms, not 20 ms plus a timer's
	// lateness; the server's one Sleeper learns that lateness over its
	// reads and sleeps it away instead of spinning.
	return s.sleeper.SleepUntil(time.Now().Add(d), ctx.Done(), s.crashed)
}

// stallLeft is how long a read arriving now must wait for the current
// server-wide stall to end: stalls start at every multiple of StallEvery
// after start and last StallFor.
func (s *Server) stallLeft(now time.Time) time.Duration {
	every, dur := s.opts.StallEvery, s.opts.StallFor
	if every <= 0 || dur <= 0 {
		return 0
	}
	e := now.Sub(s.start)
	if e < every {
		return 0
	}
	if into := e % every; into < dur {
		return dur - into
	}
	return 0
}
