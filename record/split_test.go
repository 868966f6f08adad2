package record

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/needs"
)

type emitted struct {
	msg     string
	framing int64
	over    bool
}

// split feeds text to s in pieces of n bytes and returns what it emitted.
func split(s splitter, text string, n int) []emitted {
	var got []emitted
	emit := func(msg []byte, framing int64, over bool) {
		got = append(got, emitted{string(msg), framing, over})
	}
	for i := 0; i < len(text); i += n {
		s.feed([]byte(text[i:min(i+n, len(text))]), emit)
	}
	s.end(emit)
	return got
}

// TestSplitters: the streaming splitters emit the same messages, with
// their framing, however the answer is cut into pieces (every size from
// one byte), and a message past the limit as over with its size; the
// part of a message past spoolMemory goes through the file.
func TestSplitters(t *testing.T) {
	big := `{"id":1,"result":"` + strings.Repeat("x", spoolMemory+100) + `"}`
	for _, tc := range []struct {
		name   string
		kind   string // sse, body, line
		limit  int64
		text   string
		want   []emitted
		pieces []int // piece sizes to try (nil: 1 to len)
	}{
		{name: "sse one event", kind: "sse", text: "event: message\ndata: {\"id\":1}\n\n",
			want: []emitted{{`{"id":1}`, 23, false}}},
		{name: "sse crlf, two data lines, an id field", kind: "sse", text: "id: 7\r\ndata: {\"a\":\r\ndata:1}\r\n\r\n",
			want: []emitted{{"{\"a\":\n1}", 23, false}}},
		{name: "sse two events, a comment, no last blank line", kind: "sse", text: ": hi\n\ndata: {\"id\":1}\n\ndata: {\"id\":2}",
			want: []emitted{{`{"id":1}`, 8, false}, {`{"id":2}`, 6, false}}},
		{name: "sse a short line", kind: "sse", text: "data:\ndata: x\n\n",
			want: []emitted{{"\nx", 13, false}}},
		{name: "sse over the limit", kind: "sse", limit: 10, text: "data: {\"id\":1,\"result\":\"long\"}\n\ndata: {}\n\n",
			want: []emitted{{"", 32, true}, {"{}", 8, false}}},
		{name: "body", kind: "body", text: "  {\"id\":1}\n",
			want: []emitted{{`{"id":1}`, 3, false}}},
		{name: "body batch", kind: "body", text: `[{"id":1},{"id":2}]`,
			want: []emitted{{`{"id":1}`, 0, false}, {`{"id":2}`, 0, false}}},
		{name: "body over the limit", kind: "body", limit: 4, text: `{"id":1}`,
			want: []emitted{{"", 8, true}}},
		{name: "lines", kind: "line", text: "{\"id\":1}\r\n{\"id\":2}\n{\"id\":3}",
			want: []emitted{{`{"id":1}`, 2, false}, {`{"id":2}`, 1, false}, {`{"id":3}`, 0, false}}},
		{name: "line over the limit", kind: "line", limit: 5, text: "{\"id\":1}\n{}\n",
			want: []emitted{{"", 9, true}, {"{}", 1, false}}},
		{name: "body past memory, spilled", kind: "body", text: big,
			want: []emitted{{big, 0, false}}, pieces: []int{32 << 10, 1 << 20}},
		{name: "sse past memory, spilled", kind: "sse", text: "data: " + big + "\n\n",
			want: []emitted{{big, 8, false}}, pieces: []int{32 << 10, 1 << 20}},
		{name: "line past memory, spilled", kind: "line", text: big + "\n",
			want: []emitted{{big, 1, false}}, pieces: []int{32 << 10, 1 << 20}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			limit := tc.limit
			if limit == 0 {
				limit = DefaultMaxAnswer
			}
			pieces := tc.pieces
			if pieces == nil {
				for n := 1; n <= len(tc.text); n++ {
					pieces = append(pieces, n)
				}
			}
			for _, n := range pieces {
				var s splitter
				switch tc.kind {
				case "sse", "body":
					s = newSplitter(tc.kind == "sse", limit, t.TempDir())
				default:
					s = &lineSplitter{sp: spool{limit: limit, dir: t.TempDir()}}
				}
				if got := split(s, tc.text, n); fmt.Sprint(got) != fmt.Sprint(tc.want) {
					if len(tc.text) > 1000 {
						t.Fatalf("in pieces of %d: %d messages, want %d, or another one", n, len(got), len(tc.want))
					}
					t.Fatalf("in pieces of %d: %+v, want %+v", n, got, tc.want)
				}
			}
		})
	}
}

// TestSpoolLeavesNoFile: a spilled message's file has no name from the
// start, so nothing is left in the folder, whatever happens after.
func TestSpoolLeavesNoFile(t *testing.T) {
	if !canSpill {
		needs.Missing(t, "a system where the spool can spill to a nameless file (Linux, the BSDs, macOS)", "run the tests on such a system")
	}
	dir := t.TempDir()
	sp := spool{limit: DefaultMaxAnswer, dir: dir}
	sp.Write(bytes.Repeat([]byte("y"), spoolMemory+1))
	if sp.f == nil {
		t.Fatal("a message past spoolMemory was not spilled")
	}
	if names, _ := filepathGlob(dir); len(names) != 0 {
		t.Errorf("the spill file has a name: %v", names)
	}
	msg, release, err := sp.view()
	if err != nil || len(msg) != spoolMemory+1 {
		t.Fatalf("view: %d bytes, %v", len(msg), err)
	}
	release()
	sp.reset()
}

func filepathGlob(dir string) ([]string, error) { return filepath.Glob(filepath.Join(dir, "*")) }
