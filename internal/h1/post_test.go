package h1

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPostSendsWhatRoundTripSends: a Post goes out as the same request
// line, headers (in any order) and body as RoundTrip makes of the
// equivalent http.Request, and its response reads the same, whether its
// head is plain or goes to http.ReadResponse (chunked).
func TestPostSendsWhatRoundTripSends(t *testing.T) {
	for _, answer := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
	} {
		heads := make(chan []string, 2)
		srv := newRawServer(t, func(c net.Conn, br *bufio.Reader) {
			for {
				var lines []string
				for {
					l, err := br.ReadString('\n')
					if err != nil {
						return
					}
					if l == "\r\n" {
						break
					}
					lines = append(lines, l)
				}
				body := make([]byte, len(`{"id":1}`))
				if _, err := io.ReadFull(br, body); err != nil {
					return
				}
				slices.Sort(lines[1:])
				heads <- append(lines, string(body))
				io.WriteString(c, answer)
			}
		})
		u, _ := url.Parse(srv.url() + "?x=1")
		tr := &Transport{}
		body := []byte(`{"id":1}`)

		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, u.String(), nil)
		req.Body, req.ContentLength = &wholeBody{body}, int64(len(body))
		req.Header["Content-Type"] = []string{"application/json"}
		req.Header["Mcp-Name"] = []string{"sim:///a b"}
		resp, err := tr.RoundTrip(req)
		want := roundTripBody(t, resp, err)

		var lines []byte
		for _, kv := range [][2]string{{"Content-Type", "application/json"}, {"Mcp-Name", "sim:///a b"}, {"User-Agent", "Go-http-client/1.1"}} {
			var err error
			if lines, err = AppendHeader(lines, kv[0], kv[1]); err != nil {
				t.Fatal(err)
			}
		}
		resp, err = tr.Post(context.Background(), &Post{URL: u, Header: lines, Body: body})
		got := roundTripBody(t, resp, err)
		if got != want {
			t.Errorf("%q: Post's body %q, RoundTrip's %q", answer, got, want)
		}
		rt, post := <-heads, <-heads
		if !slices.Equal(rt, post) {
			t.Errorf("RoundTrip sent\n%q\nPost sent\n%q", rt, post)
		}
		tr.CloseIdleConnections()
	}
}

func roundTripBody(t *testing.T, resp *http.Response, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Header.Get("Content-Type") + " " + string(b)
}

// TestAppendHeaderRefusesBrokenLines: a header line that would split the
// head (CR, LF, NUL in a value; a name that is not a token) is refused, as
// RoundTrip refuses it, and nothing is appended.
func TestAppendHeaderRefusesBrokenLines(t *testing.T) {
	for _, kv := range [][2]string{{"X", "a\r\nEvil: 1"}, {"X", "a\nb"}, {"X", "a\x00"}, {"Bad Name", "v"}, {"", "v"}, {"X:", "v"}} {
		got, err := AppendHeader([]byte("A: b\r\n"), kv[0], kv[1])
		if err == nil || string(got) != "A: b\r\n" {
			t.Errorf("%q: %q, %v; want it refused", kv, got, err)
		}
	}
	got, err := AppendHeader(nil, "Mcp-Name", "sim:///x")
	if err != nil || !bytes.Equal(got, []byte("Mcp-Name: sim:///x\r\n")) {
		t.Errorf("%q, %v", got, err)
	}
	if _, err := (&Transport{}).Post(context.Background(), &Post{URL: &url.URL{Scheme: "https", Host: "h"}}); err == nil || !strings.Contains(err.Error(), "http URL") {
		t.Errorf("an https Post: %v", err)
	}
}

// TestPostResponsesShareTheConnectionsHeader: the responses to Posts on
// one connection have its Header, each filled with its own head's values
// (a header the one before had is gone), and a RoundTrip's response on
// that connection has a Header of its own.
func TestPostResponsesShareTheConnectionsHeader(t *testing.T) {
	answers := []string{
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A: 1\r\nContent-Length: 2\r\n\r\n{}",
		"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
	}
	srv := newRawServer(t, func(c net.Conn, br *bufio.Reader) {
		for _, answer := range answers {
			if !readRequest(br) {
				return
			}
			io.WriteString(c, answer)
		}
	})
	u, _ := url.Parse(srv.url())
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	post := func() http.Header {
		resp, err := tr.Post(context.Background(), &Post{URL: u, Body: []byte("{}")})
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		return resp.Header
	}
	h1 := post()
	if got := h1.Get("X-A"); got != "1" {
		t.Fatalf("first response: X-A %q", got)
	}
	h2 := post()
	if reflect.ValueOf(h1).UnsafePointer() != reflect.ValueOf(h2).UnsafePointer() {
		t.Error("the second Post's response has a Header of its own, want the connection's")
	}
	if h2.Get("X-A") != "" || h2.Get("Content-Type") != "text/plain" || len(h2) != 2 {
		t.Errorf("second response's Header %v", h2)
	}
	req, _ := http.NewRequest(http.MethodPost, u.String(), strings.NewReader("{}"))
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	if reflect.ValueOf(resp.Header).UnsafePointer() == reflect.ValueOf(h2).UnsafePointer() {
		t.Error("a RoundTrip's response has the connection's Header")
	}
}

// TestPostCallsNoTraceHook: a Post looks up no httptrace hook in its
// context (a walk of the whole chain on every request); FirstByte of its
// response tells when the first byte came.
func TestPostCallsNoTraceHook(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	called := false
	ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{GotFirstResponseByte: func() { called = true }})
	u, _ := url.Parse(srv.URL)
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	before := time.Now()
	resp, err := tr.Post(ctx, &Post{URL: u, Body: []byte("{}")})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if at, ok := FirstByte(resp.Body); !ok || at.Before(before) {
		t.Errorf("FirstByte %v %v, want a moment after %v", at, ok, before)
	}
	if called {
		t.Error("the trace hook was called")
	}
}
