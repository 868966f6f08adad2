package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
)

// The answer size limit, on every transport: an answer over it ends its
// read as a protocol failure while it arrives, the session stays usable,
// and no header can make the client allocate what it claims.

const testLimit = 64 << 10

// sizedRequest asks the big-stdio peer (or a test server) for an answer
// of n payload bytes, its id first or last.
func sizedRequest(id int64, n int, idLast bool) Request {
	body, _ := protocol.AppendRequest(nil, protocol.IntID(id), "x/big", map[string]any{"size": n, "idLast": idLast})
	return Request{ID: id, method: "x/big", body: body}
}

// wantOverLimit fails unless err is the over-limit protocol failure.
func wantOverLimit(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ErrProtocol) || errors.Is(err, ErrTransport) || !strings.Contains(err.Error(), "over the size limit") {
		t.Errorf("%s: %v, want a protocol failure: over the size limit", what, err)
	}
}

func TestAnswerOverLimitStdio(t *testing.T) {
	tr, err := startStdio(peertest.Command(t, bigStdioPeer), nil, nil, testLimit)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i, idLast := range []bool{false, true} {
		id := int64(2*i + 1)
		_, err := tr.call(ctx, sizedRequest(id, 8<<20, idLast))
		wantOverLimit(t, fmt.Sprintf("8 MiB answer, id last %v", idLast), err)
		a, err := tr.call(ctx, sizedRequest(id+1, 100, idLast)) // the pipe is still in step
		if err != nil || !strings.Contains(string(a.Body), `"id":`+strconv.FormatInt(id+1, 10)) {
			t.Errorf("the read after it: %v %v", a, err)
		}
	}
}

// bigAnswers serves each POSTed request an answer of the size it asks
// for, as JSON (with or without Content-Length) or as an SSE event.
func bigAnswers(sse, chunked bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, err := decodeBody(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var p struct{ Size int }
		_ = json.Unmarshal(m.Params, &p)
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"blob":"%s"}}`, m.ID, strings.Repeat("A", p.Size))
		switch {
		case sse:
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: %s\n\n", body)
		case chunked:
			w.Header().Set("Content-Type", "application/json")
			w.(http.Flusher).Flush() // no Content-Length
			fmt.Fprint(w, body)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			fmt.Fprint(w, body)
		}
	})
}

func TestAnswerOverLimitHTTP(t *testing.T) {
	for _, c := range []struct {
		name         string
		sse, chunked bool
	}{{"JSON with Content-Length", false, false}, {"JSON without Content-Length", false, true}, {"SSE", true, false}} {
		t.Run(c.name, func(t *testing.T) {
			hs := peertest.ServeLocal(t, bigAnswers(c.sse, c.chunked))
			tr := newHTTPTransport(hs.URL, nil, testLimit)
			defer tr.close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := tr.call(ctx, sizedRequest(1, 8<<20, false))
			wantOverLimit(t, "8 MiB answer", err)
			if a, err := tr.call(ctx, sizedRequest(2, testLimit-100, false)); err != nil || len(a.Body) > testLimit {
				t.Errorf("an answer within the limit: %v", err)
			}
		})
	}
}

func TestAnswerOverLimitHTTPPlusSSE(t *testing.T) {
	f := newFakeSSE(t, func(msg []byte, send func(string)) {
		m, err := protocol.Decode(msg)
		if err != nil || !m.IsRequest() {
			return
		}
		var p struct{ Size int }
		_ = json.Unmarshal(m.Params, &p)
		send(fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"blob\":\"%s\"}}\n\n", m.ID, strings.Repeat("A", p.Size)))
	})
	tr := func() *sseTransport {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		tr, err := startSSE(ctx, f.hs.URL+"/sse", nil, nil, testLimit)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}()
	defer tr.close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := tr.call(ctx, sizedRequest(1, 8<<20, false))
	wantOverLimit(t, "8 MiB answer on the shared stream", err)
	if _, err := tr.call(ctx, sizedRequest(2, 100, false)); err != nil {
		t.Errorf("the read after it, on the same stream: %v", err)
	}
}

// lyingLength claims claim bytes of JSON and sends ten, then ends.
func lyingLength(claim int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.FormatInt(claim, 10))
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, `{"jsonrpc"`)
	})
}

// TestLyingContentLength: a Content-Length of 8 GiB (over the limit) is
// refused as a protocol failure without reading; one of 20 MiB (within
// it, and within the limit of an answer kept whole: the request here is
// not a read) with ten bytes behind it is a transport failure that
// allocated nothing near what the header claims.
func TestLyingContentLength(t *testing.T) {
	huge := peertest.ServeLocal(t, lyingLength(8<<30))
	tr := newHTTPTransport(huge.URL, nil, 0)
	defer tr.close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := tr.call(ctx, testRequest(1, protocol.MethodResourcesRead))
	if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "8589934592 bytes") {
		t.Errorf("8 GiB claimed: %v, want a protocol failure naming the claim", err)
	}

	within := peertest.ServeLocal(t, lyingLength(20<<20))
	tr2 := newHTTPTransport(within.URL, nil, 0)
	defer tr2.close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = tr2.call(ctx, testRequest(2, protocol.MethodResourcesRead))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTransport) {
		t.Errorf("20 MiB claimed, 10 bytes sent: %v, want a transport failure", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("a read whose header claims 20 MiB allocated %d bytes", alloc)
	}
}

// TestHTTPNullIDResult: a read answered with a result whose "id" is
// null answers no request (JSON-RPC 2.0: a null id is an error's that
// could not be tied to one), in a JSON answer or an SSE event: a
// protocol failure, not an ok read; an error with a null id (the server
// could not parse the request) is still the read's answer.
func TestHTTPNullIDResult(t *testing.T) {
	const result = `{"jsonrpc":"2.0","id":null,"result":{"contents":[{"uri":"u","mimeType":"text/plain","text":"x"}]}}`
	const parseError = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`
	for _, c := range []struct {
		name, body string
		sse, fails bool
	}{
		{"json result", result, false, true},
		{"sse result", "data: " + result + "\n\n", true, true},
		{"json error", parseError, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rb := &readBuf{buf: make([]byte, readBufFirst)}
			spec := &readSpec{uri: "u"}
			var err error
			if c.sse {
				_, err = readSSERead(strings.NewReader(c.body), 7, answerLimit(0), spec, nil, rb)
			} else {
				_, err = readJSONRead(strings.NewReader(c.body), 7, answerLimit(0), spec, rb)
			}
			if got := errors.Is(err, ErrProtocol) && strings.Contains(err.Error(), "null id"); got != c.fails {
				t.Errorf("%s: %v; want a protocol failure naming the null id: %v", c.body, err, c.fails)
			}
		})
	}
}

// TestHTTPAnswerToAnotherID: a JSON answer whose id is not the request's
// is a protocol failure, not an ok read of someone else's document.
func TestHTTPAnswerToAnotherID(t *testing.T) {
	hs := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":999,"result":{"contents":[]}}`)
	}))
	tr := newHTTPTransport(hs.URL, nil, 0)
	defer tr.close()
	_, err := tr.call(context.Background(), testRequest(1, protocol.MethodResourcesRead))
	if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "999") {
		t.Errorf("answer with id 999 to request 1: %v, want a protocol failure", err)
	}
}
