package simserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"net/http"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// The conformance suite's fixtures (fixtures.go): exact content, both eras,
// stdio and HTTP; anything else under test: stays not found.

func TestFixtureContent(t *testing.T) {
	e, ok := Fixture(FixtureText)
	if !ok || !e.Text || e.MIME != "text/plain" || string(e.Data) != "This is the content of the static text resource." {
		t.Errorf("static text: %+v %v", e, ok)
	}
	e, ok = Fixture(FixtureBinary)
	if !ok || e.Text || e.MIME != "image/png" {
		t.Fatalf("static binary: %+v %v", e, ok)
	}
	img, err := png.Decode(bytes.NewReader(e.Data))
	if err != nil || img.Bounds().Dx() != 1 || img.Bounds().Dy() != 1 {
		t.Errorf("static binary is not a 1x1 PNG: %v", err)
	}
	e.Data[0] = 0 // a copy: the next caller still gets a PNG
	if e2, _ := Fixture(FixtureBinary); e2.Data[0] != 0x89 {
		t.Error("Fixture returned the shared PNG bytes")
	}
	e, ok = Fixture("test://template/123/data")
	var doc struct {
		ID           string `json:"id"`
		TemplateTest bool   `json:"templateTest"`
		Data         string `json:"data"`
	}
	if !ok || !e.Text || e.MIME != "application/json" || e.URI != "test://template/123/data" ||
		json.Unmarshal(e.Data, &doc) != nil || doc.ID != "123" || !doc.TemplateTest || doc.Data != "Data for ID: 123" {
		t.Errorf("template: %+v %v %s", e, ok, e.Data)
	}
	if e, _ := Fixture(`test://template/a"b/data`); !json.Valid(e.Data) {
		t.Errorf("template with a quote in the id: %s", e.Data)
	}
	for _, uri := range []string{
		"test://nonexistent-resource-for-conformance-testing", "test://template//data", "test://template/1/2/data",
		"test://template/1/data?x=1", "test://template/1", "test://static-text/", "TEST://static-text",
		"test://watched-resource", "sim:///static-text", "",
	} {
		if _, ok := Fixture(uri); ok {
			t.Errorf("%q is a fixture", uri)
		}
	}
}

func TestFixtureReadStdio(t *testing.T) {
	s := New(Options{})
	p := startStdio(t, s)
	id := 0
	for _, version := range []string{"", protocol.V20251125, protocol.V20260728} {
		for _, uri := range []string{FixtureText, FixtureBinary, "test://template/42/data"} {
			id++
			r := decodeRead(t, p.roundTrip(request(t, id, protocol.MethodResourcesRead, readParams(uri, version))))
			checkFixtureResult(t, version, uri, r)
		}
		id++
		e := rpcError(t, p.roundTrip(request(t, id, protocol.MethodResourcesRead, readParams("test://nonexistent", version))))
		want := protocol.CodeResourceNotFound
		if protocol.IsModern(version) {
			want = protocol.CodeInvalidParams
		}
		if e.Code != want || errData(t, e)["uri"] != "test://nonexistent" {
			t.Errorf("%q: not found is %d %s, want %d", version, e.Code, e.Data, want)
		}
	}
	p.close()
	if st := s.Stats(); st.Reads != 12 || st.Answered != 12 {
		t.Errorf("stats %+v, want 12 reads answered", st)
	}
}

func TestFixtureReadHTTPModern(t *testing.T) {
	url := startHTTP(t, New(Options{}))
	for i, uri := range []string{FixtureText, FixtureBinary, "test://template/7/data"} {
		status, _, body := post(t, url, modernHeaders(protocol.MethodResourcesRead, uri),
			request(t, i+1, protocol.MethodResourcesRead, readParams(uri, protocol.V20260728)))
		if status != http.StatusOK {
			t.Fatalf("%s: status %d: %s", uri, status, body)
		}
		checkFixtureResult(t, protocol.V20260728, uri, decodeRead(t, decodeMsg(t, body)))
	}
	status, _, body := post(t, url, modernHeaders(protocol.MethodResourcesRead, FixtureText),
		request(t, 9, protocol.MethodResourcesRead, readParams(FixtureBinary, protocol.V20260728)))
	if status != http.StatusBadRequest || rpcError(t, decodeMsg(t, body)).Code != protocol.CodeHeaderMismatch {
		t.Errorf("Mcp-Name naming another fixture: status %d: %s", status, body)
	}
}

// checkFixtureResult checks one read of a fixture: one entry with the
// fixture's uri, type and payload, and the era's envelope.
func checkFixtureResult(t *testing.T, version, uri string, r readResult) {
	t.Helper()
	want, _ := Fixture(uri)
	if len(r.Contents) != 1 {
		t.Fatalf("%q %s: %d entries", version, uri, len(r.Contents))
	}
	c := r.Contents[0]
	if c["uri"] != uri || c["mimeType"] != want.MIME {
		t.Errorf("%q %s: entry %v", version, uri, c)
	}
	var got []byte
	if want.Text {
		s, _ := c["text"].(string)
		got = []byte(s)
		if _, both := c["blob"]; both {
			t.Errorf("%q %s: text and blob", version, uri)
		}
	} else {
		got, _ = base64.StdEncoding.DecodeString(c["blob"].(string))
		if _, both := c["text"]; both {
			t.Errorf("%q %s: text and blob", version, uri)
		}
	}
	if !bytes.Equal(got, want.Data) {
		t.Errorf("%q %s: payload %q, want %q", version, uri, got, want.Data)
	}
	modern := protocol.IsModern(version)
	if modern != (r.ResultType != nil) || modern != (r.TTLMs != nil) || modern != (r.CacheScope != nil) || modern != (r.Meta[protocol.MetaServerInfo] != nil) {
		t.Errorf("%q %s: envelope resultType %v ttlMs %v cacheScope %v _meta %v", version, uri, r.ResultType, r.TTLMs, r.CacheScope, r.Meta)
	}
	if modern && (*r.ResultType != protocol.ResultComplete || *r.TTLMs != 0 || *r.CacheScope != "public") {
		t.Errorf("%q %s: resultType %s ttlMs %d cacheScope %s", version, uri, *r.ResultType, *r.TTLMs, *r.CacheScope)
	}
}
