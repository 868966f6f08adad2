package client

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
)

// markEnv names the environment variable that marks every process a stdio
// server starts, however it detaches (signalMarked): its value is unique
// to the session.
const markEnv = "READBENCH_STDIO_SESSION"

// markDescendants gives cmd, not yet started, readbench's environment and
// a mark of its own, and returns the mark (markEnv=token), or nil when no
// token could be drawn: the server's descendants that leave its process
// group are then not found.
func markDescendants(cmd *exec.Cmd) []byte {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil
	}
	mark := markEnv + "=" + hex.EncodeToString(b[:])
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env, mark)
	return []byte(mark)
}
