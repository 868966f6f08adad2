package auth

import (
	"context"
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
}
