package client

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/protocol"
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

// FuzzReadNoticeVisit holds readNotice's one-pass reading of params
// (noticeVisit) to encoding/json's (noticeParamsJSON): for any bytes, the
// notice is the one encoding/json's reading of the same message's params
// gives, or both fail.
func FuzzReadNoticeVisit(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"sim:///a.md"}}`,
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"docs://a","_meta":{"io.modelcontextprotocol/subscriptionId":7}}}`,
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"a","uri":null,"_meta":null}}`,
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"URI":"a","_META":{"IO.modelcontextprotocol/subscriptionid":"7"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"u\u0072i":"a\u0026b","_meta":{"x":{"y":1}},"_meta":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"a","_meta":{"io.modelcontextprotocol/subscriptionId":null,"io.modelcontextprotocol/subscriptionId":"s"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourceSubscriptions":["a"]}}}`,
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":{"a":1},"_meta":[1]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping","params":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := readNotice(b)
		m, jerr := protocol.Decode(b)
		if (err != nil) != (jerr != nil) {
			t.Fatalf("readNotice error %v, protocol.Decode %v", err, jerr)
		}
		if err != nil {
			return
		}
		want := notice{method: m.Method, response: m.Method == "" && (m.Result != nil || m.Error != nil), rpcErr: m.Error}
		if len(m.ID) > 0 {
			want.id = bytes.Clone(m.ID)
		}
		if want.method != "" && len(m.Params) > 0 && string(m.Params) != "null" {
			noticeParamsJSON(&want, m.Params)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nreadNotice     %+v\nencoding/json %+v", b, got, want)
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
