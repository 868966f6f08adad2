package simserver

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/readbench/readbench/protocol"
)

// The server's side of W3C trace context (docs/measurement.md, trace
// context): every resources/read is checked for the traceparent it
// carried, in the HTTP headers (any HTTP POST) and in params._meta (every
// transport, stdio included), each parsed as a W3C receiver must
// (protocol.ParseTraceParent). The counts say whether a client, or a proxy
// between it and the server, delivers trace context intact by both
// routes; the trace log (Options.TraceLog) says which trace every read
// belonged to, so a test or a user can join readbench's slow reads with
// what the server saw.

// traceLogLines bounds the lines waiting for the trace log's writer: past
// it a line is dropped and counted (TraceStats.LogDropped), so that a
// slow disk never holds up a read. 8192 lines of about 300 bytes are a
// few MB at most.
const traceLogLines = 8192

// errManyTraceParents: W3C makes a request with more than one
// traceparent header invalid (a proxy that added its own, say).
var errManyTraceParents = errors.New("more than one traceparent header")

// headerTrace is the trace context of an HTTP request's headers, as the
// transport hands it to the read.
type headerTrace struct {
	parent string // the traceparent header, "" when absent
	state  string // the tracestate headers, joined by commas
	many   bool   // more than one traceparent header: invalid (W3C)
}

// headerTraceOf reads the trace context headers of r.
func headerTraceOf(h http.Header) headerTrace {
	parents := h.Values(protocol.HeaderTraceParent)
	if len(parents) == 0 {
		return headerTrace{}
	}
	return headerTrace{parent: parents[0], many: len(parents) > 1,
		state: strings.Join(h.Values(protocol.HeaderTraceState), ",")}
}

// TraceStats counts the trace context of the reads received.
type TraceStats struct {
	// Header and Meta count the reads that carried a valid traceparent
	// in the HTTP header and in params._meta (a read with both counts in
	// both).
	Header, Meta int64
	// Invalid counts the traceparent values that were present but not
	// valid (W3C): a header and a _meta value of one read count twice.
	Invalid int64
	// Mismatch counts the reads whose header and _meta both carried a
	// valid traceparent, but not the same one, or not the same tracestate.
	Mismatch int64
	// Logged and LogDropped count the trace log's lines queued and
	// dropped because its writer lagged behind (Options.TraceLog).
	Logged, LogDropped int64
}

type traceCounters struct {
	header, meta, invalid, mismatch atomic.Int64
}

// TraceLogLine is one line of serve --trace-log (docs/measurement.md,
// trace context), exported for the tests and tools that read the file:
// the read's URI, the trace context it is served in (the _meta's when
// valid, else the header's; "" when neither is valid) and the raw values
// of both routes.
type TraceLogLine struct {
	URI        string `json:"uri"`
	TraceID    string `json:"trace_id"`
	SpanID     string `json:"span_id"`
	Sampled    bool   `json:"sampled"`
	Header     string `json:"header"`
	Meta       string `json:"meta"`
	TraceState string `json:"tracestate"`
}

// observeTrace checks and counts the trace context of a read, and logs
// it when the server keeps a trace log.
func (s *Server) observeTrace(c *call) {
	var metaTP, metaTS string
	metaSet := false
	if m := c.p.Meta; m != nil {
		metaTP, metaSet = metaString(m.TraceParent)
		metaTS, _ = metaString(m.TraceState)
	}
	hdrSet := c.hdr.parent != "" || c.hdr.many
	if !metaSet && !hdrSet && s.tlog == nil {
		return // the usual read of an untraced run: nothing to parse
	}
	var hp, mp protocol.TraceParent
	var herr, merr error
	if hdrSet {
		if hp, herr = protocol.ParseTraceParent(c.hdr.parent); herr == nil && c.hdr.many {
			herr = errManyTraceParents
		}
		s.traces.countRoute(&s.traces.header, herr)
	}
	if metaSet {
		mp, merr = protocol.ParseTraceParent(metaTP)
		s.traces.countRoute(&s.traces.meta, merr)
	}
	if hdrSet && metaSet && herr == nil && merr == nil && (hp != mp || c.hdr.state != metaTS) {
		s.traces.mismatch.Add(1)
	}
	if s.tlog == nil {
		return
	}
	line := TraceLogLine{Header: c.hdr.parent, Meta: metaTP, TraceState: metaTS}
	if c.p.URI != nil {
		line.URI = *c.p.URI
	}
	served, ok := mp, metaSet && merr == nil
	if !ok {
		served, ok = hp, hdrSet && herr == nil
	}
	if ok {
		line.TraceID, line.SpanID, line.Sampled = served.Trace.String(), served.Span.String(), served.Sampled
	}
	if !metaSet || metaTS == "" {
		line.TraceState = c.hdr.state
	}
	s.tlog.add(line)
}

