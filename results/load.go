package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"unicode/utf8"

	"github.com/readbench/readbench/stats"
)

// Load reads a result file. Every error names the file, and for a file
// that is not valid JSON the line and column, so the command line can
// report bad input with exit code 2 (README, exit codes). A JSON file that is not a
// result (no "schema", another schema) is refused with a message saying
// what it is not; histograms are checked so that a damaged file fails here
// rather than in the middle of a merge.
//
// A well-formed result is decoded as it is read (decodeStream), never held
// whole: what Load costs is about the decoded result, not the file twice
// over. Only a file that does not read as a result is read whole again,
// by Parse, to word its mistake.
func Load(path string) (*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	r, ok := decodeStream(f)
	f.Close()
	if ok {
		return finish(path, r)
	}
	r = nil // the partial decode is garbage before the file is read whole
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes a result from data; name is used in messages (a file name,
// or "-" for standard input).
func Parse(name string, data []byte) (*Result, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: not a readbench result: the file is empty", name)
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, jsonError(name, data, err)
	}
	raw, ok := probe["schema"]
	if !ok {
		return nil, fmt.Errorf("%s: not a readbench result: it has no \"schema\" key", name)
	}
	var schema string
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("%s: not a readbench result: \"schema\" is not a string", name)
	}
	if schema != Schema {
		return nil, fmt.Errorf("%s: unsupported result schema %q: this readbench reads %q", name, schema, Schema)
	}
	r := new(Result)
	if err := json.Unmarshal(data, r); err != nil {
		if werr := savedErrors(name, data, err); werr != nil {
			return nil, werr
		}
		return nil, jsonError(name, data, err)
	}
	return finish(name, r)
}

// finish checks a decoded result and works out again what it says of its
// own counts; name is used in messages.
func finish(name string, r *Result) (*Result, error) {
	r.fillEmpty()
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// What the file says of its own counts is not taken on trust (a file
	// edited by hand, or by a broken tool): the identity and the health
	// are worked out again from the counts, as Build does.
	r.Totals.IdentityOK = identity(r.Totals.Scheduled, r.Totals.Outcomes) == nil
	setExpectUnmet(r)
	r.Health = HealthOf(r)
	return r, nil
}

// jsonError turns a decoding error into "name:line:col: message".
func jsonError(name string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(data, syn.Offset)
		return fmt.Errorf("%s:%d:%d: not a readbench result: invalid JSON: %v", name, line, col, syn)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Errorf("%s: not a readbench result: the top level is %s, not an object", name, article(typ.Value))
	case errors.As(err, &typ):
		line, col := position(data, typ.Offset)
		return fmt.Errorf("%s:%d:%d: bad result: %q cannot be %s (want %s)", name, line, col, typ.Field, article(typ.Value), typ.Type)
	}
	return fmt.Errorf("%s: bad result: %w", name, err)
}

// article prefixes a JSON type name with "a" or "an".
func article(v string) string {
	switch v {
	case "":
		return "a value"
	case "array", "object":
		return "an " + v
	}
	return "a " + v
}

// position converts the byte offset a JSON error reports (the number of
// bytes read when it was found) into a 1-based line and column, the column
// counted in characters. The offending byte is the last one read.
func position(data []byte, offset int64) (line, col int) {
	i := int(min(max(offset-1, 0), int64(len(data))))
	for i > 0 && i < len(data) && !utf8.RuneStart(data[i]) {
		i-- // inside a character: report the character
	}
	before := data[:i]
	line = 1 + bytes.Count(before, []byte{'\n'})
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCount(before[lineStart:])
}

// check refuses results whose histograms cannot be decoded (compare and
// merge read them, and an error there would no longer name the file) and
// whose counts are negative: no figure can be read from them.
func (r *Result) check() error {
	if err := nonNegative(r); err != nil {
		return err
	}
	blocks := []struct {
		name string
		l    stats.Latency
	}{
		{"read", r.Read}, {"read_ok", r.ReadOK}, {"lag", r.Lag}, {"service", r.Service}, {"ttfb", r.TTFB}, {"turn", r.Turn},
		{"cancellation.cancel_to_late_ms", r.Cancellation.CancelToLateMs}, {"cancellation.allowances_ms", r.Cancellation.AllowancesMs}, {"warmup.read", r.Warmup.Read},
	}
	for i, c := range r.Classes {
		blocks = append(blocks, struct {
			name string
			l    stats.Latency
		}{fmt.Sprintf("classes[%d] (%s)", i, c.Class), c.Latency})
	}
	for _, b := range blocks {
		if b.l.HDR == "" {
			return fmt.Errorf("bad result: %s has no histogram (\"hdr\")", b.name)
		}
		if _, err := b.l.Histogram(); err != nil {
			return fmt.Errorf("bad result: %s: %w", b.name, err)
		}
	}
	return nil
}

