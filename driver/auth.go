package driver

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// Authorization as a run sees it (Options.Auth): the recorders keep read
// latency on fresh tokens apart, the token source's requests become the
// measured phase's token figures, and a run whose reads the server kept
// refusing says so in one line (with tokens or without).

// lostAfter is how many unauthorized reads in a row, up to the end of the
// run, or in all, make a run one that lost its authorization: a few
// refusals around a renewal are noise, this many are not.
const lostAfter = 5

// authWatch follows the unauthorized reads of a run to tell whether it
// lost its authorization, and whether it got it back. It is safe for
// concurrent use.
type authWatch struct {
	refusing    atomic.Bool // streak > 0: a read that was not unauthorized has one to end
	mu          sync.Mutex
	total       int64     // unauthorized reads
	unsent      int64     // of them, never sent: no token could be had
	streak      int64     // unauthorized reads since the last read that was not
	streakStart time.Time // when the first of them ended
	lostStreak  int64     // the last streak of lostAfter or more that ended (0: none)
	lostFrom    time.Time // when that streak began
	recovered   time.Time // when a read ended it (zero: none did)
	why         string    // the last unauthorized read's detail
}

// read counts one read that ended at end, unauthorized or not; noToken
// says an unauthorized read was never sent (no token could be had).
func (w *authWatch) read(unauthorized, noToken bool, end time.Time, why string) {
	if !unauthorized && !w.refusing.Load() {
		return // the common case, without the lock
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !unauthorized {
		if w.streak >= lostAfter {
			w.lostStreak, w.lostFrom, w.recovered = w.streak, w.streakStart, end
		}
		w.streak = 0
		w.refusing.Store(false)
		return
	}
	w.refusing.Store(true)
	w.total++
	if noToken {
		w.unsent++
	}
	if w.streak == 0 {
		w.streakStart = end
	}
	w.streak++
	w.why = why
}

// lost is the one line that says the run lost its authorization, "" when
// it did not: start is the run's start, for "after …"; tokens says the
// run had tokens to renew (without, the reads' detail says why nothing
// could be renewed: a pasted header, or no credentials). The reads the
// server refused and those never sent for want of a token are counted
// apart, and a run that got its authorization back says when.
func (w *authWatch) lost(start time.Time, tokens bool) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.total < lostAfter && w.streak < lostAfter {
		return ""
	}
	at := func(t time.Time) string { return numfmt.Duration(t.Sub(start)) }
	n, when := w.total, ""
	switch {
	case w.streak >= lostAfter:
		n, when = w.streak, " after "+at(w.streakStart)+" (every read from then on)"
	case w.lostStreak > 0:
		when = fmt.Sprintf(" (%d in a row from %s; authorized again from %s)", w.lostStreak, at(w.lostFrom), at(w.recovered))
	}
	switch {
	case !tokens:
		return fmt.Sprintf("the server refused authorization for %d reads%s: %s", n, when, w.why)
	case w.unsent == 0:
		return fmt.Sprintf("the server refused authorization for %d reads%s; the token could not be renewed: %s", n, when, w.why)
	}
	return fmt.Sprintf("%d reads unauthorized%s: %d refused by the server, %d never sent (no token could be had); the token could not be renewed: %s",
		w.total, when, w.total-w.unsent, w.unsent, w.why)
}

// enableAuth makes both phases record authorization when the run has
// tokens.
func (r *runner) enableAuth() {
	if r.o.Auth == nil {
		return
	}
	r.measured.EnableAuth()
	r.warmup.EnableAuth()
}

// finishAuth adds the token source's requests to the measured phase
// (those of the warmup and of opening sessions too: a token is the run's,
// not a phase's) and says whether the run lost its authorization: with
// tokens, or without (a pasted Authorization header that expired, which
// nothing renews; the result has no auth block then, the line is logged).
//
// A source this run alone uses (one with Close; a capacity search's
// steps share theirs through an auth.Sequence, which has none) is closed
// first, its reads being over: a renewal still in flight then ends and is
// counted, and none starts after the count, so the result's token
// requests are those the authorization server saw.
func (r *runner) finishAuth(rep *measurements) {
	m := &rep.Meta
	m.AuthLost = r.authLost.lost(m.Started, r.o.Auth != nil)
	if m.AuthLost != "" && r.o.Logf != nil {
		r.o.Logf("%s", m.AuthLost)
	}
	if c, ok := r.o.Auth.(interface{ Close() }); ok {
		c.Close()
	}
	if r.o.Auth == nil || rep.MeasuredPhase == nil || rep.MeasuredPhase.Auth == nil {
		return
	}
	recordTokenRequests(rep.MeasuredPhase.Auth, r.o.Auth.Requests())
	if d, ok := r.o.Auth.(auth.Describer); ok {
		c := d.Client()
		m.AuthClient = &c
	}
}

// recordTokenRequests counts a token source's requests into a.
func recordTokenRequests(a *stats.Auth, reqs []auth.Request) {
	for _, q := range reqs {
		a.Request(stats.TokenRequest{Reason: q.Reason, Took: q.Took, Failed: q.Err != nil, Unanswered: q.Err != nil && !q.Answered})
	}
}
