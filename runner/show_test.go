package runner

import (
	"testing"

	"github.com/readbench/readbench/driver"
)

// TestStepSummary: once a setup step is over the live view's line says
// only what it came to (the sessions, the resources listed), never the
// words of the wait.
func TestStepSummary(t *testing.T) {
	for _, c := range []struct {
		st   driver.SetupStep
		want string
	}{
		{driver.SetupStep{Stage: driver.StageConnect, Doing: "open", Done: 2, Of: 2}, "2 sessions"},
		{driver.SetupStep{Stage: driver.StageConnect, Doing: "handshake", Of: 1}, "1 session"},
		{driver.SetupStep{Stage: driver.StageConnect, Doing: "failed", Done: 3, Of: 4, Failed: 1}, "3 of 4 sessions (1 failed)"},
		{driver.SetupStep{Stage: driver.StageDiscover, Doing: "resources/list", Done: 2, Listed: 200}, "200 listed"},
		{driver.SetupStep{Stage: driver.StageDiscover, Doing: "sizes", Done: 20, Of: 20}, "sizes of 20 resources read"},
		{driver.SetupStep{Stage: driver.StageDiscover, Doing: "resources/list"}, ""},
	} {
		if got := stepSummary(c.st); got != c.want {
			t.Errorf("stepSummary(%+v) = %q, want %q", c.st, got, c.want)
		}
	}
}
