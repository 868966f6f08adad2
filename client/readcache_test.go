package client

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/readbench/readbench/internal/h1"
	"github.com/readbench/readbench/protocol"
)

// cacheURIs are more URIs than a session keeps, some needing escapes in
// JSON and base64 in a header, one a header value h1 refuses.
func cacheURIs() []string {
	uris := []string{`file:///a "quoted" \ path`, "file:///ünïcödé/<html>&\u2028\x01", " padded ", "sim:///line\nbreak", ""}
	for i := range 2 * uriCacheCap {
		uris = append(uris, fmt.Sprintf("sim:///t/%d.md?mime=text/markdown&size=%d", i, i))
	}
	return uris
}

// TestReadCacheSameBytes: a read's body and header lines are byte for
// byte what encoding them afresh makes, on a read's first use of a URI,
// on its next ones, past the bound, after the version or session id
// changed; the cache keeps at most uriCacheCap URIs.
func TestReadCacheSameBytes(t *testing.T) {
	for _, c := range []struct {
		name    string
		modern  bool
		version string
	}{
		{"2026-07-28", true, protocol.V20260728},
		{"legacy", false, protocol.V20250618},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &Session{modern: c.modern, version: c.version, client: Implementation{Name: "readbench", Version: "test"}}
			heads := &postHeadCache{}
			for round, sid := range []string{"", "", "sess-1", "bad\nsid", "sess-1"} {
				if round == 2 && c.modern {
					s.version = protocol.V20251125 // the era settled on another version
				}
				for i, uri := range cacheURIs() {
					id := int64(round*1000 + i)
					want, err := protocol.AppendRequest(nil, protocol.IntID(id), protocol.MethodResourcesRead, s.withMeta(map[string]any{"uri": uri}))
					if err != nil {
						t.Fatal(err)
					}
					if got := s.appendReadRequest(nil, id, uri, protocol.TraceParent{}); !bytes.Equal(got, want) {
						t.Fatalf("round %d body of %q:\n got %s\nwant %s", round, uri, got, want)
					}
					wantLines, wantOK := uncachedReadLines(sid, s.version, s.modern, uri)
					got, ok := heads.appendReadLines([]byte("X: y\r\n"), sid, s.version, s.modern, uri)
					if ok != wantOK || (ok && string(got) != "X: y\r\n"+string(wantLines)) {
						t.Fatalf("round %d lines of %q (sid %q): %v %q, want %v %q", round, uri, sid, ok, got, wantOK, wantLines)
					}
				}
			}
			for name, n := range map[string]int{"uris": s.uris.len(), "names": heads.names.len()} {
				if n > uriCacheCap || n == 0 && (name == "uris" || c.modern) {
					t.Errorf("%s: %d entries kept, want 1 to %d", name, n, uriCacheCap)
				}
			}
		})
	}
}

// uncachedReadLines is what sendPost appended before its lines were
// kept: each line encoded per read.
func uncachedReadLines(sid, version string, modern bool, name string) ([]byte, bool) {
	lines, ok := appendStateLines(nil, sid, version, modern)
	if ok && modern && name != "" {
		var err error
		lines, err = h1.AppendHeader(lines, canonicalName, protocol.EncodeHeaderValue(name))
		ok = err == nil
	}
	return lines, ok
}

// TestReadCacheOnTheWire: reads of more URIs than a session keeps, each
// read twice, before and after the session id changed, carry on the wire
// what the http.Request way sends for them.
func TestReadCacheOnTheWire(t *testing.T) {
	heads := make(chan string, 1)
	url := headServer(t, heads)
	uris := cacheURIs()[:uriCacheCap+4]
	uris = append(uris, uris[0], uris[uriCacheCap+2])
	for _, version := range []string{protocol.V20260728, protocol.V20250618} {
		modern := protocol.IsModern(version)
		open := func(light bool) *Session {
			tr := newHTTPTransport(url, http.Header{"X-Tenant": {"a"}}, 0)
			if !light {
				tr.fixed.lines = nil
			}
			tr.setEra(version, modern)
			t.Cleanup(tr.client.CloseIdleConnections)
			return &Session{t: tr, modern: modern, version: version, client: Implementation{Name: "readbench", Version: "test"}}
		}
		light, plain := open(true), open(false)
		for _, sid := range []string{"", "sess-9"} {
			for _, s := range []*Session{light, plain} {
				s.t.(*httpTransport).sessionID = sid
			}
			for _, uri := range uris {
				read := func(s *Session) string {
					if _, err := s.ReadDocument(context.Background(), uri, ReadSpec{}); err != nil {
						t.Fatal(err)
					}
					return <-heads
				}
				if got, want := read(light), read(plain); got != want {
					t.Fatalf("%s %q:\nas an h1.Post:\n%s\nas an http.Request:\n%s", version, uri, got, want)
				}
			}
		}
	}
}

// BenchmarkReadRequest is what building one read's request costs the
// client over plain http, its body and header lines: kept, a URI the
// session keeps encoded; past-bound, one it encodes per read because it
// already keeps uriCacheCap others; uncached, every part encoded per
// read, as before the cache.
func BenchmarkReadRequest(b *testing.B) {
	const uri = "sim:///compare/text.md?mime=text/markdown&size=1024"
	for _, c := range []struct {
		name string
		fill int
	}{{"kept", 0}, {"past-bound", uriCacheCap}, {"uncached", -1}} {
		b.Run(c.name, func(b *testing.B) {
			s := &Session{modern: true, version: protocol.V20260728, client: Implementation{Name: "readbench", Version: "bench"}}
			heads := &postHeadCache{}
			if c.fill < 0 {
				heads = nil
				for i := range uriCacheCap { // keeps none of the read's
					s.uris.store(fmt.Sprint(i), &escapedURI{})
				}
			}
			for i := range c.fill {
				other := fmt.Sprintf("sim:///other/%d", i)
				s.appendReadRequest(nil, 1, other, protocol.TraceParent{})
				heads.appendReadLines(nil, "", s.version, true, other)
			}
			lines := make([]byte, 0, 512)
			b.ReportAllocs()
			for i := int64(0); b.Loop(); i++ {
				body := s.appendReadRequest(nil, i, uri, protocol.TraceParent{})
				lines, _ = heads.appendReadLines(lines[:0], "", s.version, true, uri)
				if len(body) == 0 || len(lines) == 0 {
					b.Fatal("nothing encoded")
				}
			}
		})
	}
}
