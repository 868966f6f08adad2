package protocol

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestSkipValue(t *testing.T) {
	cases := []struct {
		in  string
		end int // -1: error
		why string
	}{
		{`"abc" tail`, 5, "string ends at its quote"},
		{`"a\"b"`, 6, "escaped quote does not end a string"},
		{`"a\\"x`, 5, "escaped backslash then quote ends it"},
		{`"a\\\"b"`, 8, "backslash pair then escaped quote"},
		{`{"a":[1,2,{"b":null}],"c":true}!`, 31, "nested object"},
		{`  [ ]`, 5, "leading space, empty array"},
		{`-12.5e+3,`, 8, "number"},
		{`"\u00e9"`, 8, "unicode escape"},
		{`"\x"`, -1, "bad escape"},
		{`"abc`, -1, "unterminated string"},
		{"\"a\nb\"", 5, "raw control characters are tolerated: the scanner is lenient"},
		{`{"a" 1}`, -1, "missing colon"},
		{`[1 2]`, -1, "missing comma"},
		{`tru`, -1, "bad literal"},
		{`{"a":1`, -1, "unterminated object"},
		{strings.Repeat("[", 600) + strings.Repeat("]", 600), -1, "too deep"},
	}
	for _, c := range cases {
		end, err := SkipValue([]byte(c.in), 0)
		if c.end < 0 {
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("%s: SkipValue(%q) err = %v, want ErrSyntax", c.why, c.in, err)
			}
			continue
		}
		if err != nil || end != c.end {
			t.Errorf("%s: SkipValue(%q) = %d, %v; want %d", c.why, c.in, end, err, c.end)
		}
	}
}

func TestObjectFieldsAndArray(t *testing.T) {
	var keys, vals []string
	err := ObjectFields([]byte(` {"id": 7, "result": {"contents": [{"uri":"x"}, {"uri":"y"}]}} `), func(k, v []byte) error {
		keys = append(keys, string(k))
		vals = append(vals, string(v))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, ",") != "id,result" || vals[0] != "7" {
		t.Fatalf("keys %v vals %v", keys, vals)
	}
	n := 0
	err = ObjectFields([]byte(vals[1]), func(k, v []byte) error {
		return ArrayElements(v, func(e []byte) error { n++; return nil })
	})
	if err != nil || n != 2 {
		t.Fatalf("elements = %d, %v", n, err)
	}
	stop := errors.New("stop")
	if err := ObjectFields([]byte(`{"a":1,"b":2}`), func(k, v []byte) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("callback error not returned: %v", err)
	}
}

func TestStringLen(t *testing.T) {
	for _, s := range []string{"", "plain", "quote \" and \\ backslash", "line\nbreak\ttab", "é ü 日本", "emoji 😀", "\u2028", "<>&"} {
		raw, _ := json.Marshal(s)
		n, err := StringLen(raw)
		if err != nil || n != int64(len(s)) {
			t.Errorf("StringLen(%s) = %d, %v; want %d", raw, n, err, len(s))
		}
	}
	// Escapes json.Marshal does not produce.
	n, err := StringLen([]byte(`"\ud83d\ude00\u0041\/"`))
	if err != nil || n != 4+1+1 {
		t.Errorf("surrogate pair: %d, %v", n, err)
	}
}

// FuzzScan: the scanner accepts whatever encoding/json accepts (it may
// accept more: it is lenient), agrees on the decoded length of strings,
// and never panics.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `[1,"\u00e9",null]`, `"\ud83d\ude00"`, `"a\\\"b"`, `{"x":{"y":[true,false]}}`, `"\uD800x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		end, err := SkipValue(b, 0)
		if json.Valid(b) {
			if err != nil {
				t.Fatalf("valid JSON rejected: %q: %v", b, err)
			}
			if SkipSpace(b, end) != len(b) {
				t.Fatalf("valid JSON %q: stopped at %d of %d", b, end, len(b))
			}
			// Only a JSON string has a decoded length: json.Unmarshal of
			// null into a string succeeds too (and leaves it empty).
			var s string
			if raw := b[SkipSpace(b, 0):end]; len(raw) > 0 && raw[0] == '"' && json.Unmarshal(b, &s) == nil {
				n, err := StringLen(raw)
				if err != nil || n != int64(len(s)) {
					t.Fatalf("StringLen(%q) = %d, %v; want %d", raw, n, err, len(s))
				}
			}
		}
		_ = ObjectFields(b, func(k, v []byte) error { return nil })
		_ = ArrayElements(b, func(e []byte) error { return nil })
	})
}

// BenchmarkSkipString is why the client's walker stays lenient: the
// string of a 256 KiB read-tool part (the driver walks every part with
// ObjectFields) found by bytes.IndexByte, against the strict walker's
// check of every byte that encoding/json's acceptance needs.
func BenchmarkSkipString(b *testing.B) {
	raw := []byte(`"` + strings.Repeat("QUJDRA==", 32<<10) + `"`)
	b.Run("lenient", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := SkipString(raw, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("strict", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if end, _ := strictString(raw, 0); end != len(raw) {
				b.Fatal(end)
			}
		}
	})
}
