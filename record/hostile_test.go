package record

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/targets"
)

// hugeDoc is the document of the hostile upstream: size bytes, the same
// every time, written in pieces so that the upstream holds none of it.
type hugeDoc struct{ size int }

// piece fills b (48 KiB, a multiple of 3: each piece is whole base64)
// with the document's piece i.
func (d hugeDoc) piece(b []byte, i int) []byte {
	for k := range b {
		b[k] = byte(i*7 + k*13)
	}
	return b
}

func (d hugeDoc) pieces() int { return d.size / (48 << 10) }

func (d hugeDoc) digest() string {
	h := sha256.New()
	b := make([]byte, 48<<10)
	for i := range d.pieces() {
		h.Write(d.piece(b, i))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// serve answers a resources/read with the document as one blob entry,
// streamed, as a JSON body or as one SSE event (one data line).
func (d hugeDoc) serve(sse bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				URI string `json:"uri"`
			} `json:"params"`
		}
		if json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req) != nil || req.Method != "resources/read" {
			http.Error(w, "only resources/read", http.StatusBadRequest)
			return
		}
		uri, _ := json.Marshal(req.Params.URI)
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"contents":[{"uri":%s,"mimeType":"application/octet-stream","blob":"`, req.ID, uri)
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			head = "event: message\ndata: " + head
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		io.WriteString(w, head)
		raw, enc := make([]byte, 48<<10), make([]byte, base64.StdEncoding.EncodedLen(48<<10))
		for i := range d.pieces() {
			base64.StdEncoding.Encode(enc, d.piece(raw, i))
			if _, err := w.Write(enc); err != nil {
				return
			}
		}
		io.WriteString(w, `"}]}}`)
		if sse {
			io.WriteString(w, "\n\n")
		}
	}
}

// TestProxyStreamsHugeAnswers: a 48 MiB document (a 64 MiB answer) passes
// the proxy to a client that reads it all, as a JSON body and as an event
// stream, and is recorded with its true outcome, size and digest, while
// the proxy allocates a fraction of it (the old proxy kept the whole
// message, and grew its buffer by copies: more than the answer).
// Allocation is measured by runtime.MemStats.TotalAlloc, which no busy
// machine changes; the test is not parallel, so nothing else allocates.
func TestProxyStreamsHugeAnswers(t *testing.T) {
	doc := hugeDoc{size: 48 << 20}
	want := doc.digest()
	for _, tc := range []struct {
		name string
		sse  bool
	}{
		{"json", false},
		{"sse", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := peertest.ServeLocal(t, doc.serve(tc.sse))
			target, err := targets.Parse(up.URL + "/mcp")
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			p, err := NewHTTP(Options{Upstream: target, Out: &syncWriter{w: &out}})
			if err != nil {
				t.Fatal(err)
			}
			srv := peertest.ServeLocal(t, p)
			// A hang's bound, not a speed check: under -race on a
			// saturated 2-core machine (load average 40) passing and
			// classifying the answer took 94 to 171 s, and 2 minutes cut it.
			ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/mcp",
				strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"docs://huge.bin"}}`))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			srv.Close()
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			if got < int64(doc.size)*4/3 {
				t.Errorf("the client got %d bytes, want the whole answer", got)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("a %d MiB answer: the proxy allocated %.1f MiB", got>>20, float64(alloc)/(1<<20))
			if alloc > 24<<20 {
				t.Errorf("passing a %d MiB answer allocated %d MiB, want at most 24 MiB", got>>20, alloc>>20)
			}
			rec, err := Parse(strings.NewReader(out.String()))
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Reads) != 1 {
				t.Fatalf("%d reads recorded, want 1:\n%s", len(rec.Reads), out.String())
			}
			rd := rec.Reads[0]
			if rd.Outcome != "ok" || rd.Bytes != int64(doc.size) || rd.WireBytes < got || rd.Digest != want || rd.MIME != "application/octet-stream" {
				t.Errorf("recorded %+v, want ok, %d bytes, %d on the wire, %s", rd, doc.size, got, want)
			}
		})
	}
}

// TestProxyRecordsWhatPassedBeforeTheClientLeft: a client that gives up
// on a huge answer after a MiB is recorded as cancelled with the bytes
// that had reached it (the old proxy said 0), and the proxy lets go of
// the answer.
func TestProxyRecordsWhatPassedBeforeTheClientLeft(t *testing.T) {
	doc := hugeDoc{size: 48 << 20}
	up := peertest.ServeLocal(t, doc.serve(false))
	target, err := targets.Parse(up.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p, err := NewHTTP(Options{Upstream: target, Out: &syncWriter{w: &out}})
	if err != nil {
		t.Fatal(err)
	}
	srv := peertest.ServeLocal(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/mcp",
		strings.NewReader(`{"jsonrpc":"2.0","id":"r1","method":"resources/read","params":{"uri":"docs://huge.bin"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyN(io.Discard, resp.Body, 1<<20); err != nil {
		t.Fatal(err)
	}
	cancel() // the client gives up
	resp.Body.Close()
	srv.Close() // waits for the proxy's handler
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := Parse(strings.NewReader(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Reads) != 1 || rec.Reads[0].Outcome != "cancelled" || rec.Reads[0].WireBytes < 1<<20 || rec.Reads[0].WireBytes >= int64(doc.size) {
		t.Errorf("recorded %+v, want one read cancelled after at least the MiB the client read, not the whole answer", rec.Reads)
	}
}
