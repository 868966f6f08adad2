// Package scenarios holds readbench's built-in workloads: YAML files
// embedded in the binary, so that `readbench run` works with no file at all
// and a user can start from a scenario that documents the format. Each file
// is parsed with yamlfile.Parse under the name "<builtin>/NAME.yaml".
package scenarios

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

//go:embed *.yaml
var files embed.FS

// Default is the scenario `readbench run` uses when given no workload.
const Default = "docs-attachments"

// SourcePrefix is what the source name of a built-in scenario starts with,
// so that error messages and results tell it from a file on disk.
const SourcePrefix = "<builtin>/"

// Names lists the built-in scenarios, sorted, without ".yaml", for
// `readbench scenarios` and for shell completion.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".") // cannot fail on an embed.FS
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Get returns the YAML of the named scenario ("docs-attachments"; a trailing
// ".yaml" is accepted). An unknown name is an error that lists the known
// ones, since the user most likely mistyped one of them.
func Get(name string) ([]byte, error) {
	name = strings.TrimSuffix(name, ".yaml")
	if name == "" || strings.ContainsAny(name, "/\\*?[") {
		return nil, fmt.Errorf("unknown scenario %q (built-in: %s)", name, strings.Join(Names(), ", "))
	}
	data, err := files.ReadFile(name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("unknown scenario %q (built-in: %s)", name, strings.Join(Names(), ", "))
	}
	return data, nil
}

// Source is the source name of the named scenario for yamlfile.Parse:
// "<builtin>/docs-attachments.yaml".
func Source(name string) string {
	return SourcePrefix + strings.TrimSuffix(name, ".yaml") + ".yaml"
}

// Load reads the workload arg names: a file when one exists at that
// path, else the built-in scenario of that name, and Default when arg is
// "". It is how every command and script that takes a workload finds it.
func Load(arg string) (*workload.Workload, error) {
	if arg == "" {
		arg = Default
	}
	if _, err := os.Stat(arg); err == nil {
		return yamlfile.Load(arg)
	}
	data, err := Get(arg)
	if err != nil {
		return nil, fmt.Errorf("%s: no such file, and %w%s", arg, err, targetHint(arg))
	}
	return yamlfile.Parse(Source(arg), data)
}

// targetHint is the end of Load's message for an argument that is no
// workload but a target written as one is usually mistyped
// ("127.0.0.1:8080", "htp://…"): the target meant, and where it goes.
func targetHint(arg string) string {
	if fix := targets.Suggest(arg); fix != "" {
		return fmt.Sprintf("; it looks like a target: did you mean --target %s?", targets.RedactSecrets(fix))
	}
	return ""
}

// Info is what `readbench scenarios` says of a built-in scenario: its
// name, its file's description and what it loads.
type Info struct {
	Name        string
	Description string // the file's description key
	Classes     int    // classes in its mix
	Rate        string // the open model's rate ("10/s"); "" for the closed model
	Concurrency int    // the closed model's turns in flight
}

// List describes every built-in scenario, in Names' order. A scenario
// that does not parse is an error: the tests keep that from shipping.
func List() ([]Info, error) {
	var out []Info
	for _, name := range Names() {
		data, err := Get(name)
		if err != nil {
			return nil, err
		}
		w, err := yamlfile.Parse(Source(name), data)
		if err != nil {
			return nil, err
		}
		i := Info{Name: name, Description: w.Description, Classes: len(w.Mix)}
		if w.Load.Model == workload.ModelClosed {
			i.Concurrency = w.Load.Concurrency
		} else {
			i.Rate = w.Load.Rate.String()
		}
		out = append(out, i)
	}
	return out, nil
}
