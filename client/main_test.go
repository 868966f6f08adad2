package client

import (
	"testing"

	"github.com/readbench/readbench/internal/peertest"
)

// TestMain makes the test binary a stdio peer when re-executed as one
// (peertest.Command), and runs the tests otherwise.
func TestMain(m *testing.M) {
	peertest.Main(m, faultPeers())
}
