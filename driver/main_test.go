package driver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/simserver"
)

// TestMain makes the test binary a stdio peer when re-executed as one
// (peertest.Command), and runs the tests otherwise.
func TestMain(m *testing.M) {
	peertest.Main(m, map[string]func() int{simStdio: serveSim, slowSimStdio: serveSlowSim, postChange: servePostChange})
}

// The package's own stdio peers: the simulated server, and the same
// behind a start that never ends for every other child (slowSim).
const (
	simStdio     = "sim-stdio"
	slowSimStdio = "slow-sim-stdio"
	slowDirEnv   = "READBENCH_TEST_SLOW_DIR"
)

func serveSim() int {
	if err := simserver.New(simserver.Options{}).ServeStdio(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sim peer:", err)
		return 1
	}
	return 0
}

// serveSlowSim takes the next number from the folder slowDirEnv names
// (creating n0, n1, … exclusively, so children started at once still get
// distinct numbers); an odd one starts too slowly for any handshake
// timeout a test sets (a minute), an even one serves at once. Half the
// sessions fail, always the same count whatever the machine's speed.
func serveSlowSim() int {
	dir := os.Getenv(slowDirEnv)
	for i := 0; ; i++ {
		f, err := os.OpenFile(filepath.Join(dir, "n"+strconv.Itoa(i)), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "slow sim peer:", err)
			return 2
		}
		f.Close()
		if i%2 == 1 {
			time.Sleep(time.Minute)
			return 0
		}
		return serveSim()
	}
}
