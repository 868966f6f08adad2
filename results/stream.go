package results

import (
	"encoding/json"
	"io"
)

// decodeStream decodes a result from r without holding the file whole:
// each top-level value is read and decoded on its own, and the two that
// grow with a run (the timeline, a second per entry, and the classes)
// element by element, so the raw bytes held at once are one element's,
// not the file's. A soak run's result of 400 MB took 1.7 GB of memory to
// report when it was read whole, copied once more to find its schema,
// then decoded (issue 47, item 22).
//
// ok is false when the stream is not a well-formed result whose "schema"
// key is Schema: the caller then reads the file whole with Parse, which
// words each mistake with its line and column (a rare path, which may
// cost what it always did). Each value is decoded by json.Unmarshal into
// the Result as a one-key object, so keys match as they do for a whole
// decode (case-insensitively, the last of a repeated key winning).
func decodeStream(rd io.Reader) (r *Result, ok bool) {
	dec := json.NewDecoder(rd)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	r = new(Result)
	schema := false
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey {
			return nil, false
		}
		switch key {
		case "timeline":
			if !decodeList(dec, &r.Timeline) {
				return nil, false
			}
			continue
		case "classes":
			if !decodeList(dec, &r.Classes) {
				return nil, false
			}
			continue
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return nil, false
		}
		if key == "schema" {
			var s string
			schema = json.Unmarshal(raw, &s) == nil && s == Schema
		}
		name, err := json.Marshal(key)
		if err != nil {
			return nil, false
		}
		one := make([]byte, 0, len(name)+len(raw)+3)
		one = append(append(append(append(one, '{'), name...), ':'), raw...)
		if json.Unmarshal(append(one, '}'), r) != nil {
			return nil, false
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF { // trailing bytes: not one JSON value
		return nil, false
	}
	return r, schema
}

// decodeList decodes a JSON list (or null) into *list one element at a
// time, as json.Unmarshal would decode it whole.
func decodeList[T any](dec *json.Decoder, list *[]T) bool {
	t, err := dec.Token()
	if err != nil {
		return false
	}
	if t == nil { // null
		*list = nil
		return true
	}
	if t != json.Delim('[') {
		return false
	}
	*list = []T{}
	for dec.More() {
		var v T
		if dec.Decode(&v) != nil {
			return false
		}
		*list = append(*list, v)
	}
	t, err = dec.Token()
	return err == nil && t == json.Delim(']')
}
