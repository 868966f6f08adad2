package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// ErrUnauthorized marks a request the server refused for authorization
// (401, or 403 insufficient_scope) once more after one renewal of its
// token, or whose token could not be had or renewed, or refused in a
// session without tokens (a pasted Authorization header expired, or
// none was given), which nothing can renew: a load run counts
// the read as unauthorized, not as a transport failure. Test with
// errors.Is; *UnauthorizedError says more.
var ErrUnauthorized = errors.New("unauthorized")

// UnauthorizedError is a request that authorization failed: the server
// refused the renewed token (Status, Challenge), or the token source
// could not give one (Cause). It unwraps to ErrUnauthorized and to Cause.
type UnauthorizedError struct {
	Method    string
	Status    int    // the server's last refusal; 0 when the token was never sent
	Challenge string // its WWW-Authenticate value (no secret: the server's words)
	Cause     error  // the token source's error; nil when the server refused
	// NoTokens is a refusal of a session without tokens (no Dial.Auth):
	// nothing could be renewed. Header says the request carried an
	// Authorization header of the workload's (a pasted --header), which
	// the server refused.
	NoTokens, Header bool
}

func (e *UnauthorizedError) Error() string {
	msg := e.Method + ": "
	switch {
	case e.NoTokens && e.Header:
		msg += fmt.Sprintf("the server refused the credentials of the Authorization header (HTTP %d %s); readbench cannot renew a pasted header: use the --oauth-* flags or readbench login", e.Status, http.StatusText(e.Status))
	case e.NoTokens:
		msg += fmt.Sprintf("the server demands authorization (HTTP %d %s) and the run has none: use the --oauth-* flags or readbench login", e.Status, http.StatusText(e.Status))
	case e.Cause != nil && e.Status != 0:
		msg += fmt.Sprintf("the server refused authorization (HTTP %d %s) and the token could not be renewed: %v", e.Status, http.StatusText(e.Status), e.Cause)
	case e.Cause != nil:
		msg += fmt.Sprintf("no access token could be had: %v", e.Cause)
	default:
		msg += fmt.Sprintf("the server refused authorization (HTTP %d %s) again after one token renewal", e.Status, http.StatusText(e.Status))
	}
	if e.Challenge != "" {
		msg += " (WWW-Authenticate: " + targets.RedactSecrets(e.Challenge) + ")"
	}
	return msg
}

// Unwrap makes the error ErrUnauthorized for errors.Is, and keeps the
// token source's error in the chain.
func (e *UnauthorizedError) Unwrap() []error {
	if e.Cause == nil {
		return []error{ErrUnauthorized}
	}
	return []error{ErrUnauthorized, e.Cause}
}

// bearer is one session's side of its target's tokens (Dial.Auth): it
// puts the token on each request, renews it once when the server refuses
// it (a request the server refused is sent once more), and remembers which
// tokens the session's reads have carried, so that a read can tell it was
// the first on a fresh token. Concurrent refusals of one token by the
// session share one Refused. A nil *bearer authorizes nothing.
type bearer struct {
	tokens auth.Tokens

	mu    sync.Mutex
	seen  map[int]bool         // token serials some read of the session carried
	renew map[int]*auth.Flight // refused serial → its renewal, one Refused call (in flight or done)
}

// newBearer is the session's bearer, nil when the target has no tokens.
func newBearer(t auth.Tokens) *bearer {
	if t == nil {
		return nil
	}
	return &bearer{tokens: t, seen: map[int]bool{}, renew: map[int]*auth.Flight{}}
}

// token is the token a request carries now.
func (b *bearer) token(ctx context.Context, method string) (auth.Token, error) {
	t, err := b.tokens.Token(ctx)
	if err != nil {
		return t, &UnauthorizedError{Method: method, Cause: err}
	}
	return t, nil
}

