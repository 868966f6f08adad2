package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/scenarios"
)

// TestScenariosListsDescriptions: `readbench scenarios` gives every
// built-in scenario's description from its file (wrapped, so compared
// with the spaces folded) and what it loads, in lines that fit 80 columns.
func TestScenariosListsDescriptions(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := readbench(t, t.TempDir(), "scenarios")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for i, l := range strings.Split(stdout, "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
	folded := strings.Join(strings.Fields(stdout), " ")
	list, err := scenarios.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		if s.Description == "" {
			t.Errorf("%s has no description", s.Name)
		}
		if !strings.Contains(folded, s.Name+" "+s.Description) {
			t.Errorf("%s: its description %q is not listed after its name:\n%s", s.Name, s.Description, stdout)
		}
	}
	if !strings.Contains(folded, "docs-attachments four parallel attachments") || !strings.Contains(folded, "3 classes at 10/s") {
		t.Errorf("the default scenario's line lacks its description or its load:\n%s", stdout)
	}
}
