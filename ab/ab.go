package ab

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/numfmt"
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

// Order is the order the sides of round i (from 1) are started in: base
// first in odd rounds, new first in even ones. Both run at once and their
// schedules start together, but the side started first opens its
// sessions first; alternating it (ABBA over each pair of rounds) keeps
// any effect of that order off one side.
func Order(round int) [2]Side {
	if round%2 == 1 {
		return [2]Side{Base, New}
	}
	return [2]Side{New, Base}
}

// Runner makes one run of a side (SideRun says which, where to save it and
// how to start it) and saves its result at Run.Path (the side's folder:
// the experiment moves it to the excluded folder when it does not count).
// On interruption it returns what ran (a partial result) or an error
// wrapping the context's. An error after the result was saved (readbench
// lost count of its reads) leaves the file, which the experiment moves to
// the excluded folder.
type Runner func(ctx context.Context, r SideRun) (*results.Result, error)

// SideRun is one run of a round: its side, round and attempt (from 1, for the
// runner's own use: progress), where to save it, and how it must run
// beside the round's other side: it calls Together once its sessions are
// open and starts its schedule at the instant that returns (the other
// side's too), and Samples observes every read and turn of its measured
// phase (stats.Observer), for the windows the verdict tests.
type SideRun struct {
	Side     Side
	Round    int
	Attempt  int
	Path     string
	Together func(ctx context.Context) (time.Time, error)
	Samples  *Samples
}

// Design is an experiment as it is laid out before it runs: at least Rounds rounds (the first look) and at
// most MaxRounds, each round given up to Retries more attempts when a run
// of it is unusable by Policy, rounds started only while Budget (0: none)
// leaves time for one more; every run saved under Dir. After Rounds kept
// rounds, and each time they double, the kept rounds are tested (Decide) and
// the experiment stops once every bound is decided (see sequential.go).
// Told, when set, hears each round once it is settled (kept or excluded),
// and each run as it is saved; Looked each look's comparison.
type Design struct {
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
	Runs    map[Side]compare.Labelled
	samples map[Side]*Samples
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
	plan        Design
	// samples are each kept round's reads by side, in round order: the
	// windows the verdict tests (windows.go).
	samples []map[Side]*Samples
}

// Check refuses a plan that cannot make an experiment.
func (p Design) Check() error {
	switch {
	case p.Rounds < 1:
		return fmt.Errorf("ab: %d rounds: want 1 or more (%d or more for a verdict)", p.Rounds, DefaultRounds)
	case p.MaxRounds < p.Rounds:
		return fmt.Errorf("ab: --max-rounds %d is fewer than --rounds %d", p.MaxRounds, p.Rounds)
	case p.Budget < 0:
		return fmt.Errorf("ab: budget %s: want 0 (none) or more", numfmt.Duration(p.Budget))
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
func Run(ctx context.Context, p Design, run Runner) (*Experiment, error) {
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
				out.samples = append(out.samples, rd.samples)
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
// an interruption. Each attempt runs both sides at once (attempt).
func (p Design) round(ctx context.Context, i int, run Runner, saved func(Side, int, int, string, *results.Result, string)) (rd Round, stop bool, err error) {
	rd = Round{Index: i, Order: Order(i)}
	for a := 1; a <= 1+p.Retries; a++ {
		if ctx.Err() != nil {
			return rd, true, nil
		}
		rd.Attempts = a
		got := p.attempt(ctx, i, a, rd.Order, run)
		var errs []error
		var why []string
		noisy := map[Side]string{}
		for _, side := range rd.Order {
			g := got[side]
			if g.err != nil {
				rd.Noisy = append(rd.Noisy, fmt.Sprintf("%s: %v", side, g.err))
				errs = append(errs, fmt.Errorf("round %d, %s: %w", i, side, g.err))
				continue
			}
			if noisy[side] = p.Policy.Noisy(g.result); noisy[side] != "" {
				why = append(why, fmt.Sprintf("%s: %s", side, noisy[side]))
				stop = stop || g.result.Partial
			}
		}
		counts := len(errs) == 0 && len(why) == 0
		for _, side := range rd.Order {
			g := got[side]
			if !counts { // a run counts only beside its round's other side: both go
				to := filepath.Join(p.Dir, Excluded, excludedName(i, a, side))
				if err := move(g.path, to); err != nil {
					errs = append(errs, err)
				}
				g.path = to
				got[side] = g
			}
			if g.result != nil {
				saved(side, i, a, g.path, g.result, noisy[side])
			}
		}
		if len(errs) > 0 {
			return rd, ctx.Err() != nil, errors.Join(errs...)
		}
		if counts {
			rd.Kept, rd.Runs, rd.samples = true, map[Side]compare.Labelled{}, map[Side]*Samples{}
			for _, side := range rd.Order {
				rd.Runs[side] = compare.Labelled{Label: got[side].path, Result: got[side].result}
				rd.samples[side] = got[side].samples
			}
			return rd, false, nil
		}
		rd.Noisy = append(rd.Noisy, strings.Join(why, "; "))
		if stop || ctx.Err() != nil {
			return rd, true, nil
		}
	}
	return rd, false, nil
}

// ran is how one side's run of an attempt went.
type ran struct {
	path    string
	result  *results.Result
	samples *Samples
	err     error
}

// attempt runs both sides of round i at once, started in order, their
// schedules begun together (rendezvous), and waits for both.
func (p Design) attempt(ctx context.Context, i, a int, order [2]Side, run Runner) map[Side]ran {
	meet := newRendezvous(len(order))
	out := make(map[Side]ran, len(order))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, side := range order {
		r := SideRun{Side: side, Round: i, Attempt: a, Path: filepath.Join(p.Dir, string(side), fmt.Sprintf("round-%02d-%s.json", i, side)),
			Samples: &Samples{}}
		r.Together = func(ctx context.Context) (time.Time, error) {
			at, err := meet.wait(ctx)
			r.Samples.Start(at)
			return at, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := run(ctx, r)
			// A side that ended before its schedule began (it could not
			// connect) must not leave the other waiting for it.
			meet.abandon(fmt.Errorf("the %s side ended before its schedule began", side))
			mu.Lock()
			out[side] = ran{path: r.Path, result: res, samples: r.Samples, err: err}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
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
	head := fmt.Sprintf("ab: %d of %d rounds kept, base and new side by side from the same instant, the same seed and schedule on both sides; "+
		"each bound judged on the windows of the schedule both ran at once, tested at %.3g a look, at most %d looks "+
		"(Bonferroni over the bounds and the looks: an unchanged server fails the gate at most 5%% of the time)", kept, len(o.Rounds), o.plan.LookAlpha(), o.plan.Looks())
	if o.Interrupted {
		head += "; interrupted: the rounds that ran"
	}
	return append([]string{head}, out...) // the advice across runs is compare's note (compare.AdviceAcross)
}

func joinWhy(ws []string) string { return strings.Join(ws, "; ") }
