package client

import (
	"bytes"
	"os"
	"testing"

	"github.com/readbench/readbench/stats"
)

// servedTextURI is the document of the 1 KiB closed-loop comparison
// (scripts/compare.sh); testdata/answer-text-1KiB.json is the answer
// `readbench serve` sends to a read of it, byte for byte: _meta,
// resultType, ttlMs, cacheScope and a markdown text full of escapes and
// non-ASCII UTF-8.
const servedTextURI = "sim:///compare/text.md?mime=text/markdown&size=1024"

func servedTextAnswer(tb testing.TB) []byte {
	tb.Helper()
	body, err := os.ReadFile("testdata/answer-text-1KiB.json")
	if err != nil {
		tb.Fatal(err)
	}
	return body
}

// TestServedTextAnswer: the served 1 KiB answer is ok, 1024 bytes, as
// the buffered walk says, cut anywhere.
func TestServedTextAnswer(t *testing.T) {
	body := servedTextAnswer(t)
	want := classifyRef(body, servedTextURI, true)
	if want.Outcome != stats.OK || want.DiskBytes != 1<<10 {
		t.Fatalf("reference verdict %+v", want)
	}
	for cut := range 256 {
		for mode := range 4 {
			late, digest := mode&1 != 0, mode&2 != 0
			got := scanChunked(body, []byte{byte(cut)}, servedTextURI, late, true, digest)
			if !sameVerdict(got, want) {
				t.Fatalf("cut %d mode %d: %+v, want %+v", cut, mode, got, want)
			}
		}
	}
}

// BenchmarkScanServed is the classification of the served 1 KiB text
// answer: the scanner alone (reset, feed, verdict) and readJSONRead
// around it (the id check and the Response), as an HTTP read does it.
func BenchmarkScanServed(b *testing.B) {
	body := servedTextAnswer(b)
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		var s answerScanner
		for b.Loop() {
			s.reset(true, servedTextURI, false)
			s.feed(body)
			if v := s.scanned(servedTextURI, true); v.Outcome != stats.OK || v.DiskBytes != 1<<10 {
				b.Fatal(v)
			}
		}
	})
	b.Run("readJSONRead", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		rb := &readBuf{buf: make([]byte, readBufFirst)}
		spec := &readSpec{uri: servedTextURI, modern: true}
		var r bytes.Reader
		for b.Loop() {
			r.Reset(body)
			a, err := readJSONRead(&r, 1, answerLimit(0), spec, rb)
			if err != nil || a.read.Outcome != stats.OK || a.read.DiskBytes != 1<<10 {
				b.Fatal(a, err)
			}
		}
	})
}
