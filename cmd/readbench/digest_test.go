package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"testing"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// TestReadDigestMatchesSimContent: the digest a read asks for is the
// sha256 of the content the simulated server means to send for a sim:
// URI (simserver.Content, entry by entry in order), for text full of JSON
// escapes, a PNG blob and a folder read of several entries.
func TestReadDigestMatchesSimContent(t *testing.T) {
	t.Parallel()
	srv := simserver.New(simserver.Options{})
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	hs := peertest.ServeLocal(t, mux)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, _, err := client.Connect(ctx, client.Dial{Target: targets.Target{Kind: targets.HTTP, Address: hs.URL + "/mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, uri := range []string{
		"sim:///notes?mime=text/markdown&size=5000",
		"sim:///shot?mime=image/png&size=70001",
		"sim:///folder?mime=image/png&size=3000&entries=3",
		"sim:///empty?mime=text/plain&size=0",
	} {
		entries, err := simserver.Content(uri)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, e := range entries {
			h.Write(e.Data)
		}
		want := "sha256:" + hex.EncodeToString(h.Sum(nil))
		a, err := s.ReadDocument(ctx, uri, client.ReadSpec{Digest: true})
		if err != nil {
			t.Fatal(err)
		}
		if a.Outcome != stats.OK || a.Digest != want {
			t.Errorf("%s: outcome %v digest %q, want %q", uri, a.Outcome, a.Digest, want)
		}
	}
}
