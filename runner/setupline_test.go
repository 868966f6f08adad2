package runner

import (
	"testing"
	"time"

	"github.com/readbench/readbench/driver"
)

// TestSetupText: the connecting and discovering line says what is
// awaited, and for how long once a step is slow.
func TestSetupText(t *testing.T) {
	const tg = "stdio:srv"
	for _, c := range []struct {
		st      driver.SetupStep
		elapsed time.Duration
		want    string
	}{
		{driver.SetupStep{Stage: driver.StageConnect, Doing: "start", Of: 1}, 0,
			"readbench: connecting to stdio:srv: starting the server"},
		{driver.SetupStep{Stage: driver.StageConnect, Doing: "handshake", Of: 1}, 300 * time.Millisecond,
			"readbench: connecting to stdio:srv: waiting for the server to answer the handshake"},
		{driver.SetupStep{Stage: driver.StageConnect, Doing: "handshake", Done: 3, Of: 8}, 4200 * time.Millisecond,
			"readbench: connecting to stdio:srv: waiting for the server to answer the handshake (3/8 sessions connected), 4s of the 30s handshake timeout"},
		{driver.SetupStep{Stage: driver.StageConnect, Doing: "failed", Done: 150, Failed: 12, Of: 200}, 0,
			"readbench: connecting to stdio:srv: sessions opening (150/200 sessions connected, 12 failed)"},
		{driver.SetupStep{Stage: driver.StageDiscover, Doing: "resources/list"}, 0,
			"readbench: discovering stdio:srv: resources/list"},
		{driver.SetupStep{Stage: driver.StageDiscover, Doing: "resources/list", Done: 3, Listed: 150}, 2 * time.Second,
			"readbench: discovering stdio:srv: resources/list, page 3 (150 listed) (2s)"},
		{driver.SetupStep{Stage: driver.StageDiscover, Doing: "sizes", Done: 4, Of: 20}, 0,
			"readbench: discovering stdio:srv: reading resources to learn their sizes, 4 of 20"},
	} {
		if got := setupText(tg, c.st, c.elapsed, 30*time.Second); got != c.want {
			t.Errorf("%+v after %v:\n got %q\nwant %q", c.st, c.elapsed, got, c.want)
		}
	}
}
