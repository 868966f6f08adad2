package protocol

import (
	"bytes"
	"encoding/json"
	"testing"
)

// paramsCases are params of the shapes requests are built of, and strings
// that exercise every escape encoding/json writes.
var paramsCases = []any{
	nil,
	map[string]any{},
	map[string]any{"uri": "sim:///a.png?mime=image/png&size=10"},
	map[string]any{"uri": "docs://x", "_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "readbench", "version": "0.1"},
	}},
	map[string]any{"requestId": int64(42), "reason": "deadline <800ms> & \"quotes\"\n"},
	map[string]any{"b": true, "n": 7, "list": []any{"x", false, nil, map[string]any{"z": "\u2028\u2029"}}},
	map[string]any{"ctl": "\x00\x01\x1f\b\f\t\r\\", "bad": "\xff\xfe ok \xe2\x82", "é": "ü€𝄞"},
	map[string]any{"raw": json.RawMessage(`{"a":[1,2]}`)},
}

func TestAppendParamsMatchesEncodingJSON(t *testing.T) {
	for _, v := range paramsCases {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendParams(nil, v)
		if err != nil {
			t.Fatalf("appendParams(%#v): %v", v, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("appendParams(%#v)\n got %s\nwant %s", v, got, want)
		}
	}
}

// A value of a kind the fast path does not know (a struct, a float) goes
// to encoding/json whole, and an error from it is returned, not written.
func TestAppendParamsFallsBack(t *testing.T) {
	v := map[string]any{"s": struct {
		A int `json:"a"`
	}{1}, "f": 1.5}
	got, err := appendParams([]byte("x"), v)
	if err != nil || string(got) != `x{"f":1.5,"s":{"a":1}}` {
		t.Fatalf("got %s, %v", got, err)
	}
	if _, err := appendParams(nil, map[string]any{"c": make(chan int)}); err == nil {
		t.Fatal("a channel encoded without error")
	}
}

// FuzzAppendParams holds the fast encoder to encoding/json on arbitrary
// keys and string values, nested as requests nest them.
func FuzzAppendParams(f *testing.F) {
	f.Add("uri", "sim:///a?x=<1>&y=2", "k", "\u2028\xff\"\\\n", int64(-3), true)
	f.Add("", "", "_meta", "é𝄞", int64(0), false)
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string, n int64, b bool) {
		v := map[string]any{k1: v1, "n": n, "inner": map[string]any{k2: v2, "b": b, "l": []any{v1, nil}}}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendParams(nil, v)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("appendParams(%#v)\n got %s (%v)\nwant %s", v, got, err, want)
		}
	})
}

// BenchmarkAppendRequest is the encoding of one modern read request:
// what the generator pays per read before the transport.
func BenchmarkAppendRequest(b *testing.B) {
	params := paramsCases[3].(map[string]any)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AppendRequest(nil, IntID(12345), MethodResourcesRead, params); err != nil {
			b.Fatal(err)
		}
	}
}
