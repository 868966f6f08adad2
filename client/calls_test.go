package client

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// TestCallsMatchCancelAndLate: the one table stdio and HTTP+SSE share
// gives each answer to its caller, gives an answer that raced the end of
// the stream or the cancellation to its caller after all, remembers an
// abandoned id so that its answer is counted as late (once), and turns a
// server's request into a reply.
func TestCallsMatchCancelAndLate(t *testing.T) {
	type late struct {
		wire  int64
		after time.Duration
	}
	var lates []late
	c := newCalls(func(l stats.LateSample) { lates = append(lates, late{l.WireBytes, l.AfterCancel}) })
	failed := make(chan struct{})
	dead := func() error { return errors.New("dead") }
	msg := func(id string) []byte { return []byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`) }
	answer := func(b []byte) func() *Response { return func() *Response { return &Response{Body: b} } }

	ch := c.add(1) // answered: the caller gets it
	c.route(msg("1"), 10, time.Now(), answer(msg("1")))
	if a, cancelled, err := c.wait(context.Background(), 1, ch, failed, dead); err != nil || cancelled || string(a.Body) != string(msg("1")) {
		t.Fatalf("answered call: %v %v %v", a, cancelled, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ch = c.add(2) // answered before the caller saw its context end: still its answer
	c.route(msg("2"), 10, time.Now(), answer(msg("2")))
	if a, cancelled, err := c.wait(ctx, 2, ch, failed, dead); err != nil || cancelled || a == nil {
		// select may pick either ready case; both must end with the answer
		t.Fatalf("answer that raced the cancel: %v %v %v", a, cancelled, err)
	}

	ch = c.add(3) // abandoned: a tombstone, then the answer counts as late, once
	if _, cancelled, err := c.wait(ctx, 3, ch, failed, dead); !cancelled || !errors.Is(err, context.Canceled) {
		t.Fatalf("abandoned call: cancelled %v, err %v", cancelled, err)
	}
	c.route(msg("3"), 42, time.Now(), func() *Response { t.Fatal("a late answer was built"); return nil })
	c.route(msg("3"), 42, time.Now(), answer(msg("3")))
	if len(lates) != 1 || lates[0].wire != 42 || lates[0].after < 0 {
		t.Errorf("late answers %+v, want one of 42 bytes", lates)
	}

	var tagged []int64 // a request tagged WithLate reports to its own counter
	ch = c.add(6)
	tctx, tcancel := context.WithCancel(WithLate(context.Background(), func(l stats.LateSample) { tagged = append(tagged, l.WireBytes) }))
	tcancel()
	c.wait(tctx, 6, ch, failed, dead)
	c.route(msg("6"), 7, time.Now(), answer(msg("6")))
	if len(tagged) != 1 || tagged[0] != 7 || len(lates) != 1 {
		t.Errorf("tagged late answers %v, session's %d: want the tagged counter alone", tagged, len(lates))
	}

	close(failed) // the stream ends: a pending call fails, one answered in time does not
	ch = c.add(4)
	if _, _, err := c.wait(context.Background(), 4, ch, failed, dead); err == nil || err.Error() != "dead" {
		t.Errorf("call on a dead stream: %v", err)
	}
	ch = c.add(5)
	c.route(msg("5"), 10, time.Now(), answer(msg("5")))
	if a, _, err := c.wait(context.Background(), 5, ch, failed, dead); err != nil || a == nil {
		t.Errorf("answer that raced the end of the stream: %v %v", a, err)
	}

	if r := c.route([]byte(`{"jsonrpc":"2.0","id":"s1","method":"ping"}`), 1, time.Now(), nil); string(r) != `{"jsonrpc":"2.0","id":"s1","result":{}}` {
		t.Errorf("reply to a server ping: %s", r)
	}
	if r := c.route([]byte(`{"jsonrpc":"2.0","method":"notifications/message"}`), 1, time.Now(), nil); r != nil {
		t.Errorf("a notification got a reply: %s", r)
	}
}

// TestCancelReason: the reason a cancellation gives is the cause the
// caller set, or a plain word.
func TestCancelReason(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("turn deadline"))
	if got := cancelReason(ctx); got != "turn deadline" {
		t.Errorf("with a cause: %q", got)
	}
	ctx, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if got := cancelReason(ctx); got != "cancelled" {
		t.Errorf("plain cancel: %q", got)
	}
	ctx, cancel3 := context.WithTimeout(context.Background(), 0)
	defer cancel3()
	<-ctx.Done()
	if got := cancelReason(ctx); got != "timeout" {
		t.Errorf("deadline: %q", got)
	}
}

// TestCallsEcho: a request with the id and method of one of ours is our
// own request come back (cat): the caller gets an echoError and nothing is
// sent back; a server's own request that happens to reuse one of our ids
// under another method is answered as usual.
func TestCallsEcho(t *testing.T) {
	c := newCalls(nil)
	failed := make(chan struct{})
	dead := func() error { return errors.New("dead") }
	ch := c.addCall(1, "initialize", nil)
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}`)
	if reply := c.route(req, int64(len(req)), time.Now(), nil); reply == nil {
		t.Error("a server's request reusing our id under its own method got no reply")
	}
	echo := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	if reply := c.route(echo, int64(len(echo)), time.Now(), nil); reply != nil {
		t.Errorf("our own request echoed back was answered: %s", reply)
	}
	a, _, err := c.wait(context.Background(), 1, ch, failed, dead)
	if err == nil && a != nil {
		err = a.err
	}
	var e *echoError
	if !errors.As(err, &e) || !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "echoed readbench's own initialize request back") {
		t.Errorf("err = %v, want the echo named", err)
	}
}

// TestHandshakeNotAnMCPServer: programs that are no MCP server are told
// apart: one that echoes its input, and one that exits (status 0) before
// answering, with its stderr.
func TestHandshakeNotAnMCPServer(t *testing.T) {
	cases := []struct {
		argv []string
		want string
	}{
		{[]string{"cat"}, "the server echoed readbench's own server/discover request back instead of answering it: is this an MCP server?"},
		{[]string{"sh", "-c", "echo listing; echo 'no config' >&2"}, "the server exited (exit status 0) before answering server/discover; its stderr ends: no config"},
		{[]string{"sh", "-c", "exit 0"}, "the server exited (exit status 0) before answering server/discover; its stderr is empty"},
	}
	for _, c := range cases {
		s, _, err := Connect(context.Background(), Dial{Target: targets.Target{Kind: targets.Stdio, Argv: c.argv}, HandshakeTimeout: time.Minute})
		if err == nil {
			s.Close()
			t.Errorf("%v passed the handshake", c.argv)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v\nwant %s", c.argv, err, c.want)
		}
	}
}
