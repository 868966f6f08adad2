package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/internal/testproc"
)

// TestViewsFitTheTerminal: run's and report's terminal views, compare's,
// capacity's, ab's and inflation's fit the width they are printed on: COLUMNS when set,
// else 80 off a terminal (a pipe, a CI log), checked at 80 and 120.
func TestViewsFitTheTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, out := range []string{"a.json", "b.json"} {
		if _, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--rate", "20/s", "-q", "--out", out); code != 0 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
	}
	environ := slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, "COLUMNS=") })
	for _, columns := range []string{"", "120"} {
		width := map[string]int{"": 80, "120": 120}[columns]
		for _, args := range [][]string{
			{"report", "a.json"}, {"report", "a.json", "--full"}, {"compare", "a.json", "b.json"},
			{"inflation", "1834208", "40x3MB"}, {"run", "--duration", "1s", "--rate", "20/s"}, // its result saved under runs/ in dir
			strings.Fields(strings.ReplaceAll(fitCapacity("caps"), `"`, "")), strings.Fields(fitAB("abd")),
		} {
			c := testproc.Own(t, exec.Command(binary, args...))
			c.Dir, c.Env = dir, environ
			if columns != "" {
				c.Env = append(slices.Clone(environ), "COLUMNS="+columns)
			}
			out, err := c.Output()
			if err != nil && !strings.Contains(err.Error(), "exit status 1") {
				t.Fatalf("%v at COLUMNS=%q: %v", args, columns, err)
			}
			for i, l := range strings.Split(string(out), "\n") {
				if n := utf8.RuneCountInString(l); n > width {
					t.Errorf("%v at COLUMNS=%q: line %d is %d columns: %q", args, columns, i+1, n, l)
				}
			}
		}
	}
}
