package results

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSaveFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	clean, troubled := fixture(t, false), fixture(t, true)
	if err := clean.SaveFile(path); err != nil {
		t.Fatalf("a new file is written: %v", err)
	}
	if err := troubled.SaveFile(path); err != nil {
		t.Fatalf("an existing file is replaced: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "run.json" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v: no temporary file may be left behind", names)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v: a result is meant to be shared", info.Mode().Perm())
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := troubled.Marshal()
	if !bytes.Equal(got, want) {
		t.Error("the file does not hold the last result saved")
	}
}

func TestSaveFileFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "taken")
	if err := os.Mkdir(target, 0o755); err != nil { // rename over a directory fails
		t.Fatal(err)
	}
	if err := fixture(t, false).SaveFile(target); err == nil {
		t.Fatal("saving over a directory: want an error")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d entries: the temporary file must be removed on failure", len(entries))
	}
}

func TestRoundTrip(t *testing.T) {
	for _, troubled := range []bool{false, true} {
		r := fixture(t, troubled)
		path := filepath.Join(t.TempDir(), "r.json")
		if err := r.SaveFile(path); err != nil {
			t.Fatal(err)
		}
		back, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r, back) {
			t.Errorf("troubled=%v: loaded result differs from the saved one:\n%+v\n%+v", troubled, r, back)
		}
		b1, _ := r.Marshal()
		b2, _ := back.Marshal()
		if !bytes.Equal(b1, b2) {
			t.Errorf("troubled=%v: saving a loaded result changes its bytes", troubled)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	good, err := fixture(t, false).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	badHDR := bytes.Replace(good, []byte(`"hdr": "HISTF`), []byte(`"hdr": "XISTF`), 1)
	badType := bytes.Replace(good, []byte(`"scheduled": 420`), []byte(`"scheduled": "many"`), 1)
	cases := []struct {
		name, data string
		want       []string
	}{
		{"empty", "  \n", []string{"empty.json: not a readbench result: the file is empty"}},
		{"syntax", "{\n  \"schema\": \"readbench/result/v1\",\n  oops\n}", []string{"syntax.json:3:3:", "invalid JSON"}},
		{"truncated", string(good[:200]), []string{"truncated.json:", "invalid JSON"}},
		{"array", `[1, 2]`, []string{"the top level is an array, not an object"}},
		{"noschema", `{"name": "docs"}`, []string{`no "schema" key`}},
		{"schematype", `{"schema": 1}`, []string{`"schema" is not a string`}},
		{"v2", `{"schema": "readbench/result/v2"}`, []string{`unsupported result schema "readbench/result/v2"`}},
		{"hdr", string(badHDR), []string{"hdr.json: bad result: read:", "decode histogram"}},
		{"type", string(badType), []string{"type.json:", `"totals.scheduled" cannot be a string`}},
	}
	dir := t.TempDir()
	for _, c := range cases {
		path := filepath.Join(dir, c.name+".json")
		if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil {
			t.Errorf("%s: want an error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", c.name, err, w)
			}
		}
	}
	_, err = Load(filepath.Join(dir, "missing.json"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

func TestPosition(t *testing.T) {
	data := []byte("ab\ncdé\nf")
	cases := []struct {
		offset    int64
		line, col int
	}{
		{0, 1, 1}, {1, 1, 1}, {2, 1, 2}, {4, 2, 1}, {7, 2, 3}, {8, 2, 4}, {10, 3, 2}, {99, 3, 2},
	}
	for _, c := range cases {
		if line, col := position(data, c.offset); line != c.line || col != c.col {
			t.Errorf("offset %d: %d:%d, want %d:%d", c.offset, line, col, c.line, c.col)
		}
	}
}

func TestDefaultName(t *testing.T) {
	at := time.Date(2026, 11, 30, 2, 28, 47, 999e6, time.FixedZone("CET", 3600))
	cases := []struct{ server, version, want string }{
		{"readbench-simserver", "0.1.0", "20261130T012847Z-readbench-simserver-0.1.0.json"},
		{"acme/docs server", "v2 beta", "20261130T012847Z-acme-docs-server-v2-beta.json"},
		{"", "..", "20261130T012847Z-unknown-unknown.json"},
		{"../../etc/passwd", "1.0+build.5", "20261130T012847Z-etc-passwd-1.0+build.5.json"},
		{"décor  \t:*?", "1", "20261130T012847Z-d-cor-1.json"},
	}
	for _, c := range cases {
		got := DefaultName(at, c.server, c.version)
		if got != c.want {
			t.Errorf("DefaultName(%q, %q) = %q, want %q", c.server, c.version, got, c.want)
		}
		if strings.ContainsAny(got, "/\\ ") {
			t.Errorf("%q is not a plain file name", got)
		}
	}
	long := DefaultName(at, strings.Repeat("x", 500), "1")
	if len(long) > 17+maxNamePart+1+1+5 {
		t.Errorf("a long server name gives a %d-character file name", len(long))
	}
	if a, b := DefaultName(at, "s", "1"), DefaultName(at.Add(time.Second), "s", "1"); a >= b {
		t.Errorf("%q sorts after %q: names must sort by start time", a, b)
	}
}
