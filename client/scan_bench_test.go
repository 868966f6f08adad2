package client

import (
	"encoding/base64"
	"testing"

	"github.com/readbench/readbench/stats"
)

// feedChunks feeds body to s in chunks of the size a transport reads.
func feedChunks(s *answerScanner, body []byte, chunk int) {
	for len(body) > 0 {
		n := min(chunk, len(body))
		s.feed(body[:n])
		body = body[n:]
	}
}

// BenchmarkScan is the streaming scan of whole answers in 64 KiB pieces
// (what a transport hands it), with and without a digest, beside the
// buffered walk it replaced ("buffered": encoding/json for small fields, a
// table for the base64 alphabet) on the same bytes. MB/s is answer bytes.
func BenchmarkScan(b *testing.B) {
	cases := []struct {
		name   string
		answer func(int) []byte
		disk   int
	}{
		{"text-1KiB", textAnswer, 1 << 10},
		{"text-1MiB", textAnswer, 1 << 20},
		{"blob-1KiB", blobAnswer, 1 << 10},
		{"blob-1MiB", blobAnswer, 1 << 20},
		{"blob-40MiB", blobAnswer, 40 << 20},
	}
	for _, c := range cases {
		var body []byte
		setup := func(b *testing.B) {
			if body == nil {
				body = c.answer(c.disk)
			}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
		}
		b.Run(c.name+"/stream", func(b *testing.B) {
			setup(b)
			var s answerScanner
			for b.Loop() {
				s.reset(true, "x", false)
				feedChunks(&s, body, readBufSize)
				if v := s.scanned("x", false); v.Outcome != stats.OK || v.DiskBytes != int64(c.disk) {
					b.Fatal(v)
				}
			}
		})
		b.Run(c.name+"/stream-digest", func(b *testing.B) {
			setup(b)
			var s answerScanner
			for b.Loop() {
				s.reset(true, "x", true)
				feedChunks(&s, body, readBufSize)
				if v := s.scanned("x", false); v.Outcome != stats.OK || v.Digest == "" {
					b.Fatal(v)
				}
			}
		})
		b.Run(c.name+"/buffered", func(b *testing.B) {
			setup(b)
			for b.Loop() {
				if v := classifyRef(body, "x", false); v.Outcome != stats.OK || v.DiskBytes != int64(c.disk) {
					b.Fatal(v)
				}
			}
		})
	}
}

// BenchmarkBase64Check is the blob check alone on 1 MiB of base64: the
// streaming check (decoding into a reused 48 KiB buffer with
// segmentio/asm's AVX2 decoder) beside the table walk it replaced.
func BenchmarkBase64Check(b *testing.B) {
	blob := []byte(base64.StdEncoding.EncodeToString(make([]byte, 3<<18)))
	b.Run("stream", func(b *testing.B) {
		b.SetBytes(int64(len(blob)))
		b.ReportAllocs()
		var bs blobState
		var d digester
		for b.Loop() {
			bs.start()
			for p := blob; len(p) > 0; {
				n := min(len(p), readBufSize)
				bs.raw(p[:n], &d)
				p = p[n:]
			}
			if ok, _, _ := bs.finish(&d); !ok {
				b.Fatal("bad")
			}
		}
	})
	b.Run("table", func(b *testing.B) {
		b.SetBytes(int64(len(blob)))
		b.ReportAllocs()
		for b.Loop() {
			if !allBase64Ref(blob) {
				b.Fatal("bad")
			}
		}
	})
}
