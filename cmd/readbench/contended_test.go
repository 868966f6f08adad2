package main

import (
	"fmt"
	"testing"

	"github.com/readbench/readbench/internal/hostload"
	"github.com/readbench/readbench/results"
)

// contention is how busy the machine was while a test ran readbench, for
// a test that measures: what the runs' results say (host.cpu_pressure
// from results.AdviceCaveatPressure, generator_bound) and what the test's
// own window saw (hostload), so that the test judges the figure when the
// machine let readbench measure and readbench's honest answer otherwise,
// and its failure message says which it was.
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
	pressure := "unknown"
	if p, ok := host["cpu_pressure"].(float64); ok {
		pressure = fmt.Sprintf("%.2f", p)
		c.busy = c.busy || p >= results.AdviceCaveatPressure
	}
	bound, _ := res["generator_bound"].(bool)
	c.busy = c.busy || bound
	s := fmt.Sprintf("host.cpu_pressure %s, generator_bound %v", pressure, bound)
	if g, _ := res["generator"].(map[string]any); g != nil && g["saturation"] != nil && g["saturation"] != "" {
		s += fmt.Sprintf(" (%v)", g["saturation"])
	}
	c.says = append(c.says, s)
}

// Busy says whether a result or the window says the machine was
// contended.
func (c *contention) Busy() bool { return c.busy || c.window.Busy() }

// String is the machine's state for a failure message.
func (c *contention) String() string {
	s := c.window.String()
	for _, r := range c.says {
		s += "; readbench says: " + r
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
