package compare

import (
	"github.com/readbench/readbench/results"

	"github.com/readbench/readbench/stats"
)

// authLatencyDeltas are compare's latency blocks of authorization, when
// both runs had tokens: token requests (auth.token) and reads on a fresh
// token (auth.reads_fresh_token), metrics as bounds names them.
func authLatencyDeltas(base, nw *results.Result, floor float64) []LatencyDelta {
	if base.Auth == nil || nw.Auth == nil {
		return nil
	}
	var out []LatencyDelta
	for _, b := range []struct {
		name string
		a, b stats.Latency
	}{
		{"auth.token", base.Auth.TokenRequests.Latency, nw.Auth.TokenRequests.Latency},
		{"auth.reads_fresh_token", base.Auth.ReadsFreshToken, nw.Auth.ReadsFreshToken},
	} {
		out = append(out, LatencyDelta{Block: b.name, BaseCount: b.a.Count, NewCount: b.b.Count,
			Deltas: latencyDeltas(b.name+".", b.a, b.b, noiseOf(b.name, base, nw, floor))})
	}
	return out
}
