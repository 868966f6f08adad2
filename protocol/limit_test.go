package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// TestIDScanner: the id found by feeding a message in pieces is the one
// ObjectFields finds in the whole, wherever the message is cut.
func TestIDScanner(t *testing.T) {
	cases := []struct {
		msg, want string // want "" when there is no id to find
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{"contents":[]}}`, `7`},
		{`{"result":{"id":1,"x":[{"id":2}]},"jsonrpc":"2.0","id":42}`, `42`},
		{` { "id" : "srv-1" , "method":"ping"}`, `"srv-1"`},
		{`{"idx":1,"id":null}`, `null`},
		{`{"a":"\"id\":3","id":-4}`, `-4`},
		{`{"i\u0064":5,"id":6}`, `6`},
		{`{"method":"notifications/progress"}`, ``},
		{`[{"id":1}]`, ``},
		{`garbage {"id":1}`, ``},
		{`{"id":"` + strings.Repeat("x", 100) + `"}`, ``}, // too long to be ours
	}
	for _, c := range cases {
		for cut := 0; cut <= len(c.msg); cut++ {
			var s IDScanner
			_, _ = s.Write([]byte(c.msg[:cut]))
			_, _ = s.Write([]byte(c.msg[cut:]))
			got, ok := s.ID()
			if string(got) != c.want || ok != (c.want != "") {
				t.Fatalf("%s cut at %d: id %q %v, want %q", c.msg, cut, got, ok, c.want)
			}
		}
	}
}

// FuzzIDScanner: on any valid JSON object, the streaming scan agrees with
// ObjectFields about the (first) id.
func FuzzIDScanner(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":7,"result":{}}`), 3)
	f.Add([]byte(`{"result":{"id":[1,{"id":2}]},"id":"x\"y"}`), 10)
	f.Fuzz(func(t *testing.T, b []byte, cut int) {
		var compact bytes.Buffer
		if !json.Valid(b) || json.Compact(&compact, b) != nil || len(b) == 0 || bytes.TrimSpace(b)[0] != '{' {
			return
		}
		var want []byte
		found := false
		_ = ObjectFields(compact.Bytes(), func(k, v []byte) error {
			if !found && string(k) == "id" {
				want, found = v, true
			}
			return nil
		})
		if len(want) > maxIDBytes {
			want, found = nil, false
		}
		cut = max(0, min(cut, len(b)))
		var s IDScanner
		_, _ = s.Write(b[:cut])
		_, _ = s.Write(b[cut:])
		got, ok := s.ID()
		if ok != found || !bytes.Equal(got, want) {
			t.Fatalf("%s: scanner %q %v, ObjectFields %q %v", b, got, ok, want, found)
		}
	})
}

// bigLine is a reader of one JSON-RPC answer of n payload bytes with the
// id before (idFirst) or after its result, then a newline and rest: it
// costs no memory of its own, so a test can tell what the reader kept.
func bigLine(id string, n int64, idFirst bool, rest string) io.Reader {
	head, tail := `{"jsonrpc":"2.0","id":`+id+`,"result":{"blob":"`, `"}}`+"\n"
	if !idFirst {
		head, tail = `{"result":{"blob":"`, `"},"jsonrpc":"2.0","id":`+id+"}\n"
	}
	return io.MultiReader(strings.NewReader(head), io.LimitReader(repeatReader('A'), n), strings.NewReader(tail+rest))
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLineReaderMax: a line over the limit is an error carrying its id,
// whether the id comes first or last, and costs no memory beyond the
// limit; the lines after it are read as usual.
func TestLineReaderMax(t *testing.T) {
	const limit = 1 << 20
	r := NewLineReader(io.MultiReader(
		strings.NewReader(`{"id":1,"result":{}}`+"\n"),
		bigLine("2", 64<<20, true, ""),
		bigLine("3", 64<<20, false, `{"id":4,"result":{}}`+"\n"),
	))
	r.SetMax(limit)
	var errs []*TooLargeError
	var lines []string
	alloc := allocated(func() {
		for {
			line, err := r.Next()
			var tl *TooLargeError
			switch {
			case errors.As(err, &tl):
				errs = append(errs, tl)
			case err == io.EOF:
				return
			case err != nil:
				t.Fatal(err)
			default:
				lines = append(lines, string(line))
			}
		}
	})
	if len(lines) != 2 || lines[0] != `{"id":1,"result":{}}` || lines[1] != `{"id":4,"result":{}}` {
		t.Errorf("lines %q", lines)
	}
	if len(errs) != 2 || string(errs[0].ID) != "2" || string(errs[1].ID) != "3" || !errors.Is(errs[0], ErrTooLarge) {
		t.Fatalf("errors %+v", errs)
	}
	if errs[0].Read > 2*limit || errs[1].Read < 64<<20 {
		t.Errorf("read %d bytes of the answer whose id comes first (want to stop near the limit), %d of the one whose id comes last", errs[0].Read, errs[1].Read)
	}
	if alloc > 8*limit {
		t.Errorf("reading 128 MiB of over-limit lines allocated %d bytes", alloc)
	}
}

// TestSSEReaderMax: an event whose data passes the limit, in one line or
// many, is an error carrying its id; a giant comment too; the events after
// it are read as usual and every byte is counted.
func TestSSEReaderMax(t *testing.T) {
	const limit = 1 << 10
	big := strings.Repeat("A", 4*limit)
	stream := "data: {\"id\":1}\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":\"" + big + "\"}\n\n" +
		"data: {\"result\":\n" + strings.Repeat("data: \""+strings.Repeat("B", 100)+"\",\n", 20) + "data: \"x\":1, \"id\":3}\n\n" +
		": " + big + "\n\n" +
		"data: {\"id\":4}\n\n"
	r := NewSSEReader(strings.NewReader(stream))
	r.SetMax(limit)
	var total int64
	var got []string
	for {
		ev, err := r.Next()
		total += ev.WireBytes
		var tl *TooLargeError
		switch {
		case errors.As(err, &tl):
			got = append(got, "over:"+string(tl.ID))
			continue
		case err == io.EOF:
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, string(ev.Data))
			continue
		}
		break
	}
	want := []string{`{"id":1}`, "over:2", "over:3", "over:", `{"id":4}`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("events %q, want %q", got, want)
	}
	if total != int64(len(stream)) {
		t.Errorf("wire bytes %d, stream %d", total, len(stream))
	}
}
