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
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"

	"github.com/readbench/readbench/targets"
)

// docsServer is a plain HTTP document server following the ranged read's HTTP rules (docs/check.md), with one
// deliberate flaw at a time. With sim it says it serves sim: URIs (protocol.HeaderSimURIs), so the check
// reads its own paths there (simHTTPFile, simHTTPDir, simHTTPSymlink) and knows the file's type.
type docsServer struct {
	data []byte
	// "", "content-range", "accept-ranges", "past-end-200", "dir-404", "range-type", "head-405",
	// "whole-500", "type", "symlink-200", "unknown-200"
	flaw string
	sim  bool
}

func (s *docsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	jsonErr := func(status int, code string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"code":%q,"message":"x"}`, code)
	}
	if s.sim {
		w.Header().Set(protocol.HeaderSimURIs, "1")
	}
	switch r.URL.Path {
	case "/files/":
		return // the HEAD of the prefix
	case "/files/docs", "/files/readbench-check/folder":
		if s.flaw == "dir-404" {
			jsonErr(http.StatusNotFound, "not_found")
			return
		}
		jsonErr(http.StatusBadRequest, "invalid_path")
		return
	case "/files/readbench-check/link.md":
		if s.flaw != "symlink-200" {
			jsonErr(http.StatusBadRequest, "invalid_path")
			return
		}
	case "/files/docs/guide.md", "/files/readbench-check/page.md":
	default:
		if s.flaw == "unknown-200" {
			break
		}
		jsonErr(http.StatusNotFound, "not_found")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/markdown")
	if s.flaw == "type" {
		h.Set("Content-Type", "text/plain")
	}
	if s.flaw == "whole-500" && r.Method == http.MethodGet && r.Header.Get("Range") == "" {
		jsonErr(http.StatusInternalServerError, "internal")
		return
	}
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
// rule; each deliberately broken one fails exactly the rule it breaks (and
// a whole document that cannot be read leaves no rule of its parts to
// judge).
func TestCheckHTTPDocuments(t *testing.T) {
	data := bytes.Repeat([]byte("# Guide\nline with \"quotes\" and é\n"), 400)
	cases := []struct {
		flaw string
		sim  bool
		fail []string
	}{
		{"", false, nil},
		{"", true, nil},
		{"content-range", false, []string{"http: range", "http: tail"}},
		{"accept-ranges", false, []string{"http: range", "http: tail"}},
		{"range-type", false, []string{"http: range", "http: tail"}},
		{"past-end-200", false, []string{"http: past the end"}},
		{"dir-404", false, []string{"http: directory"}},
		{"head-405", false, []string{"http: head"}},
		{"whole-500", false, []string{"http: whole document"}},
		{"type", true, []string{"http: content type"}},
		{"symlink-200", true, []string{"http: symlink"}},
		{"unknown-200", false, []string{"http: unknown path"}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("flaw=%s/sim=%t", tc.flaw, tc.sim), func(t *testing.T) {
			base := serveLocal(t, &docsServer{data: data, flaw: tc.flaw, sim: tc.sim})
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
				if c.Status == results.CheckFail {
					failed = append(failed, c.Name)
				}
			}
			if !slices.Equal(failed, tc.fail) {
				t.Errorf("failed %v, want %v\n%+v", failed, tc.fail, rep.Checks)
			}
			rows := []string{"handshake", "http: whole document", "http: content type", "http: head", "http: range", "http: tail",
				"http: past the end", "http: directory", "http: symlink", "http: unknown path"}
			if tc.flaw == "whole-500" {
				rows = slices.DeleteFunc(rows, func(n string) bool {
					return n == "http: content type" || n == "http: head" || n == "http: range" || n == "http: tail" || n == "http: past the end"
				})
			}
			status := map[string]results.CheckStatus{}
			for _, c := range rep.Checks {
				status[c.Name] = c.Status
			}
			if tc.sim && (status["http: content type"] == results.CheckSkip || status["http: symlink"] == results.CheckSkip) {
				t.Errorf("on a server of sim: URIs the type and the symlink are judged: %+v", rep.Checks)
			}
			for _, want := range rows {
				if !slices.Contains(names, want) {
					t.Errorf("no %q row: %v", want, names)
				}
			}
		})
	}
}
