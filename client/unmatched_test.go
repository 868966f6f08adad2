package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// simStdioPeer is the simulated server over stdio, whose wire= faults
// (duplicate, unsolicited) answer a read twice or answer an id never sent.
const simStdioPeer = "sim-stdio"

func serveSimStdio() int {
	if err := simserver.New(simserver.Options{}).ServeStdio(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sim-stdio peer:", err)
		return 1
	}
	return 0
}

// waitStray waits (at most 10 s) until report holds a *StrayError that
// done accepts, and returns the last one heard.
func waitStray(t *testing.T, last func() error, done func(*StrayError) bool) *StrayError {
	t.Helper()
	var se *StrayError
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if errors.As(last(), &se) && done(se) {
			return se
		}
	}
	t.Fatalf("heard %v, not what the test waits for", last())
	return nil
}

// TestUnmatchedAnswersSaidStdio: a stdio server that answers a read twice
// (wire=duplicate) or sends an answer to an id readbench never sent
// (wire=unsolicited) has its reads stay ok, and what it sent is counted
// and quoted through Dial.Stray, the channel of its stray lines, never
// dropped in silence as it was.
func TestUnmatchedAnswersSaidStdio(t *testing.T) {
	for _, c := range []struct {
		wire          string
		unknown, dups int64
		want          []string // the ids in the order their answers came: the simulated server's second answers may cross
	}{
		{"duplicate", 0, 2, []string{"the server answered 2 requests a second time (id 2, 3), the second answer skipped",
			"the server answered 2 requests a second time (id 3, 2), the second answer skipped"}},
		{"unsolicited", 2, 0, []string{"the server sent 2 answers to ids readbench never sent (id 987654321, 987654321), skipped"}},
	} {
		t.Run(c.wire, func(t *testing.T) {
			var got strayReports
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			d := Dial{Target: targets.Target{Kind: targets.Stdio, Argv: peertest.Command(t, simStdioPeer)},
				HandshakeTimeout: 20 * time.Second, Stray: got.add}
			s, _, err := Connect(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for i := range 2 {
				uri := fmt.Sprintf("sim:///f%d?mime=text/plain&size=100&wire=%s", i, c.wire)
				if a, err := s.ReadDocument(ctx, uri, ReadSpec{}); err != nil || a.Outcome != stats.OK {
					t.Fatalf("read %s: %+v, %v", uri, a, err)
				}
			}
			se := waitStray(t, got.last, func(se *StrayError) bool { return se.Unknown+se.Duplicates >= c.unknown+c.dups })
			if se.Unknown != c.unknown || se.Duplicates != c.dups || se.Lines != 0 {
				t.Errorf("counted %d unknown, %d second answers, %d lines; want %d, %d, 0", se.Unknown, se.Duplicates, se.Lines, c.unknown, c.dups)
			}
			if !slices.Contains(c.want, se.Error()) {
				t.Errorf("said\n%s\nwant one of\n%s", se, strings.Join(c.want, "\n"))
			}
			if !errors.Is(se, ErrProtocol) {
				t.Errorf("%v is not a protocol violation", se)
			}
		})
	}
}

// TestUnmatchedAnswersSaidSSE: on an HTTP+SSE stream, a second answer to
// a read and answers to ids never sent (a number, a string, null) are
// counted and quoted too, and the read keeps its first answer.
func TestUnmatchedAnswersSaidSSE(t *testing.T) {
	for _, c := range []struct {
		name          string
		extra         func(id string) []string // events after the answer
		unknown, dups int64
		ids           []string
	}{
		{"second answer", func(id string) []string { return []string{answerEvent(id)} }, 0, 1, []string{"1"}},
		{"unknown ids", func(string) []string {
			return []string{answerEvent("555"), answerEvent(`"abc"`), "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n\n"}
		}, 3, 0, []string{"555", `"abc"`, "null"}},
		{"none", func(string) []string { return nil }, 0, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeSSE(t, func(msg []byte, send func(string)) {
				m, err := protocol.Decode(msg)
				if err != nil || !m.IsRequest() {
					return
				}
				send(answerEvent(string(m.ID)))
				for _, ev := range c.extra(string(m.ID)) {
					send(ev)
				}
			})
			tr := f.start(t, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			a, err := tr.call(ctx, testRequest(1, "x/list"))
			if err != nil || !strings.Contains(string(a.Body), `"n":1`) {
				t.Fatalf("call: %v, %v", a, err)
			}
			// A second call whose answer comes after the first call's extra
			// events: by then the stream has been read past them. Its own
			// extras follow its answer, so the count is awaited (bounded)
			// until the reader has taken them too.
			if _, err := tr.call(ctx, testRequest(2, "x/list")); err != nil {
				t.Fatal(err)
			}
			want := c.dups
			if c.dups > 0 {
				want = 2 // each call was answered twice
			}
			var se *StrayError
			for {
				se = nil
				if !errors.As(tr.stray.err(), &se) {
					se = &StrayError{}
				}
				if (se.Unknown == 2*c.unknown && se.Duplicates == want) || ctx.Err() != nil {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			if se.Unknown != 2*c.unknown || se.Duplicates != want {
				t.Errorf("counted %d unknown, %d second answers (%v); want %d, %d", se.Unknown, se.Duplicates, tr.stray.err(), 2*c.unknown, want)
			}
			if c.unknown > 0 && strings.Join(se.UnknownIDs, " ") != strings.Join(c.ids, " ") {
				t.Errorf("quoted %q, want %q", se.UnknownIDs, c.ids)
			}
		})
	}
}

// answerEvent is an SSE message event answering id with {"n":id}.
func answerEvent(id string) string {
	return fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"n\":%s}}\n\n", id, id)
}
