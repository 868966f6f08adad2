package client

import (
	"time"
)

// A legacy session's standalone stream's life, as a load test reports it:
// how often it came back, the keep-alives it carried, and the spells it
// was down, during which the server had nowhere to send a notification
// (it may replay them after Last-Event-ID, or lose them).

// StreamGap is one spell a session's standalone stream was down: from
// its end to its reopening's answer (To zero: still down, or never
// reopened).
type StreamGap struct {
	From, To time.Time
}

// StreamLife is the life of a legacy Streamable HTTP session's standalone
// GET stream (zero for a session without one).
type StreamLife struct {
	// Reconnects: times it ended and was opened again, after the server's
	// retry, with Last-Event-ID when the server gave its events ids.
	Reconnects int64
	// KeepAlives: the SSE comment lines it carried, every opening summed.
	KeepAlives int64
	// Gaps: the spells it was down, oldest first (at most maxStreamGaps;
	// past that the last is stretched to cover the rest).
	Gaps []StreamGap
}

// maxStreamGaps bounds the gaps a stream keeps.
const maxStreamGaps = 4096

// StreamLife is the session's standalone stream's life so far.
func (s *Session) StreamLife() StreamLife {
	s.subsMu.Lock()
	n := s.subs
	s.subsMu.Unlock()
	if n == nil {
		return StreamLife{}
	}
	n.mu.Lock()
	st := n.stream
	n.mu.Unlock()
	if st == nil {
		return StreamLife{}
	}
	st.gapMu.Lock()
	defer st.gapMu.Unlock()
	out := StreamLife{Reconnects: st.reopened.Load(), KeepAlives: st.keepAlives.Load(), Gaps: append([]StreamGap(nil), st.gaps...)}
	if !st.down.IsZero() {
		out.Gaps = append(out.Gaps, StreamGap{From: st.down})
	}
	return out
}

// goneDown records that the stream ended at t.
func (st *standalone) goneDown(t time.Time) {
	st.gapMu.Lock()
	defer st.gapMu.Unlock()
	if st.down.IsZero() {
		st.down = t
	}
}

// up records that the stream is open at t: a gap, if one was open, ends
// (a reconnect).
func (st *standalone) up(t time.Time) {
	st.gapMu.Lock()
	defer st.gapMu.Unlock()
	if st.down.IsZero() {
		return
	}
	g := StreamGap{From: st.down, To: t}
	st.down = time.Time{}
	st.reopened.Add(1)
	if n := len(st.gaps); n >= maxStreamGaps {
		st.gaps[n-1].To = t
		return
	}
	st.gaps = append(st.gaps, g)
}
