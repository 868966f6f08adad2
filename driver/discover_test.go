package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// catalogDoc is one resource of the catalog peer: its exact decoded size,
// and whether the listing says it.
type catalogDoc struct {
	uri, mime string
	size      int
	listed    bool
}

// catalogDocs is the catalog peer's content: four MIME types, sizes spread
// within each, half of them without a size in the listing, 22 in all, so
// that with a page size of 5 the listing takes 5 pages.
func catalogDocs() []catalogDoc {
	var docs []catalogDoc
	for i := range 10 {
		docs = append(docs, catalogDoc{fmt.Sprintf("docs://guide/page-%02d.md", i), "text/markdown", 1000 + 900*i, i%2 == 0})
	}
	for i := range 6 {
		docs = append(docs, catalogDoc{fmt.Sprintf("file:///shots/shot-%d.png", i), "image/png", (50 + 40*i) << 10, i < 3})
	}
	for i := range 3 {
		docs = append(docs, catalogDoc{fmt.Sprintf("file:///specs/spec-%d.pdf", i), "application/pdf", (100 + 50*i) << 10, true})
	}
	for i := range 3 {
		docs = append(docs, catalogDoc{fmt.Sprintf("docs://data/table-%d.json", i), "application/json", 300 + 7*i, false})
	}
	return docs
}

const catalogPageSize = 5

// payload is a document's content: magic bytes for the binary types, JSON
// or text otherwise, exactly d.size bytes.
func (d catalogDoc) payload() (text string, blob []byte) {
	var b bytes.Buffer
	switch d.mime {
	case "image/png":
		b.WriteString("\x89PNG\r\n\x1a\n")
	case "application/pdf":
		b.WriteString("%PDF-1.7\n")
	}
	for b.Len() < d.size {
		b.WriteString("line \"quoted\" and more\n")
	}
	out := b.Bytes()[:d.size]
	if strings.HasPrefix(d.mime, "text/") || d.mime == "application/json" {
		return string(out), nil
	}
	return "", out
}

// newCatalogServer is the official Go SDK's server with catalogDocs, a
// template, and a small page size so that discovery must follow cursors.
func newCatalogServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "catalog-peer", Version: "1.2.3"}, &mcp.ServerOptions{PageSize: catalogPageSize})
	for _, d := range catalogDocs() {
		r := &mcp.Resource{URI: d.uri, MIMEType: d.mime, Name: d.uri}
		if d.listed {
			r.Size = int64(d.size)
		}
		text, blob := d.payload()
		s.AddResource(r, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: d.uri, MIMEType: d.mime, Text: text, Blob: blob}}}, nil
		})
	}
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "docs://guide/{page}", Name: "guide", MIMEType: "text/markdown"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		})
	return s
}

// serveCatalogHTTP serves h over HTTP on 127.0.0.1 for the test's lifetime.
func serveCatalogHTTP(t *testing.T, h http.Handler) string {
	t.Helper()
	return peertest.ServeLocal(t, h).URL + "/mcp"
}

func startCatalogPeer(t *testing.T, opts *mcp.StreamableHTTPOptions) targets.Target {
	t.Helper()
	srv := newCatalogServer()
	return targets.Target{Kind: targets.HTTP, Address: serveCatalogHTTP(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts))}
}

func catalogCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestDiscoverSDK: every page is listed in both eras, the template too,
// and the sizes the listing leaves out are learned by reading.
func TestDiscoverSDK(t *testing.T) {
	for _, c := range []struct {
		name, want string
		opts       mcp.StreamableHTTPOptions
	}{
		{"stateless-2026", protocol.V20260728, mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}},
		{"stateful-legacy", protocol.V20251125, mcp.StreamableHTTPOptions{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cat, err := Discover(catalogCtx(t), DiscoverOptions{Target: startCatalogPeer(t, &c.opts), Client: client.Implementation{Name: "t", Version: "0"}})
			if err != nil {
				t.Fatal(err)
			}
			docs := catalogDocs()
			if cat.ProtocolVersion != c.want || cat.Server.Name != "catalog-peer" || cat.Server.Version != "1.2.3" {
				t.Errorf("server %+v, version %q", cat.Server, cat.ProtocolVersion)
			}
			if want := (len(docs) + catalogPageSize - 1) / catalogPageSize; cat.Pages != want {
				t.Errorf("read %d pages, want %d", cat.Pages, want)
			}
			if len(cat.Templates) != 1 || cat.Templates[0].URITemplate != "docs://guide/{page}" || cat.Templates[0].MIME != "text/markdown" {
				t.Errorf("templates %+v", cat.Templates)
			}
			if len(cat.Warnings) != 0 || cat.SampleFailed != 0 {
				t.Errorf("warnings %v, %d failed samples", cat.Warnings, cat.SampleFailed)
			}
			byURI := map[string]workload.Resource{}
			for _, r := range cat.Resources {
				byURI[r.URI] = r
			}
			unlisted := 0
			for _, d := range docs {
				r, ok := byURI[d.uri]
				if !ok {
					t.Errorf("%s not discovered", d.uri)
					continue
				}
				if r.MIME != d.mime || r.Size != int64(d.size) || r.Sampled == d.listed {
					t.Errorf("%s: %+v, want %s of %d bytes (listed %v)", d.uri, r, d.mime, d.size, d.listed)
				}
				if !d.listed {
					unlisted++
				}
			}
			if len(cat.Resources) != len(docs) || cat.Sampled != unlisted {
				t.Errorf("%d resources, %d sampled; want %d and %d", len(cat.Resources), cat.Sampled, len(docs), unlisted)
			}
		})
	}
}

