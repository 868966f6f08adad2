package client

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
)

// scriptedStdioPeer is a stdio server that behaves as the specification
// allows and simple servers never do: it sends a notification and a
// request of its own before answering, and answers in the reverse order.
const scriptedStdioPeer = "scripted-stdio"

func serveScriptedStdio() int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	next := func() *protocol.Message {
		if !in.Scan() {
			return nil
		}
		m, err := protocol.Decode(in.Bytes())
		if err != nil {
			return nil
		}
		return m
	}
	first, second := next(), next()
	if first == nil || second == nil {
		return 1
	}
	fmt.Println(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"reading"}}`)
	fmt.Println(`{"jsonrpc":"2.0","id":"srv-1","method":"ping"}`)
	// Reverse order of arrival; each answer names its request's id, so
	// the test needs no order of its own.
	fmt.Println(string(protocol.AppendResult(nil, second.ID, fmt.Appendf(nil, `{"n":%s}`, second.ID))))
	fmt.Println(string(protocol.AppendResult(nil, first.ID, fmt.Appendf(nil, `{"n":%s}`, first.ID))))
	// The client answers the ping from its own goroutine, so a later
	// request may overtake the answer (the specification orders nothing
	// between them): a request waits for the ping's answer, and is
	// answered "pinged":false only if stdin closes first.
	pinged := false
	var waiting []json.RawMessage
	answer := func() {
		for _, id := range waiting {
			fmt.Println(string(protocol.AppendResult(nil, id, fmt.Appendf(nil, `{"pinged":%v}`, pinged))))
		}
		waiting = waiting[:0]
	}
	for m := next(); m != nil; m = next() {
		switch {
		case string(m.ID) == `"srv-1"` && string(m.Result) == "{}":
			pinged = true
			answer()
		case m.IsRequest():
			waiting = append(waiting, m.ID)
			if pinged {
				answer()
			}
		}
	}
	answer()
	return 0
}

// TestStdioNotificationsServerRequestsAndOrder: notifications before the
// answers are skipped, a server's ping is answered, and answers that come
// in reverse order reach the right callers.
func TestStdioNotificationsServerRequestsAndOrder(t *testing.T) {
	tr, err := startStdio(peertest.Command(t, scriptedStdioPeer), nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	call := func(id int64) string {
		body, _ := protocol.AppendRequest(nil, protocol.IntID(id), "x/echo", nil)
		a, err := tr.call(ctx, Request{ID: id, method: "x/echo", body: body})
		if err != nil {
			return err.Error()
		}
		var m protocol.Message
		_ = json.Unmarshal(a.Body, &m)
		return string(m.Result)
	}
	got := make([]string, 2)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = call(int64(i + 1))
		}()
	}
	wg.Wait()
	if got[0] != `{"n":1}` || got[1] != `{"n":2}` {
		t.Fatalf("answers %q, want each request its own (answered in reverse order of arrival)", got)
	}
	if res := call(3); !strings.Contains(res, `"pinged":true`) {
		t.Errorf("the server's ping was not answered: %s", res)
	}
}
