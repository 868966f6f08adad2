package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// CheckSchema names the version of the JSON that readbench check prints,
// so that a CI step parsing it can tell when its shape changes.
const CheckSchema = "readbench/check/v1"

// Check statuses as printed: a CI step greps for fail, a person reads FAIL.
const (
	CheckPass = "pass"
	CheckFail = "fail"
	CheckSkip = "skip"
)

// CheckReport is what readbench check found about a target's read
// contract: one entry per check, and the target as a result records it.
type CheckReport struct {
	Schema  string       `json:"schema"`
	Tool    Tool         `json:"tool"`
	Target  Target       `json:"target"`
	Era     string       `json:"era,omitempty"` // "stateless" (2026-07-28) or "handshake"
	Pass    bool         `json:"pass"`          // no check failed
	Summary CheckSummary `json:"summary"`
	Checks  []Check      `json:"checks"`
}

// CheckSummary counts the checks by status.
type CheckSummary struct {
	Pass int `json:"pass"`
	Fail int `json:"fail"`
	Skip int `json:"skip"`
}

// Check is one row: what was checked, how it ended, on which URI or path,
// and what was seen (or why it was skipped).
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	URI    string `json:"uri,omitempty"`
	Detail string `json:"detail"`
}

// Finish fills the schema, the summary and the verdict from the checks.
func (r *CheckReport) Finish() {
	r.Schema = CheckSchema
	r.Summary = CheckSummary{}
	for _, c := range r.Checks {
		switch c.Status {
		case CheckPass:
			r.Summary.Pass++
		case CheckFail:
			r.Summary.Fail++
		default:
			r.Summary.Skip++
		}
	}
	r.Pass = r.Summary.Fail == 0
}

// WriteCheckJSON writes r as indented JSON, for CI.
func WriteCheckJSON(w io.Writer, r *CheckReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // URIs with & stay readable
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("results: check report: %w", err)
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
func WriteCheckTable(w io.Writer, r *CheckReport) error {
	bw := new(bytes.Buffer)
	fmt.Fprintf(bw, "%s: read contract check\n", printable(r.Tool.String()))
	t := r.Target
	line(bw, "target", "%s", t.Where())
	server := t.ServerText()
	proto := orDash(t.ProtocolVersion)
	if r.Era != "" {
		proto += ", " + r.Era + " era"
	}
	line(bw, "server", "%s, protocol %s", server, proto)
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
			return fmt.Errorf("results: check report: %w", err)
		}
	}
	if err := tbl.Render(); err != nil {
		return fmt.Errorf("results: check report: %w", err)
	}
	fmt.Fprintln(bw)
	s := r.Summary
	verdict := "PASS"
	if !r.Pass {
		verdict = "FAIL"
	}
	line(bw, "verdict", "%s: %d passed, %d failed, %d skipped", verdict, s.Pass, s.Fail, s.Skip)
	out := make([]byte, 0, bw.Len())
	for l := range bytes.Lines(bw.Bytes()) {
		out = append(out, bytes.TrimRight(l, " \n")...)
		out = append(out, '\n')
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("results: check report: %w", err)
	}
	return nil
}

func statusText(s string) string {
	switch s {
	case CheckPass:
		return "pass"
	case CheckFail:
		return "FAIL"
	case CheckSkip:
		return "skip"
	}
	return clip(s)
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
// and inside a word (a URI) longer than the width.
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
