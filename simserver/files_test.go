package simserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
)

// startFiles serves s's /files/ on 127.0.0.1 and returns the base URL.
func startFiles(t *testing.T, s *Server) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(FilesPrefix, s.Files())
	return peertest.ServeLocal(t, mux).URL
}

// TestFilesRanges drives /files/ with Go's own HTTP client: every answer's
// status, Content-Range, Content-Type, Accept-Ranges and bytes are what
// RFC 9110 and the ranged read's HTTP rules (docs/check.md, over plain HTTP) say, and the bytes are the sim: URI's own.
func TestFilesRanges(t *testing.T) {
	base := startFiles(t, New(Options{}))
	const q = "log.txt?mime=text/plain&size=100000"
	whole := oneEntry(t, newGenerator(), "sim:///"+q).Data
	if len(whole) != 100000 {
		t.Fatalf("content is %d bytes", len(whole))
	}
	cases := []struct {
		name, method, rng string
		status            int
		contentRange      string
		want              []byte
	}{
		{"whole", "GET", "", 200, "", whole},
		{"head", "HEAD", "", 200, "", nil},
		{"first bytes", "GET", "bytes=0-4095", 206, "bytes 0-4095/100000", whole[:4096]},
		{"open end", "GET", "bytes=99990-", 206, "bytes 99990-99999/100000", whole[99990:]},
		{"suffix", "GET", "bytes=-16", 206, "bytes 99984-99999/100000", whole[99984:]},
		{"end past the size is clipped", "GET", "bytes=99000-200000", 206, "bytes 99000-99999/100000", whole[99000:]},
		{"past the end", "GET", "bytes=100000-100010", 416, "bytes */100000", nil},
		{"several ranges are ignored", "GET", "bytes=0-1,5-6", 200, "", whole},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, base+FilesPrefix+q, nil)
			if tc.rng != "" {
				req.Header.Set("Range", tc.rng)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %.200s", resp.StatusCode, tc.status, body)
			}
			if got := resp.Header.Get("Content-Range"); got != tc.contentRange {
				t.Errorf("Content-Range %q, want %q", got, tc.contentRange)
			}
			if tc.status/100 == 2 {
				if ct := resp.Header.Get("Content-Type"); ct != "text/plain" {
					t.Errorf("Content-Type %q, want text/plain (the listing's)", ct)
				}
				if ar := resp.Header.Get("Accept-Ranges"); ar != "bytes" {
					t.Errorf("Accept-Ranges %q", ar)
				}
				wantLen := len(tc.want)
				if tc.method == "HEAD" {
					wantLen = len(whole)
				}
				if resp.ContentLength != int64(wantLen) {
					t.Errorf("Content-Length %d, want %d", resp.ContentLength, wantLen)
				}
			}
			if tc.want != nil && !bytes.Equal(body, tc.want) {
				t.Errorf("%d bytes differ from the document's (want %d)", len(body), len(tc.want))
			}
			if resp.Header.Get("Server") != "readbench-simserver/dev" {
				t.Errorf("Server %q", resp.Header.Get("Server"))
			}
		})
	}
}

// TestFilesFailures: the seed's codes as HTTP statuses with a JSON body.
func TestFilesFailures(t *testing.T) {
	base := startFiles(t, New(Options{}))
	cases := []struct {
		name, path string
		status     int
		code       string
	}{
		{"missing (bad sim: URI)", "x.bin?size=nope", 404, "not_found"},
		{"nothing after the prefix", "", 404, "not_found"},
		{"directory", "folder?entries=3", 400, "invalid_path"},
		{"symlink", "link.md?mime=text/markdown&symlink=true", 400, "invalid_path"},
		{"backing store failed", "x.bin?error=-32603", 500, "internal"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Get(base + FilesPrefix + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e struct{ Code, Message string }
			err = json.NewDecoder(resp.Body).Decode(&e)
			if resp.StatusCode != tc.status || err != nil || e.Code != tc.code {
				t.Errorf("status %d code %q (%v), want %d %q", resp.StatusCode, e.Code, err, tc.status, tc.code)
			}
		})
	}
	resp, err := http.Post(base+FilesPrefix+"a.bin", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

// TestFilesDelay: delay= holds the answer as it holds a read.
func TestFilesDelay(t *testing.T) {
	base := startFiles(t, New(Options{}))
	start := time.Now()
	resp, err := http.Get(base + FilesPrefix + "slow.bin?size=10&delay=" + strconv.Itoa(50) + "ms")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if el := time.Since(start); el < 50*time.Millisecond {
		t.Errorf("answered after %v, before its 50ms delay", el)
	}
}

// TestFilesRangeOfAHugeDocument: a 256 KiB range of a 200 MiB document is
// served without building the document (it is larger than the answer
// cache): the request allocates a small fraction of 200 MiB, and the bytes
// are the document's.
func TestFilesRangeOfAHugeDocument(t *testing.T) {
	s := New(Options{})
	const q = "huge.log?mime=text/plain&size=200MiB"
	spec, err := ParseSimURI("sim:///" + q)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 256<<10)
	if _, err := newPieceReader(s.gen.pieces(spec, seedOf(spec.URI))).ReadAt(want, 150<<20); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+FilesPrefix+q, nil)
	req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", 150<<20, 150<<20+256<<10-1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rec := httptest.NewRecorder()
	s.Files().ServeHTTP(rec, req)
	runtime.ReadMemStats(&after)
	if rec.Code != http.StatusPartialContent || !bytes.Equal(rec.Body.Bytes(), want) {
		t.Fatalf("status %d, %d bytes (equal: %t)", rec.Code, rec.Body.Len(), bytes.Equal(rec.Body.Bytes(), want))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 40<<20 {
		t.Errorf("a 256 KiB range allocated %d MiB: the 200 MiB document was built", alloc>>20)
	}
}
