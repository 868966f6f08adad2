package contract

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"

	"github.com/readbench/readbench/targets"
)

// docsServer is a plain HTTP document server following the ranged read's HTTP rules (docs/check.md), with one
// deliberate flaw at a time.
type docsServer struct {
	data []byte
	flaw string // "", "content-range", "accept-ranges", "past-end-200", "dir-404", "range-type", "head-405"
}

func (s *docsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	jsonErr := func(status int, code string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"code":%q,"message":"x"}`, code)
	}
	switch r.URL.Path {
	case "/files/":
		return // the HEAD of the prefix
	case "/files/docs":
		if s.flaw == "dir-404" {
			jsonErr(http.StatusNotFound, "not_found")
			return
		}
		jsonErr(http.StatusBadRequest, "invalid_path")
		return
	case "/files/docs/guide.md":
	default:
		jsonErr(http.StatusNotFound, "not_found")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/markdown")
	rng := r.Header.Get("Range")
	if s.flaw == "accept-ranges" {
		w = &noAcceptRanges{ResponseWriter: w}
	}
	if rng != "" && s.flaw == "range-type" {
		h.Set("Content-Type", "text/plain")
	}
	if s.flaw == "past-end-200" && strings.HasPrefix(rng, fmt.Sprintf("bytes=%d", len(s.data)+1000)) {
		r.Header.Del("Range")
	}
	if s.flaw == "content-range" {
		w = &shiftedRange{ResponseWriter: w}
	}
	if s.flaw == "head-405" && r.Method == http.MethodHead {
		http.Error(w, "no HEAD here", http.StatusMethodNotAllowed)
		return
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(s.data))
}

// noAcceptRanges drops the Accept-Ranges header ServeContent sets.
type noAcceptRanges struct{ http.ResponseWriter }

func (n *noAcceptRanges) WriteHeader(code int) {
	n.Header().Del("Accept-Ranges")
	n.ResponseWriter.WriteHeader(code)
}

// shiftedRange reports a Content-Range one byte later than it sends.
type shiftedRange struct{ http.ResponseWriter }

func (s *shiftedRange) WriteHeader(code int) {
	var a, b, n int64
	if _, err := fmt.Sscanf(s.Header().Get("Content-Range"), "bytes %d-%d/%d", &a, &b, &n); err == nil {
		s.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", a+1, b+1, n))
	}
	s.ResponseWriter.WriteHeader(code)
}

func serveLocal(t *testing.T, h http.Handler) string {
	t.Helper()
	return peertest.ServeLocal(t, h).URL
}

// TestCheckHTTPDocuments: a server that follows the seed passes every HTTP
// rule; each deliberately broken one fails exactly the rule it breaks.
func TestCheckHTTPDocuments(t *testing.T) {
	data := bytes.Repeat([]byte("# Guide\nline with \"quotes\" and é\n"), 400)
	cases := []struct {
		flaw string
		fail []string
	}{
		{"", nil},
		{"content-range", []string{"http: range", "http: tail"}},
		{"accept-ranges", []string{"http: range", "http: tail"}},
		{"range-type", []string{"http: range", "http: tail"}},
		{"past-end-200", []string{"http: past the end"}},
		{"dir-404", []string{"http: directory"}},
		{"head-405", []string{"http: head"}},
	}
	for _, tc := range cases {
		t.Run("flaw="+tc.flaw, func(t *testing.T) {
			base := serveLocal(t, &docsServer{data: data, flaw: tc.flaw})
			tg, err := targets.Parse("range+" + base + "/files/")
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Check(context.Background(), Options{Target: tg, ReadPath: "docs/guide.md", Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			var failed, names []string
			for _, c := range rep.Checks {
				names = append(names, c.Name)
				if c.Status == Fail {
					failed = append(failed, c.Name)
				}
			}
			if !slices.Equal(failed, tc.fail) {
				t.Errorf("failed %v, want %v\n%+v", failed, tc.fail, rep.Checks)
			}
			for _, want := range []string{"handshake", "http: whole document", "http: content type", "http: head", "http: range", "http: tail",
				"http: past the end", "http: directory", "http: symlink", "http: unknown path"} {
				if !slices.Contains(names, want) {
					t.Errorf("no %q row: %v", want, names)
				}
			}
		})
	}
}
