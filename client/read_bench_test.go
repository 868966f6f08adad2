package client

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// BenchmarkSessionReadHTTP is one whole resources/read of a 1 KiB text
// over Streamable HTTP in the 2026-07-28 era, 16 in flight on one
// session, against a server that costs next to nothing: the client's CPU
// and allocations per read (building the request, h1's round trip, the
// scan of the answer, the Answer).
func BenchmarkSessionReadHTTP(b *testing.B) {
	const uri = "sim:///compare/text.md?mime=text/markdown&size=1024"
	answer := (fmt.Appendf(nil,
		`{"resultType":"complete","ttlMs":0,"cacheScope":"public","contents":[{"uri":%q,"mimeType":"text/markdown","text":%q}]}`,
		uri, strings.Repeat("lorem ipsum ", 1024/12)))
	url := peertest.Canned(b, answer)
	s := &Session{
		t:      newHTTPTransport(url, nil, 0),
		modern: true, version: protocol.V20260728,
		client: Implementation{Name: "readbench", Version: "bench"},
	}
	defer s.Close()
	b.SetParallelism(8) // 16 in flight on 2 cores
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			a, err := s.ReadDocument(context.Background(), uri, ReadSpec{})
			if err != nil || a.Outcome != stats.OK {
				b.Fatal(err, a.Outcome, a.Detail)
			}
		}
	})
}
