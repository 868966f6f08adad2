package record

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/hostload"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/targets"
)

// sdkTurns reads, through endpoint with the official Go SDK's client,
// turns of the given URIs in parallel, gap apart (a bounded loop: len(turns)
// turns). It returns what each read returned as text or blob size, for the
// test to check that the proxy changed nothing.
func sdkTurns(t *testing.T, endpoint string, header http.Header, turns [][]string, gap time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hc := &http.Client{Transport: headerTransport{header}}
	c := mcp.NewClient(&mcp.Implementation{Name: "sdk-turns", Version: "1"}, nil)
	s, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for k, turn := range turns {
		if k > 0 {
			time.Sleep(gap)
		}
		var wg sync.WaitGroup
		for _, uri := range turn {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
				if strings.HasPrefix(uri, "docs://missing") {
					if err == nil {
						t.Errorf("read %s through the proxy: no error", uri)
					}
					return
				}
				if err != nil {
					t.Errorf("read %s through the proxy: %v", uri, err)
					return
				}
				for i, d := range peertest.Docs() {
					if d.URI == uri && len(res.Contents) == 1 {
						got := []byte(res.Contents[0].Text)
						if d.Binary {
							got = res.Contents[0].Blob
						}
						if !bytes.Equal(got, peertest.Content(i)) {
							t.Errorf("read %s through the proxy: the content changed", uri)
						}
					}
				}
			}()
		}
		wg.Wait()
	}
}

// turnGap is the pause between the turns of TestProxyRecordsSDKClientTurns.
// The recorder tells turns apart by a window sized on the gaps it saw
// between reads (windowOf): with turns 80 ms apart, on a machine slow
// enough that the client's turns came 134 and 361 ms apart, the smaller
// gap passed for a gap inside a turn (a break at 2.7×, under it a 2 ms gap
// of the last turn's) and two turns were recorded as one. Three turns
// give too few gaps to size a window on timing that close to the reads'
// own latency. 300 ms apart, the gaps between turns stay within 2× of
// each other unless a turn's reads take over 300 ms, and the window sized
// under such a break is still narrower than the gap above it.
const turnGap = 300 * time.Millisecond

