package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/helptext"
)

// The README's tour, read as a reader reads it: each line of its first sh
// block, in order, its exit status from its comment, and its loopback
// ports (127.0.0.1:8080 becomes a free port, the same one on every line,
// so that the test never collides with a server a developer runs).
// TestReadmeTour (readme_shell_test.go) pastes the lines into one shell.

// tourLine is one command of the tour.
type tourLine struct {
	text       string // as the README writes it
	cmd        string // the command with its ports replaced, without the comment
	background bool   // ends in &: a server the rest of the tour uses
	want       int    // exit status: 1 when its comment starts "exit 1", else 0
	// measures: the line judges a load it ran (run, capacity, check,
	// merge), whose exit 1 on a busy machine can be readbench's honest
	// answer; a line that only prints (schema, scenarios, --help) has no
	// such excuse.
	measures bool
}

// measuringRE finds a command of the tour whose exit status judges what
// it measured.
var measuringRE = regexp.MustCompile(`\breadbench (run|capacity|check|merge)\b`)

// readmeBlock returns the lines of the first fenced block of kind lang
// (```sh) after the heading, from README.md at the repository's root.
func readmeBlock(t *testing.T, heading, lang string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no heading %q", heading)
	}
	_, block, ok := strings.Cut(after, "```"+lang+"\n")
	if !ok {
		t.Fatalf("README.md: no ```%s block after %q", lang, heading)
	}
	block, _, ok = strings.Cut(block, "\n```")
	if !ok {
		t.Fatalf("README.md: the ```%s block after %q is not closed", lang, heading)
	}
	return strings.Split(block, "\n")
}

var loopbackRE = regexp.MustCompile(`127\.0\.0\.1:(\d+)`)

// parseTour reads the tour's lines, giving each loopback port of the
// README a free port of this machine (ports maps the README's to them).
func parseTour(t *testing.T, lines []string, ports map[string]string) []tourLine {
	t.Helper()
	var out []tourLine
	for _, l := range lines {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		cmd, comment := helptext.SplitComment(l)
		cmd = loopbackRE.ReplaceAllStringFunc(cmd, func(addr string) string {
			port := loopbackRE.FindStringSubmatch(addr)[1]
			if ports[port] == "" {
				ports[port] = strconv.Itoa(freePort(t))
			}
			return "127.0.0.1:" + ports[port]
		})
		tl := tourLine{text: l, cmd: strings.TrimSpace(cmd), measures: measuringRE.MatchString(cmd) && !strings.Contains(cmd, "--help")}
		if c, ok := strings.CutSuffix(tl.cmd, "&"); ok && !strings.HasSuffix(c, "&") {
			tl.cmd, tl.background = strings.TrimSpace(c), true
		}
		if strings.HasPrefix(comment, "exit 1") {
			tl.want = 1
		}
		out = append(out, tl)
	}
	return out
}

// tourEnv is the environment every line runs in: readbench (the binary
// under test) first on the PATH, and a home and cache folder of the
// test's own, where `readbench login` keeps its tokens.
func tourEnv(dir string) []string {
	env := []string{
		"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + filepath.Join(dir, ".home"), "XDG_CACHE_HOME=" + filepath.Join(dir, ".cache"),
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "PATH" && k != "HOME" && k != "XDG_CACHE_HOME" && k != "COLUMNS" {
			env = append(env, kv)
		}
	}
	return env
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// copyTree copies the regular files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// describe names a line for a failure message.
func (l tourLine) describe() string {
	return fmt.Sprintf("README line %q (run as %q)", l.text, l.cmd)
}

// TestParseTourMeasures: only the lines whose exit status judges a load
// may be excused an exit 1 on a busy machine.
func TestParseTourMeasures(t *testing.T) {
	for line, want := range map[string]bool{
		"readbench run examples/docs.yaml --duration 2s":                                true,
		"readbench check --target http://127.0.0.1:8080/mcp   # exit 1":                 true,
		"for k in 1 2; do readbench run x.yaml & done; wait; readbench merge at-*.json": true,
		"readbench capacity examples/docs.yaml --slo 'turn.p99<800ms'":                  true,
		"readbench schema > readbench.schema.json":                                      false,
		"readbench scenarios":                                          false,
		"readbench run --help":                                         false,
		"readbench inflation 1834208 40x3MB examples/*.png":            false,
		"readbench report runs/*.json --format html --out report.html": false,
	} {
		got := parseTour(t, []string{line}, map[string]string{})
		if len(got) != 1 || got[0].measures != want {
			t.Errorf("%q: measures %v, want %v", line, len(got) == 1 && got[0].measures, want)
		}
	}
}
