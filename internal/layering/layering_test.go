package layering

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/readbench/readbench/"

// TestReadmeLayoutHolds checks the whole module against the README's
// layout table: every "never imports" cell, transitively.
func TestReadmeLayoutHolds(t *testing.T) {
	root := moduleRoot(t)
	f, err := os.Open(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rules, err := ParseTable(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) < 10 {
		t.Fatalf("the layout table gave %d rules; the README's table was not read", len(rules))
	}
	deps := moduleDeps(t, root)
	for _, v := range Violations(rules, deps) {
		t.Error(v)
	}
}

// moduleDeps runs go list once: each readbench package's folder and
// everything it imports, directly or not.
func moduleDeps(t *testing.T, root string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		var d []string
		for _, imp := range fields[1:] {
			d = append(d, strings.TrimPrefix(imp, module))
		}
		deps[strings.TrimPrefix(fields[0], module)] = d
	}
	return deps
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// TestViolations shows that an arrow against the table is caught: the
// check is only worth something if a forbidden import fails it.
func TestViolations(t *testing.T) {
	table := `# x
## Layout

| folder | holds | never imports |
|---|---|---|
| ` + "`client`" + ` | the client | driver, the YAML library |
| ` + "`units`" + ` | units | any other readbench package |
| ` + "`targets`" + ` | targets | any other readbench package but ` + "`protocol`" + ` |
| ` + "`internal/…`" + ` | helpers | |

## After
| not | the | table |
`
	rules, err := ParseTable(strings.NewReader(table))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 3 {
		t.Fatalf("rules = %+v, want client, units and targets", rules)
	}
	tests := []struct {
		name string
		deps map[string][]string
		want []string
	}{
		{"clean", map[string][]string{"client": {"units", "internal/h1", "fmt"}, "units": {"internal/suggest"}, "targets": {"protocol"}, "protocol": nil, "driver": nil, "internal/h1": nil, "internal/suggest": nil}, nil},
		{"but", map[string][]string{"client": nil, "units": nil, "targets": {"protocol", "client"}, "protocol": nil, "driver": nil},
			[]string{"README:8: targets imports client, which the layout table says it never imports"}},
		{"direct", map[string][]string{"client": {"driver"}, "units": nil, "targets": nil, "driver": nil},
			[]string{"README:6: client imports driver, which the layout table says it never imports"}},
		{"yaml", map[string][]string{"client": {YAMLPath}, "units": nil, "targets": nil, "driver": nil},
			[]string{"README:6: client imports gopkg.in/yaml.v3, which the layout table says it never imports"}},
		{"any other", map[string][]string{"client": nil, "units": {"client"}, "targets": nil, "driver": nil},
			[]string{"README:7: units imports client, which the layout table says it never imports"}},
		{"renamed package", map[string][]string{"client": nil, "units": nil, "targets": nil},
			[]string{"README:6: client never imports driver: no such package"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Violations(rules, tt.deps); !slices.Equal(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestParseTableErrors(t *testing.T) {
	for _, table := range []string{
		"# no layout\n",
		"## Layout\n| folder | holds | never imports |\n|---|---|---|\n| `x` | y | all of MCP |\n",
		"## Layout\n| folder | holds | never imports |\n| `x` | y |\n",
	} {
		if _, err := ParseTable(strings.NewReader(table)); err == nil {
			t.Errorf("ParseTable(%q) = nil error", table)
		}
	}
}

// TestCmdOnlyWires: cmd/readbench maps flags to options and calls the
// run; it names no client and no recorder (stats) itself, so that what a
// run does lives behind runner and what it measured behind results. A
// direct import, not a transitive one: every package reaches both through
// the ones it calls.
func TestCmdOnlyWires(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "./cmd/readbench")
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		switch imp {
		case "github.com/readbench/readbench/client", "github.com/readbench/readbench/stats":
			t.Errorf("cmd/readbench imports %s: wire it through runner's options instead", imp)
		}
	}
}
