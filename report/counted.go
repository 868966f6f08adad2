package report

import "github.com/readbench/readbench/internal/numfmt"

// counted is n with its noun, singular for exactly one: "1 turn",
// "2 turns", "1,204 reads". A report that says "1 turns" reads as
// careless next to figures it asks the reader to trust (issue 46,
// item 13).
func counted(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return numfmt.Count(n) + " " + many
}
