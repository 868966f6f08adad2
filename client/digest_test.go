package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// TestReadDigestMatchesSDKPeerContent: a read asked for a digest carries
// the sha256 of exactly the bytes the official Go SDK's server served
// (text and blob), over Streamable HTTP (JSON and SSE answers) and stdio;
// a read that did not ask carries none.
func TestReadDigestMatchesSDKPeerContent(t *testing.T) {
	targets := map[string]targets.Target{
		"http-json": {Kind: targets.HTTP, Address: peertest.StartSDKHTTP(t, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})},
		"http-sse":  {Kind: targets.HTTP, Address: peertest.StartSDKHTTP(t, &mcp.StreamableHTTPOptions{Stateless: true})},
		"stdio":     {Kind: targets.Stdio, Argv: peertest.Command(t, peertest.SDKStdio)},
	}
	for name, tg := range targets {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s, _, err := Connect(ctx, Dial{Target: tg})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for i, d := range peertest.Docs() {
				sum := sha256.Sum256(peertest.Content(i))
				want := "sha256:" + hex.EncodeToString(sum[:])
				a, err := s.testRead(ctx, d.URI, true)
				if err != nil {
					t.Fatal(err)
				}
				if a.read.Outcome != stats.OK || a.read.Digest != want {
					t.Errorf("%s: verdict %+v, digest %q, want %q", d.URI, a.read.Outcome, a.read.Digest, want)
				}
				a, err = s.testRead(ctx, d.URI)
				if err != nil {
					t.Fatal(err)
				}
				if a.read.Outcome != stats.OK || a.read.Digest != "" {
					t.Errorf("%s without WithDigest: kind %v, digest %q, want none", d.URI, a.read.Outcome, a.read.Digest)
				}
			}
			// An error answer has no digest.
			a, err := s.testRead(ctx, "docs://missing", true)
			if err != nil {
				t.Fatal(err)
			}
			if a.read.Outcome == stats.OK || a.read.Digest != "" {
				t.Errorf("missing resource: kind %v, digest %q, want an error without digest", a.read.Outcome, a.read.Digest)
			}
		})
	}
}
