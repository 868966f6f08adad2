package report

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// TraceURL is where a reader opens a trace: a URL template whose
// {trace_id} is replaced by a read's trace id, such as
// "https://jaeger.example/trace/{trace_id}" (docs/measurement.md, trace links). The zero value
// links nothing: trace ids are shown as text. A report never guesses a
// tracing system's address: the reader names it (--trace-url).
type TraceURL struct{ template string }

// TraceIDPlaceholder is the part of a TraceURL replaced by the trace id.
const TraceIDPlaceholder = "{trace_id}"

// ParseTraceURL checks a URL template: it must hold {trace_id} (a link
// without the id would open every read on the same page) and be a URL
// once the id is in it. "" is the zero TraceURL.
func ParseTraceURL(template string) (TraceURL, error) {
	if template == "" {
		return TraceURL{}, nil
	}
	if !strings.Contains(template, TraceIDPlaceholder) {
		return TraceURL{}, fmt.Errorf("%q has no %s to replace by the trace id, e.g. 'https://jaeger.example/trace/%s'",
			template, TraceIDPlaceholder, TraceIDPlaceholder)
	}
	t := TraceURL{template: template}
	u, err := url.Parse(t.Link("4bf92f3577b34da6a3ce929d0e0e4736"))
	if err != nil {
		return TraceURL{}, fmt.Errorf("%q is not a URL: %w", template, errors.Unwrap(err))
	}
	if u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return TraceURL{}, fmt.Errorf("%q: want an http or https URL, not %s:", template, u.Scheme)
	}
	return t, nil
}

// IsZero says whether t links nothing.
func (t TraceURL) IsZero() bool { return t.template == "" }

// Link is the URL of the trace id, "" when t is zero or the read carried
// no trace. The id comes from a file that may come from anywhere, so it is
// escaped whole (every byte but letters, digits and -._~): it cannot end
// the query, add a parameter or leave the URL.
func (t TraceURL) Link(traceID string) string {
	if t.template == "" || traceID == "" {
		return ""
	}
	id := strings.ReplaceAll(url.QueryEscape(traceID), "+", "%20")
	return strings.ReplaceAll(t.template, TraceIDPlaceholder, id)
}

// Options say how a reader wants a report made beyond its format: where
// its trace ids link to, and how wide the terminal it is printed on is.
// The zero value is the plain report, 100 columns wide; the package's
// functions (WriteTable, WriteHTML, WriteMarkdown, CompareHTML,
// WriteCompareMarkdown...) are the zero Options' methods.
type Options struct {
	TraceURL TraceURL
	// Width is how many columns the terminal views may use (the
	// terminal's, COLUMNS, or 80 off a terminal: the command line says);
	// 0 is DefaultWidth. Sentences wrap to it, and a table wider than it
	// is drawn a block per row (textTable).
	Width int
}

// DefaultWidth is the terminal views' width when Options say none.
const DefaultWidth = 100

// minWidth is the narrowest a terminal view is laid out for: narrower,
// the words themselves do not fit.
const minWidth = 40

// width is o.Width, or DefaultWidth, never below minWidth.
func (o Options) width() int {
	if o.Width <= 0 {
		return DefaultWidth
	}
	return max(o.Width, minWidth)
}
