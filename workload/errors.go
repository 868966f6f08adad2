package workload

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Error is every parse and validation error of a workload. A load test is
// configured by hand, often under time pressure, so each error names the file,
// the line and column of the offending YAML node and the dotted key path
// (for example "mix[1].size") instead of a bare "invalid value": the command
// line prints it as is and exits 2.
//
// Line and Col are 1-based and 0 when the error does not come from a place in
// the file (for example a bad command-line override found by Validate).
// When a file has several mistakes, the file's parser (yamlfile.Parse)
// and Validate return them all, as Errors.
type Error struct {
	File      string
	Line, Col int
	Key       string
	Msg       string
}

// Error formats the error as "FILE:LINE:COL: KEY: MSG", the form editors and
// terminals turn into a link, leaving out the parts that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.File != "" && e.Line > 0:
		b.WriteString(e.File + ":" + strconv.Itoa(e.Line))
	case e.File != "":
		b.WriteString(e.File)
	case e.Line > 0:
		b.WriteString("line " + strconv.Itoa(e.Line))
	}
	if e.Line > 0 && e.Col > 0 {
		b.WriteString(":" + strconv.Itoa(e.Col))
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every mistake of one file (or of one Validate), sorted by place
// in the file: the command line prints one per line, each with its
// FILE:LINE:COL, so that one run names everything to fix. errors.As finds
// the first *Error in it.
type Errors []*Error

// Error is one line per mistake.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap is the mistakes, for errors.As and errors.Is.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// JoinErrors is the error of a list of mistakes: nil for none, the *Error
// itself for one, else Errors sorted by place (errors without a place,
// from the command line, first; then by line and column; ties keep the
// order they were found in). Validate and the file's parser
// (workload/yamlfile) both report so.
func JoinErrors(es []*Error) error {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	out := slices.Clone(es)
	slices.SortStableFunc(out, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return Errors(out)
}

// errorf builds an *Error that is not tied to a place in the file; the
// file's parser, or Places.Locate, fills in the place from the key path
// when it can.
func errorf(key, format string, args ...any) *Error {
	return &Error{Key: key, Msg: fmt.Sprintf(format, args...)}
}

// Place is where a key path's value was written in the workload file:
// its 1-based line and column.
type Place struct{ Line, Col int }

// Places maps each key path of a file ("mix[1].size") to where its value
// was written. The file's parser records them (Workload.SetPlaces), so that
// a mistake found later, by Validate after the command line's overrides,
// by the plan or by discovery, still names the line to fix.
type Places map[string]Place

// Locate fills in the file and the place of e from ps: the exact key path
// when it was written, or else the nearest enclosing one ("mix[1].size"
// falls back to "mix[1]", then "mix", then the document), so a missing key
// is reported where it should have been written. An e that has a place
// keeps it.
func (ps Places) Locate(e *Error, file string) {
	e.File = file
	if ps == nil || e.Line > 0 {
		return
	}
	for key := e.Key; ; key = ParentKey(key) {
		if p, ok := ps[key]; ok {
			e.Line, e.Col = p.Line, p.Col
			return
		}
		if key == "" {
			return
		}
	}
}

// SetPlaces records where each key path of w was written (see Places);
// the parser of the file calls it. A workload built in code, or read back
// from a result, has none.
func (w *Workload) SetPlaces(ps Places) { w.places = ps }

// locate places e where w's file wrote its key, when w came from a file.
func (w *Workload) locate(e *Error) { w.places.Locate(e, w.Source) }

// ParentKey strips the last component of a dotted key path:
// "mix[1].size" → "mix[1]" → "mix" → "". Key paths name a value of the
// file in errors, of the saved form too.
func ParentKey(key string) string {
	i := strings.LastIndexAny(key, ".[")
	if i < 0 {
		return ""
	}
	return key[:i]
}

// JoinKey appends a map key to a key path.
func JoinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// IndexKey appends a list index to a key path.
func IndexKey(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}
