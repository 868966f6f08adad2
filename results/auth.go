package results

import (
	"maps"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/stats"
)

// Auth is authorization as a measured cost, for a run against an
// OAuth-protected target (one with tokens); the result's auth key is null
// for a run without. Added in v1.
type Auth struct {
	TokenRequests stats.TokenRequests `json:"token_requests"`
	// ReadsFreshToken is the read latency (as read: reads sent, from their
	// intended start) of the reads that were the first of their session on
	// their token, ReadsLater that of every other read: what a server's
	// first sight of a token costs.
	ReadsFreshToken stats.Latency `json:"reads_fresh_token"`
	ReadsLater      stats.Latency `json:"reads_later"`
	// Unauthorized is the reads the server refused after one renewal of
	// their token, or that had no token (totals.outcomes.unauthorized).
	Unauthorized int64 `json:"unauthorized"`
	// Unsent is the unauthorized reads never sent: no token could be had
	// (the authorization server down or refusing); the server refused
	// the others. Added in v1.
	Unsent int64 `json:"unsent"`
	// Lost is the one line saying the run lost its authorization (the
	// server kept refusing its reads), "" when it did not.
	Lost string `json:"lost"`
	// Client is who the run obtained its tokens as, at the run's end
	// (never the secret); null when the token source could not say.
	Client *auth.Client `json:"client"`
}

// authOf is the auth block of a measured phase, nil when it had no tokens.
func authOf(measured *stats.Phase, lost string, client *auth.Client) (*Auth, error) {
	a := measured.Auth
	if a == nil {
		return nil, nil
	}
	out := &Auth{
		TokenRequests: a.Tokens,
		Unauthorized:  measured.Outcomes[stats.Unauthorized],
		Unsent:        a.Unsent,
		Lost:          lost,
		Client:        client,
	}
	out.TokenRequests.ByReason = maps.Clone(a.Tokens.ByReason)
	var err error
	for _, b := range []struct {
		dst *stats.Latency
		h   *stats.Histogram
	}{
		{&out.TokenRequests.Latency, a.TokenLatency}, {&out.ReadsFreshToken, a.FreshToken}, {&out.ReadsLater, a.LaterToken},
	} {
		if *b.dst, err = LatencyOf(b.h); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// authPhase reads an auth block back into what the recorder held (nil
// for a result without one), for merging shards.
func authPhase(a *Auth) (*stats.Auth, error) {
	if a == nil {
		return nil, nil
	}
	out := stats.NewAuth()
	reasons := out.Tokens.ByReason // every reason, zeros too; merging adds to it
	maps.Copy(reasons, a.TokenRequests.ByReason)
	out.Tokens = a.TokenRequests
	out.Tokens.ByReason = reasons
	out.Unsent = a.Unsent
	var err error
	for _, b := range []struct {
		dst **stats.Histogram
		l   stats.Latency
	}{
		{&out.TokenLatency, a.TokenRequests.Latency}, {&out.FreshToken, a.ReadsFreshToken}, {&out.LaterToken, a.ReadsLater},
	} {
		if *b.dst, err = b.l.Histogram(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// mergedClient is the first shard's OAuth client (the shards of a run
// share their configuration; each had its own tokens).
func mergedClient(in []MergeInput) *auth.Client {
	for _, s := range in {
		if s.Result.Auth != nil && s.Result.Auth.Client != nil {
			return s.Result.Auth.Client
		}
	}
	return nil
}

// mergedLost is the first shard's line saying it lost its authorization.
func mergedLost(in []MergeInput) string {
	for _, s := range in {
		if s.Result.Auth != nil && s.Result.Auth.Lost != "" {
			return s.Name + ": " + s.Result.Auth.Lost
		}
	}
	return ""
}
