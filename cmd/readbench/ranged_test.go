package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/stats"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/targets"
)

// filesPrefix is the range+http target of a `readbench serve` whose MCP
// endpoint is mcpURL.
func filesPrefix(mcpURL string) string {
	return "range+" + strings.TrimSuffix(mcpURL, "mcp") + "files/"
}

// connect opens target as a run does (client.Open): an MCP session, or
// plain HTTP documents for a range+http target.
func connect(t *testing.T, target string) client.Conn {
	t.Helper()
	tg, err := targets.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := client.Open(context.Background(), client.Dial{Target: tg, Client: client.Implementation{Name: "test", Version: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// wholeDigest is the sha256 of what one whole resources/read of uri
// returned (the client's digest of the decoded content, computed as the
// answer streamed in: the answer itself is not kept).
func wholeDigest(t *testing.T, s *client.Session, uri string) []byte {
	t.Helper()
	a, err := s.ReadDocument(context.Background(), uri, client.ReadSpec{Digest: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.Entries != 1 || !strings.HasPrefix(a.Digest, "sha256:") {
		t.Fatalf("read %s: %d entries, digest %q", uri, a.Entries, a.Digest)
	}
	sum, err := hex.DecodeString(strings.TrimPrefix(a.Digest, "sha256:"))
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestSameBytesThreeWays: the same document read whole over MCP, in MCP
// ranged chunks (the read tool) and in HTTP ranges (and one whole GET)
// from one `readbench serve` arrives as the same bytes (sha256), text and
// binary alike, with chunk sizes that do not divide the size.
func TestSameBytesThreeWays(t *testing.T) {
	t.Parallel()
	mcpURL := startServe(t) // its own: megabytes a read, kept off the shared server
	mcpS, files := connect(t, mcpURL), connect(t, filesPrefix(mcpURL))
	if files.Server().Name != "readbench-simserver" || !files.SimURIs() || !mcpS.SimURIs() {
		t.Errorf("plain HTTP server %+v (sim: URIs %t, over MCP %t): the Server header names the simulated server, both advertise sim: URIs",
			files.Server(), files.SimURIs(), mcpS.SimURIs())
	}
	for _, uri := range []string{
		"sim:///logs/app.log?mime=text/plain&size=3000001",
		"sim:///shot.png?mime=image/png&size=1048578",
	} {
		t.Run(uri, func(t *testing.T) {
			whole := wholeDigest(t, mcpS.(*client.Session), uri)
			for _, way := range []struct {
				name  string
				s     client.Conn
				chunk int64
			}{{"mcp ranged", mcpS, 256 << 10}, {"http ranges", files, 256<<10 + 7}, {"http whole", files, 0}} {
				h := sha256.New()
				f, err := way.s.ReadDocument(context.Background(), uri, client.ReadSpec{Chunk: way.chunk, Sink: h})
				if err != nil || f.Outcome != stats.OK {
					t.Fatalf("%s: %v %v %s", way.name, err, f.Outcome, f.Detail)
				}
				if got := h.Sum(nil); !bytes.Equal(got, whole) {
					t.Errorf("%s: sha256 %s, the whole MCP read's %s", way.name, hex.EncodeToString(got), hex.EncodeToString(whole))
				}
				t.Logf("%s: %d parts, wire %d, disk %d", way.name, len(f.Parts), f.WireBytes, f.DiskBytes)
			}
		})
	}
}

// TestCheckFilesPasses: check passes every HTTP rule of the ranged read (docs/check.md) against
// readbench serve's /files/ (the MCP side passes in TestCheckServeHTTPPasses,
// read tool symlink and content type included).
func TestCheckFilesPasses(t *testing.T) {
	t.Parallel()
	d, code, _ := runCheck(t, "--target", filesPrefix(sharedServe(t)))
	if code != 0 || !d.Pass || d.Summary.Fail != 0 || d.Summary.Skip != 0 || d.Target.Transport != "files" {
		t.Errorf("exit %d, pass %v, summary %+v, transport %q", code, d.Pass, d.Summary, d.Target.Transport)
	}
	for _, name := range []string{"handshake", "http: whole document", "http: content type", "http: head", "http: range",
		"http: tail", "http: past the end", "http: directory", "http: symlink", "http: unknown path"} {
		d.expect(t, name, "pass", "")
	}
	d.expect(t, "http: content type", "pass", `"text/markdown"`)
	d.expect(t, "http: tail", "pass", "eof true")
}

// TestCheckFilesBrokenFails: a server whose Content-Range is one byte off
// fails the range rules, and check exits 1.
func TestCheckFilesBrokenFails(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("0123456789abcdef"), 1000)
	srv := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/files/doc.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		http.ServeContent(offByOne{w}, r, "", time.Time{}, bytes.NewReader(data))
	}))
	d, code, _ := runCheck(t, "--target", "range+"+srv.URL+"/files/", "--read-path", "doc.txt")
	if code != 1 || d.Pass {
		t.Errorf("exit %d, pass %v: a wrong Content-Range must fail", code, d.Pass)
	}
	d.expect(t, "http: range", "fail", "Content-Range")
	d.expect(t, "http: whole document", "pass", "")
}

// offByOne shifts the first byte of Content-Range by one.
type offByOne struct{ http.ResponseWriter }

func (o offByOne) WriteHeader(code int) {
	var a, b, n int64
	if _, err := fmt.Sscanf(o.Header().Get("Content-Range"), "bytes %d-%d/%d", &a, &b, &n); err == nil {
		o.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", a+1, b, n))
	}
	o.ResponseWriter.WriteHeader(code)
}

// TestLargeLogModes: the large-log scenario, one mode per process against
// one readbench serve, as scripts/large-log.sh runs it: whole over MCP,
// MCP ranged chunks, HTTP ranges; report --format modes puts them side by
// side with the same document bytes, MCP's inflation, HTTP's none, the
// parts and each process's peak memory.
func TestLargeLogModes(t *testing.T) {
	t.Parallel()
	mcpURL := startServe(t) // its own: 12 MiB a read, kept off the shared server
	dir := t.TempDir()
	modes := []struct{ out, class, target string }{
		{"whole.json", "whole", mcpURL},
		{"mcp-chunks.json", "chunked", mcpURL},
		{"http-ranges.json", "chunked", filesPrefix(mcpURL)},
	}
	var outs []string
	for _, m := range modes {
		stdout, stderr, code := readbench(t, dir, "run", "large-log", "--class", m.class, "--target", m.target, "--duration", "2s", "--quiet", "--out", m.out)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", m.out, code, stdout, stderr)
		}
		r := loadResult(t, filepath.Join(dir, m.out))
		onlyGood(t, r)
		if len(r.Classes) != 1 || r.Classes[0].DiskBytes != r.Classes[0].Outcomes["ok"]*12<<20 || r.Classes[0].Outcomes["ok"] == 0 {
			t.Errorf("%s: classes %+v", m.out, r.Classes)
		}
		raw := rawResult(t, filepath.Join(dir, m.out))
		if rss := raw["generator"].(map[string]any)["peak_rss_bytes"].(float64); rss <= 0 {
			t.Errorf("%s: peak RSS %v", m.out, rss)
		}
		outs = append(outs, m.out)
	}
	stdout, stderr, code := readbench(t, dir, append([]string{"report", "--format", "modes"}, outs...)...)
	if code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	t.Log("\n" + stdout)
	lines := strings.Split(stdout, "\n")
	row := func(mode string) string {
		for _, l := range lines {
			if strings.Contains(l, mode) {
				return l
			}
		}
		t.Fatalf("no %q row:\n%s", mode, stdout)
		return ""
	}
	// A text log travels as a JSON string in a whole resources/read (only
	// escapes inflate it), as base64 in the read tool's bytes (4 bytes per
	// 3), raw over plain HTTP.
	for _, c := range []struct {
		mode         string
		infLo, infHi float64
		parts        string
	}{
		{"| mcp/http whole ", 1.001, 1.2, "1"},
		{"| mcp/http ranged 256KiB ", 1.3333, 1.34, "48.0"},
		{"| http ranged 256KiB ", 1, 1, "48.0"},
	} {
		l := row(c.mode)
		f := strings.Split(l, "|")
		if len(f) != 12 {
			t.Fatalf("row %q has %d cells", l, len(f))
		}
		var infl float64
		fmt.Sscanf(strings.TrimSpace(f[5]), "%f", &infl)
		if infl < c.infLo || infl > c.infHi || strings.TrimSpace(f[9]) != c.parts || strings.TrimSpace(f[3]) != "12.6 MB" {
			t.Errorf("%s row: %q; want inflation in [%v, %v], %s parts, 12.6 MB documents", c.mode, l, c.infLo, c.infHi, c.parts)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "runs")); err == nil {
		t.Error("--out was given, yet runs/ was written")
	}
}
