package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// TestAppendReadRequest: the request of a whole read, encoded without
// maps, is byte for byte what protocol.AppendRequest makes of the params
// every other request is built from, in both eras, for URIs that need
// escaping, and after the version changed.
func TestAppendReadRequest(t *testing.T) {
	uris := []string{
		"sim:///compare/text.md?mime=text/markdown&size=1024",
		`file:///a "quoted" \ path`,
		"file:///ünïcödé/<html>&\u2028\x01",
		"\xff\xfe invalid utf-8",
		"",
	}
	for _, c := range []struct {
		name    string
		modern  bool
		version string
	}{
		{"2026-07-28", true, protocol.V20260728},
		{"legacy", false, protocol.V20250618},
	} {
		s := &Session{modern: c.modern, version: c.version, client: Implementation{Name: `read"bench`, Version: "1 <2>"}}
		for i, uri := range uris {
			id := int64(1) << (i * 10)
			want, err := protocol.AppendRequest(nil, protocol.IntID(id), protocol.MethodResourcesRead, s.withMeta(map[string]any{"uri": uri}))
			if err != nil {
				t.Fatal(err)
			}
			if got := s.appendReadRequest(nil, id, uri, protocol.TraceParent{}); !bytes.Equal(got, want) {
				t.Errorf("%s %q:\n got %s\nwant %s", c.name, uri, got, want)
			}
		}
	}
	s := &Session{modern: true, version: protocol.V20251125}
	first := string(s.appendReadRequest(nil, 1, "x", protocol.TraceParent{}))
	s.version = protocol.V20260728 // the era settled on another version after a probe
	want, _ := protocol.AppendRequest(nil, protocol.IntID(1), protocol.MethodResourcesRead, s.withMeta(map[string]any{"uri": "x"}))
	if got := s.appendReadRequest(nil, 1, "x", protocol.TraceParent{}); !bytes.Equal(got, want) || string(got) == first {
		t.Errorf("after the version changed:\n got %s\nwant %s", got, want)
	}
}

// TestReadRequestOnTheWire: the POST of a read carries the headers and
// body it always did, in both eras, with the workload's headers and the
// session id, and a 307 within the origin is followed with the same body;
// the answer's first byte is timed between its send and its end.
func TestReadRequestOnTheWire(t *testing.T) {
	const uri = "sim:///a.md?mime=text/markdown&size=10"
	type seen struct {
		path   string
		header http.Header
		body   string
	}
	got := make(chan seen, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			return // the DELETE that closes a session
		}
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
			return
		}
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.URL.Path, r.Header.Clone(), string(b)}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"result":{"contents":[{"uri":%q,"mimeType":"text/markdown","text":"hi"}]}}`, 1, uri)
	}))
	defer srv.Close()
	for _, c := range []struct {
		name, path, version, sid string
		modern                   bool
	}{
		{"2026-07-28", "/mcp", protocol.V20260728, "", true},
		{"legacy with a session", "/mcp", protocol.V20250618, "sess-1", false},
		{"redirected", "/old", protocol.V20260728, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := newHTTPTransport(srv.URL+c.path, http.Header{"X-Workload": {"w"}}, 0)
			tr.setEra(c.version, c.modern)
			tr.sessionID = c.sid
			s := &Session{t: tr, modern: c.modern, version: c.version, client: Implementation{Name: "rb", Version: "1"}}
			defer s.Close()
			a, err := s.testRead(context.Background(), uri)
			if err != nil {
				t.Fatal(err)
			}
			if a.FirstByte.IsZero() || a.FirstByte.Before(a.Sent) || a.Done.Before(a.FirstByte) {
				t.Errorf("sent %v, first byte %v, done %v", a.Sent, a.FirstByte, a.Done)
			}
			r := <-got
			wantBody, _ := protocol.AppendRequest(nil, protocol.IntID(1), protocol.MethodResourcesRead, s.withMeta(map[string]any{"uri": uri}))
			want := http.Header{
				"Content-Type": {protocol.ContentTypeJSON}, "Accept": {protocol.AcceptBoth},
				"X-Workload": {"w"}, "User-Agent": {"Go-http-client/1.1"},
				"Content-Length": {strconv.Itoa(len(wantBody))}, "Accept-Encoding": nil,
			}
			if c.sid != "" {
				want.Set(protocol.HeaderSessionID, c.sid)
			}
			want.Set(protocol.HeaderProtocolVersion, c.version)
			if c.modern {
				want.Set(protocol.HeaderMethod, protocol.MethodResourcesRead)
				want.Set(protocol.HeaderName, uri)
			}
			delete(want, "Accept-Encoding")
			if c.path == "/old" {
				want.Set("Referer", srv.URL+c.path) // what net/http's client adds to a redirect
			}
			if r.path != "/mcp" || r.body != string(wantBody) || !reflect.DeepEqual(r.header, want) {
				t.Errorf("got %s %v\n%s\nwant %v\n%s", r.path, r.header, r.body, want, wantBody)
			}
		})
	}
}

// TestDoFailsAsTheClientDoes: a POST that fails is the same error,
// word for word and type, with or without net/http's client.
func TestDoFailsAsTheClientDoes(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	tr := newHTTPTransport("http://"+addr+"/mcp", nil, 0)
	defer tr.close()
	post := func() *http.Request {
		hr, err := tr.post(context.Background(), []byte("{}"))
		if err != nil {
			t.Fatal(err)
		}
		return hr
	}
	_, direct := tr.do(post())
	_, viaClient := tr.client.Do(post())
	var ue *url.Error
	if direct == nil || viaClient == nil || direct.Error() != viaClient.Error() || !errors.As(direct, &ue) {
		t.Fatalf("do: %v\nclient: %v", direct, viaClient)
	}
}
