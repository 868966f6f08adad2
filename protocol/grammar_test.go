package protocol

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestValid: the grammar at its edges, each case beside what json.Valid
// says of it (the cases are checked against it too, so a wrong want
// cannot hide): numbers, escapes and surrogates, control characters,
// nesting, trailing bytes and the kinds of whitespace.
func TestValid(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	cases := []struct {
		in   string
		want bool
		why  string
	}{
		{`0`, true, "zero"},
		{`-0`, true, "negative zero"},
		{`-0.0e0`, true, "negative zero, fraction and exponent"},
		{`1e+5`, true, "exponent with a plus"},
		{`1E-5`, true, "capital exponent with a minus"},
		{`12.34e56`, true, "fraction and exponent"},
		{`10`, true, "a zero after a leading digit"},
		{`01`, false, "leading zero"},
		{`-01`, false, "leading zero after a minus"},
		{`00`, false, "two zeros"},
		{`1.`, false, "fraction without digits"},
		{`.5`, false, "fraction without an integer"},
		{`-.5`, false, "minus then a dot"},
		{`1e`, false, "exponent without digits"},
		{`1e+`, false, "exponent sign without digits"},
		{`1.2.3`, false, "two dots"},
		{`1+2`, false, "a plus in the middle"},
		{`--1`, false, "two minus signs"},
		{`-`, false, "a minus alone"},
		{`+1`, false, "a leading plus"},
		{`1ee5`, false, "two exponent marks"},
		{`[0-1]`, false, "a minus after a digit"},
		{`"\u00e9"`, true, "\\u escape"},
		{`"\uD83D\uDE00"`, true, "surrogate pair"},
		{`"\uD800"`, true, "lone high surrogate (decoded as U+FFFD)"},
		{`"\uDC00x"`, true, "lone low surrogate"},
		{`"\u00G0"`, false, "bad hex digit"},
		{`"\u00e"`, false, "\\u escape cut short"},
		{`"\"\\\/\b\f\n\r\t"`, true, "every two-byte escape"},
		{`"\x"`, false, "unknown escape"},
		{`"\'"`, false, "escaped apostrophe"},
		{`"\`, false, "escape at the end"},
		{"\"a\nb\"", false, "raw newline"},
		{"\"a\tb\"", false, "raw tab"},
		{"\"\x00\"", false, "raw NUL"},
		{"\"\x1f\"", false, "raw unit separator"},
		{"\"\x7f\"", true, "DEL is allowed raw"},
		{"\"\xff\xfe\"", true, "invalid UTF-8 (decoded as U+FFFD)"},
		{"\"caf\xc3\xa9\"", true, "UTF-8"},
		{`"abc`, false, "unterminated string"},
		{`true`, true, "true"},
		{`tru`, false, "cut literal"},
		{`nul`, false, "cut null"},
		{`True`, false, "capital literal"},
		{`falsey`, false, "literal with a tail"},
		{`{"a":1,"a":2}`, true, "repeated member"},
		{`{"a" 1}`, false, "missing colon"},
		{`{"a":1,}`, false, "trailing comma in an object"},
		{`[1,]`, false, "trailing comma in an array"},
		{`[1 2]`, false, "missing comma"},
		{`{1:2}`, false, "a number as a name"},
		{`{"a":1`, false, "unterminated object"},
		{`[`, false, "unterminated array"},
		{deep(MaxDepth + 1), true, "nested to the bound"},
		{deep(MaxDepth + 2), false, "nested past the bound (json.Valid allows it)"},
		{`{} `, true, "trailing space"},
		{" \t\r\n{}\n\r\t ", true, "every kind of whitespace around"},
		{"[1,\t2 ,\r\n3]", true, "whitespace between tokens"},
		{"\f{}", false, "form feed is no whitespace"},
		{"\v{}", false, "vertical tab is no whitespace"},
		{"\u00a0{}", false, "no-break space is no whitespace"},
		{`{}x`, false, "trailing garbage"},
		{`{}{}`, false, "two values"},
		{`1 2`, false, "two numbers"},
		{``, false, "nothing"},
		{`  `, false, "whitespace only"},
	}
	for _, c := range cases {
		if got := Valid([]byte(c.in)); got != c.want {
			t.Errorf("%s: Valid(%q) = %v, want %v", c.why, c.in, got, c.want)
		}
		if jv := json.Valid([]byte(c.in)); jv != c.want && !strings.Contains(c.why, "json.Valid allows") {
			t.Errorf("%s: json.Valid(%q) = %v: the case is wrong", c.why, c.in, jv)
		}
	}
}

// TestNumberPieces: a number fed in pieces, cut anywhere, is judged as
// it is whole: the same end, the same fault at the same byte.
func TestNumberPieces(t *testing.T) {
	for _, s := range []string{"0", "-0", "-0.0e0", "1e+5", "01", "1.2.3", "1.", "1e+", "-", "--1", "12.34E56,", "0x"} {
		b := []byte(s)
		var whole Number
		end, bad := whole.Feed(b, 0)
		for cut := 0; cut <= len(b); cut++ {
			var n Number
			e1, bad1 := n.Feed(b[:cut], 0)
			e2, bad2 := e1, -1
			if e1 == cut {
				e2, bad2 = n.Feed(b, cut)
			}
			if bad1 >= 0 {
				bad2 = bad1
			}
			if e2 != end || bad2 != bad || n != whole {
				t.Errorf("%q cut at %d: end %d bad %d %+v, whole %d %d %+v", s, cut, e2, bad2, n, end, bad, whole)
			}
		}
		if len(b) > 0 && IsNumberStart(b[0]) {
			var started, fed Number
			started.Start(b[0])
			fed.Feed(b[:1], 0)
			if started != fed {
				t.Errorf("%q: Start %+v, Feed of its first byte %+v", s, started, fed)
			}
		}
		if want := json.Valid(b[:end]); (bad < 0 && whole.Complete()) != want {
			t.Errorf("%q: in the grammar %v, json.Valid %v", s[:end], bad < 0 && whole.Complete(), want)
		}
	}
}

// TestEscapes: Unescape and IsSimpleEscape take exactly the bytes JSON
// allows after a backslash in a two-byte escape, and HexDigit the hex
// digits.
func TestEscapes(t *testing.T) {
	for c := range 256 {
		want := strings.IndexByte(`"\/bfnrt`, byte(c)) >= 0
		if got := IsSimpleEscape(byte(c)); got != want {
			t.Errorf("IsSimpleEscape(%q) = %v, want %v", byte(c), got, want)
		}
		var s string
		jerr := json.Unmarshal([]byte(`"\`+string(rune(c))+`"`), &s)
		if r, ok := Unescape(byte(c)); ok != want || ok && (jerr != nil || s != string(rune(r))) {
			t.Errorf("Unescape(%q) = %q, %v, want %v (encoding/json: %q, %v)", byte(c), r, ok, want, s, jerr)
		}
		want16, err := strconv.ParseUint(string(rune(c)), 16, 8)
		if d, ok := HexDigit(byte(c)); ok != (err == nil) || ok && uint64(d) != want16 {
			t.Errorf("HexDigit(%q) = %d, %v", byte(c), d, ok)
		}
	}
}

// TestPlainRun: from every start, the run ends at the first quote,
// backslash or control, word by word as byte by byte, and says whether it
// held a byte over ASCII.
func TestPlainRun(t *testing.T) {
	for _, s := range []string{
		"", "a", `abc"def`, `abcdefgh\ijklmnop"`, "abcdefghijklmnopqrstuvw\x1fxyz",
		"caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac plain text that runs on\"", "\x7f\x80\xff!#~ 0123456789",
		`""""""""""`, "\\\\\\\\\\\\\\\\\\", "\xe6\x97\xa5\xe6\x9c\xac\xe6\x97\xa5\xe6\x9c\xac\"\x01",
	} {
		p := []byte(s)
		for i := range len(p) + 1 {
			want, wantHigh := i, false
			for ; want < len(p) && p[want] >= 0x20 && p[want] != '"' && p[want] != '\\'; want++ {
				wantHigh = wantHigh || p[want] >= 0x80
			}
			if end, high := PlainRun(p, i); end != want || high != wantHigh {
				t.Errorf("PlainRun(%q, %d) = %d, %v, want %d, %v", s, i, end, high, want, wantHigh)
			}
		}
	}
}

// TestControlAt: the first control character is found wherever it is,
// at every length (the eight-byte rounds and the overlapping last one).
func TestControlAt(t *testing.T) {
	for n := range 40 {
		b := bytes.Repeat([]byte{'a'}, n)
		if got := ControlAt(b); got != -1 {
			t.Fatalf("len %d, clean: %d", n, got)
		}
		for at := range n {
			for _, c := range []byte{0x00, 0x1f, '\n'} {
				b[at] = c
				if n > at+1 {
					b[n-1] = 0x01 // a later one does not hide it
				}
				if got := ControlAt(b); got != at {
					t.Fatalf("len %d, %#x at %d: %d", n, c, at, got)
				}
				b[at], b[n-1] = 'a', 'a'
			}
		}
	}
	if got := ControlAt([]byte("\x7f\x80\xff ~\x20\x21\x22")); got != -1 {
		t.Errorf("DEL, non-ASCII, space: %d", got)
	}
}

// nestedDeeper reports whether a container in b (strings skipped) is
// nested more than limit deep: json.Valid takes those, the grammar here
// does not.
func nestedDeeper(b []byte, limit int) bool {
	depth, in, esc := 0, false, false
	for _, c := range b {
		switch {
		case in && esc:
			esc = false
		case in && c == '\\':
			esc = true
		case in:
			in = c != '"'
		case c == '"':
			in = true
		case c == '[' || c == '{':
			if depth++; depth > limit+1 {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// FuzzValid: the one grammar check agrees with encoding/json's Valid on
// every input, but for nesting past MaxDepth, which only json.Valid
// takes; whatever it accepts, the lenient scanner reads to its end, and
// the strict walker ends where the lenient one does.
func FuzzValid(f *testing.F) {
	for _, s := range []string{
		`{"a":"b"}`, `[1,"\u00e9",null]`, `"\ud83d\ude00"`, `-0.0e+1`, `01`, `1.`, "\"a\x01\"",
		"\xff\"", `{"a":[true,false,{}]} `, `[1,]`, `{}x`, "\t\r\n 1 ", `"\u00G0"`, `1e`, `tru`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, want := Valid(b), json.Valid(b)
		if got != want && !(want && nestedDeeper(b, MaxDepth)) {
			t.Fatalf("Valid(%q) = %v, json.Valid %v", b, got, want)
		}
		if !got {
			return
		}
		i := SkipSpace(b, 0)
		end, err := SkipValue(b, i)
		if err != nil || SkipSpace(b, end) != len(b) {
			t.Fatalf("valid %q: the lenient scanner stopped at %d: %v", b, end, err)
		}
		if se := (walk{strict: true, limit: MaxDepth}).end(b, i, 0); se != end {
			t.Fatalf("valid %q: strict end %d, lenient %d", b, se, end)
		}
	})
}
