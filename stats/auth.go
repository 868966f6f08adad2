package stats

import "time"

// The reasons a token was requested for (auth.Request.Reason), in report
// order: every one is a key of TokenRequests.ByReason, zeros too.
var TokenReasons = []string{"initial", "expiring", "refused", "step-up"}

// Auth is what a run against an OAuth-protected target (one with
// tokens) recorded of authorization as a cost: its token requests, and
// read latency on a token the session had not used yet apart from the
// others (a server often validates a token it meets for the first time
// at a cost). A Phase without tokens has none (nil).
type Auth struct {
	// Tokens counts the token requests in the result's own form
	// (TokenRequests); its Latency block is TokenLatency's, exported when
	// the result is built.
	Tokens       TokenRequests
	TokenLatency *Histogram // each request, sent → answer or failure
	// FreshToken is the read latency (as Phase.Read: reads sent, from
	// their intended start) of reads that were the first of their
	// session on their token; LaterToken that of every other read.
	FreshToken, LaterToken *Histogram
	// Unsent are the unauthorized reads never sent: no token could be
	// had (the authorization server down or refusing), so the server
	// refused nothing of them.
	Unsent int64
}

// TokenRequests are the token requests of a run (those made while
// sessions opened and during the warmup included: a token is the run's),
// as the recorder counts them and as the result's auth.token_requests
// saves them (docs/results.md).
type TokenRequests struct {
	Count    int64 `json:"count"`
	Failures int64 `json:"failures"`
	// Unanswered are the failures the authorization server never
	// answered: it could not be reached (down, refusing connections, a
	// timeout) or no request could be made. Added in v1.
	Unanswered int64 `json:"unanswered"`
	// ByReason counts them by why they were made: every one of
	// TokenReasons is a key (zeros too), and any other reason a token
	// source gives.
	ByReason map[string]int64 `json:"by_reason"`
	Latency  Latency          `json:"latency"` // Auth.TokenLatency's block
	// Refreshes are the requests that renewed a token the run already had
	// (any reason but initial) and got one.
	Refreshes int64 `json:"refreshes"`
}

// TokenRequest is one token request as stats counts it (the driver
// converts the token source's record, which stats does not know).
type TokenRequest struct {
	Reason     string
	Took       time.Duration
	Failed     bool
	Unanswered bool // failed without an answer from the authorization server
}

// NewAuth returns an empty Auth.
func NewAuth() *Auth {
	a := &Auth{
		Tokens:       TokenRequests{ByReason: make(map[string]int64, len(TokenReasons))},
		TokenLatency: NewHistogram(), FreshToken: NewHistogram(), LaterToken: NewHistogram(),
	}
	for _, k := range TokenReasons {
		a.Tokens.ByReason[k] = 0
	}
	return a
}

// Request counts one token request.
func (a *Auth) Request(q TokenRequest) {
	t := &a.Tokens
	t.Count++
	t.ByReason[q.Reason]++
	a.TokenLatency.Record(q.Took)
	switch {
	case q.Failed:
		t.Failures++
		if q.Unanswered {
			t.Unanswered++
		}
	case q.Reason != "initial":
		t.Refreshes++
	}
}

// read records a read's latency on a fresh or a later token.
func (a *Auth) read(s ReadSample) {
	if s.NoToken {
		a.Unsent++
		return
	}
	if s.FreshToken {
		a.FreshToken.Record(s.Latency)
	} else {
		a.LaterToken.Record(s.Latency)
	}
}

// merge adds o into a.
func (a *Auth) merge(o *Auth) {
	a.Tokens.Count += o.Tokens.Count
	a.Tokens.Failures += o.Tokens.Failures
	a.Tokens.Unanswered += o.Tokens.Unanswered
	a.Unsent += o.Unsent
	a.Tokens.Refreshes += o.Tokens.Refreshes
	for k, n := range o.Tokens.ByReason {
		a.Tokens.ByReason[k] += n
	}
	a.TokenLatency.Merge(o.TokenLatency)
	a.FreshToken.Merge(o.FreshToken)
	a.LaterToken.Merge(o.LaterToken)
}

// mergeAuth is a merged with o: nil only when both are.
func mergeAuth(a, o *Auth) *Auth {
	switch {
	case o == nil:
		return a
	case a == nil:
		a = NewAuth()
	}
	a.merge(o)
	return a
}

// EnableAuth makes the phase record authorization (Phase.Auth): call it
// before the first read of a run that has tokens.
func (r *Recorder) EnableAuth() {
	r.mu.Lock()
	if r.run.Auth == nil {
		r.run.Auth = NewAuth()
	}
	r.mu.Unlock()
}
