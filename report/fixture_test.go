package report

import (
	"path/filepath"
	"testing"

	"github.com/readbench/readbench/results"
)

// The results the report tests render are the documents package results
// pins in its testdata: what Build makes of its fixture (results.json, a
// clean run; troubled.json, a partial run with cancellations, late
// answers, shape findings and a lost read) and of a run with a stalled
// second (timeline.json), and of runs on a contended machine whose
// advice carries a caveat (contended.json) or is withheld (withheld.json).
// Renderers take documents, so their tests start
// from documents, and the golden reports follow what Build makes:
// `go test -update ./results/` rewrites the documents.

// document loads testdata/name of package results.
func document(t testing.TB, name string) *results.Result {
	t.Helper()
	r, err := results.Load(filepath.Join("..", "results", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fixture is the clean run's result, or the troubled run's.
func fixture(t testing.TB, troubled bool) *results.Result {
	t.Helper()
	if troubled {
		return document(t, "troubled.json")
	}
	return document(t, "result.json")
}
