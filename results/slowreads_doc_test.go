package results

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/readbench/readbench/stats"
)

// TestSlowReadsDocumented: every key of classes[].slow_reads and of a
// slow read has its row in docs/results.md, so a key added here is
// documented for the scripts that read results.
func TestSlowReadsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/results.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		typ    reflect.Type
		format string
	}{
		{reflect.TypeFor[stats.SlowReads](), "| `slow_reads.%s` |"},
		{reflect.TypeFor[stats.SlowRead](), "| `%s` |"},
	} {
		for f := range c.typ.Fields() {
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if row := strings.Replace(c.format, "%s", key, 1); !strings.Contains(string(doc), row) {
				t.Errorf("%s.%s: docs/results.md has no row %s", c.typ.Name(), f.Name, row)
			}
		}
	}
	if !strings.Contains(string(doc), "| `slow_reads` | object |") {
		t.Error("docs/results.md: the classes table has no slow_reads row")
	}
}
