package auth

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Challenge is what a server's WWW-Authenticate header asks of a Bearer
// client (RFC 6750 §3, RFC 9728 §5.1): where its protected resource
// metadata is, the scope it wants, and why it refused.
type Challenge struct {
	ResourceMetadata string   // resource_metadata: the PRM document's URL ("" when not given)
	Scope            []string // scope, split on spaces
	Error            string   // error, such as "invalid_token" or "insufficient_scope"
}

// InsufficientScope reports whether the challenge asks for more scope
// (a 403 that a step-up token request may cure).
func (c Challenge) InsufficientScope() bool { return c.Error == "insufficient_scope" }

// ParseChallenge reads the Bearer challenge of a WWW-Authenticate value
// (the header may carry several schemes; the others are ignored). An
// empty value is an empty Challenge; a malformed one is an error, so a
// server's broken header is reported rather than guessed at.
func ParseChallenge(header string) (Challenge, error) {
	if strings.TrimSpace(header) == "" {
		return Challenge{}, nil
	}
	cs, err := oauthex.ParseWWWAuthenticate([]string{header})
	if err != nil {
		return Challenge{}, fmt.Errorf("WWW-Authenticate: %w", err)
	}
	for _, c := range cs {
		if c.Scheme != "bearer" {
			continue
		}
		return Challenge{
			ResourceMetadata: c.Params["resource_metadata"],
			Scope:            strings.Fields(c.Params["scope"]),
			Error:            c.Params["error"],
		}, nil
	}
	return Challenge{}, nil
}
