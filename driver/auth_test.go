package driver

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/stats"
)

// TestAuthWatch: a few unauthorized reads around a renewal are no lost
// authorization; a streak up to the end of the run, or many in all, is,
// in one line that says how many, since when and why.
func TestAuthWatch(t *testing.T) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	why := "resources/read: the server refused authorization (HTTP 401 Unauthorized) and the token could not be renewed: invalid_grant"
	cases := []struct {
		name   string
		reads  []bool // true: unauthorized, one a second
		want   string
		unsent []bool // true: the read at that index was never sent (no token)
	}{
		{"none", []bool{false, false, false}, "", nil},
		{"a few, then fine", []bool{false, true, true, false, true, false}, "", nil},
		{"refused from then on", []bool{false, false, true, true, true, true, true}, "the server refused authorization for 5 reads after 2s (every read from then on)", nil},
		{"many, not in a row", []bool{true, false, true, false, true, false, true, false, true, false}, "the server refused authorization for 5 reads; the token could not be renewed", nil},
		// The authorization server down mid-run: most of the reads were
		// never sent, and the run got its authorization back.
		{"down, then back", []bool{false, true, true, true, true, true, true, false, false},
			"6 reads unauthorized (6 in a row from 1s; authorized again from 7s): 2 refused by the server, 4 never sent (no token could be had); the token could not be renewed",
			[]bool{false, false, false, true, true, true, true, false, false}},
		{"back, every one refused", []bool{true, true, true, true, true, false},
			"the server refused authorization for 5 reads (5 in a row from 0s; authorized again from 5s); the token could not be renewed", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var w authWatch
			for i, u := range c.reads {
				w.read(u, i < len(c.unsent) && c.unsent[i], at(float64(i)), why)
			}
			got := w.lost(start, true)
			if c.want == "" {
				if got != "" {
					t.Errorf("lost %q, want none", got)
				}
				return
			}
			if !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, "invalid_grant") {
				t.Errorf("lost %q, want it to start %q and end with why", got, c.want)
			}
		})
	}
}

// TestRecordTokenRequests: the token source's requests become the
// phase's token figures, failures and refreshes apart.
func TestRecordTokenRequests(t *testing.T) {
	a := stats.NewAuth()
	recordTokenRequests(a, []auth.Request{
		{Grant: "client_credentials", Reason: "initial", Took: 90 * time.Millisecond},
		{Grant: "refresh_token", Reason: "expiring", Took: 20 * time.Millisecond},
		{Grant: "client_credentials", Reason: "refused", Took: 30 * time.Millisecond, Err: errors.New("invalid_client"), Answered: true},
		{Grant: "client_credentials", Reason: "refused", Took: 14 * time.Microsecond, Err: errors.New("connection refused")},
	})
	if q := a.Tokens; q.Count != 4 || q.Failures != 2 || q.Unanswered != 1 || q.Refreshes != 1 || q.ByReason["expiring"] != 1 || a.TokenLatency.Max() < 89*time.Millisecond {
		t.Errorf("token requests %+v", q)
	}
}
