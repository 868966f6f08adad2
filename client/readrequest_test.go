package client

import (
	"bytes"
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
			if got := s.appendReadRequest(nil, id, uri); !bytes.Equal(got, want) {
				t.Errorf("%s %q:\n got %s\nwant %s", c.name, uri, got, want)
			}
		}
	}
	s := &Session{modern: true, version: protocol.V20251125}
	first := string(s.appendReadRequest(nil, 1, "x"))
	s.version = protocol.V20260728 // the era settled on another version after a probe
	want, _ := protocol.AppendRequest(nil, protocol.IntID(1), protocol.MethodResourcesRead, s.withMeta(map[string]any{"uri": "x"}))
	if got := s.appendReadRequest(nil, 1, "x"); !bytes.Equal(got, want) || string(got) == first {
		t.Errorf("after the version changed:\n got %s\nwant %s", got, want)
	}
}
