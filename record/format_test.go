package record

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestWriterParseRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	started := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	w, err := NewWriter(&buf, Header{Upstream: "http://127.0.0.1:1/mcp", Transport: "http", Started: started})
	if err != nil {
		t.Fatal(err)
	}
	want := Read{AtMs: 1.5, Session: "s1", Turn: 1, URI: "doc://a\n\"b\"", Outcome: "ok", Bytes: 3, WireBytes: 90, MIME: "text/plain", Entries: 1, Digest: "sha256:00", LatencyMs: 0.25}
	if err := w.Read(want); err != nil {
		t.Fatal(err)
	}
	w.Count("resources/read")
	if err := w.Close(started.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 3 {
		t.Fatalf("%d lines, want 3:\n%s", n, buf.String())
	}
	rec, err := Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want.Type = TypeRead
	if rec.Header.Format != Format || rec.Header.Version != Version || !rec.Header.Started.Equal(started) || len(rec.Reads) != 1 || rec.Reads[0] != want || rec.Methods.Counts["resources/read"] != 1 {
		t.Errorf("%+v", rec)
	}
}

func TestParseRefuses(t *testing.T) {
	header := `{"type":"header","format":"readbench/recording","version":1,"upstream":"u","started":"2026-12-03T12:00:00Z"}` + "\n"
	read := `{"type":"read","at_ms":1,"session":"s1","turn":1,"uri":"doc://a","outcome":"ok","bytes":1,"wire_bytes":2,"latency_ms":1}`
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "no header"},
		{"no-header", read, "line 1: not a recording"},
		{"other-format", strings.Replace(header, "readbench/recording", "har", 1), `format "har"`},
		{"newer", strings.Replace(header, `"version":1`, `"version":2`, 1), "version 2"},
		{"second-header", header + header, "line 2: a second header"},
		{"unknown-type", header + `{"type":"odd"}`, `line 2: unknown line type "odd"`},
		{"bad-json", header + "{", "line 2:"},
		{"no-uri", header + strings.Replace(read, `"doc://a"`, `""`, 1), "line 2: read: no uri"},
		{"outcome", header + strings.Replace(read, `"ok"`, `"fine"`, 1), `unknown outcome "fine"`},
		{"turn", header + strings.Replace(read, `"turn":1`, `"turn":0`, 1), "turns count from 1"},
		{"negative", header + strings.Replace(read, `"at_ms":1`, `"at_ms":-1`, 1), "at least 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if rec, err := Parse(strings.NewReader(header + read + "\n\n")); err != nil || len(rec.Reads) != 1 || rec.Methods != nil {
		t.Errorf("a recording cut before its methods line: %+v, %v", rec, err)
	}
}

func TestRedactURI(t *testing.T) {
	a, b := RedactURI("file:///home/alice/secret-plan.md"), RedactURI("file:///home/alice/other.md")
	if !strings.HasPrefix(a, "redacted:file:") || a == b || strings.Contains(a, "alice") || RedactURI("file:///home/alice/secret-plan.md") != a {
		t.Errorf("%s %s", a, b)
	}
	if got := RedactURI("no scheme at all"); !strings.HasPrefix(got, "redacted:uri:") {
		t.Errorf("%s", got)
	}
}

// TestMaskSecrets: a recording read back has the secrets of its URIs
// masked as the upstream's are, whoever wrote it, and says how many.
func TestMaskSecrets(t *testing.T) {
	for _, tc := range []struct{ uri, want string }{
		{"docs://a/b?token=t0k3n&v=2", "docs://a/b?token=xxxxx&v=2"},
		{"https://alice:pa55@h/x.md", "https://alice:xxxxx@h/x.md"},
		{"s3://b/k?X-Amz-Credential=AKIA&api_key=k", "s3://b/k?X-Amz-Credential=xxxxx&api_key=xxxxx"},
		{"sim:///a?mime=text/plain&size=10", "sim:///a?mime=text/plain&size=10"},
		// issue 47, item 10: a token as the user, signatures, a fragment's token.
		{"https://ghp_t0k3n@raw.example/x.md", "https://xxxxx@raw.example/x.md"},
		{"https://a.blob.core.windows.net/c/k?sv=1&sig=AbC%2F", "https://a.blob.core.windows.net/c/k?sv=1&sig=xxxxx"},
		{"s3://b/k?X-Amz-Signature=fe5f", "s3://b/k?X-Amz-Signature=xxxxx"},
		{"docs://a/b#access_token=t0k", "docs://a/b#access_token=xxxxx"},
		{"mailto:alice@example.com", "mailto:alice@example.com"},
	} {
		rec := &Recording{Reads: []Read{{URI: tc.uri}}}
		n := rec.MaskSecrets()
		if rec.Reads[0].URI != tc.want || (n == 1) != (tc.uri != tc.want) {
			t.Errorf("%s: %s (%d masked), want %s", tc.uri, rec.Reads[0].URI, n, tc.want)
		}
	}
}
