package client

import (
	"encoding/json"
	"testing"
)

// TestUnmarshalInt: the fast path of ttlMs agrees with json.Unmarshal
// into an int64 on what it accepts and the value it sets.
func TestUnmarshalInt(t *testing.T) {
	for _, raw := range []string{
		"0", "7", "1000", "00", "01", "-1", "-0", "1e3", "1.5", "", " 1", "1 ",
		"123456789012345678", "1234567890123456789", "9223372036854775807", "9223372036854775808",
		"99999999999999999999", `"5"`, "null", "true",
	} {
		var want, got int64 = -42, -42
		wantOK := json.Unmarshal([]byte(raw), &want) == nil
		gotOK := unmarshalInt([]byte(raw), &got)
		if gotOK != wantOK || (wantOK && got != want) {
			t.Errorf("%q: got %d %v, json.Unmarshal %d %v", raw, got, gotOK, want, wantOK)
		}
	}
}

// TestUnquoteKnown: a known value is reused, never a different one, and
// what unquote sets is what it set before.
func TestUnquoteKnown(t *testing.T) {
	for _, c := range []struct {
		raw, dst, want string
		known          []string
	}{
		{`"public"`, "", "public", []string{"public", "private"}},
		{`"user"`, "", "user", []string{"public", "private"}},
		{`"a\"b"`, "", `a"b`, []string{`a\"b`}},
		{`5`, "was", "was", []string{"5"}},
		{`"x"`, "x", "x", nil},
	} {
		dst := c.dst
		unquote([]byte(c.raw), false, &dst, c.known...)
		if dst != c.want {
			t.Errorf("%s: got %q, want %q", c.raw, dst, c.want)
		}
	}
}
