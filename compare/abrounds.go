package compare

import (
	"path/filepath"
	"regexp"
)

// abRoundFile is the name ab gives a kept round's run
// (round-01-base.json, round-12-new.json): how compare knows its inputs
// are an ab experiment's rounds.
var abRoundFile = regexp.MustCompile(`^round-\d+-(base|new)\.json$`)

// abRoundsNote is the note of an unpaired comparison of an ab
// experiment's kept rounds, "" for any other runs. compare and ab can
// disagree on the same files, and a reader who sees both verdicts should
// know which question each answered: ab ran each round's two runs side
// by side and tests their differences window by window (paired, the
// machine's noise cancelled), compare sees two sets of runs and tests
// their medians apart (unpaired, the noise left in). With the same
// files, the paired test usually decides where the unpaired says ~.
func abRoundsNote(base, nw []Labelled) string {
	for _, side := range [][]Labelled{base, nw} {
		for _, l := range side {
			if !abRoundFile.MatchString(filepath.Base(l.Label)) {
				return ""
			}
		}
	}
	return "these runs are an ab experiment's kept rounds, compared here unpaired (each side's runs as a set); " +
		"ab paired each round's two runs, which ran side by side from the same instant, and tested their differences " +
		"window by window, which cancels the machine's noise: where the two verdicts differ, ab's is the one to trust"
}
