package record

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
	"time"
)

// turns names sessions and groups each session's reads into turns: a
// read joins its session's current turn while every read of that turn is
// still in flight, or when it comes within the burst window
// (Options.Burst) of the turn's first read; it starts a new turn
// otherwise (none in flight, or one of the turn's already answered). So
// the reads of a turn were sent together, a session under steady load,
// whose reads overlap one after the other, does not chain them all into
// one turn, and a host's attachments sent at once stay one turn even when
// a fast server answers the first before the last arrived. That is what
// a host does with a message's attachments (send them together, wait for
// all), seen from the wire. The zero value is ready to use.
type turns struct {
	burst    time.Duration // 0: DefaultBurst
	mu       sync.Mutex
	sessions map[string]*sessionTurns // by the client's own session id
	next     int                      // the last turn number given
}

type sessionTurns struct {
	name     string // s1, s2…
	inFlight int
	turn     int
	answered bool      // a read of turn has ended: the next read starts a new turn
	began    time.Time // turn's first read
}

// DefaultBurst is how close after a turn's first read another read of
// its session joins the turn whatever has been answered (Options.Burst's
// default). A host sends a message's attachments together, but "together"
// is what its event loop makes of it: the TypeScript SDK's client, on a
// busy 2-core machine, sent the two reads of one Promise.all 31.6 ms
// apart, after the first had been answered.
const DefaultBurst = 50 * time.Millisecond

// begin is a read's arrival at now on session id ("" for a stateless client):
// its session's name and its turn. end must be called once when the read
// is over, with the same id.
func (t *turns) begin(id string, now time.Time) (session string, turn int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.session(id)
	burst := t.burst
	if burst <= 0 {
		burst = DefaultBurst
	}
	if s.turn == 0 || (s.inFlight == 0 || s.answered) && now.Sub(s.began) > burst {
		t.next++
		s.turn, s.answered, s.began = t.next, false, now
	}
	s.inFlight++
	return s.name, s.turn
}

// end is a read of session id, in turn, being over.
func (t *turns) end(id string, turn int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.sessions[id]; s != nil && s.inFlight > 0 {
		s.inFlight--
		if turn == s.turn {
			s.answered = true
		}
	}
}

func (t *turns) session(id string) *sessionTurns {
	if t.sessions == nil {
		t.sessions = map[string]*sessionTurns{}
	}
	s := t.sessions[id]
	if s == nil {
		s = &sessionTurns{name: "s" + strconv.Itoa(len(t.sessions)+1)}
		t.sessions[id] = s
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
