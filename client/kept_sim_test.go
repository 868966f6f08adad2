package client

import (
	"context"
	"fmt"
	"os"

	"github.com/readbench/readbench/simserver"
)

// simEndlessPeer is the simulated server over stdio with
// EndlessHandshake: its answer to initialize (and server/discover) never
// ends, and no newline ever comes.
const simEndlessPeer = "sim-endless-handshake"

func serveSimEndless() int {
	if err := simserver.New(simserver.Options{EndlessHandshake: true}).ServeStdio(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sim-endless-handshake peer:", err)
		return 1
	}
	return 0
}
