package auth

import (
	"context"
	"sync"
	"time"
)

// Token is one access token as a request carries it. Serial tells tokens
// apart without their value: the first token a Tokens obtains is 1, each
// new one the next number, so a read can say it was the first on a fresh
// token (token validation often costs a server most on first sight).
type Token struct {
	Value  string    // the bearer value: never printed, logged or saved
	Expiry time.Time // zero: the server did not say
	Serial int
}

// Tokens gives every HTTP request of a run its access token. It is safe
// for concurrent use: every session of a run shares one.
type Tokens interface {
	// Token returns the token to send now. It never waits for a refresh
	// while the current token is still valid, so renewing a token does
	// not pause the schedule.
	Token(ctx context.Context) (Token, error)
	// Refused is told that the server answered status (401, or 403 with
	// insufficient_scope) to a request that carried t, with the
	// WWW-Authenticate header's value. It returns the token to retry that
	// request with once (refreshed, or requested anew with the scope the
	// challenge asks for), or an error when none can be had: the read is
	// then unauthorized. Concurrent refusals of the same token share one
	// token request.
	Refused(ctx context.Context, t Token, status int, challenge string) (Token, error)
	// Requests returns every token request made so far, oldest first: the
	// measured cost of authorization.
	Requests() []Request
}

// Request is one token request a Tokens made, as a measured cost.
type Request struct {
	Grant  string        // "client_credentials", "refresh_token", "authorization_code"
	Reason string        // "initial", "expiring" (refreshed ahead of expiry), "refused" (after a 401), "step-up" (403 insufficient_scope)
	Start  time.Time     // when it was sent
	Took   time.Duration // until the answer (or the failure)
	Err    error         // nil: a token was issued
	// Answered is true when the authorization server answered (an HTTP
	// status came back, a refusal included); false for a request that
	// never reached it (connection refused, a timeout, TLS) or could not
	// be made at all: a provider that is down is not one that refuses.
	Answered bool
}

// Client is who a Tokens obtains its tokens as, for a result and check
// to record: never the secret or a token. It is the result's and the
// check document's auth client as saved (its JSON keys are theirs,
// docs/results.md), one type from the token source to the file.
type Client struct {
	Issuer      string   `json:"issuer"`      // the authorization server ("" when unknown: a cached login of an older readbench)
	ClientID    string   `json:"client_id"`   // the client it knows
	Grant       string   `json:"grant"`       // how tokens are had: client_credentials, or authorization_code (a person's login)
	Method      string   `json:"method"`      // token endpoint authentication: client_secret_basic, client_secret_post, private_key_jwt, none
	Resource    string   `json:"resource"`    // the resource indicator the tokens are for (RFC 8707)
	Scope       []string `json:"scope"`       // the scope of the current token, as granted (as asked when the server did not say); never nil
	StepUps     int      `json:"step_ups"`    // times a 403 insufficient_scope widened the scope
	Refreshable bool     `json:"refreshable"` // a refresh token is held: tokens outlive the first one
}

// Describer is a Tokens that can say who it obtains tokens as.
type Describer interface {
	Client() Client
}

// Sequence shares one Tokens among runs made one after another (the
// steps of a capacity search, the rounds of an A/B experiment): each run
// reports as its cost only the token requests made since the previous
// run reported its own, so that no token request is counted twice, or
// lost, across the runs' results. It is safe for concurrent use.
type Sequence struct {
	t    Tokens
	mu   sync.Mutex
	last int // how many requests the runs have reported so far
}

// NewSequence is the sequence of runs sharing t; nil when t is nil.
func NewSequence(t Tokens) *Sequence {
	if t == nil {
		return nil
	}
	return &Sequence{t: t}
}

// Next is the Tokens of the next run, nil for a nil sequence (a run
// without tokens): its Requests are those made since the previous run's
// Requests was last called (all of them for the first run).
func (s *Sequence) Next() Tokens {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return &seqRun{Tokens: s.t, seq: s, from: s.last}
}

// seqRun is one run's view of a Sequence's Tokens.
type seqRun struct {
	Tokens
	seq  *Sequence
	from int
}

// Client is the shared Tokens' Client, the zero Client when it cannot
// say.
func (r *seqRun) Client() Client {
	if d, ok := r.Tokens.(Describer); ok {
		return d.Client()
	}
	return Client{}
}

func (r *seqRun) Requests() []Request {
	all := r.Tokens.Requests()
	r.seq.mu.Lock()
	r.seq.last = max(r.seq.last, len(all))
	r.seq.mu.Unlock()
	if r.from >= len(all) {
		return nil
	}
	return all[r.from:]
}
