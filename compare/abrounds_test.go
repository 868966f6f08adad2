package compare

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// TestABRoundsNote: compare run on an ab experiment's base/ and new/
// says that it tests them unpaired and that ab's paired verdict is the
// one to trust; any other runs, a paired comparison, or a folder where
// one file is not a round get no such note.
func TestABRoundsNote(t *testing.T) {
	rounds := func(ls []Labelled, side string) []Labelled {
		for i := range ls {
			ls[i].Label = filepath.Join("runs", "ab-x", side, fmt.Sprintf("round-%02d-%s.json", i+1, side))
		}
		return ls
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct {
		name   string
		base   []Labelled
		nw     []Labelled
		paired bool
		want   bool
	}{
		{"ab rounds", rounds(side(t, rng, 4, 1, 0.05), "base"), rounds(side(t, rng, 4, 1, 0.05), "new"), false, true},
		{"ab rounds, paired", rounds(side(t, rng, 4, 1, 0.05), "base"), rounds(side(t, rng, 4, 1, 0.05), "new"), true, false},
		{"other runs", side(t, rng, 4, 1, 0.05), side(t, rng, 4, 1, 0.05), false, false},
		{"one not a round", rounds(side(t, rng, 4, 1, 0.05), "base"), append(rounds(side(t, rng, 3, 1, 0.05), "new"), side(t, rng, 1, 1, 0.05)...), false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := mustCompareRuns(t, c.base, c.nw, RunsOptions{Paired: c.paired})
			has := strings.Contains(strings.Join(got.Notes, "\n"), "an ab experiment's kept rounds")
			if has != c.want {
				t.Errorf("the ab note is there: %v, want %v; notes: %q", has, c.want, got.Notes)
			}
		})
	}
}
