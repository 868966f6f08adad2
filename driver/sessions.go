package driver

import (
	"cmp"
	"slices"

	"github.com/readbench/readbench/results"
)

// sessionsOf counts the outcome of opening n sessions: errs[i] is the
// i-th session's error, nil when it connected.
func sessionsOf(n int, errs []error) results.Sessions {
	c := results.Sessions{Asked: n, Errors: []results.SessionError{}}
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
