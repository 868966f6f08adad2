package simserver

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// writeLog is an io.Writer that keeps every Write call apart.
type writeLog struct {
	mu     sync.Mutex
	writes [][]byte
	grew   chan struct{} // a token per Write
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, bytes.Clone(p))
	w.mu.Unlock()
	w.grew <- struct{}{}
	return len(p), nil
}

// lines returns the messages written so far and the number of writes.
func (w *writeLog) lines(t *testing.T) ([]*protocol.Message, int) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*protocol.Message
	sc := bufio.NewScanner(bytes.NewReader(bytes.Join(w.writes, nil)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, decodeMsg(t, sc.Bytes()))
	}
	return out, len(w.writes)
}

// TestStdioInstantReads: reads that wait for nothing are answered by the
// connection's loop, in the order they came and in one write when they came
// together, while a read with a delay is answered after them and stays
// cancellable.
func TestStdioInstantReads(t *testing.T) {
	for _, c := range []struct {
		name   string
		cancel bool
	}{{"answered", false}, {"cancelled", true}} {
		t.Run(c.name, func(t *testing.T) {
			s := New(Options{})
			serverIn, in := io.Pipe()
			out := &writeLog{grew: make(chan struct{}, 100)}
			done := make(chan error, 1)
			go func() { done <- s.ServeStdio(context.Background(), serverIn, out) }()

			var burst strings.Builder
			burst.WriteString(request(t, 100, protocol.MethodResourcesRead, readParams("sim:///slow?delay=300ms&size=10", "")) + "\n")
			for id := 1; id <= 20; id++ {
				burst.WriteString(request(t, id, protocol.MethodResourcesRead, readParams("sim:///compare/text.md?mime=text/markdown&size=1024", protocol.V20260728)) + "\n")
			}
			if _, err := io.WriteString(in, burst.String()); err != nil { // one write: the loop has all 21 lines at once
				t.Fatal(err)
			}
			<-out.grew
			msgs, writes := out.lines(t)
			if len(msgs) != 20 || writes != 1 {
				t.Fatalf("%d answers in %d writes after the burst, want the 20 instant ones in 1", len(msgs), writes)
			}
			for i, m := range msgs {
				if want := string(protocol.IntID(int64(i + 1))); string(m.ID) != want {
					t.Fatalf("answer %d has id %s, want %s", i, m.ID, want)
				}
				decodeRead(t, m)
			}
			if c.cancel {
				if _, err := io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":100}}`+"\n"); err != nil {
					t.Fatal(err)
				}
				waitStats(t, s, "the slow read cancelled", func(st Stats) bool { return st.Cancelled == 1 && st.InFlight == 0 })
			}
			in.Close() // EOF: ServeStdio answers what is in flight, then returns
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			msgs, _ = out.lines(t)
			switch {
			case c.cancel && len(msgs) != 20:
				t.Errorf("%d answers, want 20: the cancelled read must not be answered", len(msgs))
			case !c.cancel && (len(msgs) != 21 || string(msgs[20].ID) != "100"):
				t.Errorf("%d answers, the last %s; want 21, the delayed read's last", len(msgs), msgs[len(msgs)-1].ID)
			}
		})
	}
}
