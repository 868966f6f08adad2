package record

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// turns names sessions and groups each session's reads into turns, the
// reads a client sent together (group.go): by the order of their request
// ids, by their being in flight together, and only then by timing, with a
// window sized on the gaps the recording saw (windowOf) and never below
// the burst (Options.Burst). A session's reads are kept until their turn
// is settled — its reads all answered and a later read of the session
// started another turn, the session quiet for settleQuiet, maxBuffered
// reads waiting, or the recording closed — and then written, each with its
// turn, how the turn was grouped and how sure that is. The zero value is
// ready to use.
type turns struct {
	burst time.Duration // 0: DefaultBurst
	// write writes a settled read's line (nil: dropped, in tests).
	write func(Read)

	mu       sync.Mutex
	sessions map[string]*sessionTurns // by the client's own session id
	order    []*sessionTurns          // in order of first appearance
	next     int                      // the last turn number given
	gaps     []time.Duration          // recent gaps between reads that did not overlap, every session's
	gapNext  int                      // where the next gap goes once gaps is full
}

type sessionTurns struct {
	name   string     // s1, s2…
	reads  []*pending // not yet written, in order of arrival
	prevAt time.Time  // arrival of the last read written
	last   time.Time  // the session's last arrival or answer
}

// DefaultBurst is the floor of the window: reads of a session that
// arrive within it of one another are one turn whatever was answered
// (Options.Burst's default). A host sends a message's attachments
// together, but "together" is what its event loop makes of it: the
// TypeScript SDK's client, on a busy 2-core machine, sent the two reads
// of one Promise.all 31.6 ms apart, after the first had been answered.
// The window grows past it with the gaps the recording sees (windowOf).
const DefaultBurst = 50 * time.Millisecond

// settleQuiet is how long a session with nothing in flight waits before
// its last turn is written; maxBuffered bounds the reads a session keeps
// unwritten; maxGaps the gaps kept to size the window on.
const (
	settleQuiet = 2 * time.Second
	maxBuffered = 1024
	maxGaps     = 4096
)

// begin is read p's arrival at now on session id ("" for a stateless
// client): it is named its session. end must be called once it is over.
func (t *turns) begin(id string, p *pending, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.session(id)
	p.session = s.name
	if n := len(s.reads); n > 0 {
		if prev := s.reads[n-1]; prev.done && !prev.ended.After(now) {
			t.gap(now.Sub(prev.arrived))
		}
	} else if !s.prevAt.IsZero() && !s.last.After(now) {
		t.gap(now.Sub(s.prevAt))
	}
	s.reads = append(s.reads, p)
	s.last = now
	if len(s.reads) > maxBuffered {
		t.settle(s, false, 0)
	}
}

// end is read p being over at now, its line rd written once its turn is
// settled.
func (t *turns) end(p *pending, rd Read, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p.done, p.line, p.ended = true, rd, now
	if s := t.sessions[p.sid]; s != nil && now.After(s.last) {
		s.last = now
	}
}

// settleQuiet writes the turns of every session that has had nothing in
// flight, and no new read, for settleQuiet by now.
func (t *turns) settleQuiet(now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.order {
		if len(s.reads) > 0 && now.Sub(s.last) >= settleQuiet && !s.inFlight() {
			t.settle(s, true, now.Sub(s.reads[len(s.reads)-1].arrived))
		}
	}
}

// flush writes every turn left: the recording is ending.
func (t *turns) flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.order {
		t.settle(s, true, 0)
	}
}

func (s *sessionTurns) inFlight() bool {
	for _, p := range s.reads {
		if !p.done {
			return true
		}
	}
	return false
}

// settle groups s's reads and writes the turns whose reads have all
// ended, in order, up to the first that has not; the last turn too when
// final (the session is quiet, or the recording ends), else it is kept,
// as a later read may join it. after is the gap known to follow the
// reads (0: none).
func (t *turns) settle(s *sessionTurns, final bool, after time.Duration) {
	if len(s.reads) == 0 {
		return
	}
	as := make([]arrival, len(s.reads))
	for i, p := range s.reads {
		as[i] = arrival{at: p.arrived, end: p.ended, inFlight: !p.done, id: p.idNum, hasID: p.hasID}
	}
	floor := t.burst
	if floor <= 0 {
		floor = DefaultBurst
	}
	gaps := t.gaps
	if after > 0 { // the quiet that ends the reads is a gap too
		gaps = append(slices.Clone(gaps), after)
	}
	w, lo := windowOf(gaps, floor)
	var before time.Duration
	if !s.prevAt.IsZero() {
		before = s.reads[0].arrived.Sub(s.prevAt)
	}
	groups := group(as, w, lo, before, after)
	written := 0
	for k, g := range groups {
		if !final && k == len(groups)-1 {
			break
		}
		if slices.ContainsFunc(g.reads, func(i int) bool { return !s.reads[i].done }) {
			break
		}
		t.next++
		conf := g.confidence
		for _, i := range g.reads {
			rd := s.reads[i].line
			rd.Turn, rd.GroupedBy, rd.Confidence = t.next, g.by, &conf
			if t.write != nil {
				t.write(rd)
			}
		}
		written = g.reads[len(g.reads)-1] + 1
	}
	if written > 0 {
		s.prevAt = s.reads[written-1].arrived
		s.reads = slices.Delete(s.reads, 0, written)
	}
}

// gap keeps a gap between two reads of a session that did not overlap,
// the last maxGaps of them.
func (t *turns) gap(g time.Duration) {
	if len(t.gaps) < maxGaps {
		t.gaps = append(t.gaps, g)
		return
	}
	t.gaps[t.gapNext] = g
	t.gapNext = (t.gapNext + 1) % maxGaps
}

func (t *turns) session(id string) *sessionTurns {
	if t.sessions == nil {
		t.sessions = map[string]*sessionTurns{}
	}
	s := t.sessions[id]
	if s == nil {
		s = &sessionTurns{name: "s" + strconv.Itoa(len(t.sessions)+1)}
		t.sessions[id] = s
		t.order = append(t.order, s)
	}
	return s
}

// RedactURI is what --redact-uris writes in place of a URI: its scheme
// (the class of resource survives: file, doc, https…) and the first 16
// hex digits of its SHA-256, so that reads of one URI stay reads of one
// URI and nothing of its path or query is kept.
func RedactURI(uri string) string {
	scheme := "uri"
	if i := strings.Index(uri, ":"); i > 0 && validScheme(uri[:i]) {
		scheme = strings.ToLower(uri[:i])
	}
	sum := sha256.Sum256([]byte(uri))
	return "redacted:" + scheme + ":" + hex.EncodeToString(sum[:8])
}

func validScheme(s string) bool {
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return len(s) <= 32
}
