package h1

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// FuzzResponse feeds arbitrary server bytes to a request over an in-memory
// connection. It never panics or hangs, and it agrees with net/http's own
// parse of the same bytes: when the standard library reads a final
// response and its whole body, h1 returns the same status and body; when
// h1 does, so does the standard library.
func FuzzResponse(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nbody\r\n0\r\n\r\n",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 1\r\n\r\nx",
		"HTTP/1.0 200 OK\r\n\r\nuntil close",
		"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\nevent: message\ndata: {}\n\n",
		"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"garbage\r\n\r\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		wantStatus, wantBody, wantOK := stdlibParse(data)

		client, server := net.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer server.Close()
			server.SetDeadline(time.Now().Add(5 * time.Second))
			// The request is read whole before the answer is written:
			// net.Pipe's writes wait for their reader.
			if req, err := http.ReadRequest(bufio.NewReader(server)); err == nil {
				io.Copy(io.Discard, req.Body)
			}
			server.Write(data)
		}()
		tr := &Transport{DialContext: func(context.Context, string, string) (net.Conn, error) { return client, nil }}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://fuzz.invalid/mcp", bytes.NewReader([]byte("{}")))
		status, body, ok := 0, []byte(nil), false
		if resp, err := tr.RoundTrip(req); err == nil {
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			status, body, ok = resp.StatusCode, b, err == nil
		}
		client.Close()
		<-done
		if ctx.Err() != nil {
			t.Fatalf("the request hung until its deadline on %q", data)
		}
		if ok != wantOK || ok && (status != wantStatus || !bytes.Equal(body, wantBody)) {
			t.Fatalf("h1: %v %d %q; net/http: %v %d %q; answer %q", ok, status, body, wantOK, wantStatus, wantBody, data)
		}
	})
}

// stdlibParse is net/http's reading of a server's bytes: the first final
// (non-1xx) response and its whole body.
func stdlibParse(data []byte) (status int, body []byte, ok bool) {
	req, _ := http.NewRequest(http.MethodPost, "http://fuzz.invalid/mcp", nil)
	br := bufio.NewReader(bytes.NewReader(data))
	for {
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			return 0, nil, false
		}
		if resp.StatusCode >= 200 || resp.StatusCode < 100 || resp.StatusCode == http.StatusSwitchingProtocols {
			b, err := io.ReadAll(resp.Body)
			return resp.StatusCode, b, err == nil
		}
	}
}
