package simserver

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Protect wraps the resource's handler with the bearer check every
// request passes (RFC 6750, as the MCP authorization specification uses
// it): no token, or one that is invalid, expired or for another resource
// (RFC 8707 audience), is answered 401 and a token without the required
// scopes 403 insufficient_scope, each with a WWW-Authenticate challenge
// naming the protected resource metadata and the scopes to ask for.
//
// The go-sdk's auth.RequireBearerToken does most of this but writes no
// error parameter in its challenge, which the specification's step-up
// (403 error="insufficient_scope") needs, so the check is here.
func (a *OAuth) Protect(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, ok := bearerToken(r.Header.Values("Authorization"))
		if !ok {
			a.unauthorized.Add(1)
			a.challenge(w, http.StatusUnauthorized, "", "")
			return
		}
		c, err := a.verify(tok)
		if err != nil {
			a.unauthorized.Add(1)
			a.challenge(w, http.StatusUnauthorized, "invalid_token", err.Error())
			return
		}
		have := strings.Fields(c.Scope)
		for _, s := range a.opts.RequiredScopes {
			if !slices.Contains(have, s) {
				a.forbidden.Add(1)
				a.challenge(w, http.StatusForbidden, "insufficient_scope", fmt.Sprintf("the token lacks scope %q", s))
				return
			}
		}
		a.accepted.Add(1)
		h.ServeHTTP(w, r)
	})
}

// bearerToken finds the token of an Authorization: Bearer header. A
// request with two Authorization headers has none.
func bearerToken(values []string) (string, bool) {
	if len(values) != 1 {
		return "", false
	}
	scheme, tok, ok := strings.Cut(values[0], " ")
	tok = strings.TrimLeft(tok, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" || strings.ContainsAny(tok, " \t") {
		return "", false
	}
	return tok, true
}

// verify checks an access token's signature, issuer, expiry and audience.
func (a *OAuth) verify(tok string) (*accessClaims, error) {
	var c accessClaims
	_, err := jwt.ParseWithClaims(tok, &c, func(*jwt.Token) (any, error) { return a.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithIssuer(a.opts.Issuer),
		jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithTimeFunc(a.opts.Now))
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, errors.New("the token has expired")
	case err != nil:
		return nil, fmt.Errorf("the token is not valid here: %w", err)
	case !oauthex.MatchesResource(c.Audience, a.opts.Resource):
		return nil, fmt.Errorf("the token is for %q, not %s", []string(c.Audience), a.opts.Resource)
	}
	return &c, nil
}

// challenge answers a refused request with its WWW-Authenticate header.
func (a *OAuth) challenge(w http.ResponseWriter, status int, code, desc string) {
	params := []string{fmt.Sprintf("resource_metadata=%q", a.prmURL)}
	if len(a.opts.RequiredScopes) > 0 {
		params = append(params, fmt.Sprintf("scope=%q", strings.Join(a.opts.RequiredScopes, " ")))
	}
	if code != "" {
		params = append(params, fmt.Sprintf("error=%q", code))
	}
	if desc != "" {
		params = append(params, fmt.Sprintf("error_description=%q", strings.ReplaceAll(desc, `"`, "'")))
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	text := "Unauthorized"
	if status == http.StatusForbidden {
		text = "Forbidden"
	}
	if desc != "" {
		text += ": " + desc
	}
	http.Error(w, text, status)
}
