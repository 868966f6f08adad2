package protocol

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// stringCases exercise every escape of both styles and invalid UTF-8.
var stringCases = []string{
	"", "plain", "q\"b\\n\nt\tr\r", "\x00\x01\x1f\b\f\x7f", "<a href=\"x\">&amp;</a>", "é日本🎉",
	"\u2028\u2029", `\u00e9\ud83d\ude00\/`, `a\"b`, "bad \xff utf8", "\xff\xfe run", "\xe2\x82 cut", "\xef\xbf\xbd\xff real and replaced",
	strings.Repeat("ab\"", 100),
}

// asServersSend is the simulated server's writer as it was before the two
// styles shared one function: invalid UTF-8 made valid, then only quotes,
// backslashes and control characters escaped.
func asServersSend(s string) []byte {
	s = strings.ToValidUTF8(s, "\uFFFD")
	dst := []byte{'"'}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, `\n`...)
		case c == '\r':
			dst = append(dst, `\r`...)
		case c == '\t':
			dst = append(dst, `\t`...)
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// checkString holds both styles to their references, for s as a string
// and as bytes.
func checkString(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range [][]byte{AppendString(nil, s, LikeEncodingJSON), AppendString(nil, []byte(s), LikeEncodingJSON)} {
		if !bytes.Equal(got, want) {
			t.Errorf("LikeEncodingJSON %q:\n got %s\nwant %s", s, got, want)
		}
	}
	want = asServersSend(s)
	for _, got := range [][]byte{AppendString(nil, s, AsServersSend), AppendString(nil, []byte(s), AsServersSend)} {
		if !bytes.Equal(got, want) {
			t.Errorf("AsServersSend %q:\n got %s\nwant %s", s, got, want)
		}
	}
	var back string
	if err := json.Unmarshal(want, &back); err != nil || back != strings.ToValidUTF8(s, "\uFFFD") {
		t.Errorf("AsServersSend %q reads back as %q (%v)", s, back, err)
	}
	checkUnquote(t, []byte(s))
	checkUnquote(t, []byte(`"`+s+`"`))
	checkUnquote(t, AppendString(nil, s, LikeEncodingJSON))
	checkUnquote(t, want)
}

// checkUnquote: what Unquote decodes, encoding/json decodes the same, and
// a string of valid UTF-8 that it writes is Unquote's to decode.
func checkUnquote(t *testing.T, raw []byte) {
	t.Helper()
	got, ok := Unquote(raw)
	var want string
	err := json.Unmarshal(raw, &want)
	if ok && (err != nil || got != want) {
		t.Errorf("Unquote(%q) = %q, encoding/json says %q, %v", raw, got, want, err)
	}
	if !ok && err == nil && utf8.ValidString(want) && !strings.ContainsRune(want, utf8.RuneError) && raw[0] == '"' && raw[len(raw)-1] == '"' && !bytes.Contains(raw, []byte(`\u`)) {
		t.Errorf("Unquote(%q) leaves an escape-free string of valid UTF-8 to encoding/json", raw)
	}
}

func TestAppendString(t *testing.T) {
	for _, s := range stringCases {
		checkString(t, s)
	}
}

// Escaping bytes costs no allocation beyond dst's growth.
func TestAppendEscapedAllocs(t *testing.T) {
	in := []byte("caf\xc3\xa9 \xff <&> \u2028 " + strings.Repeat("x", 100))
	dst := make([]byte, 0, 1024)
	for _, style := range []StringStyle{LikeEncodingJSON, AsServersSend} {
		if n := testing.AllocsPerRun(100, func() { AppendEscaped(dst, in, style) }); n != 0 {
			t.Errorf("style %d: %v allocations", style, n)
		}
	}
}

// FuzzAppendString: LikeEncodingJSON writes what json.Marshal writes,
// AsServersSend what the simulated server always wrote, whatever the
// bytes.
func FuzzAppendString(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(checkString)
}
