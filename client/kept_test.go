package client

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/protocol"
)

// An answer readbench keeps whole to decode it (the handshake's, a
// listing page's) is bounded by maxKept, far below the answer limit: a
// server whose handshake answer never ends fails when it passes the
// limit, naming the bytes, and does not wait out the handshake timeout.

// The stdio peers of the kept-limit tests: each answers its first request
// with endlessBytes of one message with no newline, then sleeps.
const (
	endlessIDLastPeer  = "endless-id-last"  // the id would come last (the TypeScript SDK's order): never seen
	endlessIDFirstPeer = "endless-id-first" // the id first
)

// endlessBytes is more than maxKept and far less than the answer limit,
// so only the kept limit can end the handshake before its timeout.
const endlessBytes = maxKept + 8<<20

func serveEndless(idFirst bool) func() int {
	return func() int {
		in := bufio.NewReader(os.Stdin)
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 1
		}
		m, err := protocol.Decode(line)
		if err != nil {
			return 1
		}
		out := bufio.NewWriterSize(os.Stdout, 64<<10)
		if idFirst {
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"instructions":"`, m.ID)
		} else {
			fmt.Fprint(out, `{"jsonrpc":"2.0","result":{"instructions":"`)
		}
		chunk := []byte(strings.Repeat("A", 64<<10))
		for n := 0; n < endlessBytes; n += len(chunk) {
			if _, err := out.Write(chunk); err != nil {
				return 1
			}
		}
		_ = out.Flush()
		time.Sleep(time.Hour) // no newline, ever: only a signal ends it
		return 0
	}
}

// TestKeptBufferBounded: a buffer kept whole grows by doubling and never
// reserves more than its limit, whatever the pieces.
func TestKeptBufferBounded(t *testing.T) {
	for _, c := range []struct {
		name         string
		limit, piece int
	}{
		{"small pieces", 1 << 20, 1000},
		{"odd limit", 3<<20 + 7, 64 << 10},
		{"one piece", 5 << 20, 5 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b []byte
			p := make([]byte, c.piece)
			for len(b)+c.piece <= c.limit {
				b = appendKept(b, p, int64(c.limit))
				if cap(b) > c.limit {
					t.Fatalf("%d bytes kept in a buffer of %d, over the limit %d", len(b), cap(b), c.limit)
				}
			}
		})
	}
	body := strings.Repeat("x", 3<<20)
	resp := &http.Response{Body: io.NopCloser(strings.NewReader(body))}
	got, err := readBody(resp, 3<<20)
	if err != nil || len(got) != len(body) || cap(got) > 3<<20+1 {
		t.Errorf("readBody of exactly the limit: %d bytes, cap %d, %v", len(got), cap(got), err)
	}
	resp = &http.Response{Body: io.NopCloser(strings.NewReader(body + "y"))}
	if _, err := readBody(resp, 3<<20); !errors.Is(err, protocol.ErrTooLarge) {
		t.Errorf("readBody past the limit: %v", err)
	}
}
