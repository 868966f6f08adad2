package simserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readbench/readbench/protocol"
)

// Interop with the official Go SDK client: the proof that the simulated
// server speaks MCP as a real client expects, in both eras, on both
// transports.

// sdkURIs are the reads every interop test checks byte for byte.
func sdkURIs() []string {
	return []string{
		"sim:///guide.md?mime=text/markdown&size=8192",
		"sim:///shot.png?mime=image/png&size=1834208",
		"sim:///data.json?mime=application/json&size=5000",
		"sim:///mockups?mime=image/png&size=3001&entries=3",
	}
}

// startHTTP serves s on a fresh 127.0.0.1 port and returns the /mcp URL.
func startHTTP(t *testing.T, s *Server) string { return startHTTPB(t, s) }

// startHTTPB is startHTTP for tests and benchmarks alike.
func startHTTPB(t testing.TB, s *Server) string {
	t.Helper()
	return peertest.ServeLocal(t, s.Handler()).URL + "/mcp"
}

func sdkClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "simserver-test", Version: "1"}, nil)
}

// connectHTTP connects the SDK client over Streamable HTTP.
func connectHTTP(t *testing.T, url string, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := sdkClient().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, opts)
	if err != nil {
		t.Fatalf("connect over HTTP: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// connectStdio connects the SDK client to ServeStdio through in-process
// pipes, and checks at cleanup that ServeStdio returned nil at EOF.
func connectStdio(t *testing.T, s *Server, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	return connectStdioClient(t, s, sdkClient(), opts)
}

// connectStdioClient is connectStdio with a client of the caller's.
func connectStdioClient(t *testing.T, s *Server, client *mcp.Client, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := s.ServeStdio(context.Background(), serverIn, serverOut)
		serverOut.Close()
		done <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, opts)
	if err != nil {
		t.Fatalf("connect over stdio: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	})
	return cs
}

// checkSDKReads reads every sdkURI and compares with Content.
func checkSDKReads(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, uri := range sdkURIs() {
		want, err := Content(uri)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		if len(res.Contents) != len(want) {
			t.Fatalf("read %s: %d entries, want %d", uri, len(res.Contents), len(want))
		}
		for i, w := range want {
			got := res.Contents[i]
			data := got.Blob
			if w.Text {
				data = []byte(got.Text)
				if got.Blob != nil {
					t.Errorf("%s entry %d: text entry has a blob", uri, i)
				}
			}
			if got.URI != w.URI || got.MIMEType != w.MIME {
				t.Errorf("%s entry %d: uri %q mime %q, want %q %q", uri, i, got.URI, got.MIMEType, w.URI, w.MIME)
			}
			if len(data) != len(w.Data) || sha256.Sum256(data) != sha256.Sum256(w.Data) {
				t.Errorf("%s entry %d: %d bytes (sha256 differs), want %d", uri, i, len(data), len(w.Data))
			}
			if w.MIME == "image/png" && !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")) {
				t.Errorf("%s entry %d: no PNG magic: % x", uri, i, data[:16])
			}
		}
	}
}

// checkSDKCatalog pages through resources/list and the templates.
func checkSDKCatalog(t *testing.T, cs *mcp.ClientSession, size, pageSize int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var got []*mcp.Resource
	pages := 0
	for cursor := ""; ; pages++ {
		res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatalf("list resources: %v", err)
		}
		got = append(got, res.Resources...)
		if cursor = res.NextCursor; cursor == "" {
			pages++
			break
		}
	}
	if wantPages := (size + pageSize - 1) / pageSize; pages != wantPages {
		t.Errorf("%d pages, want %d", pages, wantPages)
	}
	want := Catalog(size)
	if len(got) != len(want) {
		t.Fatalf("catalog has %d resources, want %d", len(got), len(want))
	}
	for i, r := range got {
		if r.URI != want[i].URI || r.MIMEType != want[i].MIMEType || r.Size != want[i].Size {
			t.Errorf("resource %d = %+v, want %+v", i, r, want[i])
		}
	}
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) == 0 || tmpl.ResourceTemplates[0].URITemplate != "sim:///{name}?mime={mime}&size={size}" {
		t.Errorf("templates: %v, %v", tmpl, err)
	}
}