// fillEmpty replaces null or missing maps and lists by empty ones, so that
// a loaded result saves back with the same keys Build writes.
func (r *Result) fillEmpty() {
	// Blocks added in v1 after a result was written (read_ok, lag) load
	// as empty blocks, so the file saves back with every key Build writes
	// (cancellation.allowances_ms too: a result written before it has the
	// largest allowance alone).
	ls := []*stats.Latency{&r.ReadOK, &r.Lag, &r.Chunk, &r.Handshake, &r.FirstRead, &r.Cancellation.AllowancesMs}
	for i := range r.Classes {
		ls = append(ls, &r.Classes[i].Chunk, &r.Classes[i].FirstUsable)
	}
	for _, l := range ls {
		if l.HDR == "" {
			*l, _ = LatencyOf(nil)
		}
	}
	emptyMap(&r.Totals.Outcomes)
	emptyMap(&r.Warmup.Outcomes)
	emptyMap(&r.Digests)
	emptyList(&r.Sessions.Errors)
	emptyList(&r.Thresholds)
	emptyList(&r.Health.Reasons)
	if r.Classes == nil {
		r.Classes = []Class{}
	}
	for i := range r.Classes {
		emptyMap(&r.Classes[i].Outcomes)
	}
	emptyList(&r.TurnSizes)
	emptyList(&r.Shards)
	if r.Segment.N < 1 { // written before shards existed: a whole run
		r.Segment = Segment{K: 1, N: 1}
	}
	if r.Timeline == nil {
		r.Timeline = []Second{}
	}
	// A result saved before the recommended pair became null says 0 for
	// "none": it loads as null, the one way a document says none.
	for _, p := range []**float64{&r.Advice.RecommendedDeadlineMs, &r.Advice.RecommendedTimeoutMs} {
		if *p != nil && **p <= 0 {
			*p = nil
		}
	}
	emptyList(&r.Advice.Deadlines)
	emptyList(&r.Advice.Timeouts)
	emptyList(&r.Advice.Reasoning)
	// The workload's lists and maps save as [] and {} whatever was read,
	// and a header value or client secret a hand-edited file carries is
	// read back as workload.Redacted: a result never holds a secret, even
	// after a load and save.
}

func emptyMap[V any](m *map[string]V) {
	if *m == nil {
		*m = map[string]V{}
	}
}

// emptyList replaces a nil list by an empty one.
func emptyList[T any](l *[]T) {
	if *l == nil {
		*l = []T{}
	}
}

// nonNegative refuses a result with a negative count of reads scheduled
// or of an outcome, in either phase or any class: a count is never below
// zero, and one that is makes every rate and share a lie.
func nonNegative(r *Result) error {
	type counts struct {
		name      string
		scheduled int64
		outcomes  map[string]int64
	}
	all := []counts{{"totals", r.Totals.Scheduled, r.Totals.Outcomes}, {"warmup", r.Warmup.Scheduled, r.Warmup.Outcomes}}
	for i, c := range r.Classes {
		all = append(all, counts{fmt.Sprintf("classes[%d] (%s)", i, c.Class), 0, c.Outcomes})
	}
	for _, c := range all {
		if c.scheduled < 0 {
			return fmt.Errorf("bad result: %s.scheduled is %d: a count is never negative", c.name, c.scheduled)
		}
		for _, o := range slices.Sorted(maps.Keys(c.outcomes)) {
			if n := c.outcomes[o]; n < 0 {
				return fmt.Errorf("bad result: %s.outcomes.%s is %d: a count is never negative", c.name, o, n)
			}
		}
	}
	return nil
}
