package workload

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// AnsweredTypes is what the reads of one listed MIME type answered: how
// many reads answered a type, and the other types among them. A server
// can list a resource as text/csv and answer text/markdown; a class's
// mime selects resources by the listed type, so `readbench init` and a
// run must say when the two disagree rather than let the class's name
// mislead the reader of its figures.
type AnsweredTypes struct {
	Listed string         // the listed base type
	Reads  int            // reads of it that answered a type
	Other  map[string]int // answered base types other than Listed, with their counts
}

// Contradicted is how many reads answered a type other than the listed one.
func (a AnsweredTypes) Contradicted() int {
	n := 0
	for _, c := range a.Other {
		n += c
	}
	return n
}

// String lists the other types, most frequent first: "text/markdown 3,
// text/plain 2".
func (a AnsweredTypes) String() string {
	types := slices.SortedFunc(maps.Keys(a.Other), func(x, y string) int {
		return cmp.Or(a.Other[y]-a.Other[x], strings.Compare(x, y))
	})
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%s %d", t, a.Other[t])
	}
	return strings.Join(parts, ", ")
}

// Warning says that reads of resources listed as one type answered
// another, for discovery's warnings (init's stderr and the starter's
// header, a run's log).
func (a AnsweredTypes) Warning() string {
	return fmt.Sprintf("resources listed as %s: %d of %d reads answered another mimeType (%s); a class's mime selects by the listed type, so its figures are of what the server answers",
		a.Listed, a.Contradicted(), a.Reads, a)
}

// AnsweredByType groups what reads of a listing answered by listed base
// type, keeping only the types some read contradicted, in listing order.
func AnsweredByType(listing []Resource) []AnsweredTypes {
	byType := map[string]*AnsweredTypes{}
	var order []string
	for _, r := range listing {
		listed, answered := BaseMIME(r.MIME), BaseMIME(r.Answered)
		if listed == "" || answered == "" {
			continue
		}
		a := byType[listed]
		if a == nil {
			a = &AnsweredTypes{Listed: listed, Other: map[string]int{}}
			byType[listed] = a
			order = append(order, listed)
		}
		a.Reads++
		if answered != listed {
			a.Other[answered]++
		}
	}
	var out []AnsweredTypes
	for _, t := range order {
		if a := byType[t]; len(a.Other) > 0 {
			out = append(out, *a)
		}
	}
	return out
}
