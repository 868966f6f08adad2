package driver

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/readbench/readbench/results"
)

// SessionCounts is how a run's sessions went: how many were asked for,
// connected and failed before the schedule, the reasons of the failures
// (grouped by message, the most frequent first), and with churn how many
// were opened in all and replaced, and how many replacements failed.
type SessionCounts struct {
	Asked, Connected, Failed int
	Errors                   []results.SessionError
	Opened, Replaced         int64
	ReplaceFailed            int64
}

// sessionsOf counts the outcome of opening n sessions: errs[i] is the
// i-th session's error, nil when it connected.
func sessionsOf(n int, errs []error) SessionCounts {
	c := SessionCounts{Asked: n, Errors: []results.SessionError{}}
	by := map[string]int64{}
	for _, err := range errs {
		if err == nil {
			continue
		}
		c.Failed++
		by[err.Error()]++
	}
	c.Connected = n - c.Failed
	for msg, k := range by {
		c.Errors = append(c.Errors, results.SessionError{Message: msg, Count: k})
	}
	slices.SortFunc(c.Errors, func(a, b results.SessionError) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Message, b.Message))
	})
	return c
}

// Line says in one line how many of how many sessions connected and why
// the others did not: "37 of 40 sessions connected, 3 failed: 3× no answer…".
func (c SessionCounts) Line() string {
	s := fmt.Sprintf("%d of %d sessions connected, %d failed", c.Connected, c.Asked, c.Failed)
	if len(c.Errors) == 0 {
		return s
	}
	parts := make([]string, len(c.Errors))
	for i, e := range c.Errors {
		parts[i] = fmt.Sprintf("%d× %s", e.Count, e.Message)
	}
	return s + ": " + strings.Join(parts, "; ")
}

// result is c in the result document's form.
func (c SessionCounts) result() results.Sessions {
	errs := c.Errors
	if errs == nil {
		errs = []results.SessionError{}
	}
	return results.Sessions{
		Asked: c.Asked, Connected: c.Connected, Failed: c.Failed, Errors: errs,
		Opened: c.Opened, Replaced: c.Replaced, ReplaceFailed: c.ReplaceFailed,
	}
}
