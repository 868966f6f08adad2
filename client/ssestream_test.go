package client

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/readbench/readbench/protocol"
)

// FuzzSSEEvents: the streaming SSE reader finds the events, names, data
// and wire bytes protocol.SSEReader finds on the same stream, read a byte
// at a time or whole.
func FuzzSSEEvents(f *testing.F) {
	for _, s := range []string{
		": hi\n\nevent: endpoint\ndata: /post?s=1\r\n\r\n",
		"data: {\"a\":1}\ndata:  two\ndata\n\nid: 7\nevent:message\nretry: 10\ndata:x\r\n\r\n",
		"\n\ndata: a\rb\n\ndat\n\nevent\ndata: z\n\n",
		"data: cut",
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, stream []byte, slow bool) {
		ref := protocol.NewSSEReader(bytes.NewReader(stream))
		var r io.Reader = bytes.NewReader(stream)
		if slow {
			r = iotest.OneByteReader(r)
		}
		got := newSSEEvents(r)
		for i := 0; ; i++ {
			want, werr := ref.Next()
			var data []byte
			ev, err := got.next(func(b []byte) bool { data = append(data, b...); return true })
			if (werr == nil) != (err == nil) || (werr != nil && !errors.Is(err, werr)) {
				t.Fatalf("event %d: error %v, reference %v", i, err, werr)
			}
			if werr != nil {
				return
			}
			name := want.Name
			if len(name) > 32 { // kept to tell it from "message", no further
				name = name[:32]
			}
			if ev.name != name || !bytes.Equal(data, want.Data) || ev.wire != want.WireBytes || ev.data != int64(len(data)) {
				t.Fatalf("event %d: name %q data %q wire %d; reference %q %q %d", i, ev.name, data, ev.wire, want.Name, want.Data, want.WireBytes)
			}
		}
	})
}