// checkSDKNotFound reads a URI of another scheme: the era's not-found code.
func checkSDKNotFound(t *testing.T, cs *mcp.ClientSession, wantCode int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "docs://team/platform/policy/on-call-escalation"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != wantCode {
		t.Errorf("read docs:// URI: %v, want code %d", err, wantCode)
	}
}

func TestSDKInterop(t *testing.T) {
	legacy := &mcp.ClientSessionOptions{ProtocolVersion: protocol.V20251125}
	cases := []struct {
		name        string
		opts        Options
		stdio       bool
		session     *mcp.ClientSessionOptions
		wantVersion string
	}{
		{"http/modern", Options{}, false, nil, protocol.V20260728},
		{"http/legacy", Options{}, false, legacy, protocol.V20251125},
		{"http/legacy-2025-06-18", Options{}, false, &mcp.ClientSessionOptions{ProtocolVersion: protocol.V20250618}, protocol.V20250618},
		{"http-sse/modern", Options{SSE: true}, false, nil, protocol.V20260728},
		{"http-sse/legacy", Options{SSE: true}, false, legacy, protocol.V20251125},
		{"http-stateful/legacy", Options{Stateful: true}, false, legacy, protocol.V20251125},
		{"http-stateful/modern", Options{Stateful: true}, false, nil, protocol.V20260728},
		{"stdio/modern", Options{}, true, nil, protocol.V20260728},
		{"stdio/legacy", Options{}, true, legacy, protocol.V20251125},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.CatalogSize, tc.opts.PageSize = 120, 50
			s := New(tc.opts)
			var cs *mcp.ClientSession
			if tc.stdio {
				cs = connectStdio(t, s, tc.session)
			} else {
				cs = connectHTTP(t, startHTTP(t, s), tc.session)
			}
			init := cs.InitializeResult()
			if init.ProtocolVersion != tc.wantVersion {
				t.Errorf("negotiated %q, want %q", init.ProtocolVersion, tc.wantVersion)
			}
			if init.ServerInfo == nil || init.ServerInfo.Name != "readbench-simserver" {
				t.Errorf("serverInfo = %+v", init.ServerInfo)
			}
			checkSDKReads(t, cs)
			checkSDKCatalog(t, cs, 120, 50)
			wantCode := int64(protocol.CodeResourceNotFound)
			if protocol.IsModern(tc.wantVersion) {
				wantCode = protocol.CodeInvalidParams
			}
			checkSDKNotFound(t, cs, wantCode)
			waitStats(t, s, "every read answered", func(st Stats) bool {
				return st.Answered == int64(len(sdkURIs())+1) && st.InFlight == 0 && st.Cancelled == 0
			})
		})
	}
}

// waitStats waits until the server's counters satisfy ok: a client has its
// answer a moment before the server counts it as written.
func waitStats(t *testing.T, s *Server, what string, ok func(Stats) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok(s.Stats()) {
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v: want %s", s.Stats(), what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestSDKCacheHints checks that the SDK sees ttlMs and cacheScope of a
// 2026-07-28 read.
func TestSDKCacheHints(t *testing.T) {
	cs := connectHTTP(t, startHTTP(t, New(Options{})), nil)
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "sim:///c.txt?mime=text/plain&size=10&ttl=60000&scope=private"})
	if err != nil {
		t.Fatal(err)
	}
	if res.TTLMs != 60000 || res.CacheScope != "private" {
		t.Errorf("ttlMs %d cacheScope %q, want 60000 private", res.TTLMs, res.CacheScope)
	}
	if info, ok := res.Meta[protocol.MetaServerInfo].(map[string]any); !ok || info["name"] != "readbench-simserver" {
		t.Errorf("_meta = %v", res.Meta)
	}
}
