package barrier

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	good := `{"run":"ab12","k":2,"n":3,"host":"node-a","ready":"2026-12-01T09:00:00.5Z"}`
	for _, c := range []struct {
		name, data string
		err        string // "" : parses
	}{
		{"a ready file", good, ""},
		{"with its start", `{"run":"ab12","k":2,"n":3,"host":"h","ready":"2026-12-01T09:00:00Z","start_at":"2026-12-01T09:00:02Z"}`, ""},
		{"no run", `{"k":1,"n":3,"ready":"2026-12-01T09:00:00Z"}`, "run"},
		{"a run that is a path", `{"run":"../x","k":1,"n":3,"ready":"2026-12-01T09:00:00Z"}`, "run"},
		{"k past n", `{"run":"a","k":4,"n":3,"ready":"2026-12-01T09:00:00Z"}`, "shard 4 outside 1..3"},
		{"k zero", `{"run":"a","k":0,"n":3,"ready":"2026-12-01T09:00:00Z"}`, "shard 0"},
		{"n zero", `{"run":"a","k":1,"n":0,"ready":"2026-12-01T09:00:00Z"}`, "n 0"},
		{"no ready time", `{"run":"a","k":1,"n":3}`, "no ready time"},
		{"half written", good[:30], "ready file"},
		{"two records", good + good, "data after"},
		{"an unknown key", `{"run":"a","k":1,"n":3,"ready":"2026-12-01T09:00:00Z","extra":1}`, "unknown field"},
		{"too large", `{"run":"` + strings.Repeat("a", maxFile) + `"}`, "at most"},
		{"empty", ``, "ready file"},
	} {
		r, err := Parse([]byte(c.data))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: err %v, want %q", c.name, err, c.err)
		}
		if c.name == "a ready file" && (r.K != 2 || r.N != 3 || r.Host != "node-a" || !r.Ready.Equal(time.Date(2026, 12, 1, 9, 0, 0, 5e8, time.UTC))) {
			t.Errorf("parsed %+v", r)
		}
	}
}

// TestWriteThenRead: a written file reads back as written, and only as
// the shard its name says.
func TestWriteThenRead(t *testing.T) {
	dir := t.TempDir()
	w := Ready{Run: "r", K: 1, N: 2, Host: "h", Ready: time.Date(2026, 12, 1, 9, 0, 0, 123456789, time.UTC)}
	if err := write(dir, w); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, FileName("r", 1, 2))); err != nil || fi.Mode().Perm()&0o044 != 0o044 {
		t.Errorf("the ready file %v, %v: others cannot read it", fi, err)
	}
	if r, ok := read(dir, "r", 1, 2); !ok || r != w {
		t.Errorf("read %+v, %v; wrote %+v", r, ok, w)
	}
	if _, ok := read(dir, "r", 1, 3); ok {
		t.Error("shard 1/2's file read as 1/3's")
	}
}
