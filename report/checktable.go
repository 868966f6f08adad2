package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/readbench/readbench/results"
)

// WriteCheckJSON writes r as indented JSON, for CI.
func WriteCheckJSON(w io.Writer, r *results.CheckDocument) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // URIs with & stay readable
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("report: check report: %w", err)
	}
	return nil
}

// detailWidth is the width of the detail column: with the name and result
// columns and the rules the table fits 100 columns.
const detailWidth = 64

// WriteCheckTable writes r for people: what was checked, then one row per
// check (a failed one says FAIL, so it stands out in a CI log), then the
// verdict. The detail is wrapped, a URI broken where it must be, so the
// table fits 100 columns with plain ASCII rules and no colours.
func WriteCheckTable(w io.Writer, r *results.CheckDocument) error {
	bw := new(bytes.Buffer)
	fmt.Fprintf(bw, "%s: read contract check\n", printable(toolName(r.Tool)))
	t := r.Target
	line(bw, "target", "%s", where(t))
	server := serverText(t)
	proto := orDash(t.ProtocolVersion)
	if r.Era != "" {
		proto += ", " + r.Era + " era"
	}
	line(bw, "server", "%s, protocol %s", server, proto)
	if r.Auth != nil {
		line(bw, "auth", "%s", clientText(r.Auth))
	}
	fmt.Fprintln(bw)
	tbl := newTable(bw, 3, "check", "result", "detail")
	prevURI := ""
	for _, c := range r.Checks {
		// A URI is shown once for the rows that follow on it (the read
		// tool's ranges): the table stays short and JSON keeps every one.
		detail := c.Detail
		if c.URI != "" && c.URI != prevURI {
			detail = c.URI + "\n" + detail
		}
		prevURI = c.URI
		if err := tbl.Append([]string{clip(c.Name), statusText(c.Status), wrapText(printableLines(detail), detailWidth)}); err != nil {
			return fmt.Errorf("report: check report: %w", err)
		}
	}
	if err := tbl.Render(); err != nil {
		return fmt.Errorf("report: check report: %w", err)
	}
	fmt.Fprintln(bw)
	s := r.Summary
	verdict := "PASS"
	if !r.Pass {
		verdict = "FAIL"
	}
	na := ""
	if s.NA > 0 {
		na = fmt.Sprintf(", %d not applicable", s.NA)
	}
	if r.Unreachable != "" {
		line(bw, "verdict", "UNREACHABLE: the target could not be reached, so no check ran (is the server running?)")
	} else {
		line(bw, "verdict", "%s: %d passed, %d failed, %d skipped%s", verdict, s.Pass, s.Fail, s.Skip, na)
	}
	out := make([]byte, 0, bw.Len())
	for l := range bytes.Lines(bw.Bytes()) {
		out = append(out, bytes.TrimRight(l, " \n")...)
		out = append(out, '\n')
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("report: check report: %w", err)
	}
	return nil
}

func statusText(s results.CheckStatus) string {
	switch s {
	case results.CheckPass:
		return "pass"
	case results.CheckFail:
		return "FAIL"
	case results.CheckSkip:
		return "skip"
	case results.CheckNA:
		return "n/a"
	}
	return clip(string(s))
}
