package ab

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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

// Plan is an experiment: Rounds rounds, each given up to Retries more
// attempts when a run of it is noisy by Policy; every run saved under Dir.
// Told, when set, hears each round once it is settled (kept or excluded),
// and each run as it is saved.
type Plan struct {
	Rounds  int
	Retries int
	Policy  Policy
	Dir     string
	Told    func(Round)
	Saved   func(side Side, round, attempt int, path string, noisy string)
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

// Experiment is a finished (or interrupted) experiment: every round, and the
// kept runs of each side in round order, labelled with their files.
type Experiment struct {
	Rounds      []Round
	Base, New   []compare.Labelled
	Interrupted bool
}

// Check refuses a plan that cannot make an experiment.
func (p Plan) Check() error {
	switch {
	case p.Rounds < 1:
		return fmt.Errorf("ab: %d rounds: want 1 or more (4 or more for a verdict)", p.Rounds)
	case p.Retries < 0:
		return fmt.Errorf("ab: %d retries: want 0 or more", p.Retries)
	case p.Dir == "":
		return errors.New("ab: no folder to save the runs in")
	}
	return nil
}

// Run runs the experiment. Each attempt of a round runs the sides in
// the round's order and stops at the first noisy run; a round with no
// attempt left is excluded. A run is saved as soon as it ends, so an
// interruption (the context cancelled, or a partial result) leaves every
// run made behind and stops the experiment: Outcome.Interrupted. An error
// of the runner (the target not reached) ends it too, with the outcome
// so far.
func Run(ctx context.Context, p Plan, run Runner) (*Experiment, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	for _, sub := range []string{string(Base), string(New), Excluded} {
		if err := os.MkdirAll(filepath.Join(p.Dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("ab: %w", err)
		}
	}
	out := &Experiment{}
	for i := 1; i <= p.Rounds; i++ {
		rd, stop, err := p.round(ctx, i, run)
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
			out.Interrupted = true
			return out, err
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// round runs round i until an attempt is clean or none is left; stop is
// an interruption.
func (p Plan) round(ctx context.Context, i int, run Runner) (rd Round, stop bool, err error) {
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
			if p.Saved != nil {
				p.Saved(side, i, a, path, why)
			}
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
	head := fmt.Sprintf("ab: %d of %d rounds kept, base and new interleaved (base first in odd rounds, new first in even), the same seed on both sides", kept, len(o.Rounds))
	if o.Interrupted {
		head += "; interrupted: the rounds that ran"
	}
	return append([]string{head}, out...) // the advice across runs is compare's note (compare.AdviceAcross)
}

func joinWhy(ws []string) string { return strings.Join(ws, "; ") }
