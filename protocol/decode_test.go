package protocol

import (
	"bufio"
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

// realRequests reads testdata/requests.txt: messages as clients write them.
func realRequests(t testing.TB) [][]byte {
	t.Helper()
	f, err := os.Open("testdata/requests.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Bytes(); len(line) > 0 && line[0] != '#' {
			out = append(out, bytes.Clone(line))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// oddMessages are valid and invalid messages the one-pass path must either
// decode as encoding/json does or leave to it.
var oddMessages = []string{
	``, ` `, `{}`, `[]`, `null`, `"x"`, `{"jsonrpc":"2.0"}`, `{"jsonrpc":"2.0"} x`, `{"jsonrpc":"2.0"}}`,
	` {"jsonrpc" : "2.0" , "id" : 7 , "method" : "ping" } ` + "\n\t",
	`{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"2.0","id":"7","method":"ping"}`,
	`{"jsonrpc":"2.0","id":-1.5e+3,"method":"ping"}`, `{"jsonrpc":"2.0","id":01,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1.,"method":"ping"}`, `{"jsonrpc":"2.0","id":-,"method":"ping"}`, `{"jsonrpc":"2.0","id":1e,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":{"a":[1,{}]},"method":"ping"}`, `{"jsonrpc":"2.0","id":[ ],"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, `{"jsonrpc":"2.0","ID":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","Method":"ping","method":"x"}`, `{"jsonrpc":"2.0","method":"ping","method":"x"}`,
	`{"jsonrpc":"2.0","\u006dethod":"ping"}`, `{"jsonrpc":"2.0","methoD":"ping"}`, "{\"jsonrpc\":\"2.0\",\"method\u017f\":\"ping\"}",
	"{\"jsonrpc\":\"2.0\",\"\u212aey\":1}", `{"jsonrpc":"2.0","other":{"x":[true,false,null]},"method":"ping"}`,
	`{"jsonrpc":"1.0","method":"ping"}`, `{"jsonrpc":"2.0 ","method":"ping"}`, `{"jsonrpc":"2\u002e0","method":"ping"}`,
	`{"jsonrpc":null,"method":"ping"}`, `{"jsonrpc":2,"method":"ping"}`, `{"method":"ping"}`,
	`{"jsonrpc":"2.0","method":null,"id":1}`, `{"jsonrpc":"2.0","method":5}`, `{"jsonrpc":"2.0","method":"caf\u00e9"}`,
	"{\"jsonrpc\":\"2.0\",\"method\":\"caf\xc3\xa9\"}", "{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}", "{\"jsonrpc\":\"2.0\",\"method\":\"a\x01\"}",
	`{"jsonrpc":"2.0","method":"a\"b"}`, `{"jsonrpc":"2.0","method":"x","params":null}`, `{"jsonrpc":"2.0","method":"x","params":[1,2]}`,
	`{"jsonrpc":"2.0","method":"x","params":"s"}`, `{"jsonrpc":"2.0","method":"x","params":{"a":1,"a":2,"\u0061":3}}`,
	"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"uri\":\"\xff\\u00e9\\ud83d\"}}", `{"jsonrpc":"2.0","method":"x","params":{"a":"\x"}}`,
	`{"jsonrpc":"2.0","method":"x","params":{"a":"\u12"}}`, `{"jsonrpc":"2.0","method":"x","params":{"a":tru}}`,
	`{"jsonrpc":"2.0","method":"x","params":{"a" 1}}`, `{"jsonrpc":"2.0","method":"x","params":{"a":1,}}`, `{"jsonrpc":"2.0","method":"x","params":{,}}`,
	`{"jsonrpc":"2.0","method":"x","params":{"a":[1,]}}`, `{"jsonrpc":"2.0","method":"x","params":{"a":[1 2]}}`,
	`{"jsonrpc":"2.0","id":1,"result":null}`, `{"jsonrpc":"2.0","id":1,"result":{},"result":{}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, `{"jsonrpc":"2.0","id":1,"Error":null}`,
	`{"jsonrpc":"2.0","method":"x"` + "\x00}", `{"jsonrpc":"2.0","method":"x","params":{"a":"` + "\t" + `"}}`,
	`{"jsonrpc":"2.0","method":"x","params":{"a":"` + "\x7f" + `"}}`, `{"jsonrpc":"2.0","method":"x","":1}`,
	`{"jsonrpc":"2.0","method":"x","params":` + strings.Repeat(`{"a":`, 70) + `1` + strings.Repeat(`}`, 70) + `}`,
	`{"jsonrpc":"2.0","method":"x","params":{"a":` + strings.Repeat(`[`, 70) + strings.Repeat(`]`, 70) + `}}`,
	"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"method\":\"x\"}", `{"jsonrpc":"2.0","method":"x"}` + "\r\n",
}

// checkDecode: Decode answers what encoding/json answers, the one-pass path
// never accepts what encoding/json refuses nor decodes anything otherwise,
// and its visits are the members of params. It reports whether the
// one-pass path took b.
func checkDecode(t *testing.T, b []byte) (fast bool) {
	t.Helper()
	want, wantErr := decodeJSON(b)
	got, err := Decode(b)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%q: error %v, encoding/json says %v", b, err, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\ngot  %+v\nwant %+v", b, got, want)
	}
	type member struct {
		parent, k, v string
		top          bool
	}
	var seen []member
	m, visited, ok := decodeFast(b, func(parent, k, v []byte) error {
		seen = append(seen, member{string(parent), string(k), string(v), parent == nil})
		return nil
	})
	if !ok {
		if visited || m != nil {
			t.Fatalf("%q: left to encoding/json, yet visited %v, message %+v", b, visited, m)
		}
		return false
	}
	if wantErr != nil || !reflect.DeepEqual(m, want) {
		t.Fatalf("%q: one-pass decode %+v, encoding/json says %+v, %v", b, m, want, wantErr)
	}
	isObject := len(want.Params) > 0 && want.Params[0] == '{'
	if visited != isObject {
		t.Fatalf("%q: visited %v, params %s", b, visited, want.Params)
	}
	var members []member
	if isObject {
		if err := ObjectFields(want.Params, func(k, v []byte) error {
			if len(v) > 0 && v[0] == '{' { // its members first
				if err := ObjectFields(v, func(k2, v2 []byte) error {
					members = append(members, member{string(k), string(k2), string(v2), false})
					return nil
				}); err != nil {
					return err
				}
			}
			members = append(members, member{"", string(k), string(v), true})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(seen, members) {
		t.Fatalf("%q: visited %+v, params hold %+v", b, seen, members)
	}
	return true
}

func TestDecodeRealRequests(t *testing.T) {
	reqs := realRequests(t)
	if len(reqs) < 15 {
		t.Fatalf("testdata/requests.txt holds %d requests", len(reqs))
	}
	for _, b := range reqs {
		if !checkDecode(t, b) {
			t.Errorf("%s: left to encoding/json", b)
		}
	}
}

func TestDecodeOdd(t *testing.T) {
	fast := 0
	for _, s := range oddMessages {
		if checkDecode(t, []byte(s)) {
			fast++
		}
	}
	if fast < 10 || fast == len(oddMessages) {
		t.Errorf("the one-pass path took %d of %d odd messages", fast, len(oddMessages))
	}
}

// A visit that rejects a member stops the visits: the caller decodes
// params itself.
func TestDecodeVisitRejects(t *testing.T) {
	b := []byte(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":1,"b":2,"c":3}}`)
	var keys []string
	m, visited, err := DecodeVisit(b, func(_, k, v []byte) error {
		keys = append(keys, string(k))
		if string(k) == "b" {
			return ErrSyntax
		}
		return nil
	})
	if err != nil || visited || string(m.Params) != `{"a":1,"b":2,"c":3}` || strings.Join(keys, ",") != "a,b" {
		t.Errorf("visited %v, keys %q, params %s, error %v", visited, keys, m.Params, err)
	}
	// The message owns its bytes: the caller may reuse its buffer.
	for i := range b {
		b[i] = 'x'
	}
	if string(m.ID) != "1" || string(m.Params) != `{"a":1,"b":2,"c":3}` {
		t.Errorf("the message shares the input's bytes: id %s params %s", m.ID, m.Params)
	}
}

// FuzzDecode: whatever the bytes, Decode and the one-pass path answer as
// encoding/json does.
func FuzzDecode(f *testing.F) {
	for _, b := range realRequests(f) {
		f.Add(b)
	}
	for _, s := range oddMessages {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkDecode(t, b) })
}
