package driver

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload/yamlfile"
)

// newMislistingServer is the official Go SDK's server listing each of
// docs under its listed type and answering its read with the answered
// one: a server whose listing and reads disagree, as one that lists
// text/csv and serves markdown (issue 47, item 4).
func newMislistingServer(docs []struct{ uri, listed, answered string }) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mislisting-peer", Version: "1.0.0"}, nil)
	for _, d := range docs {
		s.AddResource(&mcp.Resource{URI: d.uri, MIMEType: d.listed, Name: d.uri},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: d.uri, MIMEType: d.answered, Text: "# a heading\nsome text\n"}}}, nil
			})
	}
	return s
}

// TestDiscoverAnsweredTypes: when the reads discovery makes answer
// another mimeType than the listing's, discovery warns (init prints it
// and writes it at the top of the starter), and the starter keeps the
// listed type, which is what selects the resources, with a warning on the
// class saying what the reads answered. A type the reads confirm is not
// warned of.
func TestDiscoverAnsweredTypes(t *testing.T) {
	docs := []struct{ uri, listed, answered string }{
		{"docs://a.csv", "text/csv", "text/markdown"},
		{"docs://b.csv", "text/csv", "text/markdown"},
		{"docs://c.csv", "text/csv", "text/markdown"},
		{"docs://d.csv", "text/csv", "text/plain"},
		{"docs://e.csv", "text/csv", "text/plain; charset=utf-8"},
		{"docs://f.md", "text/markdown", "text/markdown"},
	}
	srv := newMislistingServer(docs)
	tg := targets.Target{Kind: targets.HTTP, Address: serveCatalogHTTP(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))}
	cat, err := Discover(catalogCtx(t), DiscoverOptions{Target: tg, Client: client.Implementation{Name: "t", Version: "0"}, VerifyPerType: 3})
	if err != nil {
		t.Fatal(err)
	}
	const warning = "resources listed as text/csv: 5 of 5 reads answered another mimeType (text/markdown 3, text/plain 2)"
	if len(cat.Warnings) != 1 || !strings.Contains(cat.Warnings[0], warning) {
		t.Errorf("warnings %q, want one with %q", cat.Warnings, warning)
	}
	text, err := yamlfile.Starter(cat.StarterInput(tg.String(), tg, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Discovery warning: " + warning,
		"# WARNING: listed as text/csv, but 5 of 5 reads answered another mimeType: text/markdown 3, text/plain 2.",
		"mime: text/csv",
		"mime: text/markdown",
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the starter lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(string(text), "# WARNING"); n != 1 {
		t.Errorf("%d class warnings, want 1 (text/markdown answered as listed):\n%s", n, text)
	}
}