// countRoute counts one route's traceparent: valid or not.
func (t *traceCounters) countRoute(valid *atomic.Int64, err error) {
	if err != nil {
		t.invalid.Add(1)
		return
	}
	valid.Add(1)
}

// metaString is a _meta value as a string: absent (nil or null) is not
// set; any other value that is not a JSON string is set and "", which no
// parse takes for a traceparent.
func metaString(raw json.RawMessage) (string, bool) {
	if raw == nil || string(raw) == "null" {
		return "", false
	}
	if v, ok := protocol.Unquote(raw); ok {
		return v, true
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", true
	}
	return v, true
}

// traceLog writes the trace log from a goroutine of its own, so that a
// read only queues its line (never waiting on the disk); the writer
// flushes whenever its queue is empty, so the file is up to date as soon
// as the reads stop, even if the process is then killed.
type traceLog struct {
	lines   chan []byte
	stop    chan struct{}
	done    chan struct{}
	logf    func(format string, args ...any)
	logged  atomic.Int64
	dropped atomic.Int64
	once    sync.Once
	err     error // the first write error; read after done
}

// startTraceLog starts the writer of a trace log to w; Server.Close stops
// it and waits for it.
func startTraceLog(w io.Writer, logf func(string, ...any)) *traceLog {
	l := &traceLog{lines: make(chan []byte, traceLogLines), stop: make(chan struct{}), done: make(chan struct{}), logf: logf}
	go l.run(w)
	return l
}

// add queues a line, or drops it when the writer lags traceLogLines behind.
func (l *traceLog) add(line TraceLogLine) {
	b, err := json.Marshal(line)
	if err != nil {
		return // strings and a bool always encode
	}
	select {
	case l.lines <- append(b, '\n'):
		l.logged.Add(1)
	default:
		if l.dropped.Add(1) == 1 {
			l.logf("simserver: the trace log's writer lags behind; lines are being dropped")
		}
	}
}

func (l *traceLog) run(w io.Writer) {
	defer close(l.done)
	bw := bufio.NewWriterSize(w, 64<<10)
	write := func(b []byte) {
		if l.err == nil && bw.Buffered() > 0 && bw.Available() < len(b) {
			// Whole lines in every write: serve processes appending to one
			// file (a stdio run's sessions, each a child) never cut
			// another's line.
			l.err = bw.Flush()
		}
		if l.err == nil {
			_, l.err = bw.Write(b)
		}
	}
	for {
		select {
		case b := <-l.lines:
			write(b)
			if len(l.lines) == 0 && l.err == nil {
				l.err = bw.Flush()
			}
			if l.err != nil {
				l.once.Do(func() { l.logf("simserver: trace log: %v", l.err) })
			}
		case <-l.stop:
			for {
				select {
				case b := <-l.lines:
					write(b)
				default:
					if l.err == nil {
						l.err = bw.Flush()
					}
					return
				}
			}
		}
	}
}

// close writes what is queued and stops the writer; lines added later are
// not written.
func (l *traceLog) close() error {
	close(l.stop)
	<-l.done
	if l.err != nil {
		return fmt.Errorf("simserver: trace log: %w", l.err)
	}
	return nil
}

// traceStats is the trace counters' snapshot.
func (s *Server) traceStats() TraceStats {
	t := TraceStats{Header: s.traces.header.Load(), Meta: s.traces.meta.Load(),
		Invalid: s.traces.invalid.Load(), Mismatch: s.traces.mismatch.Load()}
	if s.tlog != nil {
		t.Logged, t.LogDropped = s.tlog.logged.Load(), s.tlog.dropped.Load()
	}
	return t
}

// Close ends every listen and session stream (a listen with the empty
// result of a graceful end), stops the server's own changes
// (Options.Changes) and waits for them, and stops the trace log writer
// (Options.TraceLog) once the lines queued are written, returning its
// first write error. Streams end as their goroutines (net/http's, a stdio
// connection's) see it; whoever runs them waits for them. Later calls
// return the first call's error.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.stopBG()
		s.bg.Wait()
		if s.tlog != nil {
			s.closeErr = s.tlog.close()
		}
	})
	return s.closeErr
}
