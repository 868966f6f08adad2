package report

import (
	"fmt"
	"io"
	"strings"
)

// Scenario is one line of `readbench scenarios`: a built-in workload's
// name, the one-line description its file gives, and what it loads
// ("3 classes, 10/s"), so a reader can pick one without opening the file.
type Scenario struct {
	Name, Description, Load string
}

// ScenariosWidth is the width `readbench scenarios` fits: the terminal a
// reader most likely has, and what a pipe gets.
const ScenariosWidth = 80

// WriteScenarios lists scenarios in two columns, the name and its
// description with what it loads, wrapped under the description's column
// so that no line passes width.
func WriteScenarios(w io.Writer, list []Scenario, width int) error {
	nameW := 0
	for _, s := range list {
		nameW = max(nameW, len(s.Name))
	}
	indent := strings.Repeat(" ", nameW+2)
	for _, s := range list {
		text := s.Description
		if s.Load != "" {
			text = strings.TrimSuffix(text, ".") + "; " + s.Load
		}
		lines := strings.Split(wrapText(printable(text), max(width-len(indent), 20)), "\n")
		if _, err := fmt.Fprintf(w, "%-*s  %s\n", nameW, s.Name, lines[0]); err != nil {
			return err
		}
		for _, l := range lines[1:] {
			if _, err := fmt.Fprintf(w, "%s%s\n", indent, l); err != nil {
				return err
			}
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\n", wrapText("Run one with readbench run NAME (its file: scenarios/NAME.yaml).", width))
	return err
}
