package layering

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// The words a "never imports" cell may hold besides package folders.
const (
	// anyOther forbids every readbench package but the internal/ helpers:
	// the leaves (units, protocol, stats…) that everything may import.
	anyOther = "any other readbench package"
	// yamlLib is the YAML library, which only the workload file format may
	// bring in: the MCP client and the renderers must not link it.
	yamlLib = "the YAML library"
	// YAMLPath is the import path yamlLib names.
	YAMLPath = "gopkg.in/yaml.v3"
)

// Rule is one row of the layout table: a package folder and what it must
// never import, directly or through another package.
type Rule struct {
	Folder string   // as in the table: "client", "internal/h1"
	Never  []string // folders, or YAMLPath
	// NoOther: no readbench package outside internal/ but Folder itself
	// and Except.
	NoOther bool
	Except  []string
	Line    int // the table row's line in the README, for the message
}

// ParseTable reads the layout table of a README: the table under the
// "## Layout" heading whose header row is | folder | holds | never imports |.
// A folder cell is a backquoted folder; a never-imports cell is a comma
// list of folders, yamlLib, and anyOther, optionally followed by
// "but A and B" (the readbench packages it may import).
func ParseTable(r io.Reader) ([]Rule, error) {
	var rules []Rule
	sc := bufio.NewScanner(r)
	inLayout, inTable := false, false
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(text, "## "):
			inLayout, inTable = text == "## Layout", false
			continue
		case !inLayout:
			continue
		case !strings.HasPrefix(text, "|"):
			if inTable {
				return rules, nil // the table ended
			}
			continue
		}
		cells := splitRow(text)
		switch {
		case len(cells) != 3:
			return nil, fmt.Errorf("README:%d: a layout row has %d cells, want 3 (folder, holds, never imports)", line, len(cells))
		case cells[0] == "folder":
			inTable = true
			continue
		case strings.Trim(cells[0], "-: ") == "":
			continue // the separator row
		}
		rule, err := parseRow(cells, line)
		if err != nil {
			return nil, err
		}
		if rule.Folder != "" {
			rules = append(rules, rule)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("README: %w", err)
	}
	if !inTable {
		return nil, fmt.Errorf("README: no layout table under \"## Layout\"")
	}
	return rules, nil
}

func splitRow(text string) []string {
	cells := strings.Split(strings.Trim(text, "|"), "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// parseRow reads one row. A folder cell that is not a single package
// (`internal/…`) has no rule of its own: Folder is "".
func parseRow(cells []string, line int) (Rule, error) {
	folder := strings.Trim(cells[0], "`")
	if strings.ContainsAny(folder, "…*` ") {
		return Rule{}, nil
	}
	rule := Rule{Folder: folder, Line: line}
	for _, item := range strings.Split(cells[2], ",") {
		item = strings.Trim(strings.TrimSpace(item), "`")
		switch {
		case item == "":
		case item == anyOther:
			rule.NoOther = true
		case strings.HasPrefix(item, anyOther+" but "):
			rule.NoOther = true
			for _, e := range strings.Split(strings.TrimPrefix(item, anyOther+" but "), " and ") {
				rule.Except = append(rule.Except, strings.Trim(e, "`"))
			}
		case item == yamlLib:
			rule.Never = append(rule.Never, YAMLPath)
		case strings.ContainsAny(item, " "):
			return Rule{}, fmt.Errorf("README:%d: %q never imports %q: want folders, %q or %q", line, folder, item, anyOther, yamlLib)
		default:
			rule.Never = append(rule.Never, item)
		}
	}
	return rule, nil
}

// Violations lists every import the rules forbid. deps maps a folder to
// everything it imports, directly or not: readbench packages as folders
// relative to the module, others by import path. known is every readbench
// folder, so a rule naming a folder that does not exist is reported too
// (a renamed package must not leave a rule that can never fail).
func Violations(rules []Rule, deps map[string][]string) []string {
	var out []string
	for _, r := range rules {
		if len(r.Never) == 0 && !r.NoOther {
			continue // nothing forbidden (deploy is a module of its own)
		}
		d, ok := deps[r.Folder]
		if !ok {
			out = append(out, fmt.Sprintf("README:%d: %s: no such package", r.Line, r.Folder))
			continue
		}
		for _, n := range r.Never {
			if _, ok := deps[n]; !ok && n != YAMLPath {
				out = append(out, fmt.Sprintf("README:%d: %s never imports %s: no such package", r.Line, r.Folder, n))
			}
		}
		for _, imp := range d {
			if forbidden(r, imp, deps) {
				out = append(out, fmt.Sprintf("README:%d: %s imports %s, which the layout table says it never imports", r.Line, r.Folder, imp))
			}
		}
	}
	sort.Strings(out)
	return out
}

func forbidden(r Rule, imp string, deps map[string][]string) bool {
	for _, n := range r.Never {
		if imp == n {
			return true
		}
	}
	_, readbench := deps[imp]
	return r.NoOther && readbench && imp != r.Folder && !strings.HasPrefix(imp, "internal/") && !slices.Contains(r.Except, imp)
}
