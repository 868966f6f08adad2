package driver

import (
	"sync"
	"time"

	"github.com/readbench/readbench/client"
)

// DefaultHandshakeTimeout bounds opening a session when neither
// --handshake-timeout nor the workload's load.handshake_timeout says: the
// client's own default, named here so that a command shows it (the flag's
// default, the setup line's "of the 30s handshake timeout") from the
// package whose options it sets, not from the client's.
const DefaultHandshakeTimeout = client.DefaultHandshakeTimeout

// What a run does before its first turn: connect its sessions, then, for
// classes a listing resolves, discover the target. Both can take long (a
// stdio server installed by npx on first start, a listing of thousands of
// pages), so each step is told to Options.Setup (DiscoverOptions.Setup
// for init), and a terminal can say what is awaited instead of silence.

// SetupStep is what a run (or a discovery) is waiting for before its first
// turn. Stage is "connect", "discover" or "ready"; Doing is the step: "start" (a
// stdio server being started or a stream opened) and "handshake" when
// connecting, the list method being paged ("resources/list",
// "resources/templates/list") or "sizes" (sampled reads learning sizes)
// when discovering, "open" and "failed" as each session's connect ends.
// Done and Of count sessions connected of those asked (Failed those that
// did not), or sizes read of those to read; a list method counts its pages in Done (Of
// 0: not known ahead) and the entries listed so far in Listed.
type SetupStep struct {
	Stage    string
	Doing    string
	Done, Of int
	Failed   int
	Listed   int
}

// Setup stages; StageReady is told once, when the sessions are open and
// the plan is made: the schedule starts next.
const (
	StageConnect  = "connect"
	StageDiscover = "discover"
	StageReady    = "ready"
)

// setupTell serialises the steps of parallel sessions for one callback,
// so the callback never runs twice at once; a nil tell does nothing.
type setupTell struct {
	mu   sync.Mutex
	tell func(SetupStep)
}

func (s *setupTell) say(st SetupStep) {
	if s == nil || s.tell == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tell(st)
}

// HandshakeLimit is the handshake timeout a run uses (0: the client's
// default) and what sets it, the clause its error quotes
// (client.Dial.HandshakeSetBy): --handshake-timeout (o.HandshakeTimeout,
// given by the flag), else the workload's load.handshake_timeout, else
// the default, which either sets.
func (o Options) HandshakeLimit() (time.Duration, string) {
	switch {
	case o.HandshakeTimeout > 0:
		return o.HandshakeTimeout, "--handshake-timeout sets it"
	case o.Workload != nil && o.Workload.Load.HandshakeTimeout > 0:
		return o.Workload.Load.HandshakeTimeout, "load.handshake_timeout in the workload sets it, --handshake-timeout overrides it"
	}
	return 0, "--handshake-timeout or load.handshake_timeout in the workload sets it"
}

// setupOf is the step reporter of a discovery: nil (silent) without a
// callback.
func setupOf(tell func(SetupStep)) *setupTell {
	if tell == nil {
		return nil
	}
	return &setupTell{tell: tell}
}
