package contract

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
)

// oneDocServer is the official Go SDK's server with one text resource.
func oneDocServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "one-doc", Version: "1.0.0"}, nil)
	s.AddResource(&mcp.Resource{URI: "docs://a.md", Name: "a", MIMEType: "text/markdown"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "docs://a.md", MIMEType: "text/markdown", Text: "# A"}}}, nil
		})
	return s
}

// corruptReads passes every request to h and rewrites the body of the
// answer to each resources/read with corrupt.
func corruptReads(h http.Handler, corrupt func([]byte) []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(req))
		if !bytes.Contains(req, []byte(`"resources/read"`)) {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(corrupt(rec.Body.Bytes()))
	})
}

// TestCheckReadRejectsInvalidJSON: a read whose answer encoding/json
// rejects (an id with a leading zero, data after the message) fails the
// check's read row as an unusable answer, as a run counts it protocol;
// the check used to pass it.
func TestCheckReadRejectsInvalidJSON(t *testing.T) {
	cases := []struct {
		why     string
		corrupt func([]byte) []byte
		reason  string
	}{
		{"id 01", func(b []byte) []byte { return bytes.Replace(b, []byte(`"id":`), []byte(`"id":0`), 1) }, "leading zero"},
		{"trailing data", func(b []byte) []byte { return append(bytes.TrimRight(b, "\n"), " ok"...) }, "after the message"},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			s := oneDocServer()
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{JSONResponse: true})
			url := peertest.ServeLocal(t, corruptReads(h, c.corrupt)).URL + "/mcp"
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			rep, err := Check(ctx, Options{Target: targets.Target{Kind: targets.HTTP, Address: url}, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			var read *results.Check
			for i, r := range rep.Checks {
				t.Logf("%-16s %-4s %s %s", r.Name, r.Status, r.URI, r.Detail)
				if r.Name == "read" && read == nil {
					read = &rep.Checks[i]
				}
			}
			if read == nil || read.Status != results.CheckFail || !strings.Contains(read.Detail, "unusable answer") || !strings.Contains(read.Detail, c.reason) {
				t.Fatalf("read row %+v, want a failed read naming %q", read, c.reason)
			}
		})
	}
}
