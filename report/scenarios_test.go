package report

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestWriteScenarios: names in a column, descriptions wrapped under their
// own column within the width, the load after the description.
func TestWriteScenarios(t *testing.T) {
	list := []Scenario{
		{Name: "short", Description: "one line", Load: "1 class at 5/s"},
		{Name: "a-longer-name", Description: strings.Repeat("word ", 30) + "end.", Load: "2 classes at 1/s"},
	}
	for _, width := range []int{40, 80} {
		var b strings.Builder
		if err := WriteScenarios(&b, list, width); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		if lines[0] != "short          one line; 1 class at 5/s" {
			t.Errorf("width %d: first line %q", width, lines[0])
		}
		for _, l := range lines {
			if utf8.RuneCountInString(l) > width {
				t.Errorf("width %d: %q is %d columns", width, l, utf8.RuneCountInString(l))
			}
		}
		if !strings.HasPrefix(lines[2], strings.Repeat(" ", 15)+"word") {
			t.Errorf("width %d: a wrapped line starts %q, want the description's column", width, lines[2])
		}
		if !strings.Contains(b.String(), "end; 2 classes at 1/s") {
			t.Errorf("width %d: the load does not follow the description:\n%s", width, b.String())
		}
	}
}
