package driver

import (
	"reflect"
	"testing"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// TestCatalogStarterInput: everything discovery learned reaches the
// starter writer, with the target as the user wrote it.
func TestCatalogStarterInput(t *testing.T) {
	target, err := targets.Parse("http://127.0.0.1:8080/mcp")
	if err != nil {
		t.Fatal(err)
	}
	cat := &Catalog{
		Server: client.Implementation{Name: "docs", Version: "2.0"}, ProtocolVersion: "2025-11-25",
		Resources: []workload.Resource{{URI: "docs://a", MIME: "text/markdown", Size: 12, Sampled: true}},
		Templates: []Template{{URITemplate: "docs://{id}", Name: "doc", MIME: "text/markdown", Description: "dropped"}},
		Pages:     3, Sampled: 1, SampleFailed: 2, Warnings: []string{"listing cut at 3 pages"},
	}
	headers := map[string]string{"Authorization": "Bearer ${TOKEN}"}
	got := cat.StarterInput(" http://127.0.0.1:8080/mcp", target, headers)
	want := yamlfile.StarterInput{
		TargetText: " http://127.0.0.1:8080/mcp", Target: target, Headers: headers,
		Server: "docs", Version: "2.0", ProtocolVersion: "2025-11-25",
		Pages: 3, Sampled: 1, Warnings: []string{"listing cut at 3 pages"}, Resources: cat.Resources,
		Templates: []yamlfile.StarterTemplate{{URITemplate: "docs://{id}", Name: "doc"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("StarterInput =\n%+v\nwant\n%+v", got, want)
	}
}
