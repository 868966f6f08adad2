package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// withAuth is the clean run's result as if it had run with tokens.
func withAuth(t *testing.T) *results.Result {
	r := fixture(t, false)
	r.Auth = &results.Auth{
		TokenRequests: stats.TokenRequests{
			Count: 4, Failures: 1, Unanswered: 1, Refreshes: 2,
			ByReason: map[string]int64{"initial": 1, "expiring": 2, "refused": 1, "step-up": 0},
			Latency:  stats.Latency{Count: 4, P50Ms: 81.5, P90Ms: 90, P99Ms: 97.25, P999Ms: 97.25, MaxMs: 97.25, MeanMs: 85},
		},
		ReadsFreshToken: stats.Latency{Count: 3, P50Ms: 42.5, P99Ms: 44, MaxMs: 44, MeanMs: 43},
		ReadsLater:      stats.Latency{Count: 150, P50Ms: 12.25, P99Ms: 19, MaxMs: 19, MeanMs: 13},
		Unauthorized:    7,
		Unsent:          5,
		Client: &auth.Client{Issuer: "https://id.example.com", ClientID: "loadtest", Grant: "authorization_code",
			Scope: []string{"mcp:read", "mcp:write"}, StepUps: 1},
		Lost: "the server refused authorization for 7 reads after 8s (every read from then on); the token could not be renewed: invalid_grant\x1b[2J",
	}
	return r
}

// TestAuthInEveryFormat: the table, markdown and HTML show the auth block
// of a run with tokens (its latency rows, counts and the lost line, made
// printable), and nothing of it for a run without.
func TestAuthInEveryFormat(t *testing.T) {
	formats := map[string]func(*bytes.Buffer, *results.Result) error{
		"table":    func(b *bytes.Buffer, r *results.Result) error { return WriteFullTable(b, r) }, // the auth table is detail
		"markdown": func(b *bytes.Buffer, r *results.Result) error { return WriteMarkdown(b, r) },
		"html":     func(b *bytes.Buffer, r *results.Result) error { return WriteHTML(b, []*results.Result{r}) },
	}
	for name, write := range formats {
		t.Run(name, func(t *testing.T) {
			var with, without bytes.Buffer
			if err := write(&with, withAuth(t)); err != nil {
				t.Fatal(err)
			}
			if err := write(&without, fixture(t, false)); err != nil {
				t.Fatal(err)
			}
			out := with.String()
			for _, want := range []string{"Authorization", "client loadtest", "id.example.com", "stepped up once", "no refresh token", "1 never answered", "5 never sent", "token requests", "reads, fresh token", "42.5", "97.3", "expiring 2", "2 refreshes", "7 reads", "could not be renewed: invalid"} {
				if !strings.Contains(strings.ReplaceAll(out, "authorization\n", "Authorization\n"), want) {
					t.Errorf("no %q in:\n%.3000s", want, out)
				}
			}
			if strings.Contains(out, "\x1b") {
				t.Error("a control character from the document reached the output")
			}
			if s := without.String(); strings.Contains(s, "token requests") || strings.Contains(s, "fresh token") {
				t.Errorf("auth shown for a run without tokens")
			}
		})
	}
}

// TestAuthCompareRows: compare shows the authorization rows when both
// runs had tokens.
func TestAuthCompareRows(t *testing.T) {
	a, b := withAuth(t), withAuth(t)
	b.Auth.TokenRequests.Latency.P99Ms = 150
	c, err := compare.Pair(a, b, compare.PairOptions{NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteCompareTable(&out, c); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "authorization") || !strings.Contains(s, "token request p99") || !strings.Contains(s, "read, fresh token p50") {
		t.Errorf("no authorization rows in:\n%s", s)
	}
}
