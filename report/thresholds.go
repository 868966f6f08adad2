package report

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// Value formats a figure in the unit of a bound ("ms", "%", "/s", "x",
// "MiB"): every view of thresholds and compare writes a figure this way.
func Value(unit string, v float64) string {
	switch unit {
	case "ms":
		if v == 0 {
			return "0ms"
		}
		if v < 0 {
			return "-" + numfmt.Ms(-v)
		}
		return numfmt.Ms(v)
	case "%":
		return strconv.FormatFloat(v, 'f', 2, 64) + "%"
	case "/s":
		return numfmt.Sig3(v) + "/s"
	case "MiB":
		return numfmt.Sig3(v) + " MiB"
	case "x":
		return strconv.FormatFloat(v, 'f', 3, 64) + "×"
	}
	return numfmt.Sig3(v) + " " + unit
}

// verdictWord is PASS or FAIL: what a CI log is searched for.
func verdictWord(pass bool) string {
	if pass {
		return "PASS"
	}
	return "FAIL"
}

// verdictText is what a threshold measured, or why it could not.
func verdictText(v results.Verdict) string {
	if v.Reason != "" {
		return v.Reason
	}
	return "measured " + Value(v.Unit, v.Measured)
}

// thresholdsTable writes one line per threshold of r, pass or fail with
// the measured value; nothing when the run had none.
func thresholdsTable(w io.Writer, r *results.Result) error {
	if len(r.Thresholds) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "thresholds")
	for _, v := range r.Thresholds {
		fmt.Fprintf(w, "  %s  %-32s %s\n", verdictWord(v.Pass), printable(v.Bound), printable(verdictText(v)))
	}
	return nil
}

// mdThresholds is the thresholds section of the markdown report.
func mdThresholds(b *bytes.Buffer, r *results.Result) {
	if len(r.Thresholds) == 0 {
		return
	}
	b.WriteString("### Thresholds\n\n")
	rows := make([][]string, 0, len(r.Thresholds))
	for _, v := range r.Thresholds {
		icon := "✅ pass"
		if !v.Pass {
			icon = "❌ fail"
		}
		rows = append(rows, []string{icon, "`" + mdCode(v.Bound) + "`", mdEscape(verdictText(v))})
	}
	mdTable(b, "lll", []string{"verdict", "bound", "measured"}, rows)
}

// mdCode makes s safe inside a code span of a table cell.
func mdCode(s string) string {
	out := []rune{}
	for _, c := range printable(s) {
		switch c {
		case '`':
			c = '\''
		case '|':
			out = append(out, '\\')
		}
		out = append(out, c)
	}
	return string(out)
}
