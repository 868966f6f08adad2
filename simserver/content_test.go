package simserver

import (
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

func textTypes() []string {
	return []string{
		"text/markdown", "application/json", "text/plain", "text/html", "text/csv",
		"application/xml", "application/yaml", "application/ld+json", "image/svg+xml", "text/x-go",
	}
}

func binaryTypes() map[string]string {
	return map[string]string{
		"image/png":                "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR",
		"image/jpeg":               "\xff\xd8\xff\xe0",
		"image/gif":                "GIF89a",
		"image/webp":               "RIFF",
		"application/pdf":          "%PDF-1.7\n",
		"application/zip":          "PK\x03\x04",
		"application/gzip":         "\x1f\x8b\x08",
		"application/octet-stream": "",
		"audio/mpeg":               "",
	}
}

func sizes() []int64 {
	return []int64{0, 1, 2, 3, 4, 5, 7, 17, 33, 64, 100, 255, 1000, 4096, 65537, 200_000}
}

// oneEntry is the single entry of a read, from g (Content builds a new
// generator per call, which the race detector makes slow).
func oneEntry(t *testing.T, g *generator, uri string) Entry {
	t.Helper()
	es, err := g.content(uri)
	if err != nil {
		t.Fatalf("Content(%q): %v", uri, err)
	}
	if len(es) != 1 {
		t.Fatalf("Content(%q): %d entries", uri, len(es))
	}
	return es[0]
}

func TestContentTextExactSizeAndValid(t *testing.T) {
	g := newGenerator()
	for _, mt := range textTypes() {
		for _, n := range sizes() {
			uri := fmt.Sprintf("sim:///doc?mime=%s&size=%d", mt, n)
			e := oneEntry(t, g, uri)
			if !e.Text || int64(len(e.Data)) != n || !utf8.Valid(e.Data) {
				t.Errorf("%s: text=%v len=%d valid UTF-8=%v", uri, e.Text, len(e.Data), utf8.Valid(e.Data))
			}
			if isJSONType(mt) && n > 0 && !json.Valid(e.Data) {
				t.Errorf("%s: not valid JSON: %.200q", uri, e.Data)
			}
		}
	}
}

func isJSONType(mt string) bool { return mt == "application/json" || strings.HasSuffix(mt, "+json") }

// TestContentTextEscapes checks that a text of a few KiB carries everything
// JSON escaping must get right.
func TestContentTextEscapes(t *testing.T) {
	g := newGenerator()
	for _, mt := range textTypes() {
		e := oneEntry(t, g, "sim:///doc?size=4096&mime="+mt)
		s := string(e.Data)
		for _, want := range []string{`"`, `\`, "\n", "é", "日本", "🎉"} {
			if mt == "text/markdown" && want == "🎉" {
				want = "🚀"
			}
			if !strings.Contains(s, want) {
				t.Errorf("%s: no %q in %.120q", mt, want, s)
			}
		}
		if mt != "application/json" && mt != "application/ld+json" && !strings.Contains(s, "\t") {
			t.Errorf("%s: no tab", mt)
		}
	}
	md := string(oneEntry(t, g, "sim:///doc?size=4096&mime=text/markdown").Data)
	for _, want := range []string{"# ", "\n## ", "\n- ", "\n1. ", "```"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

func TestContentBinaryMagic(t *testing.T) {
	g := newGenerator()
	for mt, magic := range binaryTypes() {
		for _, n := range sizes() {
			uri := fmt.Sprintf("sim:///blob?mime=%s&size=%d", mt, n)
			e := oneEntry(t, g, uri)
			if e.Text || int64(len(e.Data)) != n {
				t.Fatalf("%s: text=%v len=%d", uri, e.Text, len(e.Data))
			}
			want := magic[:min(len(magic), int(n))]
			if !bytes.HasPrefix(e.Data, []byte(want)) {
				t.Errorf("%s: starts % x, want % x", uri, e.Data[:min(16, len(e.Data))], want)
			}
		}
	}
	webp := oneEntry(t, g, "sim:///w?mime=image/webp&size=1000").Data
	if string(webp[8:12]) != "WEBP" || webp[4] != 0xe0 || webp[5] != 0x03 {
		t.Errorf("webp header % x", webp[:16])
	}
}

func TestContentDeterministic(t *testing.T) {
	g := newGenerator()
	for _, uri := range []string{
		"sim:///a.png?mime=image/png&size=3000000",
		"sim:///a.md?mime=text/markdown&size=100000",
		"sim:///f?mime=application/pdf&size=5000&entries=4",
	} {
		a, err1 := Content(uri)
		b, err2 := g.content(uri)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for i := range a {
			if !bytes.Equal(a[i].Data, b[i].Data) || a[i].URI != b[i].URI {
				t.Errorf("%s entry %d differs between calls", uri, i)
			}
		}
	}
	x := oneEntry(t, g, "sim:///x?mime=image/png&size=200000").Data
	y := oneEntry(t, g, "sim:///y?mime=image/png&size=200000").Data
	if bytes.Equal(x[40:], y[40:]) {
		t.Error("two URIs give the same bytes")
	}
	if bytes.Equal(x[40:40+chunkSize], x[40+chunkSize:40+2*chunkSize]) {
		t.Error("chunks repeat")
	}
	folder, _ := g.content("sim:///f?size=100&entries=2")
	if bytes.Equal(folder[0].Data, folder[1].Data) || folder[1].URI != "sim:///f?size=100&entries=2#1" {
		t.Errorf("folder entries: %q %q", folder[0].URI, folder[1].URI)
	}
}

// TestContentBase64Padding encodes blobs of every length mod 3 and checks
// the wire blob: padded standard base64 of exactly the content.
func TestContentBase64Padding(t *testing.T) {
	g := newGenerator()
	for _, n := range []int64{0, 1, 2, 3, 4, 5, 1834208, 1834209} {
		uri := fmt.Sprintf("sim:///p?mime=image/png&size=%d", n)
		spec, err := ParseSimURI(uri)
		if err != nil {
			t.Fatal(err)
		}
		var contents []struct{ URI, MimeType, Blob string }
		if err := json.Unmarshal(g.encodeContents(spec), &contents); err != nil {
			t.Fatal(err)
		}
		blob := contents[0].Blob
		wantPad := map[int64]int{0: 0, 1: 2, 2: 1}[n%3]
		if len(blob) != int(4*((n+2)/3)) || len(blob)-len(strings.TrimRight(blob, "=")) != wantPad {
			t.Errorf("size %d: blob length %d, padding %q", n, len(blob), blob[max(0, len(blob)-3):])
		}
		data, err := base64.StdEncoding.DecodeString(blob)
		if err != nil || !bytes.Equal(data, oneEntry(t, g, uri).Data) {
			t.Errorf("size %d: blob does not decode to the content: %v", n, err)
		}
	}
}

// TestContentFaults checks each fault on the wire and in Content.
func TestContentFaults(t *testing.T) {
	g := newGenerator()
	wire := func(uri string) []map[string]any {
		spec, err := ParseSimURI(uri)
		if err != nil {
			t.Fatal(err)
		}
		var c []map[string]any
		if err := json.Unmarshal(g.encodeContents(spec), &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	base := "sim:///f?mime=image/png&size=100"
	if c := wire(base + "&fault=neither")[0]; c["text"] != nil || c["blob"] != nil || c["uri"] != base+"&fault=neither" {
		t.Errorf("neither: %v", c)
	}
	if c := wire(base + "&fault=both")[0]; c["text"] == nil || c["blob"] == nil {
		t.Errorf("both: %v", c)
	}
	if c := wire("sim:///t?mime=text/plain&size=50&fault=both")[0]; c["text"] == nil || c["blob"] == nil {
		t.Errorf("both (text): %v", c)
	}
	for _, uri := range []string{base + "&fault=bad_base64", "sim:///t?mime=text/plain&size=50&fault=bad_base64", "sim:///t?size=0&fault=bad_base64"} {
		c := wire(uri)[0]
		if b, ok := c["blob"].(string); !ok || c["text"] != nil {
			t.Errorf("bad_base64 %s: %v", uri, c)
		} else if _, err := base64.StdEncoding.DecodeString(b); err == nil {
			t.Errorf("bad_base64 %s: blob %q decodes", uri, b)
		}
	}
	if c := wire(base + "&fault=rewrite_uri")[0]; c["uri"] != "sim:///rewritten/f" {
		t.Errorf("rewrite_uri: %v", c["uri"])
	}
	if c := wire(base + "&fault=no_mime")[0]; c["mimeType"] != nil {
		t.Errorf("no_mime: %v", c["mimeType"])
	}
	if c := wire(base + "&fault=empty"); len(c) != 0 {
		t.Errorf("empty: %v", c)
	}
	if c := wire(base + "&declare=image/jpeg")[0]; c["mimeType"] != "image/jpeg" {
		t.Errorf("declare: %v", c["mimeType"])
	}
	// Content reflects what an Entry can show.
	if e := oneEntry(t, g, base+"&declare=image/jpeg"); e.MIME != "image/jpeg" || !bytes.HasPrefix(e.Data, []byte("\x89PNG")) {
		t.Errorf("Content declare: %q % x", e.MIME, e.Data[:4])
	}
	if e := oneEntry(t, g, base+"&fault=no_mime"); e.MIME != "" {
		t.Errorf("Content no_mime: %q", e.MIME)
	}
	if e := oneEntry(t, g, "sim:///t?mime=text/plain&size=9&fault=bad_base64"); e.Text {
		t.Error("Content bad_base64: text")
	}
	if es, err := Content(base + "&fault=empty"); err != nil || len(es) != 0 {
		t.Errorf("Content empty: %v %v", es, err)
	}
	if _, err := Content(base + "&error=-32603"); err == nil || !strings.Contains(err.Error(), "-32603") {
		t.Errorf("Content error=: %v", err)
	}
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\n\nt\tr\r", "\x00\x01\x1f", "é日本🎉", "bad \xff utf8", strings.Repeat("ab\"", 1000)} {
		b := appendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("%q: invalid JSON %s: %v", s, b, err)
			continue
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); back != want {
			t.Errorf("%q round-trips to %q", s, back)
		}
	}
}

// TestWireMatchesContent: the fast wire encoding (slices of pre-encoded
// blocks) decodes to exactly the bytes Content returns, across the
// boundaries of the layout (head, chunks, block wrap, text frame and block).
func TestWireMatchesContent(t *testing.T) {
	g := newGenerator()
	binSizes := []int64{0, 1, 2, 35, 36, 37, 38, 39, headLen + chunkSize - 1, headLen + chunkSize, headLen + chunkSize + 1, headLen + 2*chunkSize + 2, 3 << 20}
	textSizes := []int64{0, 1, 2, 20, 60, 61, 62, 63, 90, 91, 200, 4095, 4096, textBlockSize - 1, textBlockSize, textBlockSize + 7, 300_001}
	check := func(mt string, n int64) {
		uri := fmt.Sprintf("sim:///w?mime=%s&size=%d&entries=2", mt, n)
		spec, err := ParseSimURI(uri)
		if err != nil {
			t.Fatal(err)
		}
		var wire []struct {
			URI  string
			Text *string
			Blob *string
		}
		if err := json.Unmarshal(g.encodeContents(spec), &wire); err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		want, _ := g.content(uri)
		for i, w := range wire {
			var got []byte
			switch {
			case w.Text != nil:
				got = []byte(*w.Text)
			case w.Blob != nil:
				got, err = base64.StdEncoding.DecodeString(*w.Blob)
				if err != nil {
					t.Fatalf("%s entry %d: %v", uri, i, err)
				}
			}
			if !bytes.Equal(got, want[i].Data) || int64(len(got)) != n || w.URI != want[i].URI {
				t.Errorf("%s entry %d: wire has %d bytes, Content %d; equal=%v", uri, i, len(got), len(want[i].Data), bytes.Equal(got, want[i].Data))
			}
		}
	}
	for _, mt := range []string{"image/png", "application/pdf", "application/octet-stream"} {
		for _, n := range binSizes {
			check(mt, n)
		}
	}
	for _, mt := range textTypes() {
		for _, n := range textSizes {
			check(mt, n)
		}
	}
}

// TestContentStructuredTextParses: XML, YAML and CSV texts are well formed
// in their own syntax, whatever their size (JSON is checked above).
func TestContentStructuredTextParses(t *testing.T) {
	g := newGenerator()
	for _, n := range []int{100, 500, 5000, 300_000} {
		data := func(mt string) []byte {
			return oneEntry(t, g, fmt.Sprintf("sim:///x?size=%d&mime=%s", n, mt)).Data
		}
		d := xml.NewDecoder(bytes.NewReader(data("application/xml")))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("xml of %d bytes: %v", n, err)
				break
			}
		}
		var v any
		if err := yaml.Unmarshal(data("application/yaml"), &v); err != nil {
			t.Errorf("yaml of %d bytes: %v", n, err)
		}
		r := csv.NewReader(bytes.NewReader(data("text/csv")))
		r.FieldsPerRecord = 4
		if _, err := r.ReadAll(); err != nil {
			t.Errorf("csv of %d bytes: %v", n, err)
		}
	}
}

// TestSeedOf pins the content seeds: they are FNV-1a (64 bit) of the URI,
// the values the hand-written hash gave, so every document keeps its
// bytes; and hashing a URI does not allocate.
func TestSeedOf(t *testing.T) {
	for _, c := range []struct {
		uri  string
		want uint64
	}{
		{"", 0xcbf29ce484222325},
		{"a", 0xaf63dc4c8601ec8c},
		{"sim:///compare/text.md?mime=text/markdown&size=1024", 0xa7c26e312531b7cf},
	} {
		if got := seedOf(c.uri); got != c.want {
			t.Errorf("seedOf(%q) = %#x, want %#x", c.uri, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { seedOf("sim:///a?size=3") }); n != 0 {
		t.Errorf("seedOf allocates %v times", n)
	}
}
