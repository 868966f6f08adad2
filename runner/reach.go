package runner

import (
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/results"
)

// Reach is how this process reaches a target, the same for every command
// that opens a session (run, capacity, ab, replay, check, init, login),
// as the options a run starts from: embedded starts the embedded target
// (readbench passes its own executable with "serve --stdio", so the
// simulated server is a real child process behind real pipes); servers
// are told the client is tool (its clientInfo is the name and version a
// result's tool key names, so the two never disagree); and handshake,
// above 0, bounds opening a session (--handshake-timeout: it overrides
// the workload's load.handshake_timeout; 0 leaves that key, else
// driver.DefaultHandshakeTimeout).
func Reach(embedded []string, tool results.Tool, handshake time.Duration) driver.Options {
	return driver.Options{
		EmbeddedCommand:  embedded,
		Client:           client.Implementation{Name: tool.Name, Version: tool.Version},
		HandshakeTimeout: handshake,
	}
}
