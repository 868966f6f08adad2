package ab

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
)

// Side is one of the two targets of an experiment; its name is the folder
// its kept runs are saved in.
type Side string

// The two sides.
const (
	Base Side = "base"
	New  Side = "new"
)

// Excluded is the folder of the runs that do not count: the noisy
// attempts, the rounds excluded, an interrupted run.
const Excluded = "excluded"

// Order is the order the sides run in round i (from 1): base first in odd
// rounds, new first in even ones, so that over each pair of rounds
// (ABBA) neither side always follows the other or always meets the
// machine first.
func Order(round int) [2]Side {
	if round%2 == 1 {
		return [2]Side{Base, New}
	}
	return [2]Side{New, Base}
}

// Runner makes one run of a side and saves its result at path (the
// side's folder: the experiment moves it to the excluded folder when it
// does not count); the round (from 1) and the attempt (from 1) are for
// its own use (progress). On interruption it returns what ran (a partial
// result) or an error wrapping the context's. An error after the result
// was saved (readbench lost count of its reads) leaves the file, which
// the experiment moves to the excluded folder.
type Runner func(ctx context.Context, side Side, round, attempt int, path string) (*results.Result, error)

// Plan is an experiment: at least Rounds rounds (the first look) and at
// most MaxRounds, each round given up to Retries more attempts when a run
// of it is unusable by Policy, rounds started only while Budget (0: none)
// leaves time for one more; every run saved under Dir. After Rounds kept
// rounds, and every LookStep more, the kept rounds are tested (Judge) and
// the experiment stops once every bound is decided (see sequential.go).
// Told, when set, hears each round once it is settled (kept or excluded),
// and each run as it is saved; Looked each look's comparison.
type Plan struct {
	Rounds    int
	MaxRounds int
	Budget    time.Duration
	Retries   int
	Policy    Policy
	Judging   Judging
	Dir       string
	Told      func(Round)
	Saved     func(side Side, round, attempt int, path string, noisy string)
	Looked    func(kept int, c *compare.Comparison, decided bool)
	// Now is the clock of the budget (time.Now when nil).
	Now func() time.Time
}

// Round is how one round went.
type Round struct {
	Index    int     // from 1
	Order    [2]Side // the sides in the order they ran
	Attempts int     // attempts made (1 when the first was clean)
	Kept     bool
	// Noisy is why each noisy attempt did not count, in order: all of
	// them for an excluded round, the re-run ones for a kept one.
	Noisy []string
	// Runs are the kept runs by side (nil for an excluded round).
	Runs map[Side]compare.Labelled
}

// Experiment is a finished (or interrupted) experiment: every round, the
// kept runs of each side in round order, labelled with their files, and
// every run made (kept or not) for the machine's figures; Verdict is the
// comparison of the last look (nil before one), Looks how many were made
// and Stopped why no more rounds ran (compare.Stop*).
type Experiment struct {
	Rounds      []Round
	Base, New   []compare.Labelled
	All         []*results.Result
	Interrupted bool
	Verdict     *compare.Comparison
	Looks       int
	Stopped     string
	plan        Plan
}

// Check refuses a plan that cannot make an experiment.
func (p Plan) Check() error {
	switch {
	case p.Rounds < 1:
		return fmt.Errorf("ab: %d rounds: want 1 or more (%d or more for a verdict)", p.Rounds, DefaultRounds)
	case p.MaxRounds < p.Rounds:
		return fmt.Errorf("ab: --max-rounds %d is fewer than --rounds %d", p.MaxRounds, p.Rounds)
	case p.Budget < 0:
		return fmt.Errorf("ab: budget %s: want 0 (none) or more", p.Budget)
	case p.Retries < 0:
		return fmt.Errorf("ab: %d retries: want 0 or more", p.Retries)
	case p.Dir == "":
		return errors.New("ab: no folder to save the runs in")
	}
	return nil
}

