package client

import (
	"strings"
	"testing"
)

func TestParseContentRange(t *testing.T) {
	for _, c := range []struct {
		in               string
		start, end, size int64
		ok               bool
	}{
		{"bytes 0-4095/4213", 0, 4095, 4213, true},
		{"bytes 4200-4212/4213", 4200, 4212, 4213, true},
		{"bytes */4213", -1, -1, 4213, true},
		{"bytes 0-9/*", 0, 9, -1, true},
		{"bytes 5-4/10", -1, -1, -1, false},  // last before first
		{"bytes 0-10/10", -1, -1, -1, false}, // last past the size
		{"bytes */*", -1, -1, -1, false},
		{"items 0-1/2", -1, -1, -1, false},
		{"bytes 0-1", -1, -1, -1, false},
		{"bytes -1-2/3", -1, -1, -1, false},
		{"", -1, -1, -1, false},
	} {
		s, e, z, ok := ParseContentRange(c.in)
		if s != c.start || e != c.end || z != c.size || ok != c.ok {
			t.Errorf("ParseContentRange(%q) = %d, %d, %d, %t; want %d, %d, %d, %t", c.in, s, e, z, ok, c.start, c.end, c.size, c.ok)
		}
	}
}

// FuzzParseContentRange: any header value gives a consistent range or ok
// false, never a panic.
func FuzzParseContentRange(f *testing.F) {
	for _, s := range []string{"bytes 0-4095/4213", "bytes */0", "bytes 1-1/*", "bytes 9223372036854775807-9223372036854775807/*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		s, e, z, ok := ParseContentRange(v)
		if !ok {
			return
		}
		if !strings.HasPrefix(v, "bytes ") || (s >= 0 && (e < s || (z >= 0 && e >= z))) || (s < 0 && z < 0) {
			t.Errorf("ParseContentRange(%q) = %d, %d, %d accepted", v, s, e, z)
		}
	})
}

func TestDocumentsURL(t *testing.T) {
	d := &Documents{prefix: "http://127.0.0.1:9/files/"}
	for _, c := range []struct{ uri, want, err string }{
		{"sim:///log.txt?mime=text/plain&size=100000", "http://127.0.0.1:9/files/log.txt?mime=text/plain&size=100000", ""},
		{"sim:///a%20b/c.md", "http://127.0.0.1:9/files/a%20b/c.md", ""},
		{"docs://team/guide.md", "http://127.0.0.1:9/files/guide.md", ""}, // the host is not the path
		{"docs/guide.md", "http://127.0.0.1:9/files/docs/guide.md", ""},
		{"sim:///", "", "no path"},
	} {
		got, err := d.URL(c.uri)
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) || got != c.want {
			t.Errorf("URL(%q) = %q, %v; want %q (%s)", c.uri, got, err, c.want, c.err)
		}
	}
}
