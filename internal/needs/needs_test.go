package needs

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test ended instead of
// ending it.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skipf(format string, args ...any)  { r.skipped = fmt.Sprintf(format, args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

func TestMissingSkipsOutsideCIAndFailsInCI(t *testing.T) {
	for _, c := range []struct {
		ci   string
		fail bool
	}{{"", false}, {"false", false}, {"true", true}, {"1", true}} {
		t.Setenv(CIEnv, c.ci)
		r := &recorder{TB: t}
		Tool(r, "readbench-no-such-tool", "make deps")
		got := r.skipped
		if c.fail {
			got = r.failed
		}
		if (r.failed != "") != c.fail || (r.skipped != "") == c.fail {
			t.Errorf("CI=%q: skipped %q, failed %q", c.ci, r.skipped, r.failed)
		}
		if !strings.Contains(got, "readbench-no-such-tool") || !strings.Contains(got, "make deps") {
			t.Errorf("CI=%q: the line names neither the tool nor the install command: %q", c.ci, got)
		}
	}
}

func TestPresentIsQuiet(t *testing.T) {
	t.Setenv(CIEnv, "true")
	r := &recorder{TB: t}
	if p := Tool(r, "go", "make deps"); p == "" || r.failed != "" || r.skipped != "" {
		t.Errorf("go: path %q, skipped %q, failed %q", p, r.skipped, r.failed)
	}
	if p := File(r, "needs.go", "this package", "git checkout"); p != "needs.go" || r.failed != "" || r.skipped != "" {
		t.Errorf("needs.go: %q, skipped %q, failed %q", p, r.skipped, r.failed)
	}
}
