package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/readbench/readbench/workload"
)

// The workload of a result is read by its own type (workload.Workload's
// UnmarshalJSON), which knows each bad value's key path but not where it
// is in the file: encoding/json gives an unmarshaler its value alone. So
// the document's reader places each at its line and column, as it places
// any other mistake of the file.

// savedErrors words the workload's mistakes of data, one line each: a
// value of the wrong JSON type as encoding/json's own are worded, any
// other with why it does not read; nil when err holds none.
func savedErrors(name string, data []byte, err error) error {
	var lines []error
	for _, e := range leaves(err) {
		var se *workload.SavedError
		if !errors.As(e, &se) {
			continue
		}
		line, col := position(data, int64(valueAt(data, se.Path))+1)
		var typ *json.UnmarshalTypeError
		if errors.As(se.Err, &typ) {
			lines = append(lines, fmt.Errorf("%s:%d:%d: bad result: %q cannot be %s (want %s)", name, line, col, se.Key(), article(typ.Value), typ.Type))
			continue
		}
		lines = append(lines, fmt.Errorf("%s:%d:%d: bad result: %w", name, line, col, se))
	}
	return errors.Join(lines...)
}

// leaves is the errors err joins (itself when it joins none).
func leaves(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, leaves(e)...)
		}
		return out
	}
	return []error{err}
}

// valueAt is the offset in data of the value at path (object keys, and
// list indices written "[i]"), or of the nearest enclosing value written;
// 0 when none is.
func valueAt(data []byte, path []string) int {
	for n := len(path); n > 0; n-- {
		if off, ok := seek(data, path[:n]); ok {
			return off
		}
	}
	return 0
}

// seek walks data's JSON down path and returns where the value found
// starts.
func seek(data []byte, path []string) (int, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	for _, step := range path {
		tok, err := dec.Token()
		if err != nil {
			return 0, false
		}
		if !next(dec, tok, step) {
			return 0, false
		}
	}
	off := int(dec.InputOffset())
	for off < len(data) && strings.IndexByte(" \t\r\n:,", data[off]) >= 0 {
		off++
	}
	return off, off < len(data)
}

// next moves dec, just past the opening tok of an object or a list, to
// the value of step in it: a key, or an index "[i]".
func next(dec *json.Decoder, tok json.Token, step string) bool {
	skip := func() bool {
		var v json.RawMessage
		return dec.Decode(&v) == nil
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return false
			}
			if k == step {
				return true
			}
			if !skip() {
				return false
			}
		}
	case json.Delim('['):
		i, err := strconv.Atoi(strings.Trim(step, "[]"))
		if err != nil {
			return false
		}
		for ; i > 0 && dec.More(); i-- {
			if !skip() {
				return false
			}
		}
		return i == 0 && dec.More()
	}
	return false
}
