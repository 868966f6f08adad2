package record

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/targets"
)

// TestStdioBridgeToHTTP: a stdio host (the Go SDK's client over pipes)
// recorded against a Streamable HTTP server (the Go SDK's, in both its
// modes) through record.Stdio: the reads pass, the --header reaches the
// server (which refuses requests without it) and is never recorded, and
// the reads of one turn are one turn.
func TestStdioBridgeToHTTP(t *testing.T) {
	for _, opts := range []*mcp.StreamableHTTPOptions{nil, {Stateless: true, JSONResponse: true}} {
		srv := peertest.SDKServer(40 * time.Millisecond)
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)
		guarded := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer t0k3n" {
				http.Error(w, "no token", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
		target, err := targets.Parse(peertest.ServeLocal(t, guarded).URL + "/mcp")
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv("RB_TEST_TOKEN", "t0k3n")
		hostR, hostW := io.Pipe()     // the host's lines to the proxy
		toHostR, toHostW := io.Pipe() // the proxy's lines to the host
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var wg sync.WaitGroup
		wg.Add(1)
		var runErr error
		go func() {
			defer wg.Done()
			defer toHostW.Close()
			runErr = Stdio(ctx, Options{Upstream: target, Out: &syncWriter{w: &out}, Headers: map[string]string{"Authorization": "Bearer ${RB_TEST_TOKEN}"}}, hostR, toHostW, io.Discard)
		}()
		c := mcp.NewClient(&mcp.Implementation{Name: "bridge-host", Version: "1"}, nil)
		s, err := c.Connect(ctx, &mcp.IOTransport{Reader: toHostR, Writer: hostW}, nil)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		var rw sync.WaitGroup
		for _, d := range peertest.Docs() {
			rw.Add(1)
			go func() {
				defer rw.Done()
				res, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: d.URI})
				if err != nil || len(res.Contents) != 1 {
					t.Errorf("read %s through the bridge: %v", d.URI, err)
				}
			}()
		}
		rw.Wait()
		s.Close()
		hostW.Close()
		wg.Wait()
		cancel()
		if runErr != nil {
			t.Fatal(runErr)
		}
		text := out.String()
		if strings.Contains(text, "t0k3n") {
			t.Errorf("the token was recorded:\n%s", text)
		}
		rec, err := Parse(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Reads) != 3 {
			t.Fatalf("%d reads recorded: %s", len(rec.Reads), text)
		}
		for _, rd := range rec.Reads {
			checkDoc(t, rd)
			if rd.Turn != rec.Reads[0].Turn {
				t.Errorf("reads sent together in turns %d and %d", rec.Reads[0].Turn, rd.Turn)
			}
		}
	}
}
