package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/internal/numfmt"
)

// The evidence of a rate search: what passed, what broke and what was
// not the server's, by phase. A search is not monotone (a 20 s hold can
// break at a rate a 2 s step passed; a busy machine can fail any step),
// so the headline states these facts instead of one "first failure".

// rateEvidence is the counted steps of a search (an attempt run again is
// not counted: its verdict was not used) sorted into what they show.
type rateEvidence struct {
	stepPassed, stepBroke []float64            // grid and refinement steps that held or broke the SLO
	holdPassed, holdBroke []float64            // holds that held or broke it
	holdS                 float64              // the holds' length
	notServers            map[string][]float64 // by cause: the rates of steps not the server's
	notServersHolds       map[string][]float64 // and of holds
}

// evidenceOf sorts r's counted steps.
func evidenceOf(r *capacity.RateFinding) rateEvidence {
	e := rateEvidence{notServers: map[string][]float64{}, notServersHolds: map[string][]float64{}}
	if r.Hold != nil {
		e.holdS = r.Hold.DurationS
	}
	for _, s := range r.Steps {
		hold := s.Phase == "hold"
		switch {
		case s.Rerun:
		case s.GeneratorBound:
			if hold {
				e.notServersHolds[cause(s)] = append(e.notServersHolds[cause(s)], s.Rate)
			} else {
				e.notServers[cause(s)] = append(e.notServers[cause(s)], s.Rate)
			}
		case hold && s.Pass:
			e.holdPassed = append(e.holdPassed, s.Rate)
		case hold:
			e.holdBroke = append(e.holdBroke, s.Rate)
		case s.Pass:
			e.stepPassed = append(e.stepPassed, s.Rate)
		default:
			e.stepBroke = append(e.stepBroke, s.Rate)
		}
	}
	return e
}

// cause is what limited a step that is not the server's: its recorded
// cause, or for a finding written before causes were recorded, the
// machine when its reason says so, else the generator (what every such
// step was then called).
func cause(s capacity.Step) string {
	switch {
	case s.NotServers != "":
		return s.NotServers
	case strings.Contains(s.Reason, "the machine was busy"): // such a finding's words for the machine
		return capacity.CauseMachine
	}
	return capacity.CauseGenerator
}

// sentence is the evidence in one line: "steps passed up to 400/s; 450/s
// broke its step; 20 s holds broke at 300–400/s; machine busy at 500/s".
func (e rateEvidence) sentence() string {
	var parts []string
	if len(e.stepPassed) > 0 {
		parts = append(parts, "steps passed up to "+rateSpan([]float64{slices.Max(e.stepPassed)}))
	} else {
		parts = append(parts, "no step passed")
	}
	if n := len(e.stepBroke); n == 1 {
		parts = append(parts, rateSpan(e.stepBroke)+" broke its step")
	} else if n > 1 {
		parts = append(parts, "steps broke at "+rateSpan(e.stepBroke))
	}
	hold := fmt.Sprintf("%s s hold", shortRate(e.holdS))
	if len(e.holdPassed) > 0 {
		parts = append(parts, hold+" held at "+rateSpan([]float64{slices.Max(e.holdPassed)}))
	}
	if n := len(e.holdBroke); n == 1 {
		parts = append(parts, hold+" broke at "+rateSpan(e.holdBroke))
	} else if n > 1 {
		parts = append(parts, hold+"s broke at "+rateSpan(e.holdBroke))
	}
	for _, c := range []string{capacity.CauseMachine, capacity.CauseGenerator} {
		if rs := e.notServers[c]; len(rs) > 0 {
			parts = append(parts, capacity.CauseWord(c)+" at "+rateSpan(rs))
		}
		if hs := e.notServersHolds[c]; len(hs) > 0 {
			parts = append(parts, capacity.CauseWord(c)+" in the "+hold+" at "+rateSpan(hs))
		}
	}
	return strings.Join(parts, "; ")
}

// rateSpan is rates as one figure ("300/s") or their range ("300–400/s").
func rateSpan(rs []float64) string {
	lo, hi := slices.Min(rs), slices.Max(rs)
	if lo == hi {
		return shortRate(lo) + "/s"
	}
	return shortRate(lo) + "–" + shortRate(hi) + "/s"
}

// shortRate is a rate as the search stepped it when that is short
// ("11.875": the interval and the answer say it so, and a tile "11.9"
// beside "≥ 11.875" reads as two rates), else in three significant
// digits, without a trailing ".0".
func shortRate(v float64) string {
	if s := strconv.FormatFloat(v, 'f', -1, 64); len(s) <= 6 {
		return s
	}
	s := numfmt.Sig3(v)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// evidenceTiles are the headline's figures of the evidence: the highest
// rate that passed (and in what), what broke, and what was not the
// server's, each with the reason of its lowest rate.
func evidenceTiles(r *capacity.RateFinding, e rateEvidence) []htmlTile {
	passed := htmlTile{Label: "passed up to", Value: "none", Sub: "no step held the SLO"}
	if top := slices.Concat(e.stepPassed, e.holdPassed); len(top) > 0 {
		hi := slices.Max(top)
		passed = htmlTile{Label: "passed up to", Value: shortRate(hi) + " turns/s", Class: "pass", Sub: "in a step"}
		if slices.Contains(e.holdPassed, hi) {
			passed.Sub = fmt.Sprintf("held for %s s", shortRate(e.holdS))
		}
	}
	broke := htmlTile{Label: "broke the SLO", Value: "none", Sub: "no counted step broke it"}
	if all := slices.Concat(e.stepBroke, e.holdBroke); len(all) > 0 {
		lo := slices.Min(all)
		broke = htmlTile{Label: "broke the SLO at", Value: rateSpan(all), Class: "fail",
			Sub: printable(shortRate(lo) + "/s: " + failReason(r.Steps, func(s capacity.Step) bool { return s.Rate == lo && !s.GeneratorBound }))}
		if len(e.holdBroke) > 0 && len(e.stepBroke) == 0 {
			broke.Label = fmt.Sprintf("%s s holds broke at", shortRate(e.holdS))
		}
	}
	tiles := []htmlTile{passed, broke}
	for _, c := range []string{capacity.CauseMachine, capacity.CauseGenerator} {
		if rs := slices.Concat(e.notServers[c], e.notServersHolds[c]); len(rs) > 0 {
			lo := slices.Min(rs)
			tiles = append(tiles, htmlTile{Label: "not the server's: " + capacity.CauseWord(c), Value: rateSpan(rs), Class: "warn",
				Sub: printable(failReason(r.Steps, func(s capacity.Step) bool { return s.Rate == lo && s.GeneratorBound && cause(s) == c }))})
		}
	}
	return tiles
}
