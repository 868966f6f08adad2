package client

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"unicode/utf8"
)

// FuzzReadNotice holds the reader of a subscription's messages (outside
// input) to never panicking, and to what encoding/json says of the same
// bytes: a message it reads has the method and uri encoding/json reads.
func FuzzReadNotice(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"docs://a","_meta":{"io.modelcontextprotocol/subscriptionId":7}}}`,
		`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourceSubscriptions":["a"],"resourcesListChanged":true}}}`,
		`{"jsonrpc":"2.0","id":7,"result":{}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Subscription limit reached"}}`,
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":5}}`,
		`{"jsonrpc":"2.0","method":"x","params":[1]}`,
		`{`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := readNotice(b)
		if err != nil {
			return
		}
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(b, &m) != nil {
			t.Fatalf("readNotice read %q, which encoding/json refuses", b)
		}
		if m.Method != n.method && utf8.Valid(b) {
			t.Fatalf("method %q, encoding/json %q", n.method, m.Method)
		}
		var p struct {
			URI *string `json:"uri"`
		}
		if n.hasURI && json.Unmarshal(m.Params, &p) == nil && p.URI != nil && *p.URI != n.uri {
			t.Fatalf("uri %q, encoding/json %q", n.uri, *p.URI)
		}
	})
}

// FuzzStreamReader holds the subscription streams' SSE reader
// (newStreamReader) to never panicking nor keeping more than
// maxNotification bytes of an event, and to reading a well-formed event's
// data whole.
func FuzzStreamReader(f *testing.F) {
	f.Add([]byte("id: 3\nretry: 10\ndata: {\"a\":1}\n\n"), []byte("x"))
	f.Add([]byte(": comment\r\nevent: message\r\ndata: a\r\ndata: b\r\n\r\n"), []byte("yy"))
	f.Add([]byte("data"), []byte(""))
	f.Fuzz(func(t *testing.T, stream, payload []byte) {
		r := newStreamReader(bytes.NewReader(stream))
		var buf []byte
		for range 1000 {
			ev, err := r.NextInto(buf)
			if len(ev.Data) > maxNotification {
				t.Fatalf("kept %d bytes", len(ev.Data))
			}
			if ev.Data != nil {
				buf = ev.Data
			}
			if _, _, stop := eventOf(ev, err); stop != nil {
				break
			}
		}
		if bytes.ContainsAny(payload, "\r\n") {
			return
		}
		ev, err := newStreamReader(bytes.NewReader(append(append([]byte("data: "), payload...), "\n\n"...))).NextInto(nil)
		data, over, stop := eventOf(ev, err)
		if stop != nil && stop != io.EOF {
			t.Fatal(stop)
		}
		if !over && !bytes.Equal(data, payload) && len(payload) > 0 && payload[0] != ' ' {
			t.Fatalf("data %q, want %q", data, payload)
		}
	})
}