// refused tells the token source that the server refused t and returns
// the token to retry with. A renewal of t already in flight on this
// session is waited for rather than asked again; one that ended without a
// token because its own caller went away is asked again.
func (b *bearer) refused(ctx context.Context, t auth.Token, status int, challenge string) (auth.Token, error) {
	for range 2 {
		b.mu.Lock()
		r, ok := b.renew[t.Serial]
		if ok {
			if _, err, landed := r.Landed(); landed && err != nil {
				ok = false // a failed renewal is not remembered: the next refusal asks again
			}
		}
		if !ok {
			r = auth.NewFlight()
			b.renew[t.Serial] = r
			b.mu.Unlock()
			r.Land(b.tokens.Refused(ctx, t, status, challenge))
			tok, err, _ := r.Landed()
			return tok, err
		}
		b.mu.Unlock()
		tok, err := r.Wait(ctx)
		if err == nil || !isContextErr(err) {
			return tok, err
		}
		if ctx.Err() != nil {
			return auth.Token{}, ctx.Err()
		}
	}
	return b.tokens.Refused(ctx, t, status, challenge)
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// fresh reports whether t is a token no read of the session has carried
// yet, and remembers it: true once per token and session.
func (b *bearer) fresh(t auth.Token) bool {
	if b == nil || t.Serial == 0 {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen[t.Serial] {
		return false
	}
	b.seen[t.Serial] = true
	return true
}

// countsFresh reports whether a request of method is a read, whose
// answers say whether they were the first on a fresh token.
func countsFresh(method string) bool {
	return method == protocol.MethodResourcesRead || method == protocol.MethodToolsCall
}

// setBearer puts t on hr, over any Authorization header of the
// workload's: the target's tokens win.
func setBearer(hr *http.Request, t auth.Token) {
	hr.Header.Set("Authorization", "Bearer "+t.Value)
}

// refusedWithoutTokens turns a refusal of a session that has no tokens
// (header: it carried a pasted Authorization header) into its
// *UnauthorizedError, the answer's body drained; any other answer is
// returned as it is.
func refusedWithoutTokens(resp *http.Response, method string, header bool) (*http.Response, error) {
	if !refusal(resp) {
		return resp, nil
	}
	status, challenge := resp.StatusCode, challengeOf(resp)
	discard(resp)
	return nil, &UnauthorizedError{Method: method, Status: status, Challenge: challenge, NoTokens: true, Header: header}
}

// refusal reports whether resp refuses the request's authorization: 401,
// or 403 whose challenge says insufficient_scope (a step-up).
func refusal(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		return true
	case http.StatusForbidden:
		return insufficientScope(resp.Header.Values("WWW-Authenticate"))
	}
	return false
}

// insufficientScope reports whether a challenge carries
// error="insufficient_scope" (RFC 6750 §3.1).
func insufficientScope(challenges []string) bool {
	for _, c := range challenges {
		c = strings.ToLower(c)
		if strings.Contains(c, `error="insufficient_scope"`) || strings.Contains(c, "error=insufficient_scope") {
			return true
		}
	}
	return false
}

// challengeOf is resp's WWW-Authenticate, its values joined.
func challengeOf(resp *http.Response) string {
	return strings.Join(resp.Header.Values("WWW-Authenticate"), ", ")
}

// discard drains a little of a refused answer's body, so that its
// connection can be reused, and closes it. Its bytes are no read's: they
// are not counted.
func discard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
}

// do sends the request build makes for the token of the moment and, when
// the server refuses it, renews the token once and sends the request once
// more. build is called once per attempt with the token it carries (a
// zero Token when b is nil: no Authorization added, and a refusal, of a
// pasted Authorization header or of none, is unauthorized at once). It
// returns the answer that was not refused and the token it was sent
// with, an *UnauthorizedError when authorization failed, or the HTTP
// client's error as it is.
func (b *bearer) do(ctx context.Context, send func(*http.Request) (*http.Response, error), method string, build func(auth.Token) (*http.Request, error)) (*http.Response, auth.Token, error) {
	if b == nil {
		hr, err := build(auth.Token{})
		if err != nil {
			return nil, auth.Token{}, err
		}
		resp, err := send(hr)
		if err == nil {
			resp, err = refusedWithoutTokens(resp, method, hr.Header.Get("Authorization") != "")
		}
		return resp, auth.Token{}, err
	}
	tok, err := b.token(ctx, method)
	if err != nil {
		return nil, tok, err
	}
	for attempt := 0; ; attempt++ {
		hr, err := build(tok)
		if err != nil {
			return nil, tok, err
		}
		setBearer(hr, tok)
		resp, err := send(hr)
		if err != nil || !refusal(resp) {
			return resp, tok, err
		}
		status, challenge := resp.StatusCode, challengeOf(resp)
		discard(resp)
		if attempt > 0 {
			return nil, tok, &UnauthorizedError{Method: method, Status: status, Challenge: challenge}
		}
		renewed, err := b.refused(ctx, tok, status, challenge)
		if err != nil {
			if ctx.Err() != nil {
				return nil, tok, ctx.Err()
			}
			return nil, tok, &UnauthorizedError{Method: method, Status: status, Challenge: challenge, Cause: err}
		}
		tok = renewed
	}
}
