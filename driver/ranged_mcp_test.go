package driver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/stats"
)

type readIn struct {
	Path   string `json:"path"`
	Offset int64  `json:"offset,omitempty"`
	Length *int64 `json:"length,omitempty"`
}

type readOut struct {
	Bytes       string `json:"bytes"` // standard base64
	ContentType string `json:"content_type"`
	EOF         bool   `json:"eof"`
}

// toolServer is the official Go SDK's server offering the ranged read tool
// over one document, each call held for delay, on stateless HTTP.
func toolServer(t *testing.T, doc []byte, delay time.Duration) string {
	t.Helper()
	srv := peertest.SDKServer(0)
	mcp.AddTool(srv, &mcp.Tool{Name: client.ReadToolName}, func(ctx context.Context, _ *mcp.CallToolRequest, in readIn) (*mcp.CallToolResult, readOut, error) {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil, readOut{}, ctx.Err()
		}
		off := min(in.Offset, int64(len(doc)))
		end := int64(len(doc))
		if in.Length != nil && off+*in.Length < end {
			end = off + *in.Length
		}
		return nil, readOut{Bytes: base64.StdEncoding.EncodeToString(doc[off:end]), ContentType: "text/plain", EOF: end == int64(len(doc))}, nil
	})
	hs := peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	return hs.URL + "/mcp"
}

// TestReadInPartsSDK: the read tool of another implementation (the Go
// SDK's) read in parts until eof gives the document's exact bytes, with
// base64 counted, one chunk latency per part.
func TestReadInPartsSDK(t *testing.T) {
	doc := peertest.DocBytes(100_001)
	s := targetSession(t, toolServer(t, doc, 0))
	h := sha256.New()
	f, err := s.ReadDocument(context.Background(), "file:///doc.txt", client.ReadSpec{Chunk: 10_000, Sink: h})
	if err != nil || f.Outcome != stats.OK || !f.Answered {
		t.Fatalf("%v %v %s", err, f.Outcome, f.Detail)
	}
	want := sha256.Sum256(doc)
	if !bytes.Equal(h.Sum(nil), want[:]) || f.DiskBytes != int64(len(doc)) || len(f.Parts) != 11 {
		t.Errorf("sha256 equal %t, disk %d, %d parts", bytes.Equal(h.Sum(nil), want[:]), f.DiskBytes, len(f.Parts))
	}
	// 10 parts of 10,000 bytes (13,336 characters each, 2 of them '='),
	// then 1 byte (4 characters, 2 '=').
	if f.Base64Bytes != 10*13_336+4 || f.Base64Padding != 10*2+2 {
		t.Errorf("base64 %d (padding %d) for %d bytes in 11 parts", f.Base64Bytes, f.Base64Padding, len(doc))
	}
	if f.WireBytes <= f.Base64Bytes || f.FirstUsable.Before(f.Sent) || !f.FirstUsable.Before(f.Done) {
		t.Errorf("wire %d, base64 %d; first usable %v between %v and %v", f.WireBytes, f.Base64Bytes, f.FirstUsable, f.Sent, f.Done)
	}
}

// TestRangedMCPRunCutByDeadline: a ranged read over MCP whose parts are
// slow is cut by its turn's deadline: cancelled, at the cut, a lower bound.
func TestRangedMCPRunCutByDeadline(t *testing.T) {
	url := toolServer(t, peertest.DocBytes(50_000), 120*time.Millisecond)
	rep := runWorkload(t, fmt.Sprintf(`
name: ranged-mcp
target: %q
load: {model: closed, concurrency: 1, turns: 2}
turn: {attachments: 1, read_timeout: 10s, deadline: 300ms}
mix:
  - {class: log, uri: "file:///doc.txt", ranged: {chunk: 10000}}
`, url))
	run := rep.MeasuredPhase
	if run.Outcomes[stats.Cancelled] != 2 || run.ReadLowerBounds != 2 || run.Read.Quantile(50) < 300*time.Millisecond {
		t.Fatalf("outcomes %v, lower bounds %d, p50 %v: want 2 cancelled at the 300ms cut", run.Outcomes, run.ReadLowerBounds, run.Read.Quantile(50))
	}
	// 2 or so parts a read beat the deadline on a quiet machine; a busy
	// one (a make test replica, under the race detector) made it 1 in all
	if n := run.Chunk.Count(); n < 1 || n > 6 {
		t.Errorf("%d parts recorded; want the 1 to 3 per read that beat the deadline", n)
	}
}
