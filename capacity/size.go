package capacity

import (
	"context"
	"errors"
	"fmt"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/units"
)

// SizeSweep is a size sweep: hold Rate and read From bytes, then twice as
// many each step, up to To (the last step To itself).
type SizeSweep struct {
	Rate     float64 // turns per second
	From, To int64   // bytes
	SLO      string  // the SLO as the user wrote it: the finding records it
}

// Sizes is the sizes the sweep steps through.
func (p SizeSweep) Sizes() []int64 {
	var out []int64
	for s := p.From; s < p.To; s *= 2 {
		out = append(out, s)
	}
	return append(out, p.To)
}

// Check refuses a sweep that cannot run.
func (p SizeSweep) Check() error {
	switch {
	case !(p.Rate > 0):
		return errors.New("--sweep size holds a rate: give --rate or a workload with load.rate")
	case p.From < 1:
		return errors.New("--from must be a size of at least 1 byte, such as 1KiB")
	case p.To < p.From:
		return fmt.Errorf("--to (%s) must be at least --from (%s)", units.FormatSize(p.To), units.FormatSize(p.From))
	}
	return nil
}

// outright is the share of a step's reads that must end in an error for
// the size to fail outright (the target cannot deliver it at all, as
// against delivering it too slowly for the SLO).
const outright = 0.5

// SizeFinding is what a size sweep found.
type SizeFinding struct {
	Target string  `json:"target"`
	Server string  `json:"server"`
	SLO    string  `json:"slo"`
	Rate   float64 `json:"rate"` // turns per second, held
	// MaxSizeWithinSLO is the largest size (decoded bytes) whose step held
	// the SLO, every smaller one having held it too; 0 when none did.
	MaxSizeWithinSLO int64 `json:"max_size_within_slo"`
	// SLOBreakSize is the first size whose step broke the SLO (0: none).
	SLOBreakSize int64 `json:"slo_break_size"`
	// FailSize is the first size at which most reads failed outright (0:
	// none up to --to); FailOutcome the outcome most of them ended in and
	// FailReason the first failure the run explained (a message cap, a
	// timeout, a transport error).
	FailSize    int64  `json:"fail_size"`
	FailOutcome string `json:"fail_outcome"`
	FailReason  string `json:"fail_reason"`
	Conclusion  string `json:"conclusion"`
	Steps       []Step `json:"steps"`
}

// SweepSize runs the sweep until a size fails outright or To is done.
func SweepSize(ctx context.Context, p SizeSweep, run Runner, j Criterion) (*SizeFinding, error) {
	rep := &SizeFinding{Rate: p.Rate, SLO: p.SLO, Steps: []Step{}}
	broke := false
	for i, size := range p.Sizes() {
		s := Setting{Index: i + 1, Rate: p.Rate, Size: size}
		o, err := run(ctx, s)
		if err != nil {
			return rep, err
		}
		if rep.Target == "" {
			rep.Target = o.Result.Target.Address
			rep.Server = o.Result.Target.Server.Name + " " + o.Result.Target.Server.Version
		}
		st, err := judge("size", s, o, j, busyPressure)
		if err != nil {
			return rep, err
		}
		rep.Steps = append(rep.Steps, st)
		if ctx.Err() != nil {
			return rep, context.Cause(ctx)
		}
		if !broke && st.Pass {
			rep.MaxSizeWithinSLO = size
		}
		if !st.Pass && !broke {
			broke, rep.SLOBreakSize = true, size
		}
		if st.ErrorRate >= outright {
			rep.FailSize, rep.FailOutcome, rep.FailReason = size, dominantError(st.Outcomes), st.FirstFailure
			break
		}
	}
	rep.Conclusion = sizeConclusion(rep)
	return rep, nil
}

// dominantError is the error outcome most reads ended in.
func dominantError(outcomes map[string]int64) string {
	best, n := "", int64(0)
	for o := range stats.NumOutcomes {
		name := o.String()
		if o.IsError() && outcomes[name] > n {
			best, n = name, outcomes[name]
		}
	}
	return best
}

func sizeConclusion(r *SizeFinding) string {
	var s string
	if r.MaxSizeWithinSLO > 0 {
		s = fmt.Sprintf("The largest size served within the SLO at %s turns/s: %s.", numfmt.Sig3(r.Rate), units.FormatSize(r.MaxSizeWithinSLO))
	} else {
		s = fmt.Sprintf("No size held the SLO at %s turns/s.", numfmt.Sig3(r.Rate))
	}
	if r.SLOBreakSize > 0 {
		s += fmt.Sprintf(" The SLO broke at %s.", units.FormatSize(r.SLOBreakSize))
	}
	if r.FailSize == 0 {
		return s + " No size up to the last one failed outright."
	}
	s += fmt.Sprintf(" At %s reads fail outright: %s", units.FormatSize(r.FailSize), r.FailOutcome)
	if r.FailReason != "" {
		s += " (" + r.FailReason + ")"
	}
	return s + "."
}
