package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/readbench/readbench/stats"
)

// textAnswer is a resources/read answer carrying n bytes of Markdown as
// text, with the quotes, newlines and non-ASCII that JSON must escape.
func textAnswer(n int) []byte {
	line := "# Guide \"quoted\" — naïve café\n"
	doc := strings.Repeat(line, n/len(line))
	doc += strings.Repeat("x", n-len(doc)) // exactly n bytes, no rune cut in half
	text, _ := json.Marshal(doc)
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"x","mimeType":"text/markdown","text":%s}]}}`, text))
}

// BenchmarkCheckReadSizes is BenchmarkCheckRead at the sizes around it:
// a 1 KiB text answer (the per-read overhead of a small document), a
// 1 KiB blob, and a 40 MiB blob (a whole answer a host may attach; its
// allocations per read are the memory the check holds beyond the answer).
func BenchmarkCheckReadSizes(b *testing.B) {
	cases := []struct {
		name   string
		answer func(int) []byte
		disk   int64
	}{
		{"text-1KiB", textAnswer, 1 << 10},
		{"blob-1KiB", blobAnswer, 1 << 10},
		{"blob-40MiB", blobAnswer, 40 << 20},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			body := c.answer(int(c.disk)) // built here, so -bench can skip the 40 MiB one
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				v := classify(body, "x", false)
				if v.Outcome != stats.OK || v.DiskBytes != c.disk {
					b.Fatal(v)
				}
			}
		})
	}
}
