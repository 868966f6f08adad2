package simserver

import (
	"encoding/json"
	"reflect"
	"testing"
)

// paramsSeeds are params as clients send them, and the shapes the fast
// path must leave to encoding/json.
var paramsSeeds = []string{
	`{"uri":"sim:///a?size=3","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"x","version":"1"}}}`,
	`{"uri":"sim:///a"}`, `{}`, ` { "uri" : "sim:///a" , "cursor" : "2" } `, `null`, `[]`, `"x"`, `{"uri":null}`,
	`{"cursor":null,"name":null,"requestId":null,"arguments":null,"_meta":null}`,
	`{"name":"read","arguments":{"path":"sim:///a","offset":0,"length":10}}`,
	`{"requestId":7,"reason":"turn deadline"}`, `{"requestId":"abc"}`, `{"protocolVersion":"2025-11-25","capabilities":{}}`,
	`{"URI":"sim:///a"}`, `{"Uri":"x","uri":"y"}`, `{"uri":"a","uri":"b"}`, `{"u\u0072i":"sim:///a"}`,
	`{"uri":"caf\u00e9"}`, `{"uri":"café"}`, `{"uri":"a\"b"}`, `{"uri":5}`, `{"uri":true}`, `{"cursor":{}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"x"}}`,
	`{"_meta":{"IO.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, `{"_meta":[]}`, `{"_meta":5}`,
	`{"_meta":{"io.modelcontextprotocol/clientCapabilities":null}}`, `{"_meta":{}}`, `{"_meta":{},"_meta":{}}`,
	`{"requestState":"s1","requestId":1,"requestId":2}`,
	`{"notifications":{"resourceSubscriptions":["sim:///a"],"resourcesListChanged":true}}`, `{"notifications":null}`,
	`{"notifications":{},"notifications":[]}`, `{"Notifications":{}}`, `{"notifications":"x"}`,
	`{"uri":"sim:///a?mime=text/plain\u0026size=3"}`, `{"uri":"\ud83d\ude00"}`, `{"uri":"\ud83d"}`, `{"uri":"\u00e9\n\t\/\\\"\b\f\r"}`,
	`{"uri":"\u0000"}`, "{\"uri\":\"\xff\"}",
	`{"uri":"sim:///a","_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","tracestate":"k=v"}}`,
	`{"_meta":{"traceparent":7,"tracestate":null}}`, `{"_meta":{"TraceParent":"x"}}`, `{"_meta":{"traceparent":"a","traceparent":"b"}}`,
}

// checkParams: the params a message's own pass decodes (decodeMessage)
// are what json.Unmarshal decodes, and a pass that leaves them to
// encoding/json (pre nil) leaves newCall to decode them so. Params come
// from a decoded message, so raw is valid JSON; other bytes are not the
// params decoder's to judge.
func checkParams(t *testing.T, raw []byte) {
	t.Helper()
	if !json.Valid(raw) {
		return
	}
	var want params
	wantErr := json.Unmarshal(raw, &want)
	msg, pre, err := decodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"method":"x","params":` + string(raw) + `}`))
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	if pre != nil && (wantErr != nil || !reflect.DeepEqual(pre.p, want)) {
		t.Fatalf("%q: decoded with the message:\ngot  %+v\nwant %+v (%v)", raw, pre.p, want, wantErr)
	}
	c, perr := newCall(msg, pre)
	if wantErr != nil {
		if perr == nil || perr.Message != "Invalid params: "+wantErr.Error() {
			t.Fatalf("%q: newCall says %v, encoding/json %v", raw, perr, wantErr)
		}
		return
	}
	if !reflect.DeepEqual(c.p, want) {
		t.Fatalf("%q: newCall:\ngot  %+v\nwant %+v", raw, c.p, want)
	}
}

func TestDecodeParams(t *testing.T) {
	for _, s := range paramsSeeds {
		checkParams(t, []byte(s))
	}
	// The usual read takes the message's pass, & escaped as Go's encoder does.
	usual := `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"uri":"sim:///a?mime=text/plain\u0026size=3"}`
	if _, pre, err := decodeMessage([]byte(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":` + usual + `}`)); err != nil || pre == nil || pre.p.URI == nil || *pre.p.URI != "sim:///a?mime=text/plain&size=3" ||
		pre.p.Meta == nil || string(pre.p.Meta.ProtocolVersion) != `"2026-07-28"` || string(pre.p.Meta.ClientCapabilities) != "{}" {
		t.Errorf("the usual read missed the message's own pass: %+v, %v", pre, err)
	}
}

// FuzzDecodeParams: whatever the bytes, the params a request carries are
// decoded as encoding/json decodes them.
func FuzzDecodeParams(f *testing.F) {
	for _, s := range paramsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkParams(t, raw) })
}