type headerTransport struct{ h http.Header }

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.h {
		r.Header[k] = v
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestProxyRecordsSDKClientTurns puts the proxy between the official Go
// SDK's client and server (stateful with SSE answers, stateless with JSON
// ones) and checks the recording: every read with its session, turn,
// size, MIME type, digest and outcome, the other methods counted, and no
// header's secret anywhere in the file.
func TestProxyRecordsSDKClientTurns(t *testing.T) {
	docs := peertest.Docs()
	turns := [][]string{
		{docs[0].URI, docs[1].URI, docs[2].URI},
		{docs[0].URI},
		{docs[1].URI, docs[2].URI, "docs://missing/one"},
	}
	for _, tc := range []struct {
		name string
		opts *mcp.StreamableHTTPOptions
	}{
		{"stateful-sse", nil},
		{"stateless-json", &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			upstream := startSDK(t, tc.opts)
			target, err := targets.Parse(strings.Replace(upstream, "http://", "http://user:hunter2@", 1))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			p, err := NewHTTP(Options{Upstream: target, Out: &syncWriter{w: &out}})
			if err != nil {
				t.Fatal(err)
			}
			srv := peertest.ServeLocal(t, p)
			machine := hostload.Watch()
			sdkTurns(t, srv.URL+"/mcp", http.Header{"Authorization": {"Bearer s3cr3t-token"}}, turns, turnGap)
			srv.Close()
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			text := out.String()
			for _, secret := range []string{"s3cr3t-token", "hunter2", "Authorization"} {
				if strings.Contains(text, secret) {
					t.Errorf("the recording holds %q:\n%s", secret, text)
				}
			}
			rec, err := Parse(strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			if rec.Header.Version != Version || !strings.Contains(rec.Header.Upstream, targets.Masked) {
				t.Errorf("header %+v", rec.Header)
			}
			checkTurns(t, rec, turns, machine)
			if rec.Methods == nil || rec.Methods.Counts["resources/read"] != 7 || rec.Methods.Counts["initialize"]+rec.Methods.Counts["server/discover"] < 1 {
				t.Errorf("methods %+v", rec.Methods)
			}
		})
	}
}

// TestProxyMasksSecretsInURIs: the secrets a client puts in the URIs it
// reads (a query token, an API key, a URL's password) are masked in the
// recording as the upstream's are; other URIs pass as read. The Go SDK's
// client reads them from its server (not found: they are not its
// documents, which changes nothing to what is recorded of the URI).
func TestProxyMasksSecretsInURIs(t *testing.T) {
	plain := peertest.Docs()[0].URI
	cases := []struct{ uri, secret, want string }{
		{"docs://missing/a.md?token=t0k3n-a1&v=2", "t0k3n-a1", "docs://missing/a.md?token=xxxxx&v=2"},
		{"docs://missing/b.md?api_key=k3y-b2", "k3y-b2", "docs://missing/b.md?api_key=xxxxx"},
		{"docs://alice:pa55-c3@missing/c.md", "pa55-c3", "docs://alice:xxxxx@missing/c.md"},
		{"docs://ghp-t0k-d4@missing/d.md", "ghp-t0k-d4", "docs://xxxxx@missing/d.md"},
		{"docs://missing/e.md?sv=1&sig=s1g-e5", "s1g-e5", "docs://missing/e.md?sv=1&sig=xxxxx"},
		{plain, "", plain},
	}
	upstream := startSDK(t, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	target, err := targets.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p, err := NewHTTP(Options{Upstream: target, Out: &syncWriter{w: &out}})
	if err != nil {
		t.Fatal(err)
	}
	srv := peertest.ServeLocal(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "secret-uris", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if _, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: c.uri}); (err == nil) != (c.secret == "") {
			t.Errorf("read %s through the proxy: %v", c.uri, err)
		}
	}
	s.Close()
	srv.Close()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := Parse(strings.NewReader(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, rd := range rec.Reads {
		got[rd.URI] = true
	}
	for _, c := range cases {
		if c.secret != "" && strings.Contains(out.String(), c.secret) {
			t.Errorf("the recording holds %q of %s", c.secret, c.uri)
		}
		if !got[c.want] {
			t.Errorf("no read of %s recorded; recorded %v", c.want, got)
		}
	}
}

// checkTurns checks that rec holds the reads of turns, turn by turn, on
// one session, with the peer's sizes, types and digests.
func checkTurns(t *testing.T, rec *Recording, turns [][]string, machine *hostload.Window) {
	t.Helper()
	byTurn := map[int][]Read{}
	for _, rd := range rec.Reads {
		byTurn[rd.Turn] = append(byTurn[rd.Turn], rd)
		if rd.Session != "s1" {
			t.Errorf("read %s on session %q, want s1", rd.URI, rd.Session)
		}
	}
	if len(byTurn) != len(turns) {
		if !machine.Busy() || len(rec.Reads) != len(slices.Concat(turns...)) {
			t.Fatalf("%d turns recorded, want %d (%s): %+v", len(byTurn), len(turns), machine, rec.Reads)
		}
		// Turns turnGap apart are told by when their reads arrive: on a
		// contended machine a turn's reads can arrive further apart than
		// that. Every read must still be recorded as it was answered.
		t.Logf("%d turns recorded, want %d: grouped by a busy machine's arrival times (%s)", len(byTurn), len(turns), machine)
		for _, rd := range rec.Reads {
			if !strings.HasPrefix(rd.URI, "docs://missing") {
				checkDoc(t, rd)
			} else if rd.Outcome != "not_found" {
				t.Errorf("%s: outcome %s, want not_found", rd.URI, rd.Outcome)
			}
		}
		return
	}
	for k, want := range turns {
		got := byTurn[k+1]
		if len(got) != len(want) {
			t.Errorf("turn %d: %d reads, want %d", k+1, len(got), len(want))
			continue
		}
		for _, rd := range got {
			if !strings.HasPrefix(rd.URI, "docs://missing") {
				checkDoc(t, rd)
			} else if rd.Outcome != "not_found" {
				t.Errorf("%s: outcome %s, want not_found", rd.URI, rd.Outcome)
			}
		}
	}
	if first, last := byTurn[1][0].AtMs, byTurn[len(turns)][0].AtMs; last-first < 2*float64(turnGap.Milliseconds())-10 {
		t.Errorf("span %.1f ms, want at least the two gaps of %s", last-first, turnGap)
	}
}

func checkDoc(t *testing.T, rd Read) {
	t.Helper()
	for i, d := range peertest.Docs() {
		if d.URI != rd.URI {
			continue
		}
		sum := sha256.Sum256(peertest.Content(i))
		if rd.Outcome != "ok" || rd.Bytes != int64(d.Size) || rd.MIME != d.MIME || rd.Digest != "sha256:"+hex.EncodeToString(sum[:]) || rd.LatencyMs <= 0 || rd.WireBytes <= rd.Bytes {
			t.Errorf("%s recorded as %+v, want ok, %d bytes, %s, its digest", rd.URI, rd, d.Size, d.MIME)
		}
		return
	}
	t.Errorf("unexpected URI %s", rd.URI)
}

// syncWriter lets the test read what the proxy wrote once it is closed.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// startSDK serves the Go SDK peer with reads of 40 ms, long enough that
// the reads a client sends together are in flight together on a busy
// machine too.
func startSDK(t *testing.T, opts *mcp.StreamableHTTPOptions) string {
	srv := peertest.SDKServer(40 * time.Millisecond)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)
	return peertest.ServeLocal(t, h).URL + "/mcp"
}
