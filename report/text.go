package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload"
)

// The text every format shares: making strings from a file safe to print,
// the one word-wrapper, and how the document's names read in a title.
// Numbers have their one format in internal/numfmt.

// maxName bounds the class names shown, so a long one cannot push the
// table past 100 columns.
const maxName = 24

// clip shortens a name to maxName characters and makes it printable.
func clip(s string) string {
	if r := []rune(s); len(r) > maxName {
		s = string(r[:maxName-1]) + "…"
	}
	return printable(s)
}

// printable replaces control characters by '?': a report may render a file
// from elsewhere, and its strings must not drive the terminal (escape
// sequences) or break the layout (newlines).
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s)
}

// printableLines makes each line of s printable, keeping the line breaks.
func printableLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = printable(l)
	}
	return strings.Join(lines, "\n")
}

// wrapText wraps each line of s at width columns: at spaces where it can,
// and inside a word longer than the width (a URI), so nothing ever sticks
// out of a column. It is the one wrapper of the reports: the check table's
// details and the advice's sentences alike.
func wrapText(s string, width int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		cur := ""
		for _, word := range strings.Fields(l) {
			switch {
			case cur == "":
			case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) <= width:
				cur += " " + word
				continue
			default:
				out = append(out, cur)
			}
			for utf8.RuneCountInString(word) > width {
				r := []rune(word)
				out = append(out, string(r[:width]))
				word = string(r[width:])
			}
			cur = word
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}

// orDash is s, or "-" for an empty one: a blank cell reads as a mistake.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// toolName is the tool as report titles show it ("readbench" when the
// document does not say).
func toolName(t results.Tool) string {
	if s := strings.TrimSpace(t.Name + " " + t.Version); s != "" {
		return s
	}
	return "readbench"
}

// where is the target's address and transport, as report headers show it.
func where(t results.Target) string {
	addr := orDash(t.Address)
	if t.Transport != "" {
		addr += " (" + t.Transport + ")"
	}
	return addr
}

// serverText is the server's name and version, "-" when it gave none.
func serverText(t results.Target) string {
	return orDash(strings.TrimSpace(t.Server.Name + " " + t.Server.Version))
}

// workloadTitle is the workload's name and the file it came from.
func workloadTitle(w workload.Workload) string {
	name := orDash(w.Name)
	if w.Source != "" {
		name += " (" + w.Source + ")"
	}
	return name
}

// sortedKeys returns the keys of m in order, for stable reports.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// generatorBound says plainly when the generator, not the server, limited
// the run, "" when it did not.
func generatorBound(r *results.Result) string {
	g := r.Generator
	switch {
	case !r.GeneratorBound:
		return ""
	case g.Saturated:
		return "GENERATOR-BOUND: readbench could not keep the schedule: it " + g.Saturation + ";\n" +
			"the server did not get the load asked for, so the figures answer another question than the one asked"
	case g.JitterMaterial:
		return "GENERATOR-BOUND: " + g.Note + ":\n" +
			"the figures say as much about readbench as about the server (service time is the server's part)"
	}
	// A result written before the generator block said why.
	return fmt.Sprintf("GENERATOR-BOUND: scheduling lag p99 %s, max %s (bound %s): readbench itself fell behind the\n"+
		"schedule, so the run measured its own limits as well as the server's; the latencies include the lag",
		numfmt.Ms(r.Lag.P99Ms), numfmt.Ms(r.Lag.MaxMs), numfmt.Ms(r.LagBoundMs))
}

// cancellationText says what was cancelled and what the server did after:
// answers after the cancel where they can be seen ("not observable" where
// they cannot, never a 0 that reads as "honoured"), what they wasted and
// when — they may have crossed the cancel on the wire, no verdict — and,
// on a line of its own, the cancels the server ignored: answers that
// started beyond the round-trip allowance after the cancel reached it, the
// only verdict against the server ("" when the document does not say).
func cancellationText(c results.Cancellation) (cancelled, late, ignored string) {
	switch {
	case c.LateAnswers == nil:
		return numfmt.Count(c.Cancelled) + " reads; late answers not observable on this transport (the request's stream is closed)", "", ""
	case c.Cancelled == 0:
		return "0 reads", "", ""
	case *c.LateAnswers == 0:
		return fmt.Sprintf("%s reads, 0 answered after the cancel (watched until %s after the last turn)",
			numfmt.Count(c.Cancelled), numfmt.Ms(c.LateWatchMs)), "", ""
	}
	var wasted, ign, ignBytes int64
	if c.WastedBytes != nil {
		wasted = *c.WastedBytes
	}
	if c.Ignored != nil {
		ign = *c.Ignored
	}
	if c.IgnoredBytes != nil {
		ignBytes = *c.IgnoredBytes
	}
	crossed := "they crossed it on the wire"
	switch {
	case c.Ignored == nil:
		crossed = "they crossed it on the wire or were ignored"
	case ign == *c.LateAnswers:
		crossed = "every one ignored it"
	case ign > 0:
		crossed = fmt.Sprintf("%s crossed it on the wire, %s ignored it", numfmt.Count(*c.LateAnswers-ign), numfmt.Count(ign))
	}
	late = fmt.Sprintf("%s answered after the cancel, %s wasted: %s (they came p50 %s, max %s after the cancel)",
		numfmt.Count(*c.LateAnswers), numfmt.Bytes(wasted), crossed, numfmt.Ms(c.CancelToLateMs.P50Ms), numfmt.Ms(c.CancelToLateMs.MaxMs))
	if c.Ignored == nil {
		return numfmt.Count(c.Cancelled) + " reads", late, ""
	}
	allowance := "the round-trip allowance"
	switch a := c.AllowancesMs; {
	case a.Count > 1 && a.MaxMs > a.P50Ms:
		// each answer has its own, from the ping after its own cancel
		allowance += fmt.Sprintf(" of its own cancel (over the late answers p50 %s, p99 %s, max %s)", numfmt.Ms(a.P50Ms), numfmt.Ms(a.P99Ms), numfmt.Ms(a.MaxMs))
	case c.AllowanceMs != nil:
		allowance += " " + numfmt.Ms(*c.AllowanceMs)
	}
	if ign == 0 {
		ignored = fmt.Sprintf("0 ignored the cancel: every answer after it was on its way before the server could act on the cancel (it started within %s of the cancel reaching the server, or before the server had read it)", allowance)
	} else {
		ignored = fmt.Sprintf("%s ignored the cancel (%s): the answer started more than %s after the cancel reached the server, which had time to act on it and did not honour it",
			numfmt.Count(ign), numfmt.Bytes(ignBytes), allowance)
	}
	return numfmt.Count(c.Cancelled) + " reads", late, ignored
}

// capitalized is s with its first letter upper case, for a phrase the
// table prints in a line of its own and the other formats as a sentence.
func capitalized(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
