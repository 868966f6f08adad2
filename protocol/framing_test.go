package protocol

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestSSEReader(t *testing.T) {
	stream := ": comment\n" +
		"id: 0\nretry: 1500\ndata:\n\n" + // priming event, empty data
		"event: message\ndata: {\"a\":1}\n\n" +
		"data: line1\r\ndata:line2\r\n\r\n" +
		"id: 9\ndata: {\"id\":3}\n\n"
	r := NewSSEReader(strings.NewReader(stream))
	want := []Event{
		{ID: "0", Retry: 1500, Data: []byte{}},
		{Name: "message", Data: []byte(`{"a":1}`)},
		{Data: []byte("line1\nline2")},
		{ID: "9", Data: []byte(`{"id":3}`)},
	}
	var total int64
	for i, w := range want {
		ev, err := r.Next()
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		total += ev.WireBytes
		if ev.ID != w.ID || ev.Name != w.Name || ev.Retry != w.Retry || !bytes.Equal(ev.Data, w.Data) {
			t.Errorf("event %d = %+v, want %+v", i, ev, w)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("end: %v, want EOF", err)
	}
	if total != int64(len(stream)) {
		t.Errorf("wire bytes %d, stream %d", total, len(stream))
	}
	cut := NewSSEReader(strings.NewReader("data: {\"partial\""))
	if _, err := cut.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut stream: %v", err)
	}
}

func TestWriteEventRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := WriteEvent(&b, "5", "message", []byte("a\nb")); err != nil {
		t.Fatal(err)
	}
	ev, err := NewSSEReader(&b).Next()
	if err != nil || string(ev.Data) != "a\nb" || ev.ID != "5" || ev.Name != "message" {
		t.Fatalf("%+v %v", ev, err)
	}
}

func TestLineReader(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	r := NewLineReader(strings.NewReader("one\r\n\n" + big + "\nlast"))
	for _, want := range []string{"one", big, "last"} {
		got, err := r.Next()
		if err != nil || string(got) != want {
			t.Fatalf("got %d bytes, %v; want %d", len(got), err, len(want))
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}

func TestHeaderValue(t *testing.T) {
	cases := []struct{ in, wire string }{
		{"sim:///a?size=1", "sim:///a?size=1"},
		{"file:///é.md", "=?base64?ZmlsZTovLy/DqS5tZA==?="},
		{" lead", "=?base64?IGxlYWQ=?="},
		{"=?base64?eA==?=", "=?base64?PT9iYXNlNjQ/ZUE9PT89?="},
		{"", ""},
	}
	for _, c := range cases {
		if got := EncodeHeaderValue(c.in); got != c.wire {
			t.Errorf("Encode(%q) = %q, want %q", c.in, got, c.wire)
		}
		if got, ok := DecodeHeaderValue(c.wire); !ok || got != c.in {
			t.Errorf("Decode(%q) = %q, %v", c.wire, got, ok)
		}
	}
	if _, ok := DecodeHeaderValue("=?base64?!!?="); ok {
		t.Error("bad base64 accepted")
	}
}

func TestEnvelopes(t *testing.T) {
	b, err := AppendRequest(nil, IntID(4), MethodResourcesRead, map[string]string{"uri": "x"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(b)
	if err != nil || !m.IsRequest() || m.Method != MethodResourcesRead {
		t.Fatalf("%s: %+v %v", b, m, err)
	}
	if id, ok := ParseIntID(m.ID); !ok || id != 4 {
		t.Fatalf("id %s", m.ID)
	}
	e, err := Decode(AppendError(nil, nil, NewError(CodeInvalidParams, "nope", map[string]string{"uri": "x"})))
	if err != nil || !e.IsResponse() || e.Error.Code != CodeInvalidParams || string(e.ID) != "null" {
		t.Fatalf("%+v %v", e, err)
	}
	if _, err := Decode([]byte(`{"jsonrpc":"1.0","id":1}`)); err == nil {
		t.Fatal("wrong jsonrpc version accepted")
	}
}

func FuzzSSE(f *testing.F) {
	f.Add([]byte("id: 1\nevent: message\ndata: x\n\n: c\ndata\n\n"))
	f.Add([]byte("retry: 10\r\ndata: a\r\ndata: b\r\n\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewSSEReader(bytes.NewReader(b))
		var total int64
		for {
			ev, err := r.Next()
			total += ev.WireBytes
			if err != nil {
				break
			}
		}
		if total != int64(len(b)) {
			t.Fatalf("consumed %d of %d bytes", total, len(b))
		}
	})
}

func TestReadAnswer(t *testing.T) {
	blob := ReadAnswer("file:///a.png", "image/png", []byte{1, 2, 3, 4}, false)
	m, err := Decode(blob)
	if err != nil || !bytes.Contains(m.Result, []byte(`"blob":"AQIDBA=="`)) {
		t.Fatalf("%s %v", blob, err)
	}
	text := ReadAnswer("file:///a.md", "text/markdown", []byte("a \"q\"\n"), true)
	if !bytes.Contains(text, []byte(`"text":"a \"q\"\n"`)) {
		t.Fatalf("%s", text)
	}
	// An empty blob is still a blob field: the envelope of a blob answer.
	if empty := ReadAnswer("u", "", nil, false); !bytes.Contains(empty, []byte(`"blob":""`)) {
		t.Fatalf("%s", empty)
	}
}

func TestLineReaderNextOwned(t *testing.T) {
	r := NewLineReader(strings.NewReader("first\nsecond\n"))
	a, err := r.NextOwned()
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.NextOwned()
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != "first" || string(b) != "second" {
		t.Fatalf("an owned line was overwritten: %q %q", a, b)
	}
}

// TestHasLine: HasLine says whether Next would return without waiting,
// which holds only for a whole non-empty line in the buffer.
func TestHasLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"", false}, {"\n", false}, {"\r\n\n", false}, {"{\"a\":1}", false},
		{"{\"a\":1}\n", true}, {"\n\r\n{}\r\n", true}, {"\n\n{", false},
	} {
		pr, pw := io.Pipe()
		l := NewLineReader(pr)
		wrote := make(chan struct{})
		go func() {
			defer close(wrote)
			_, _ = pw.Write([]byte("x\n" + c.in))
		}()
		if _, err := l.Next(); err != nil { // fills the buffer with what the write holds
			t.Fatal(err)
		}
		<-wrote
		if got := l.HasLine(); got != c.want {
			t.Errorf("HasLine after %q = %v, want %v", c.in, got, c.want)
		}
		pw.Close()
	}
}
