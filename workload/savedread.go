package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// Reading the saved form back (savedjson.go writes it): the workload a
// result ran, as it ran, for `readbench run --like RESULT` and for every
// reader of a result. Secrets come back as Redacted, which Validate
// refuses until a flag gives them again; a key of a result written before
// it existed reads as the default it stood for ("" durations and rates
// unset, keep_alive and trace_sample null as their defaults, max_answer ""
// or the default as unset). The workload is not validated: the command
// line's overrides come first. Every value that does not read is reported,
// each a *SavedError with its key path; an unknown key is ignored and a
// key is matched as encoding/json matches a struct's (exactly, else
// without regard to case).

// SavedError is a value of a saved workload that does not read back (a
// hand-edited or damaged result): Path is where it is, each object key or
// list index ("[0]") from the top of the document ("workload", "mix",
// "[0]", "size"), so that the reader of a document can say on which line;
// Err is why, a *json.UnmarshalTypeError when the value has the wrong
// JSON type.
type SavedError struct {
	Path []string
	Err  error
}

// Key is the key path as errors write it: "workload.mix[0].size".
func (e *SavedError) Key() string {
	var b strings.Builder
	for _, p := range e.Path {
		if b.Len() > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// Error is "KEY: why".
func (e *SavedError) Error() string {
	if len(e.Path) == 0 {
		return e.Err.Error()
	}
	return e.Key() + ": " + e.Err.Error()
}

// Unwrap is why.
func (e *SavedError) Unwrap() error { return e.Err }

// UnmarshalJSON reads w from its saved form, the "workload" key of a
// result: the inverse of MarshalJSON. Errors are *SavedError, their paths
// from "workload", all of them joined.
func (w *Workload) UnmarshalJSON(data []byte) error {
	return readInto(data, []string{"workload"}, w, savedReader.workload)
}

// UnmarshalJSON reads a saved load block; error paths start below it.
func (l *Load) UnmarshalJSON(data []byte) error { return readInto(data, nil, l, savedReader.load) }

// UnmarshalJSON reads a saved stage; error paths start below it.
func (s *Stage) UnmarshalJSON(data []byte) error { return readInto(data, nil, s, savedReader.stage) }

// UnmarshalJSON reads a saved turn block; error paths start below it.
func (t *Turn) UnmarshalJSON(data []byte) error { return readInto(data, nil, t, savedReader.turn) }

// UnmarshalJSON reads a saved class; error paths start below it.
func (c *Class) UnmarshalJSON(data []byte) error { return readInto(data, nil, c, savedReader.class) }

// UnmarshalJSON reads a saved auth block; error paths start below it.
func (a *Auth) UnmarshalJSON(data []byte) error { return readInto(data, nil, a, savedReader.auth) }

// UnmarshalJSON reads a saved OAuth client, its secret Redacted; error
// paths start below it.
func (o *OAuth) UnmarshalJSON(data []byte) error {
	return readInto(data, nil, o, func(r savedReader) OAuth { return *r.oauth() })
}

// readInto reads the object data with read into *into; JSON null leaves
// *into as it was, as encoding/json does.
func readInto[T any](data []byte, path []string, into *T, read func(savedReader) T) error {
	var errs []error
	if r, ok := readObject(data, path, &errs); ok {
		*into = read(r)
	}
	return errors.Join(errs...)
}

// savedReader reads the members of one object of a saved workload,
// recording every value that does not read, at its key path, in errs
// (shared by the whole workload) and going on.
type savedReader struct {
	path []string
	keys []string          // the members' keys, in document order ...
	vals []json.RawMessage // ... and their values
	errs *[]error
}

// readObject opens the object data at path; false when data is null or
// not an object (recorded).
func readObject(data []byte, path []string, errs *[]error) (savedReader, bool) {
	r := savedReader{path: path, errs: errs}
	data = bytes.TrimSpace(data)
	if string(data) == "null" {
		return r, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		r.fail(path, fmt.Errorf("want an object, got %s", jsonKind(data)))
		return r, false
	}
	for dec.More() {
		tok, err := dec.Token()
		var v json.RawMessage
		if err == nil {
			err = dec.Decode(&v)
		}
		if err != nil {
			r.fail(path, err)
			return r, false
		}
		r.keys, r.vals = append(r.keys, tok.(string)), append(r.vals, v)
	}
	return r, true
}

// jsonKind names the JSON type of a value, for "want X, got Y".
func jsonKind(v []byte) string {
	switch {
	case len(v) == 0:
		return "nothing"
	case v[0] == '"':
		return "a string"
	case v[0] == '[':
		return "a list"
	case v[0] == 't' || v[0] == 'f':
		return "a boolean"
	}
	return "a number"
}

// at is the key path of key in this object.
func (r savedReader) at(key string) []string { return append(slices.Clip(r.path), key) }

// fail records err at path.
func (r savedReader) fail(path []string, err error) {
	*r.errs = append(*r.errs, &SavedError{Path: path, Err: err})
}

// raw is the value of key (the last one written, matched exactly, else
// without regard to case); nil when absent or null.
func (r savedReader) raw(key string) json.RawMessage {
	found := -1
	for i, k := range r.keys {
		if k == key {
			found = i
		}
	}
	for i := len(r.keys) - 1; found < 0 && i >= 0; i-- {
		if strings.EqualFold(r.keys[i], key) {
			found = i
		}
	}
	if found < 0 || string(r.vals[found]) == "null" {
		return nil
	}
	return r.vals[found]
}

// value decodes key into *into (left as it is when absent or null).
func (r savedReader) value(key string, into any) {
	if raw := r.raw(key); raw != nil {
		if err := json.Unmarshal(raw, into); err != nil {
			r.fail(r.at(key), err)
		}
	}
}

// text is the string at key, "" when absent.
func (r savedReader) text(key string) string {
	var s string
	r.value(key, &s)
	return s
}

// object opens the object at key; false when absent or null.
func (r savedReader) object(key string) (savedReader, bool) {
	raw := r.raw(key)
	if raw == nil {
		return savedReader{}, false
	}
	return readObject(raw, r.at(key), r.errs)
}

// items opens each object of the list at key.
func (r savedReader) items(key string) []savedReader {
	var list []json.RawMessage
	r.value(key, &list)
	var out []savedReader
	for i, raw := range list {
		if item, ok := readObject(raw, append(r.at(key), "["+strconv.Itoa(i)+"]"), r.errs); ok {
			out = append(out, item)
		}
	}
	return out
}

// parsed reads the text at key with parse; "" (absent) is the zero value.
func parsed[T any](r savedReader, key string, parse func(string) (T, error)) (T, bool) {
	var zero T
	s := r.text(key)
	if s == "" {
		return zero, false
	}
	v, err := parse(s)
	if err != nil {
		r.fail(r.at(key), err)
		return zero, false
	}
	return v, true
}

// rate reads a saved rate; "" is unset. Its number per second (key_per_s)
// is for scripts: the text says what was asked.
func (r savedReader) rate(key string) units.Rate {
	v, _ := parsed(r, key, units.ParseRate)
	return v
}

// duration reads a saved duration; "" (a key older than the result) is 0.
func (r savedReader) duration(key string) time.Duration {
	d, _ := parsed(r, key, func(s string) (time.Duration, error) {
		var d units.Duration
		if err := d.UnmarshalText([]byte(s)); err != nil {
			return 0, err
		}
		if d < 0 {
			return 0, fmt.Errorf("%q: must not be negative", s)
		}
		return time.Duration(d), nil
	})
	return d
}

func (r savedReader) workload() Workload {
	w := Workload{Name: r.text("name"), Source: r.text("source"), Protocol: r.text("protocol")}
	r.value("sessions", &w.Sessions)
	r.value("seed", &w.Seed)
	var err error
	if w.Target, err = targets.Parse(r.text("target")); err != nil {
		r.fail(r.at("target"), err)
	}
	if l, ok := r.object("load"); ok {
		w.Load = l.load()
	}
	if t, ok := r.object("turn"); ok {
		w.Turn = t.turn()
	}
	for _, c := range r.items("mix") {
		w.Mix = append(w.Mix, c.class())
	}
	var thresholds map[string]string
	r.value("thresholds", &thresholds)
	for _, metric := range slices.Sorted(maps.Keys(thresholds)) {
		p, err := bounds.ParseThresholdPair(metric, thresholds[metric])
		if err != nil {
			r.fail(append(r.at("thresholds"), metric), err)
		}
		w.Thresholds = append(w.Thresholds, Threshold{Metric: metric, Bound: thresholds[metric], Parsed: p})
	}
	if r.value("allow_hosts", &w.AllowHosts); len(w.AllowHosts) == 0 {
		w.AllowHosts = nil
	}
	if r.value("headers", &w.Headers); len(w.Headers) == 0 {
		w.Headers = nil
	}
	for k := range w.Headers {
		w.Headers[k] = Redacted // a value is never saved, whatever a hand-edited file says
	}
	if a, ok := r.object("auth"); ok {
		w.Auth = &Auth{OAuth: &OAuth{}}
		if o, ok := a.object("oauth"); ok {
			w.Auth.OAuth = o.oauth()
		}
	}
	if l, ok := r.object("listen"); ok {
		w.Listen = l.listen()
	}
	if c, ok := r.object("changes"); ok {
		w.Changes = c.changes()
	}
	if h, ok := r.object("http"); ok {
		w.HTTP = h.http()
	}
	return w
}

func (r savedReader) auth() Auth {
	var a Auth
	if o, ok := r.object("oauth"); ok {
		a.OAuth = o.oauth()
	}
	return a
}

func (r savedReader) oauth() *OAuth {
	o := &OAuth{Grant: r.text("grant"), ClientID: r.text("client_id"), Scope: r.text("scope"),
		PrivateKey: r.text("private_key"), TokenEndpointAuth: r.text("token_endpoint_auth")}
	if r.text("client_secret") != "" {
		o.ClientSecret = Redacted
	}
	if r.value("token_params", &o.TokenParams); len(o.TokenParams) == 0 {
		o.TokenParams = nil
	}
	return o
}

func (r savedReader) load() Load {
	l := Load{Model: r.text("model"), Arrival: r.text("arrival")}
	r.value("concurrency", &l.Concurrency)
	r.value("turns", &l.Turns)
	r.value("max_in_flight", &l.MaxInFlight)
	r.value("min_sessions", &l.MinSessions)
	r.value("session_turns", &l.SessionTurns)
	var keep *bool
	r.value("keep_alive", &keep)
	l.NoKeepAlive = keep != nil && !*keep
	var ts *float64
	switch r.value("trace_sample", &ts); {
	case ts == nil || *ts == 1: // the default: nil, as a parsed file without the key has it
	case *ts < 0 || *ts > 1:
		r.fail(r.at("trace_sample"), fmt.Errorf("%v is not a share from 0 to 1", *ts))
	default:
		l.TraceSample = ts
	}
	l.Rate, l.ConnectRate = r.rate("rate"), r.rate("connect_rate")
	l.Warmup, l.Duration = r.duration("warmup"), r.duration("duration")
	l.HandshakeTimeout, l.SessionLifetime = r.duration("handshake_timeout"), r.duration("session_lifetime")
	for _, s := range r.items("stages") {
		l.Stages = append(l.Stages, s.stage())
	}
	return l
}

func (r savedReader) stage() Stage {
	rate, _ := parsed(r, "rate", units.ParseStageRate) // 0/s: a pause
	s := Stage{Rate: rate, For: r.duration("for")}
	r.value("ramp", &s.Ramp)
	return s
}

func (r savedReader) turn() Turn {
	t := Turn{ReadTimeout: r.duration("read_timeout"), Deadline: r.duration("deadline")}
	r.value("attachments", &t.Attachments.Fixed)
	var weighted map[int]int
	if r.value("attachments_weighted", &weighted); len(weighted) > 0 {
		t.Attachments = Attachments{Weighted: weighted}
	}
	if n, ok := parsed(r, "max_answer", units.ParseSize); ok && n != targets.DefaultMaxAnswer {
		t.MaxAnswer = n // the default is saved written out and read back as unset
	}
	return t
}

func (r savedReader) class() Class {
	c := Class{Name: r.text("class"), URI: r.text("uri"), Template: r.text("template"),
		MIME: r.text("mime"), Expect: r.text("expect")}
	r.value("weight", &c.Weight)
	r.value("entries", &c.Entries)
	if r.value("uris", &c.URIs); len(c.URIs) == 0 {
		c.URIs = nil
	}
	if r.value("vars", &c.Vars); len(c.Vars) == 0 {
		c.Vars = nil
	}
	if IsSizeRange(r.text("size")) {
		if sr, ok := parsed(r, "size", ParseSizeRange); ok {
			c.SizeRange = &sr
		}
	} else if d, ok := parsed(r, "size", units.ParseSizeDist); ok {
		c.Size = &d
	}
	if d, ok := parsed(r, "delay", units.ParseDurationDist); ok {
		c.Delay = &d
	}
	if n, ok := parsed(r, "ranged_chunk", units.ParseSize); ok {
		c.Ranged = &Ranged{Chunk: n}
	}
	return c
}
