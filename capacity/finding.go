package capacity

// RateFinding is what a rate search found: the JSON of `readbench capacity
// --format json`, and what the table prints.
type RateFinding struct {
	Target string `json:"target"`
	Server string `json:"server"` // name and version the target announced
	// MaxSustainableRate is the highest rate (turns per second) the search
	// confirmed the server sustains within the SLO (search.confirmed); nil,
	// JSON null, when it knows none, so that a script reading the key never
	// takes a figure readbench did not confirm for the answer. The rate a
	// step measured but the search could not confirm is then Interval.Low.
	// ReadsPerS and WireMBPerS are what the step (or hold) at that rate,
	// or at Interval.Low, achieved.
	MaxSustainableRate *float64 `json:"max_sustainable_rate"`
	Unit               string   `json:"unit"` // "turns/s"
	ReadsPerS          float64  `json:"reads_per_s"`
	WireMBPerS         float64  `json:"wire_mb_per_s"`
	SLO                string   `json:"slo"`
	// LimitedBy is what ended the search (LimitSLO, ...); FirstBadRate the
	// lowest rate that failed (0 when none did).
	LimitedBy    string  `json:"limited_by"`
	FirstBadRate float64 `json:"first_bad_rate"`
	// Resolution is the gap, turns/s, between the maximum sustainable rate
	// and the lowest rate that broke the SLO: the server's limit lies in
	// it. 0 unless the search ended at the SLO.
	Resolution float64 `json:"resolution"`
	// Hold is the last hold run: the candidate confirmed (or not) by a run
	// of the hold's length; nil when nothing was held (--hold 0, or no
	// step passed).
	Hold *Hold `json:"hold"`
	// Interval is where the limit lies when steps the search needed could
	// not be measured (limited_by machine or generator); nil otherwise.
	Interval   *Interval `json:"interval"`
	Conclusion string    `json:"conclusion"` // one sentence, printed under the table
	Steps      []Step    `json:"steps"`
}

// Hold is a candidate rate held for longer than a step, so that the rate
// reported is one the server sustained for that long, not for one short
// step: short steps overstate (a queue that grows slowly breaks the SLO
// only after a while).
type Hold struct {
	Rate      float64 `json:"rate"`       // turns per second held
	DurationS float64 `json:"duration_s"` // measured length of the hold
	// Pass: the SLO held throughout, the generator keeping its schedule.
	Pass   bool   `json:"pass"`
	Reason string `json:"reason"` // why it broke, or why the generator could not tell; "" for a pass
}

// finish fills in the finding from the candidate and the bad step.
func (s *search) finish(limit string) *RateFinding {
	rep := s.rep
	rep.LimitedBy = limit
	var low float64 // the candidate, confirmed or not
	if s.good != nil {
		low, rep.ReadsPerS, rep.WireMBPerS = s.good.Rate, s.good.ReadsPerS, s.good.WireMBPerS
		if s.confirmed(limit) {
			rep.MaxSustainableRate = new(low)
		}
	}
	ender := s.bad // what ended the search
	if limit == LimitMachine && s.upper() != nil {
		ender = s.upper()
	}
	if ender != nil {
		rep.FirstBadRate = ender.Rate
	}
	if limit == LimitSLO && rep.MaxSustainableRate != nil && s.bad != nil {
		rep.Resolution = s.bad.Rate - low
	}
	if limit == LimitMachine || limit == LimitGenerator {
		rep.Interval = interval(rep, low)
	}
	rep.Conclusion = conclusion(rep, ender, low)
	return rep
}

// confirmed says whether the candidate is the server's maximum
// sustainable rate: the search ended at the server's own limit (the SLO,
// broken as the server's) or above the range searched, and the candidate
// held for Plan.Hold (with --hold 0, its step is all there is). A search
// the machine or the generator ended, or whose holds all broke, knows no
// such rate: its best step is a lower end (Interval), never the answer.
func (s *search) confirmed(limit string) bool {
	if limit != LimitSLO && limit != LimitRange {
		return false
	}
	return s.plan.Hold == 0 || s.rep.Hold != nil && s.rep.Hold.Pass
}
