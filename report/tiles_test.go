package report

import (
	"testing"

	"github.com/readbench/readbench/results"
)

// TestTilesOfAnOverloadedRun: an overloaded run whose turns started on
// time has no neutral rate tile beside its health (warn), and a run that
// failed most of its reads has an errors tile that fails, whatever the
// health's first word.
func TestTilesOfAnOverloadedRun(t *testing.T) {
	r := overloadedRun(t)
	if r.EnsureHealth().Health != results.StateOverloaded {
		t.Fatalf("fixture health %q", r.EnsureHealth().Health)
	}
	tiles := map[string]string{}
	for _, tile := range resultHeadline(r).Tiles {
		tiles[tile.Label] = tile.Class
	}
	if tiles["rate achieved"] != "warn" {
		t.Errorf("rate tile %q beside an overloaded health, want warn", tiles["rate achieved"])
	}
	most := 0.85
	r.Totals.ErrorRate = &most
	for _, tile := range resultHeadline(r).Tiles {
		if tile.Label == "errors" && tile.Class != "fail" {
			t.Errorf("errors tile %q at 85%% errors, want fail", tile.Class)
		}
	}
}
