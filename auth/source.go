package auth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// Source is readbench's Tokens: one client's tokens for one target, kept
// fresh in the background. Close stops the refresher.
type Source struct {
	cl    *client
	grant string // how a new token is had without a refresh token; "" when only refresh can (a person's login)
	save  func(*oauth2.Token, []string) error
	now   func() time.Time

	ctx    context.Context // the refresher's and every token request's
	cancel context.CancelFunc
	wg     sync.WaitGroup
	wake   chan struct{}

	mu        sync.Mutex
	cur       Token
	issued    time.Time
	refreshAt time.Time // zero: never (no expiry)
	refreshTk string
	scope     []string // what was asked for
	granted   []string // what the server said it granted
	stepUps   int
	flight    *Flight
	closed    bool
	failures  int       // consecutive failed token requests
	coolUntil time.Time // after a failure, no new request before this: the last error stands
	lastErr   error
	reqs      []Request
}

// Bounds of the renewing: attempts of one token request, and scope
// step-ups over a Source's life (a server that always wants more is
// refused after that many).
const (
	maxAttempts = 3
	maxStepUps  = 2
)

var _ Tokens = (*Source)(nil)

// Token returns the current token while it is valid, without waiting;
// only an expired (or absent) token waits for a new one.
func (s *Source) Token(ctx context.Context) (Token, error) {
	s.mu.Lock()
	cur := s.cur
	s.mu.Unlock()
	if cur.Value != "" && (cur.Expiry.IsZero() || s.now().Before(cur.Expiry)) {
		return cur, nil
	}
	return s.renew(ctx, cur.Serial, "expiring", nil)
}

// Refused renews a token the server refused: a newer token if one was
// had since, else one shared token request (with the union of the scopes
// held and those the challenge asks, for a 403 insufficient_scope).
func (s *Source) Refused(ctx context.Context, t Token, status int, challenge string) (Token, error) {
	ch, err := ParseChallenge(challenge)
	if err != nil {
		ch = Challenge{}
	}
	if status == 403 && ch.InsufficientScope() {
		s.mu.Lock()
		want := union(s.scope, ch.Scope)
		same := len(want) == len(s.scope)
		ups := s.stepUps
		f := s.flight
		s.mu.Unlock()
		switch {
		case same && (f != nil || s.newer(t.Serial)):
			// Another session widened the scope already: its token (had,
			// or in flight) is the answer, not a second step-up.
			return s.renew(ctx, t.Serial, "step-up", nil)
		case same:
			return Token{}, fmt.Errorf("the server asks for scope %q, which the token already has", strings.Join(ch.Scope, " "))
		case ups >= maxStepUps:
			return Token{}, fmt.Errorf("the server asked for more scope %d times; giving up", ups+1)
		case s.grant == "":
			return Token{}, fmt.Errorf("the server asks for scope %q: run readbench login again with --oauth-scope %q", strings.Join(ch.Scope, " "), strings.Join(want, " "))
		}
		return s.renew(ctx, t.Serial, "step-up", want)
	}
	if status == 403 {
		return Token{}, errors.New("the server forbade the request (403) without asking for more scope")
	}
	return s.renew(ctx, t.Serial, "refused", nil)
}

// newer reports whether the current token is valid and newer than the
// one of serial.
func (s *Source) newer(serial int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur.Serial > serial && s.cur.Value != "" && (s.cur.Expiry.IsZero() || s.now().Before(s.cur.Expiry))
}

// Lasts is when the current token expires (zero: it did not say) and
// whether the source can renew it: false for a cached login that has no
// refresh token and no grant to ask again with (a person's login without
// offline_access), whose run loses its authorization at expiry.
func (s *Source) Lasts() (expiry time.Time, renewable bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur.Expiry, s.grant != "" || s.refreshTk != ""
}

// Requests returns every token request made so far.
func (s *Source) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// Granted is the scope the server granted with the current token (what
// was asked for when it did not say).
func (s *Source) Granted() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.granted) > 0 {
		return slices.Clone(s.granted)
	}
	return slices.Clone(s.scope)
}

// Client is who the source obtains its tokens as.
func (s *Source) Client() Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope := s.granted
	if len(scope) == 0 {
		scope = s.scope
	}
	if scope == nil {
		scope = []string{}
	}
	grant := s.grant
	if grant == "" {
		grant = GrantAuthorizationCode
	}
	return Client{Issuer: s.cl.issuer, ClientID: s.cl.id, Grant: grant, Method: s.cl.method, Resource: s.cl.resource,
		Scope: slices.Clone(scope), StepUps: s.stepUps, Refreshable: s.refreshTk != ""}
}

// Resource is the resource indicator the tokens are for.
func (s *Source) Resource() string { return s.cl.resource }

// String describes the source without any token or secret.
func (s *Source) String() string { return "oauth tokens of " + s.cl.String() }

// Close stops the background refresher and waits for any token request
// in flight.
func (s *Source) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}

