package protocol

import (
	"strings"
	"testing"
)

func TestParseTraceParent(t *testing.T) {
	const ok = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	tests := []struct {
		in      string
		wantErr string
		sampled bool
	}{
		{ok, "", true},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", "", false},
		{"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09-what-comes-later", "", true}, // a later version: its first 55
		{"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x", "characters", false},
		{ok + "-", "characters", false}, // version 00 is exactly 55
		{ok[:54], "characters", false},
		{"ff" + ok[2:], "version", false},
		{"0g" + ok[2:], "version", false},
		{"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "lowercase hex", false},
		{"00-00000000000000000000000000000000-00f067aa0ba902b7-01", "all-zero", false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "all-zero", false},
		{"00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "version-traceid", false},
	}
	for _, tt := range tests {
		p, err := ParseTraceParent(tt.in)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%q: %v", tt.in, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%q: error %v, want one saying %q", tt.in, err, tt.wantErr)
		case err == nil && p.Sampled != tt.sampled:
			t.Errorf("%q: sampled %v, want %v", tt.in, p.Sampled, tt.sampled)
		}
	}
	p, _ := ParseTraceParent(ok)
	if p.String() != ok || p.Trace.String() != ok[3:35] || p.Span.String() != ok[36:52] {
		t.Errorf("round trip: %q (trace %s span %s), want %q", p.String(), p.Trace, p.Span, ok)
	}
}

func TestNewTraceIDs(t *testing.T) {
	seen := map[TraceID]bool{}
	for range 1000 {
		p := TraceParent{Trace: NewTraceID(), Span: NewSpanID(), Sampled: true}
		back, err := ParseTraceParent(p.String())
		if err != nil || back != p {
			t.Fatalf("%s: parsed back as %+v, %v", p, back, err)
		}
		if seen[p.Trace] {
			t.Fatalf("trace id %s twice in 1000", p.Trace)
		}
		seen[p.Trace] = true
		if id, err := ParseTraceID(p.Trace.String()); err != nil || id != p.Trace {
			t.Fatalf("ParseTraceID(%s) = %s, %v", p.Trace, id, err)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = (TraceParent{Trace: NewTraceID(), Span: NewSpanID()}).Append(make([]byte, 0, 64)[:0]) }); n > 1 {
		t.Errorf("Append: %v allocations, want at most the buffer's", n)
	}
}

func TestCheckTraceState(t *testing.T) {
	for _, tt := range []struct {
		in, wantErr string
	}{
		{"rojo=00f067aa0ba902b7,congo=t61rcWkgMzE", ""},
		{" vendor@tenant=x , other=y ", ""},
		{"", ""},
		{"novalue", "key=value"},
		{"Upper=x", "lowercase"},
		{"k=a=b", "printable"},
		{strings.Repeat("a=b,", 33), "33 list members"},
		{strings.Repeat("a", 513), "512"},
	} {
		err := CheckTraceState(tt.in)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("CheckTraceState(%q) = %v, want %q", tt.in, err, tt.wantErr)
		}
	}
}

// FuzzParseTraceParent: whatever a server or proxy sends back, parsing
// never panics, and what parses prints back as the same trace.
func FuzzParseTraceParent(f *testing.F) {
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	f.Add("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseTraceParent(s)
		if err != nil {
			return
		}
		back, err := ParseTraceParent(p.String())
		if err != nil || back != p {
			t.Fatalf("%q parsed as %+v, printed %q, parsed back %+v %v", s, p, p.String(), back, err)
		}
		_ = CheckTraceState(s)
	})
}
