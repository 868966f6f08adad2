package saved

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestDocumented: every key of the saved workload is in docs/results.md,
// so a key added here is documented for the scripts that read results:
// the top level, load and turn as `workload.KEY` rows, each class's keys
// as rows of the mix table (stages and auth are described in their row).
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/results.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		typ    reflect.Type
		format string
	}{
		{reflect.TypeFor[Workload](), "| `workload.%s` |"},
		{reflect.TypeFor[Load](), "| `workload.load.%s` |"},
		{reflect.TypeFor[Turn](), "| `workload.turn.%s` |"},
		{reflect.TypeFor[Class](), "| `%s` |"},
	} {
		for f := range c.typ.Fields() {
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Type.Kind() == reflect.Struct {
				continue // load and turn: their keys are the rows
			}
			if row := strings.Replace(c.format, "%s", key, 1); !strings.Contains(string(doc), row) {
				t.Errorf("%s.%s: docs/results.md has no row %s", c.typ.Name(), f.Name, row)
			}
		}
	}
}
