package main

import (
	"strings"
	"testing"
)

// TestEndlessHandshake (issue 47, item 14): `readbench serve
// --endless-handshake`, over stdio and Streamable HTTP, answers the
// handshake with a message that never ends. `check` fails its handshake
// row with the kept limit and the bytes named (exit 1), before its
// handshake timeout of 90 s, which the message does not name. The answer
// was kept up to 256 MiB (0.76 to 1.12 GB of RSS), and a stdio line with
// no newline waited out the handshake timeout.
func TestEndlessHandshake(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, target string }{
		{"stdio", "stdio:" + binary + " serve --stdio --endless-handshake"},
		{"http", startServe(t, "--endless-handshake")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := readbench(t, t.TempDir(), "check", "--target", tc.target, "--handshake-timeout", "90s")
			out := stdout + stderr
			if code != exitFail || !strings.Contains(out, "over the size limit of 32MiB") ||
				!strings.Contains(out, "for an answer readbench keeps whole") || strings.Contains(out, "handshake timeout") {
				t.Errorf("exit %d, want %d failing the handshake at the kept limit, before the handshake timeout:\n%s", code, exitFail, out)
			}
		})
	}
}
