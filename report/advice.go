package report

import (
	"slices"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The policy advice as the reports show it. Its sentences are not written
// here: the document stores them (advice.reasoning, written once by
// results.Build), and every format prints them as stored, so the table,
// markdown, HTML and JSON of a result give the same advice from the same
// data, and an old result keeps the words it was saved with.

// adviceHeader heads the candidates table of the table and HTML reports.
func adviceHeader() []string {
	return []string{"limit", "deadline: turns cut", "timeout: reads ended"}
}

// adviceRows lists every candidate limit once, shortest first, with the
// share of turns it would have cut as a deadline and of reads it would
// have ended as a timeout ("-" where it was not priced: above the
// configured limit, which the run cannot measure). None when the result
// priced no candidate.
func adviceRows(a results.Advice) [][]string {
	dl, to := shareByMs(a.Deadlines), shareByMs(a.Timeouts)
	atLeast := map[float64]bool{}
	for _, c := range a.Timeouts {
		atLeast[c.Ms] = c.AtLeast
	}
	var limits []float64
	for ms := range dl {
		limits = append(limits, ms)
	}
	for ms := range to {
		if _, dup := dl[ms]; !dup {
			limits = append(limits, ms)
		}
	}
	slices.Sort(limits)
	rows := make([][]string, 0, len(limits))
	for _, ms := range limits {
		rows = append(rows, []string{numfmt.Ms(ms), shareCell(dl, ms), atLeastText(atLeast[ms], shareCell(to, ms))})
	}
	return rows
}

func shareByMs(cs []results.Candidate) map[float64]*float64 {
	m := make(map[float64]*float64, len(cs))
	for _, c := range cs {
		m[c.Ms] = c.Share
	}
	return m
}

// shareCell writes the share priced for a limit, "-" when it was not
// priced or there was nothing to price it over.
func shareCell(m map[float64]*float64, ms float64) string {
	return numfmt.Opt(m[ms], numfmt.Share)
}

// atLeastText is a share as printed: "≥ 12.0%" for a lower bound, so that
// a share the deadline cut short never reads as measured.
func atLeastText(atLeast bool, share string) string {
	if atLeast {
		return "≥ " + share
	}
	return share
}

// recommendation is the recommended pair in words, "" when the result
// recommends nothing. A pair from a contended run says it has a caveat
// (caveatNote), and a pair withheld for contention says so instead: the
// line a reader acts on never reads as a quiet run's.
func recommendation(a results.Advice) string {
	if a.Withheld {
		return withheldNote
	}
	deadline, timeout := a.Recommended()
	if deadline <= 0 && timeout <= 0 {
		return ""
	}
	rec := "turn deadline " + limitText(deadline) + ", read timeout " + limitText(timeout)
	if a.Caveat != "" {
		rec += " " + caveatNote
	}
	return rec
}

// The recommendation's words for a contended run (results: the advice's
// caveat and withheld keys); the caveat's sentence follows it where the
// report has room (the full table, markdown, HTML).
const (
	caveatNote   = "(with a caveat: the run was contended)"
	withheldNote = "none: withheld, the run was too contended to size limits on"
)

// limitText is a recommended limit, or why there is none.
func limitText(ms float64) string {
	if ms <= 0 {
		return "none (too little data)"
	}
	return numfmt.Ms(ms)
}

// htmlAdvice is the advice section of the HTML report: the rows and the
// recommendation of the table report, and the stored sentences.
type htmlAdvice struct {
	Recommend string
	Caveat    string
	Header    []string
	Rows      [][]string
	Reasoning []string
}

// htmlAdviceOf is the advice section of a result, nil when the result has
// no advice at all (as the markdown report leaves its section out).
func htmlAdviceOf(a results.Advice) *htmlAdvice {
	rows, rec := adviceRows(a), recommendation(a)
	if len(rows) == 0 && rec == "" && len(a.Reasoning) == 0 && a.Caveat == "" {
		return nil
	}
	var reasons []string
	for _, s := range a.Reasoning {
		reasons = append(reasons, printable(s))
	}
	return &htmlAdvice{Recommend: rec, Caveat: printable(a.Caveat), Header: adviceHeader(), Rows: rows, Reasoning: reasons}
}
