package simserver

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParseSimURI: the parser never panics, every error says which kind it
// is (so the server picks the right code), and whatever it accepts stays
// within the limits and encodes to valid JSON.
func FuzzParseSimURI(f *testing.F) {
	for _, seed := range []string{
		"sim:///a", "sim:///x.png?mime=image/png&size=1834208&delay=lognormal(12ms,40ms)",
		"sim:///f?entries=3&size=10&fault=both", "sim:x?size=3", "docs://team/x", "",
		"sim:///x?mime=text/plain;charset=utf-8&size=5", "sim:///x?size=%zz", "sim:///é?mime=application/json&size=7",
		"sim:///x?error=-32603&stall=1ms&ttl=5&scope=private&honor_cancel=0&input_required=1&sse=t&declare=image/jpeg",
	} {
		f.Add(seed)
	}
	g := newGenerator()
	f.Fuzz(func(t *testing.T, uri string) {
		s, err := ParseSimURI(uri)
		if err != nil {
			if !errors.Is(err, ErrNotSim) && !errors.Is(err, ErrBadURI) {
				t.Fatalf("ParseSimURI(%q): unclassified error %v", uri, err)
			}
			return
		}
		if s.URI != uri || s.Size < 0 || s.Size > MaxSize || s.Entries < 0 || s.Entries > MaxEntries || s.Size*int64(s.Entries) > MaxTotal {
			t.Fatalf("ParseSimURI(%q) = %+v: out of limits", uri, s)
		}
		if s.Size*int64(s.Entries) > 1<<16 {
			return // keep iterations fast
		}
		es := g.entries(s)
		for _, e := range es {
			if int64(len(e.Data)) != s.Size || (e.Text && !utf8.Valid(e.Data)) {
				t.Fatalf("%q: entry of %d bytes (text %v)", uri, len(e.Data), e.Text)
			}
		}
		if b := g.encodeContents(s); !json.Valid(b) {
			t.Fatalf("%q: contents are not valid JSON: %.200s", uri, b)
		}
	})
}

// FuzzListenParams: whatever a client puts in subscriptions/listen's
// params, decoding them and opening the listen never panics, refuses only
// with invalid params, and honours only the sim: URIs asked for, each once.
func FuzzListenParams(f *testing.F) {
	for _, seed := range []string{
		`{"resourceSubscriptions":["sim:///a","sim:///a","docs://x","sim:///b?size=nope"]}`,
		`{"resourceSubscriptions":[],"toolsListChanged":true,"resourcesListChanged":true}`,
		`{}`, `null`, `[]`, `{"resourceSubscriptions":"sim:///a"}`, `{"resourceSubscriptions":[1,null]}`,
		`{"resourceSubscriptions":["sim:///x?wire=no_ack","sim:///y?wire=garbage"]}`,
	} {
		f.Add([]byte(seed))
	}
	s := New(Options{})
	f.Fuzz(func(t *testing.T, raw []byte) {
		ns, perr := parseListen(raw)
		if perr != nil {
			if perr.Code != -32602 {
				t.Fatalf("parseListen(%q): code %d", raw, perr.Code)
			}
			return
		}
		if !s.hub.openListen(0) {
			t.Fatal("no limit, yet refused")
		}
		l := s.openListen(&call{id: []byte("1"), modern: true}, ns)
		defer s.hub.closeListen(l.sub)
		seen := map[string]bool{}
		for uri := range l.sub.uris {
			if seen[uri] {
				t.Fatalf("%q followed twice", uri)
			}
			seen[uri] = true
			if _, err := ParseSimURI(uri); err != nil {
				t.Fatalf("honoured %q: %v", uri, err)
			}
		}
		for _, m := range l.first {
			if !json.Valid(m) {
				t.Fatalf("first message is not JSON: %s", m)
			}
		}
	})
}
