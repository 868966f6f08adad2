package report

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// Authorization as a measured cost (results.Auth), in every format: one
// latency table (token requests, reads on a fresh token, later reads),
// the counts beside it, and the one line of a run that lost its
// authorization. A result without tokens (auth: null) shows nothing.

// authRows are the latency rows of the auth block.
func authRows(a *results.Auth) []namedLatency {
	return []namedLatency{
		{name: "token requests", l: a.TokenRequests.Latency},
		{name: "reads, fresh token", l: a.ReadsFreshToken},
		{name: "reads, later", l: a.ReadsLater},
	}
}

// authFields are the counts of the auth block, as label and text.
func authFields(a *results.Auth) [][2]string {
	q := a.TokenRequests
	var reasons []string
	for _, k := range stats.TokenReasons {
		reasons = append(reasons, fmt.Sprintf("%s %s", k, numfmt.Count(q.ByReason[k])))
	}
	for k, n := range q.ByReason { // a reason this readbench does not know: shown, never lost
		if !isTokenReason(k) && n != 0 {
			reasons = append(reasons, fmt.Sprintf("%s %s", printable(k), numfmt.Count(n)))
		}
	}
	var fs [][2]string
	if c := a.Client; c != nil {
		fs = append(fs, [2]string{"client", clientText(c)})
	}
	fs = append(fs, [][2]string{
		{"token requests", fmt.Sprintf("%s (%s failed%s; %s), %s refreshes", numfmt.Count(q.Count), numfmt.Count(q.Failures), unanswered(q.Unanswered), strings.Join(reasons, ", "), numfmt.Count(q.Refreshes))},
		{"unauthorized", numfmt.Count(a.Unauthorized) + " reads" + unsent(a.Unsent)},
	}...)
	if a.Lost != "" {
		fs = append(fs, [2]string{"authorization lost", a.Lost})
	}
	return fs
}

// clientText says who a run or check obtained its tokens as.
func clientText(c *auth.Client) string {
	who := fmt.Sprintf("%s, client %s at %s, scope %q", printable(c.Grant), printable(c.ClientID), printable(cmp.Or(c.Issuer, "an unknown issuer")), printable(strings.Join(c.Scope, " ")))
	if c.StepUps > 0 {
		who += ", stepped up " + plural(c.StepUps, "once", "%d times")
	}
	if !c.Refreshable && c.Grant != "client_credentials" {
		who += ", no refresh token"
	}
	return who
}

// unanswered is how many failed token requests the authorization server
// never answered, "" for none.
func unanswered(n int64) string {
	if n == 0 {
		return ""
	}
	return ", " + numfmt.Count(n) + " never answered: the authorization server was not reached"
}

// unsent is how many unauthorized reads were never sent, "" for none.
func unsent(n int64) string {
	if n == 0 {
		return ""
	}
	return " (" + numfmt.Count(n) + " never sent: no token could be had; the server refused the others)"
}

func isTokenReason(k string) bool {
	for _, r := range stats.TokenReasons {
		if r == k {
			return true
		}
	}
	return false
}

// authNote says what the rows hold.
const authNote = "Token requests: sent to answer, warmup and session opening included. Reads: from the intended start, a read first of its session on its token apart from the others."

// authTable is the terminal's auth block; nothing without tokens.
func authTable(w io.Writer, r *results.Result) error {
	a := r.Auth
	if a == nil {
		return nil
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "authorization")
	t := newTable(w, 1, latencyHeader("", true)...)
	for _, row := range authRows(a) {
		if err := t.Append(latencyRow(row.name, row.l)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, f := range authFields(a) {
		fmt.Fprintln(w, wrapText(printable(f[0]+": "+f[1]), widthOf(w)))
	}
	fmt.Fprintln(w, wrapText(authNote, widthOf(w)))
	return nil
}

// mdAuth is the markdown auth block; nothing without tokens.
func mdAuth(b *bytes.Buffer, r *results.Result) {
	a := r.Auth
	if a == nil {
		return
	}
	mdLatencyBlock(b, "Authorization", authNote, authRows(a), authFields(a))
}

// mdLatencyBlock is a markdown section of latency rows and labelled
// lines under a note: the auth and the subscriptions blocks.
func mdLatencyBlock(b *bytes.Buffer, title, note string, named []namedLatency, fields [][2]string) {
	b.WriteString("### " + title + "\n\n" + mdEscape(note) + "\n\n")
	var rows [][]string
	for _, row := range named {
		rows = append(rows, mdLatencyRow(row.name, row.l))
	}
	h := latencyHeader("", true)
	mdTable(b, mdAlign(h), h, rows)
	for _, f := range fields {
		b.WriteString("- " + f[0] + ": " + mdEscape(f[1]) + "\n")
	}
	b.WriteString("\n")
}

// authHTMLSection is the page's auth section; ok is false without tokens.
func authHTMLSection(r *results.Result, suffix string) (htmlSection, bool) {
	a := r.Auth
	if a == nil {
		return htmlSection{}, false
	}
	t := htmlTable{Class: "latency", Left: 1, Header: latencyHeader("", true)}
	for _, row := range authRows(a) {
		t.Rows = append(t.Rows, latencyRow(row.name, row.l))
	}
	return htmlSection{Kind: "auth", ID: "auth" + suffix, Title: "Authorization", Notes: []string{authNote},
		Fields: printableFields(authFields(a)), Tables: []htmlTable{t}}, true
}

// authCompareSection is compare's authorization rows (p50, p99 and max of
// token requests and of reads on a fresh token), when both runs had
// tokens; ok is false otherwise.
func authCompareSection(c *compare.Comparison) (compareSection, bool) {
	s := compareSection{title: "authorization"}
	labels := map[string]string{"auth.token": "token request", "auth.reads_fresh_token": "read, fresh token"}
	for _, l := range c.Latency {
		label, ok := labels[l.Block]
		if !ok {
			continue
		}
		for _, d := range l.Deltas {
			if d.Label == "p50" || d.Label == "p99" || d.Label == "max" {
				s.rows = append(s.rows, deltaRow(label+" "+d.Label, d))
			}
		}
	}
	return s, len(s.rows) > 0
}
