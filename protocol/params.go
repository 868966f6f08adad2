package protocol

import (
	"encoding/json"
	"slices"
	"strconv"
)

// appendParams appends the JSON encoding of a request's params. A read's
// params are a small map of strings (the URI, the per-request _meta), and
// a load run encodes one per read: encoding/json's reflection was a tenth
// of the generator's CPU per 1 KiB read. The values requests are built of
// — maps with string keys, slices, strings, bools, integers, nil and
// already encoded json.RawMessage — are written here, byte for byte what
// json.Marshal writes (keys sorted, HTML characters escaped, invalid
// UTF-8 replaced; FuzzAppendParams holds the two together); anything else
// goes to json.Marshal.
func appendParams(dst []byte, v any) ([]byte, error) {
	if out, ok := appendFast(dst, v); ok {
		return out, nil
	}
	p, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, p...), nil
}

// appendFast appends v when every value in it is of a kind it knows; ok
// is false (and dst must be discarded) otherwise.
func appendFast(dst []byte, v any) (_ []byte, ok bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		return AppendString(dst, x, LikeEncodingJSON), true
	case bool:
		return strconv.AppendBool(dst, x), true
	case int:
		return strconv.AppendInt(dst, int64(x), 10), true
	case int64:
		return strconv.AppendInt(dst, x, 10), true
	case json.RawMessage:
		// Trusted to be compact, valid JSON: the callers build it with
		// json.Marshal once (a session's _meta) and reuse it.
		if x == nil {
			return append(dst, "null"...), true
		}
		return append(dst, x...), true
	case map[string]any:
		if x == nil {
			return append(dst, "null"...), true
		}
		var small [8]string // requests' maps are small: no allocation for their keys
		keys := small[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(AppendString(dst, k, LikeEncodingJSON), ':')
			if dst, ok = appendFast(dst, x[k]); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	case []any:
		if x == nil {
			return append(dst, "null"...), true
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, ok = appendFast(dst, e); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	}
	return dst, false
}
