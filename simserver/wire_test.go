package simserver

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/protocol"
)

// TestWireStdio: the stdio violations a client meets (readbench's own
// end-to-end tests check how it classifies each): extra messages before
// the answer, a duplicate, another id, and a request of the server's that
// holds the answer until the client replies.
func TestWireStdio(t *testing.T) {
	p := startStdio(t, New(Options{}))
	read := func(id int, wire string) string {
		return request(t, id, protocol.MethodResourcesRead, readParams("sim:///w?size=10&wire="+wire, ""))
	}
	p.send(read(1, "unsolicited"))
	if m := p.next(); idOf(m) != "987654321" {
		t.Errorf("unsolicited: first message has id %s", idOf(m))
	}
	if m := p.next(); idOf(m) != "1" || m.Result == nil {
		t.Errorf("unsolicited: then id %s", idOf(m))
	}
	p.send(read(2, "duplicate"))
	if a, b := p.next(), p.next(); idOf(a) != "2" || idOf(b) != "2" {
		t.Errorf("duplicate: ids %s and %s", idOf(a), idOf(b))
	}
	if m := p.roundTrip(read(3, "wrong_id")); idOf(m) != "1000003" || m.Result == nil {
		t.Errorf("wrong_id: id %s", idOf(m))
	}
	p.send(read(4, "ping"))
	ping := p.next()
	if ping.Method != protocol.MethodPing || !ping.IsRequest() {
		t.Fatalf("ping: the server sent %+v", ping)
	}
	select {
	case m := <-p.lines:
		t.Fatalf("answered before the client replied: %s", idOf(m))
	case <-time.After(100 * time.Millisecond):
	}
	p.send(string(protocol.AppendResult(nil, ping.ID, []byte("{}"))))
	if m := p.next(); idOf(m) != "4" || m.Result == nil {
		t.Errorf("ping: after the reply, id %s", idOf(m))
	}
}

// TestWedgeAfterHTTP: after WedgeAfter requests the HTTP handler answers
// nothing; the request ends when its client gives up.
func TestWedgeAfterHTTP(t *testing.T) {
	url := startHTTP(t, New(Options{WedgeAfter: 1}))
	read := request(t, 1, protocol.MethodResourcesRead, readParams("sim:///x?size=5", ""))
	if status, _, _ := post(t, url, nil, read); status != http.StatusOK {
		t.Fatalf("first read: %d", status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(read))
	req.Header.Set("Content-Type", protocol.ContentTypeJSON)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("a wedged server answered %d", resp.StatusCode)
	}
}
