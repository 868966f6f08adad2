package simserver

import (
	"encoding/base64"
	"strings"
)

// The fixture resources of the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in peers/): its server
// scenarios resources-read-text, resources-read-binary and
// resources-templates-read read these URIs from the server under test and
// check what comes back. The simulated server answers them in both eras, so
// that `readbench serve` can be judged by the suite (see
// cmd/readbench/conformance_test.go). They are not listed by resources/list
// or resources/templates/list, which describe the sim: catalog only; every
// other test: URI is not found, as the suite's sep-2164-resource-not-found
// scenario expects.
const (
	// FixtureText is a text/plain resource with a fixed sentence.
	FixtureText = "test://static-text"
	// FixtureBinary is an image/png resource (a 1x1 PNG), sent as a blob.
	FixtureBinary = "test://static-binary"
	// FixtureTemplate names an application/json resource per id: reading
	// test://template/123/data answers {"id":"123","templateTest":true,...}.
	FixtureTemplate = "test://template/{id}/data"
)

// fixtureText is the content of FixtureText, as the suite documents it.
const fixtureText = "This is the content of the static text resource."

// fixturePNG is the content of FixtureBinary: a valid 1x1 RGBA PNG.
var fixturePNG = mustDecode64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")

func mustDecode64(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// Fixture returns the single contents entry the server answers for a
// conformance fixture URI, and false for any other URI (sim: URIs
// included). The entry's Data is a fresh copy.
func Fixture(uri string) (Entry, bool) {
	switch uri {
	case FixtureText:
		return Entry{URI: uri, MIME: "text/plain", Data: []byte(fixtureText), Text: true}, true
	case FixtureBinary:
		return Entry{URI: uri, MIME: "image/png", Data: append([]byte(nil), fixturePNG...)}, true
	}
	prefix, suffix, _ := strings.Cut(FixtureTemplate, "{id}")
	id, ok := strings.CutPrefix(uri, prefix)
	if !ok {
		return Entry{}, false
	}
	id, ok = strings.CutSuffix(id, suffix)
	if !ok || id == "" || strings.ContainsAny(id, "/?#") {
		return Entry{}, false
	}
	doc := mustMarshal(struct {
		ID           string `json:"id"`
		TemplateTest bool   `json:"templateTest"`
		Data         string `json:"data"`
	}{id, true, "Data for ID: " + id})
	return Entry{URI: uri, MIME: "application/json", Data: doc, Text: true}, true
}

// fixtureRead answers a resources/read of a conformance fixture, in the
// call's era (2026-07-28: _meta, resultType and the cache hints, immediately
// stale and public like the lists). ok is false when the uri is not a
// fixture, and the read goes on as a sim: read.
func (s *Server) fixtureRead(c *call) (a answer, ok bool) {
	if c.p.URI == nil {
		return answer{}, false
	}
	e, ok := Fixture(*c.p.URI)
	if !ok {
		return answer{}, false
	}
	entry := map[string]string{"uri": e.URI, "mimeType": e.MIME}
	if e.Text {
		entry["text"] = string(e.Data)
	} else {
		entry["blob"] = base64.StdEncoding.EncodeToString(e.Data)
	}
	res := map[string]any{"contents": []map[string]string{entry}}
	if c.modern {
		res["ttlMs"] = 0
		res["cacheScope"] = "public"
	}
	a = s.result(c, mustMarshal(res))
	a.read = true
	return a, true
}