// renew returns a token newer than serial seen: the current one if it is
// already, else the result of the one shared token request (started now
// if none is in flight). scope, when given, widens the scope asked for.
func (s *Source) renew(ctx context.Context, seen int, reason string, scope []string) (Token, error) {
	s.mu.Lock()
	if s.cur.Serial > seen && s.cur.Value != "" && (s.cur.Expiry.IsZero() || s.now().Before(s.cur.Expiry)) {
		t := s.cur
		s.mu.Unlock()
		return t, nil
	}
	if s.closed {
		s.mu.Unlock()
		return Token{}, errors.New("oauth tokens closed")
	}
	if s.flight == nil && scope == nil && s.now().Before(s.coolUntil) {
		// A token request just failed: answer with its error rather than
		// send the authorization server one more per refused read.
		err := s.lastErr
		s.mu.Unlock()
		return Token{}, err
	}
	f := s.flight
	if f == nil {
		f = NewFlight()
		s.flight = f
		if scope != nil {
			s.scope = scope
			s.stepUps++
		}
		s.wg.Add(1)
		go s.fly(f, reason)
	}
	s.mu.Unlock()
	return f.Wait(ctx)
}

// fly makes the token request of f, with bounded retries of failures
// worth retrying, records each attempt and installs the token.
func (s *Source) fly(f *Flight, reason string) {
	defer s.wg.Done()
	var tok *oauth2.Token
	var err error
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		s.mu.Lock()
		rt, scope := s.refreshTk, slices.Clone(s.scope)
		s.mu.Unlock()
		grant := s.grant
		if rt != "" && reason != "step-up" {
			grant = grantRefresh
		}
		start := s.now()
		ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
		switch grant {
		case grantRefresh:
			tok, err = s.cl.refresh(ctx, rt, scope)
		case GrantClientCredentials:
			tok, err = s.cl.clientCredentials(ctx, scope)
		default:
			err = errors.New("no refresh token and no grant to ask anew: run readbench login again")
		}
		cancel()
		s.record(Request{Grant: grant, Reason: reason, Start: start, Took: s.now().Sub(start), Err: err, Answered: answered(err)})
		if err == nil {
			break
		}
		if grant == grantRefresh && s.grant != "" {
			// A refresh token the server no longer honours: the grant again.
			s.mu.Lock()
			s.refreshTk = ""
			s.mu.Unlock()
			continue
		}
		if !retryable(err) || attempt == maxAttempts || s.sleep(time.Duration(attempt)*200*time.Millisecond) != nil {
			break
		}
	}
	s.mu.Lock()
	if err == nil {
		s.install(tok)
		if s.save != nil {
			if serr := s.save(tok, s.scope); serr != nil {
				err = fmt.Errorf("a token was issued but could not be cached: %w", serr)
			}
		}
		s.failures, s.lastErr, s.coolUntil = 0, nil, time.Time{}
	} else {
		// Try again later in the background, backing off (1 s, doubling,
		// at most 30 s); Token still returns the old token while it lasts.
		s.failures++
		wait := min(time.Second<<min(s.failures-1, 5), 30*time.Second)
		s.refreshAt = s.now().Add(wait)
		s.lastErr, s.coolUntil = err, s.now().Add(min(wait, 5*time.Second))
	}
	got := s.cur
	s.flight = nil
	s.mu.Unlock()
	f.Land(got, err)
	s.poke()
}

// install makes tok the current token; s.mu is held.
func (s *Source) install(tok *oauth2.Token) {
	now := s.now()
	s.cur = Token{Value: tok.AccessToken, Expiry: tok.Expiry, Serial: s.cur.Serial + 1}
	s.issued = now
	s.refreshAt = RefreshAt(now, tok.Expiry)
	if tok.RefreshToken != "" {
		s.refreshTk = tok.RefreshToken
	}
	if g, ok := tok.Extra("scope").(string); ok && g != "" {
		s.granted = strings.Fields(g)
	}
}

func (s *Source) record(r Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()
}

func (s *Source) sleep(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}

func (s *Source) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// refresher renews the token ahead of its expiry until Close.
func (s *Source) refresher() {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		at, serial := s.refreshAt, s.cur.Serial
		if !at.IsZero() && at.Before(s.coolUntil) {
			at = s.coolUntil // a request just failed: not before the back-off is over
		}
		s.mu.Unlock()
		var timer *time.Timer
		var fire <-chan time.Time
		if !at.IsZero() {
			timer = time.NewTimer(max(at.Sub(s.now()), 0))
			fire = timer.C
		}
		select {
		case <-s.ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case <-s.wake:
		case <-fire:
			_, _ = s.renew(s.ctx, serial, "expiring", nil)
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// RefreshAt is when a token issued at issued and expiring at expiry is
// renewed: three quarters through its life, but no earlier than five
// minutes before it expires (a long-lived token is not renewed needlessly
// early); zero for a token with no expiry.
func RefreshAt(issued, expiry time.Time) time.Time {
	if expiry.IsZero() {
		return time.Time{}
	}
	life := expiry.Sub(issued)
	if life <= 0 {
		return issued
	}
	return maxTime(issued.Add(life*3/4), expiry.Add(-5*time.Minute))
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// union is a's scopes then those of b it lacks.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
