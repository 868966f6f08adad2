package protocol

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestSSEReaderStreamFields: what a subscription stream's reader needs of
// each event — whether it carried an id (an empty one too) and a retry,
// the comment lines counted, the data appended into the caller's buffer,
// an event over the bound given up on without losing the stream, and a
// long line's buffer not kept once its event was returned.
func TestSSEReaderStreamFields(t *testing.T) {
	long := strings.Repeat("x", 8<<10)
	stream := ": keep-alive\n\n" +
		"id: 7\nretry: 250\ndata: a\n\n" +
		"id:\ndata: b\n\n" +
		": ka\n: ka\ndata: " + long + "\n\n" +
		"data: " + strings.Repeat("y", 300) + "\n\n" +
		"retry: x\ndata: c\n\n"
	r := NewSSEReaderSize(strings.NewReader(stream), 512)
	r.SetMax(10 << 10)
	buf := make([]byte, 0, 64)
	type want struct {
		data            string
		id              string
		hasID, hasRetry bool
		retry           int
		comments        int64
	}
	for i, w := range []want{
		{data: "a", id: "7", hasID: true, hasRetry: true, retry: 250, comments: 1},
		{data: "b", id: "", hasID: true, comments: 1},
		{data: long, comments: 3},
		{data: strings.Repeat("y", 300), comments: 3},
		{data: "c", comments: 3}, // an invalid retry is no retry
	} {
		ev, err := r.NextInto(buf)
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if string(ev.Data) != w.data || ev.ID != w.id || ev.HasID != w.hasID || ev.HasRetry != w.hasRetry || ev.Retry != w.retry || r.Comments() != w.comments {
			t.Errorf("event %d: %q id %q/%v retry %d/%v comments %d, want %+v", i, excerptOf(ev.Data), ev.ID, ev.HasID, ev.Retry, ev.HasRetry, r.Comments(), w)
		}
		if i == 0 && &ev.Data[:1][0] != &buf[:1][0] {
			t.Errorf("event %d: the data is not in the caller's buffer", i)
		}
		if cap(r.line) > 4<<10 {
			t.Errorf("event %d: a line buffer of %d bytes kept between events", i, cap(r.line))
		}
		buf = ev.Data
	}
	if _, err := r.NextInto(buf); err != io.EOF {
		t.Fatalf("end: %v, want EOF", err)
	}

	over := NewSSEReaderSize(strings.NewReader("data: "+long+"\n\ndata: after\n\n"), 512)
	over.SetMax(1 << 10)
	var big *TooLargeError
	if _, err := over.NextInto(nil); !errors.As(err, &big) {
		t.Fatalf("an event over the bound: %v, want *TooLargeError", err)
	}
	if ev, err := over.NextInto(nil); err != nil || !bytes.Equal(ev.Data, []byte("after")) {
		t.Fatalf("after the event over the bound: %q %v", ev.Data, err)
	}
}

// excerptOf is the start of b, for messages.
func excerptOf(b []byte) string { return string(b[:min(len(b), 20)]) }