// Run runs the experiment. Each attempt of a round runs the sides in
// the round's order and stops at the first unusable run; a round with no
// attempt left is excluded. A run is saved as soon as it ends, so an
// interruption (the context cancelled, or a partial result) leaves every
// run made behind and stops the experiment: Outcome.Interrupted. An error
// of the runner (the target not reached) ends it too, with the outcome
// so far. The kept rounds are judged at each look (sequential.go), and
// once more at the end when rounds were kept after the last look.
func Run(ctx context.Context, p Plan, run Runner) (*Experiment, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	for _, sub := range []string{string(Base), string(New), Excluded} {
		if err := os.MkdirAll(filepath.Join(p.Dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("ab: %w", err)
		}
	}
	out := &Experiment{plan: p}
	rec := func(s Side, i, a int, path string, r *results.Result, why string) {
		out.All = append(out.All, r)
		if p.Saved != nil {
			p.Saved(s, i, a, path, why)
		}
	}
	clock := p.clock()
	start := clock()
	for i := 1; i <= p.MaxRounds; i++ {
		if i > 1 && p.Budget > 0 && clock().Sub(start)*time.Duration(i)/time.Duration(i-1) > p.Budget {
			out.Stopped = compare.StopBudget // one more round of the mean length would overrun it
			break
		}
		rd, stop, err := p.round(ctx, i, run, rec)
		if rd.Attempts > 0 {
			out.Rounds = append(out.Rounds, rd)
			if rd.Kept {
				out.Base, out.New = append(out.Base, rd.Runs[Base]), append(out.New, rd.Runs[New])
			}
			if p.Told != nil {
				p.Told(rd)
			}
		}
		if stop {
			out.Interrupted, out.Stopped = true, compare.StopInterrupted
			return out, errors.Join(err, out.finish())
		}
		if err != nil {
			return out, err
		}
		if done, err := out.lookIfDue(rd.Kept); err != nil || done {
			return out, err
		}
	}
	if out.Stopped == "" {
		out.Stopped = compare.StopMaxRounds
	}
	return out, out.finish()
}

// round runs round i until an attempt is clean or none is left; stop is
// an interruption.
func (p Plan) round(ctx context.Context, i int, run Runner, saved func(Side, int, int, string, *results.Result, string)) (rd Round, stop bool, err error) {
	rd = Round{Index: i, Order: Order(i)}
	for a := 1; a <= 1+p.Retries; a++ {
		if ctx.Err() != nil {
			return rd, true, nil
		}
		rd.Attempts = a
		runs := map[Side]compare.Labelled{}
		why := ""
		for _, side := range rd.Order {
			path := filepath.Join(p.Dir, string(side), fmt.Sprintf("round-%02d-%s.json", i, side))
			excluded := filepath.Join(p.Dir, Excluded, excludedName(i, a, side))
			r, err := run(ctx, side, i, a, path)
			if err != nil {
				rd.Noisy = append(rd.Noisy, fmt.Sprintf("%s: %v", side, err))
				xerr := errors.Join(move(path, excluded), p.exclude(runs, i, a))
				if ctx.Err() != nil {
					return rd, true, xerr
				}
				return rd, false, errors.Join(fmt.Errorf("round %d, %s: %w", i, side, err), xerr)
			}
			why = p.Policy.Noisy(r)
			if why != "" {
				if err := move(path, excluded); err != nil {
					return rd, false, err
				}
				path = excluded
			}
			saved(side, i, a, path, r, why)
			if why != "" {
				why = fmt.Sprintf("%s: %s", side, why)
				stop = r.Partial
				break
			}
			runs[side] = compare.Labelled{Label: path, Result: r}
		}
		if why == "" {
			rd.Kept, rd.Runs = true, runs
			return rd, false, nil
		}
		rd.Noisy = append(rd.Noisy, why)
		if err := p.exclude(runs, i, a); err != nil {
			return rd, false, err
		}
		if stop || ctx.Err() != nil {
			return rd, true, nil
		}
	}
	return rd, false, nil
}

// exclude moves the clean runs of a failed attempt to the excluded
// folder: a run counts only beside its round's other side.
func (p Plan) exclude(runs map[Side]compare.Labelled, i, a int) error {
	for side, r := range runs {
		if err := move(r.Label, filepath.Join(p.Dir, Excluded, excludedName(i, a, side))); err != nil {
			return err
		}
	}
	return nil
}

// move moves a saved run, and the server's stderr kept beside it, to
// another folder of the experiment; a run that left no file (it failed
// before its result was saved) has nothing to move.
func move(from, to string) error {
	for _, suffix := range []string{".json", ".stderr.log"} {
		f, t := strings.TrimSuffix(from, ".json")+suffix, strings.TrimSuffix(to, ".json")+suffix
		if err := os.Rename(f, t); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("ab: %w", err)
		}
	}
	return nil
}

func excludedName(i, a int, side Side) string {
	return fmt.Sprintf("round-%02d-attempt-%d-%s.json", i, a, side)
}

// Notes are the sentences a comparison of the outcome carries: the
// design, and each round re-run or excluded with the reason.
func (o *Experiment) Notes() []string {
	kept := 0
	var out []string
	for _, rd := range o.Rounds {
		switch {
		case !rd.Kept:
			out = append(out, fmt.Sprintf("round %d excluded after %d attempt(s): %s", rd.Index, rd.Attempts, joinWhy(rd.Noisy)))
		case rd.Attempts > 1:
			out = append(out, fmt.Sprintf("round %d re-run %d time(s): %s", rd.Index, rd.Attempts-1, joinWhy(rd.Noisy)))
		}
		if rd.Kept {
			kept++
		}
	}
	head := fmt.Sprintf("ab: %d of %d rounds kept, base and new interleaved (base first in odd rounds, new first in even), the same seed on both sides; "+
		"each look a paired test at %.3g, at most %d looks (Bonferroni: an unchanged server fails at most 5%% of the time)", kept, len(o.Rounds), o.plan.LookAlpha(), o.plan.Looks())
	if o.Interrupted {
		head += "; interrupted: the rounds that ran"
	}
	return append([]string{head}, out...) // the advice across runs is compare's note (compare.AdviceAcross)
}

func joinWhy(ws []string) string { return strings.Join(ws, "; ") }