// TestDiscoverSampleBound: at most SamplePerType reads per type, only for
// the types asked for; the others keep an unknown size.
func TestDiscoverSampleBound(t *testing.T) {
	var steps []SetupStep // Setup is called one call at a time
	cat, err := Discover(catalogCtx(t), DiscoverOptions{
		Target:        startCatalogPeer(t, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}),
		SamplePerType: 2,
		SampleTypes:   func(m string) bool { return m != "application/json" },
		Setup:         func(s SetupStep) { steps = append(steps, s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each step is told: the handshake, the listing's pages, the templates,
	// and every size read, the last one of all of them.
	told := map[string]bool{}
	for _, s := range steps {
		told[s.Stage+" "+s.Doing] = true
	}
	for _, want := range []string{"connect handshake", "discover resources/list", "discover resources/templates/list", "discover sizes"} {
		if !told[want] {
			t.Errorf("no %q step in %+v", want, steps)
		}
	}
	// The sizes are read at once, so their steps may be told out of
	// order: the 4th of 4 must be among them, and the last told a size.
	full := false
	for _, s := range steps {
		full = full || (s.Doing == "sizes" && s.Done == 4 && s.Of == 4)
	}
	if last := steps[len(steps)-1]; last.Doing != "sizes" || !full {
		t.Errorf("last step %+v (4 of 4 sizes told: %v), want the sizes' steps last, the 4th of 4 among them", last, full)
	}
	sampled := map[string]int{}
	unknown := map[string]int{}
	for _, r := range cat.Resources {
		if r.Sampled {
			sampled[r.MIME]++
		}
		if r.Size < 0 {
			unknown[r.MIME]++
		}
	}
	// 5 markdown and 3 PNG documents are unlisted; JSON is not asked for.
	if sampled["text/markdown"] != 2 || sampled["image/png"] != 2 || sampled["application/json"] != 0 || cat.Sampled != 4 {
		t.Errorf("sampled %v (%d)", sampled, cat.Sampled)
	}
	if unknown["text/markdown"] != 3 || unknown["image/png"] != 1 || unknown["application/json"] != 3 {
		t.Errorf("unknown sizes %v", unknown)
	}
}

// TestRunResolvesAgainstSDK: mime globs and size ranges are resolved from
// the SDK server's listing and read with only ok outcomes, each class
// reading only the sizes it asked for; a class that matches nothing stops
// the run before it starts, saying what the server offers.
func TestRunResolvesAgainstSDK(t *testing.T) {
	for _, c := range []struct {
		name string
		opts mcp.StreamableHTTPOptions
	}{
		{"stateless-2026", mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}},
		{"stateful-legacy", mcp.StreamableHTTPOptions{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			target := startCatalogPeer(t, &c.opts)
			w, err := yamlfile.Parse("resolve.yaml", []byte(fmt.Sprintf(`
target: %q
seed: 5
load: {rate: 15/s, duration: 1s}
turn: {attachments: 2, read_timeout: 60s}
mix:
  - {class: images, mime: "image/*", size: "100KiB..250KiB"}
  - {class: small-md, mime: text/markdown, size: "<=5000"}
  - {class: specs, mime: "application/pdf", size: "uniform(100KiB, 150KiB)"}
  - {class: data, mime: "application/*json", size: any}
`, target.Address)))
			if err != nil {
				t.Fatal(err)
			}
			rep := runSDK(t, w)
			run := rep.MeasuredPhase
			if err := stats.CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
				t.Fatal(err)
			}
			if bad := run.Outcomes.Errors(); bad != 0 || run.Scheduled < 20 {
				t.Fatalf("%d reads of %d failed: %v", bad, run.Scheduled, run.Outcomes.Map())
			}
			for i, bounds := range [][2]int64{{100 << 10, 250 << 10}, {0, 5000}, {100 << 10, 150 << 10}, {300, 314}} {
				cl := run.Classes[i]
				ok := cl.Outcomes[stats.OK]
				if ok == 0 || cl.DiskBytes < ok*bounds[0] || cl.DiskBytes > ok*bounds[1] {
					t.Errorf("class %s: %d reads, %d disk bytes: outside %v per read", cl.Name, ok, cl.DiskBytes, bounds)
				}
			}
			w.Mix = append(w.Mix, workload.Class{Name: "videos", Weight: 1, MIME: "video/*", SizeRange: &workload.SizeRange{Max: workload.NoMaxSize}})
			_, err = Run(catalogCtx(t), Options{Workload: w})
			var e *workload.Error
			if !errors.As(err, &e) || e.Key != "mix[4]" {
				t.Fatalf("a class matching nothing: %v", err)
			}
			for _, want := range []string{`class "videos"`, "video/*", "size in any", "the listing has 22 resources: text/markdown 10 (1000..9100)", "image/png 6 (50KiB..250KiB)"} {
				if !strings.Contains(e.Msg, want) {
					t.Errorf("message lacks %q: %s", want, e.Msg)
				}
			}
		})
	}
}

// loopServer is a hand-written 2026-07-28 server whose resources/list
// cursors go round in a circle and whose listing is odd in every way a
// listing can be: sizes that are not byte counts, a resource without a
// type, a duplicate; reads of "bad:" URIs fail.
func loopServer(t *testing.T) targets.Target {
	pages := map[string]string{
		"":   `{"resources":[{"uri":"x:a","mimeType":"text/plain","size":"12"},{"uri":"x:b","mimeType":"text/plain","size":1.5}],"nextCursor":"c1"}`,
		"c1": `{"resources":[{"uri":"x:c","size":-3},{"uri":"x:a","mimeType":"text/plain"},{"uri":"bad:d","mimeType":"text/plain","size":null}],"nextCursor":"c2"}`,
		"c2": `{"resources":[{"uri":"x:e","mimeType":"text/plain","size":7}],"nextCursor":"c1"}`,
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Cursor string `json:"cursor"`
				URI    string `json:"uri"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &req) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		var result string
		switch {
		case req.Method == protocol.MethodDiscover:
			result = `{"supportedVersions":["2026-07-28"],"capabilities":{"resources":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"loop","version":"1"}}}`
		case req.Method == protocol.MethodResourcesList && pages[req.Params.Cursor] != "":
			result = pages[req.Params.Cursor]
		case req.Method == protocol.MethodResourcesRead && strings.HasPrefix(req.Params.URI, "x:"):
			result = fmt.Sprintf(`{"contents":[{"uri":%q,"mimeType":"text/csv; charset=utf-8","text":"a,b\n1,2\n"}]}`, req.Params.URI)
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, req.ID)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	})
	return targets.Target{Kind: targets.HTTP, Address: serveCatalogHTTP(t, h)}
}

func TestDiscoverLoopAndOddListing(t *testing.T) {
	target := loopServer(t)
	cat, err := Discover(catalogCtx(t), DiscoverOptions{Target: target})
	if err != nil {
		t.Fatal(err)
	}
	if cat.Pages != 3 || len(cat.Resources) != 5 || len(cat.Templates) != 0 {
		t.Fatalf("pages %d, resources %+v, templates %v", cat.Pages, cat.Resources, cat.Templates)
	}
	want := []workload.Resource{
		{URI: "x:a", MIME: "text/plain", Size: 8, Sampled: true, Answered: "text/csv; charset=utf-8"},              // "12" is not a byte count: read
		{URI: "x:b", MIME: "text/plain", Size: 8, Sampled: true, Answered: "text/csv; charset=utf-8"},              // nor is 1.5 (every read answers text/csv: a warning)
		{URI: "x:c", MIME: "text/csv; charset=utf-8", Size: 8, Sampled: true, Answered: "text/csv; charset=utf-8"}, // the type comes from the read
		{URI: "bad:d", MIME: "text/plain", Size: workload.UnknownSize},                                             // the read fails
		{URI: "x:e", MIME: "text/plain", Size: 7},
	}
	for i, r := range cat.Resources {
		if r != want[i] {
			t.Errorf("resource %d: %+v, want %+v", i, r, want[i])
		}
	}
	joined := strings.Join(cat.Warnings, "\n")
	for _, w := range []string{`repeated cursor "c1" after 3 pages`, "1 of 4 reads made to learn sizes failed (first: bad:d: method_not_found"} {
		if !strings.Contains(joined, w) {
			t.Errorf("warnings lack %q: %v", w, cat.Warnings)
		}
	}
	cat, err = Discover(catalogCtx(t), DiscoverOptions{Target: target, MaxPages: 2, SamplePerType: -1})
	if err != nil {
		t.Fatal(err)
	}
	if cat.Pages != 2 || cat.Sampled+cat.SampleFailed != 0 || len(cat.Warnings) != 1 || !strings.Contains(cat.Warnings[0], "stopped after 2 pages") {
		t.Errorf("bounded: pages %d, sampled %d, warnings %v", cat.Pages, cat.Sampled, cat.Warnings)
	}
}

func TestDiscoverUnreachable(t *testing.T) {
	_, err := Discover(catalogCtx(t), DiscoverOptions{Target: targets.Target{Kind: targets.HTTP, Address: "http://127.0.0.1:1/mcp"}})
	if err == nil || !strings.Contains(err.Error(), "connect to http://127.0.0.1:1/mcp") {
		t.Errorf("Discover of a closed port: %v", err)
	}
	if _, err := Discover(catalogCtx(t), DiscoverOptions{}); err == nil || !strings.Contains(err.Error(), "embedded") {
		t.Errorf("Discover of the embedded target without its command: %v", err)
	}
}

func TestSamplePicks(t *testing.T) {
	var res []workload.Resource
	for i := range 10 {
		res = append(res, workload.Resource{URI: fmt.Sprint(i), MIME: "a/b", Size: workload.UnknownSize})
	}
	res = append(res, workload.Resource{URI: "sized", MIME: "a/b", Size: 3}, workload.Resource{URI: "typeless", Size: 3})
	got := samplePicks(res, 3, nil)
	if want := []int{0, 3, 6, 11}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("picks %v, want %v (evenly spread, the sized one skipped, the typeless one read)", got, want)
	}
	if got := samplePicks(res, 3, func(m string) bool { return m == "" }); fmt.Sprint(got) != "[11]" {
		t.Errorf("picks of typeless only: %v", got)
	}
}
