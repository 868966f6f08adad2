package main

import (
	"testing"

	"github.com/readbench/readbench/internal/hostload"
)

// contention is how busy the machine was while a test ran readbench, for
// a test that measures: what the runs' results say (hostload.Says) and
// what the test's own window saw, so that the test judges the figure when
// the machine let readbench measure and readbench's honest answer
// otherwise, and its failure message says which it was.
type contention struct {
	window *hostload.Window
	says   []string // what each result said, in words
	busy   bool     // a result said the machine was contended
}

// watchMachine starts a test's window.
func watchMachine() *contention { return &contention{window: hostload.Watch()} }

// result notes what a run's result (rawResult) says of the machine.
func (c *contention) result(res map[string]any) {
	host, _ := res["host"].(map[string]any)
	var pressure *float64
	if p, ok := host["cpu_pressure"].(float64); ok {
		pressure = &p
	}
	bound, _ := res["generator_bound"].(bool)
	g, _ := res["generator"].(map[string]any)
	saturation, _ := g["saturation"].(string)
	busy, says := hostload.Says(pressure, bound, saturation)
	c.busy = c.busy || busy
	c.says = append(c.says, says)
}

// Busy says whether a result or the window says the machine was
// contended.
func (c *contention) Busy() bool { return c.busy || c.window.Busy() }

// String is the machine's state for a failure message.
func (c *contention) String() string {
	s := c.window.String()
	for _, r := range c.says {
		s += "; " + r
	}
	return s
}

// exitOnBusy accepts a run's exit 1 when its result was saved (at out)
// and the machine was contended: a run most of whose turns failed, or
// whose server it called overloaded, exits 1 by design (README, exit
// codes), and on a busy machine that is readbench's honest answer. It
// returns the result (nil when none was saved); any other exit status,
// or exit 1 on a machine the result and the window call quiet, fails the
// test.
func exitOnBusy(t *testing.T, c *contention, code int, stderr, out string) map[string]any {
	t.Helper()
	if code != 0 && code != 1 {
		t.Fatalf("exit %d (%s): %s", code, c, stderr)
	}
	res := rawResult(t, out)
	c.result(res)
	if code == 1 {
		if !c.Busy() {
			t.Fatalf("exit 1 on a quiet machine (%s): %s", c, stderr)
		}
		t.Logf("exit 1 on a busy machine, readbench's own answer (%s): %s", c, stderr)
	}
	return res
}
