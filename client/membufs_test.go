package client

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// TestReadBufSizedToTheAnswer: a read borrows a buffer that starts small
// and doubles only while reads fill it, up to readBufMax: a small answer
// never costs the largest buffer, a large one streams through at most
// readBufMax, and the answer is classified the same either way.
func TestReadBufSizedToTheAnswer(t *testing.T) {
	for _, c := range []struct {
		name string
		size int
		want int // the buffer's size after the read
	}{
		{"1 KiB", 1 << 10, readBufFirst},
		{"6 KiB", 6 << 10, 2 * readBufFirst},
		{"2 MiB", 2 << 20, readBufMax},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := okAnswer("7", "", strings.Repeat("a", c.size))
			rb := &readBuf{buf: make([]byte, readBufFirst)}
			spec := &readSpec{uri: "u"}
			a, err := readJSONRead(bytes.NewReader([]byte(body)), 7, answerLimit(0), spec, rb)
			if err != nil {
				t.Fatal(err)
			}
			if a.read.Outcome != stats.OK {
				t.Fatalf("kind %v (%s)", a.read.Outcome, a.read.Detail)
			}
			if len(rb.buf) != c.want {
				t.Errorf("buffer of %d bytes after the read, want %d", len(rb.buf), c.want)
			}
		})
	}
	// A body that trickles in never fills the buffer: it stays small.
	rb := &readBuf{buf: make([]byte, readBufFirst)}
	body := okAnswer("7", "", strings.Repeat("a", 100<<10))
	if _, err := readJSONRead(iotest.HalfReader(iotest.OneByteReader(strings.NewReader(body))), 7, answerLimit(0), &readSpec{uri: "u"}, rb); err != nil {
		t.Fatal(err)
	}
	if len(rb.buf) != readBufFirst {
		t.Errorf("a trickle grew the buffer to %d bytes", len(rb.buf))
	}
}

// TestMetaBuiltOncePerVersion: every request of a stateless session
// carries the same _meta, built once, and a new version builds a new one.
func TestMetaBuiltOncePerVersion(t *testing.T) {
	s := &Session{modern: true, version: protocol.Latest, client: Implementation{Name: "readbench", Version: "1"}}
	first := s.withMeta(map[string]any{"uri": "a"})["_meta"]
	again := s.withMeta(map[string]any{"uri": "b"})["_meta"]
	if reflect.ValueOf(first).UnsafePointer() != reflect.ValueOf(again).UnsafePointer() {
		t.Error("two requests of one version built two _meta")
	}
	if v := first.(map[string]any)[protocol.MetaProtocolVersion]; v != protocol.Latest {
		t.Errorf("_meta protocol version %v", v)
	}
	s.version = "2099-01-01"
	if v := s.withMeta(map[string]any{})["_meta"].(map[string]any)[protocol.MetaProtocolVersion]; v != "2099-01-01" {
		t.Errorf("after a version change, _meta says %v", v)
	}
	if _, ok := s.withMeta(nil)["_meta"]; !ok { // Call with no params: a ping
		t.Error("a stateless request without params carries no _meta")
	}
	s.modern = false
	if _, ok := s.withMeta(map[string]any{})["_meta"]; ok {
		t.Error("a handshake-era request carries _meta")
	}
}

// TestMetaJSONHeldAtItsSize: the _meta every session keeps encoded is
// held in a slice of its own size, not in the encoder's request buffer.
func TestMetaJSONHeldAtItsSize(t *testing.T) {
	s := &Session{modern: true, version: protocol.Latest, client: Implementation{Name: "readbench", Version: "1"}}
	raw := s.metaJSON()
	if !json.Valid(raw) || raw[0] != '{' {
		t.Fatalf("_meta %q is not a JSON object", raw)
	}
	if cap(raw) > len(raw)+16 {
		t.Errorf("the %d bytes of _meta are held in %d", len(raw), cap(raw))
	}
}

// TestHTTPSFallbackMadeAtFirstUse: a session's pool makes its net/http
// Transport (TLS, HTTP/2) only when an https request comes: a plain http
// session never pays for it, and an https one still goes through it.
func TestHTTPSFallbackMadeAtFirstUse(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer srv.Close()
	rt := newHTTPRoundTripper()
	lazy := rt.Fallback.(*lazyTransport)
	rt.CloseIdleConnections()
	if lazy.get(false) != nil {
		t.Fatal("the fallback was made before any https request")
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	_, err := rt.RoundTrip(req) // the test server's certificate is not trusted
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("https request: %v, want a certificate error from the TLS fallback", err)
	}
	if lazy.get(false) == nil {
		t.Error("an https request did not make the fallback")
	}
	rt.CloseIdleConnections()
}
