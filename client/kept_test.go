package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
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

// TestKeptAnswerOverLimitStdio: a stdio server whose answer to the
// handshake is a line that does not end fails the handshake once the line
// passes maxKept, with the bytes named, the id first or never seen; it
// used to keep up to 256 MiB and wait for the handshake timeout.
func TestKeptAnswerOverLimitStdio(t *testing.T) {
	for _, c := range []struct {
		peer string
		want []string
	}{
		{endlessIDLastPeer, []string{"the server wrote ", " bytes of one message with no newline and no id yet, over the size limit of 32MiB for an answer readbench keeps whole"}},
		{endlessIDFirstPeer, []string{"the answer is over the size limit of 32MiB (", " bytes read when readbench stopped keeping it) for an answer readbench keeps whole"}},
	} {
		t.Run(c.peer, func(t *testing.T) {
			// A long timeout: 32 MiB through a pipe under -race on a saturated
			// machine took over 30 s; the failure must still be the size
			// limit's, never the timeout's (which the old code waited for).
			d := Dial{Target: targets.Target{Kind: targets.Stdio, Argv: peertest.Command(t, c.peer)}, HandshakeTimeout: 2 * time.Minute}
			s, _, err := Connect(context.Background(), d)
			if err == nil {
				s.Close()
				t.Fatal("the handshake succeeded")
			}
			if !errors.Is(err, ErrProtocol) || errors.As(err, new(*handshakeTimeoutError)) {
				t.Errorf("error %v, want a protocol failure before the handshake timeout", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\nwant it to say %q", err, w)
				}
			}
		})
	}
}

// TestKeptAnswerOverLimitHTTP: a Streamable HTTP server whose handshake
// answers are valid but bigger than maxKept (JSON with or without a
// Content-Length, or an SSE event) fails the handshake at the kept limit,
// which --max-answer does not raise; it used to be read up to 256 MiB
// and decoded.
func TestKeptAnswerOverLimitHTTP(t *testing.T) {
	instructions := strings.Repeat("A", endlessBytes)
	for _, c := range []struct {
		name  string
		sse   bool
		flush bool
		want  string
	}{
		{"json", false, false, "over the size limit of 32MiB"},
		{"json without length", false, true, "the answer is over the size limit of 32MiB"},
		{"sse", true, false, "the answer is over the size limit of 32MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			hs := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				m, err := decodeBody(r)
				if err != nil || !m.IsRequest() {
					w.WriteHeader(http.StatusAccepted)
					return
				}
				body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"big","version":"1"},"instructions":"%s"}}`, m.ID, instructions)
				switch {
				case c.sse:
					w.Header().Set("Content-Type", "text/event-stream")
					fmt.Fprintf(w, "event: message\ndata: %s\n\n", body)
				case c.flush:
					w.Header().Set("Content-Type", "application/json")
					w.(http.Flusher).Flush()
					_, _ = io.WriteString(w, body)
				default:
					w.Header().Set("Content-Type", "application/json")
					_, _ = io.WriteString(w, body)
				}
			}))
			d := Dial{Target: targets.Target{Kind: targets.HTTP, Address: hs.URL}, HandshakeTimeout: 2 * time.Minute, MaxAnswer: 1 << 30} // long: see the stdio test
			s, _, err := Connect(context.Background(), d)
			if err == nil {
				s.Close()
				t.Fatal("the handshake succeeded")
			}
			if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "for an answer readbench keeps whole") {
				t.Errorf("error\n%v\nwant a protocol failure saying %q, at the kept limit", err, c.want)
			}
		})
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
