package simserver

import (
	"errors"
	"testing"
	"time"
)

func TestParseSimURI(t *testing.T) {
	cases := []struct {
		uri   string
		check func(*Spec) bool
		what  string
	}{
		{"sim:///a", func(s *Spec) bool {
			return s.Name == "a" && s.MIME == DefaultMIME && s.Size == DefaultSize && s.Entries == 1 && s.HonorCancel && s.Scope == "public" && s.TTLMs == 0
		}, "defaults"},
		{"sim:///shots/x.png?mime=image/png&size=1834208", func(s *Spec) bool {
			return s.Name == "shots/x.png" && s.MIME == "image/png" && s.Size == 1834208
		}, "name, mime and size"},
		{"sim:///x?size=8KiB", func(s *Spec) bool { return s.Size == 8192 }, "size with a unit"},
		{"sim:///x?size=0", func(s *Spec) bool { return s.Size == 0 }, "empty resource"},
		{"sim:///x?delay=20ms", func(s *Spec) bool { return s.HasDelay && s.Delay.A == float64(20*time.Millisecond) }, "fixed delay"},
		{"sim:///x?delay=lognormal(12ms,40ms)", func(s *Spec) bool { return s.HasDelay && s.Delay.Kind == "lognormal" }, "delay distribution"},
		{"sim:///x?delay=lognormal(12ms,%2040ms)", func(s *Spec) bool { return s.HasDelay }, "escaped space in a distribution"},
		{"sim:///x?entries=3&size=10", func(s *Spec) bool { return s.Entries == 3 && s.EntryURI(2) == "sim:///x?entries=3&size=10#2" }, "folder read"},
		{"sim:///x?entries=0", func(s *Spec) bool { return s.Entries == 0 }, "empty folder"},
		{"sim:///x?ttl=60000&scope=private", func(s *Spec) bool { return s.TTLMs == 60000 && s.Scope == "private" }, "cache hints"},
		{"sim:///x?error=-32603", func(s *Spec) bool { return s.ErrorCode == -32603 }, "error code"},
		{"sim:///x?stall=1.5s", func(s *Spec) bool { return s.Stall == 1500*time.Millisecond }, "stall"},
		{"sim:///x?hold=400ms", func(s *Spec) bool { return s.Hold == 400*time.Millisecond }, "hold"},
		{"sim:///x?mime=image/png&declare=image/jpeg", func(s *Spec) bool { return s.DeclaredMIME() == "image/jpeg" && s.MIME == "image/png" }, "declared type"},
		{"sim:///x?mime=text/plain%3B%20charset=utf-8", func(s *Spec) bool { return s.MIME == "text/plain; charset=utf-8" }, "type with parameters"},
		{"sim:///x?fault=bad_base64", func(s *Spec) bool { return s.Fault == FaultBadBase64 }, "fault"},
		{"sim:///x?wire=wrong_id", func(s *Spec) bool { return s.Wire == WireWrongID }, "wire fault"},
		{"sim:///x?honor_cancel=false&input_required=true&sse=1", func(s *Spec) bool { return !s.HonorCancel && s.InputRequired && s.SSE }, "booleans"},
		{"SIM:///x", func(s *Spec) bool { return s.Name == "x" }, "scheme is case-insensitive"},
		{"sim:x?size=3", func(s *Spec) bool { return s.Name == "x" && s.Size == 3 }, "opaque form"},
		{"sim:///x?mime=image/svg+xml", func(s *Spec) bool { return s.MIME == "image/svg+xml" }, "plus stays a plus"},
		{"sim:///x?mime=text/plain;charset=utf-8", func(s *Spec) bool { return s.MIME == "text/plain;charset=utf-8" }, "semicolon in a value"},
		{"sim:///x?&&size=3&", func(s *Spec) bool { return s.Size == 3 }, "empty options"},
	}
	for _, tc := range cases {
		s, err := ParseSimURI(tc.uri)
		if err != nil {
			t.Errorf("%s: ParseSimURI(%q): %v", tc.what, tc.uri, err)
			continue
		}
		if s.URI != tc.uri || !tc.check(s) {
			t.Errorf("%s: ParseSimURI(%q) = %+v", tc.what, tc.uri, s)
		}
	}
}

func TestParseSimURIErrors(t *testing.T) {
	cases := []struct {
		uri  string
		want error
		what string
	}{
		{"docs://team/platform/policy/on-call-escalation", ErrNotSim, "another scheme"},
		{"file:///repo/a.png", ErrNotSim, "file scheme"},
		{"", ErrBadURI, "empty"},
		{"::not a uri", ErrBadURI, "unparseable"},
		{"sim://host/x", ErrBadURI, "authority"},
		{"sim:///x?colour=red", ErrBadURI, "unknown option"},
		{"sim:///x?size=1&size=2", ErrBadURI, "repeated option"},
		{"sim:///x?size=-1", ErrBadURI, "negative size"},
		{"sim:///x?size=1TiB", ErrBadURI, "size over the limit"},
		{"sim:///x?size=10MiB&entries=200", ErrBadURI, "read over the total limit"},
		{"sim:///x?size=abc", ErrBadURI, "bad size"},
		{"sim:///x?delay=-5ms", ErrBadURI, "negative delay"},
		{"sim:///x?delay=lognormal(12ms)", ErrBadURI, "bad distribution"},
		{"sim:///x?entries=-1", ErrBadURI, "negative entries"},
		{"sim:///x?entries=1e3", ErrBadURI, "entries not an integer"},
		{"sim:///x?ttl=-1", ErrBadURI, "negative ttl"},
		{"sim:///x?scope=shared", ErrBadURI, "bad scope"},
		{"sim:///x?error=0", ErrBadURI, "error 0"},
		{"sim:///x?error=x", ErrBadURI, "error not a number"},
		{"sim:///x?fault=weird", ErrBadURI, "unknown fault"},
		{"sim:///x?wire=weird", ErrBadURI, "unknown wire fault"},
		{"sim:///x?mime=png", ErrBadURI, "type without subtype"},
		{"sim:///x?honor_cancel=maybe", ErrBadURI, "bad boolean"},
		{"sim:///x?stall=forever", ErrBadURI, "bad stall"},
		{"sim:///x?hold=2m", ErrBadURI, "hold too long"},
		{"sim:///x?size=%zz", ErrBadURI, "bad escape"},
		{"sim:///x?size=1&size=1", ErrBadURI, "same option twice"},
	}
	for _, tc := range cases {
		_, err := ParseSimURI(tc.uri)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: ParseSimURI(%q) = %v, want %v", tc.what, tc.uri, err, tc.want)
		}
	}
}
