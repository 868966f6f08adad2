package ab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/readbench/readbench/results"
)

// fixture is a result of a clean run: the results fixture, its lag well
// within the policy's share.
func fixture(t *testing.T) *results.Result {
	t.Helper()
	r, err := results.Load("../results/testdata/result.json")
	if err != nil {
		t.Fatal(err)
	}
	rate := 10.0
	r.Partial = false
	r.Totals.AskedRate, r.Totals.AchievedRate = rate, &rate
	r.Lag.Count, r.Lag.P50Ms, r.Lag.P99Ms = 100, 0.2, 1
	r.Read.P50Ms, r.Read.P99Ms = 20, 60
	return r
}

// fake is a runner of scripted runs: noisy(side, round, attempt) says
// which runs to make unusable (the generator started half the turns
// asked), and every call is recorded.
type fake struct {
	t     *testing.T
	mu    sync.Mutex
	calls []string
	noisy func(side Side, round, attempt int) bool
	hook  func(side Side, round, attempt int) (*results.Result, error)
}

// run is a Runner: it saves what it returns at path, as runner.Job does,
// also when it fails after the result was made (a broken identity).
func (f *fake) run(_ context.Context, sr SideRun) (*results.Result, error) {
	side, round, attempt, path := sr.Side, sr.Round, sr.Attempt, sr.Path
	f.mu.Lock()
	defer f.mu.Unlock() // the sides run at once: one at a time here
	f.calls = append(f.calls, fmt.Sprintf("%d.%d%s", round, attempt, side[:1]))
	r, err := fixture(f.t), error(nil)
	if f.hook != nil {
		if hr, herr := f.hook(side, round, attempt); hr != nil || herr != nil {
			r, err = hr, herr
		}
	}
	if f.noisy != nil && f.noisy(side, round, attempt) {
		half := r.Totals.AskedRate / 2
		r.Totals.AchievedRate, r.Totals.Turns = &half, 1 // the pacer fell behind
	}
	if r != nil {
		if serr := r.SaveFile(path); serr != nil {
			f.t.Fatal(serr)
		}
	}
	return r, err
}

// ran are the runs made, in round and attempt order and, within an
// attempt, in the order its sides were started (they run at once, so
// they may reach the runner either way).
func (f *fake) ran() []string {
	out := slices.Clone(f.calls)
	key := func(c string) string {
		var round, attempt int
		var side string
		fmt.Sscanf(c, "%d.%d%s", &round, &attempt, &side)
		first := string(Order(round)[0][:1])
		return fmt.Sprintf("%03d.%03d.%v", round, attempt, side != first)
	}
	slices.SortStableFunc(out, func(a, b string) int { return strings.Compare(key(a), key(b)) })
	return out
}

// plan is a fixed experiment of rounds rounds, no bounds.
func plan(t *testing.T, rounds int) Design {
	return Design{Rounds: rounds, MaxRounds: rounds, Retries: DefaultRetries, Policy: DefaultPolicy(), Dir: t.TempDir()}
}

func files(t *testing.T, dir, sub string) []string {
	t.Helper()
	es, err := os.ReadDir(filepath.Join(dir, sub))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestOrder(t *testing.T) {
	want := [][2]Side{{Base, New}, {New, Base}, {Base, New}, {New, Base}}
	for i, w := range want {
		if got := Order(i + 1); got != w {
			t.Errorf("round %d: %v, want %v", i+1, got, w)
		}
	}
}

// TestRunRotates: clean rounds run in the rotated order, each run saved
// under its side's folder with its round in the name, kept in round order.
func TestRunRotates(t *testing.T) {
	f := &fake{t: t}
	p := plan(t, 4)
	var told []int
	p.Told = func(rd Round) { told = append(told, rd.Index) }
	o, err := Run(context.Background(), p, f.run)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1.1b", "1.1n", "2.1n", "2.1b", "3.1b", "3.1n", "4.1n", "4.1b"}; !slices.Equal(f.ran(), want) {
		t.Errorf("calls %v, want %v", f.ran(), want)
	}
	if len(o.Base) != 4 || len(o.New) != 4 || o.Interrupted || !slices.Equal(told, []int{1, 2, 3, 4}) {
		t.Fatalf("outcome %+v, told %v", o, told)
	}
	if got := files(t, p.Dir, "new"); !slices.Equal(got, []string{"round-01-new.json", "round-02-new.json", "round-03-new.json", "round-04-new.json"}) {
		t.Errorf("new/: %v", got)
	}
	if o.Base[2].Label != filepath.Join(p.Dir, "base", "round-03-base.json") {
		t.Errorf("base run 3 labelled %s", o.Base[2].Label)
	}
	if len(files(t, p.Dir, Excluded)) != 0 || len(o.Notes()) != 1 || !strings.Contains(o.Notes()[0], "4 of 4 rounds kept") {
		t.Errorf("excluded %v, notes %v", files(t, p.Dir, Excluded), o.Notes())
	}
}

// TestRunReruns: a noisy run ends its attempt, is saved in excluded/
// with the other side's run of the attempt (the sides run at once: a run
// counts only beside its pair), and the round is run again; a round noisy
// on every attempt is excluded with both sides, and said.
func TestRunReruns(t *testing.T) {
	f := &fake{t: t, noisy: func(side Side, round, attempt int) bool {
		return round == 2 && attempt == 1 && side == New || // round 2 runs new first
			round == 3 && side == New // round 3: base then new, new always noisy
	}}
	p := plan(t, 4)
	o, err := Run(context.Background(), p, f.run)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1.1b", "1.1n", "2.1n", "2.1b", "2.2n", "2.2b", "3.1b", "3.1n", "3.2b", "3.2n", "3.3b", "3.3n", "4.1n", "4.1b"}
	if !slices.Equal(f.ran(), want) {
		t.Errorf("calls %v, want %v", f.ran(), want)
	}
	if len(o.Base) != 3 || len(o.New) != 3 {
		t.Fatalf("kept %d and %d runs, want 3 each", len(o.Base), len(o.New))
	}
	rd := o.Rounds[2]
	if rd.Kept || rd.Attempts != 3 || len(rd.Noisy) != 3 || !strings.HasPrefix(rd.Noisy[0], "new: the generator started 5.00 turns/s of the 10.0 turns/s asked (saturated: scheduled only 1 of") {
		t.Errorf("round 3: %+v", rd)
	}
	if rd := o.Rounds[1]; !rd.Kept || rd.Attempts != 2 {
		t.Errorf("round 2: %+v", rd)
	}
	wantX := []string{"round-02-attempt-1-base.json", "round-02-attempt-1-new.json",
		"round-03-attempt-1-base.json", "round-03-attempt-1-new.json", "round-03-attempt-2-base.json",
		"round-03-attempt-2-new.json", "round-03-attempt-3-base.json", "round-03-attempt-3-new.json"}
	if got := files(t, p.Dir, Excluded); !slices.Equal(got, wantX) {
		t.Errorf("excluded/: %v, want %v", got, wantX)
	}
	if got := files(t, p.Dir, "base"); !slices.Equal(got, []string{"round-01-base.json", "round-02-base.json", "round-04-base.json"}) {
		t.Errorf("base/: %v", got)
	}
	notes := strings.Join(o.Notes(), "\n")
	for _, w := range []string{"3 of 4 rounds kept", "round 2 re-run 1 time(s): new: the generator started", "round 3 excluded after 3 attempt(s)"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}

	// No retries: a noisy round is excluded at once.
	f = &fake{t: t, noisy: func(side Side, round, _ int) bool { return round == 1 && side == Base }}
	p = plan(t, 2)
	p.Retries = 0
	if o, err = Run(context.Background(), p, f.run); err != nil || len(o.Base) != 1 || !slices.Equal(f.ran(), []string{"1.1b", "1.1n", "2.1n", "2.1b"}) {
		t.Errorf("no retries: %v, calls %v", err, f.ran())
	}
}

// TestRunInterrupted: an interrupted run (a partial result) is saved in
// excluded/ with the clean run of its round, and the experiment stops
// with the rounds before it kept; a runner's error stops it too.
func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &fake{t: t}
	f.hook = func(side Side, round, _ int) (*results.Result, error) {
		if round == 2 && side == Base { // round 2: new, then base
			cancel()
			r := fixture(t)
			r.Partial = true
			return r, nil
		}
		return nil, nil
	}
	p := plan(t, 4)
	o, err := Run(ctx, p, f.run)
	if err != nil || !o.Interrupted || len(o.Base) != 1 || len(o.Rounds) != 2 {
		t.Fatalf("interrupted: %v %+v", err, o)
	}
	if !slices.Equal(f.ran(), []string{"1.1b", "1.1n", "2.1n", "2.1b"}) {
		t.Errorf("calls %v", f.ran())
	}
	if got := files(t, p.Dir, Excluded); !slices.Equal(got, []string{"round-02-attempt-1-base.json", "round-02-attempt-1-new.json"}) {
		t.Errorf("excluded/: %v", got)
	}
	if !strings.Contains(o.Notes()[0], "interrupted") {
		t.Errorf("notes %v", o.Notes())
	}

	boom := errors.New("connection refused")
	f = &fake{t: t, hook: func(side Side, round, _ int) (*results.Result, error) {
		if round == 2 && side == Base {
			return nil, boom
		}
		return nil, nil
	}}
	p = plan(t, 4)
	o, err = Run(context.Background(), p, f.run)
	if !errors.Is(err, boom) || o.Interrupted || len(o.Base) != 1 || len(files(t, p.Dir, "new")) != 1 {
		t.Errorf("runner error: %v %+v, new/ %v", err, o, files(t, p.Dir, "new"))
	}
	lost := errors.New("accounting identity broken")
	f = &fake{t: t, hook: func(side Side, round, _ int) (*results.Result, error) {
		if round == 1 && side == New {
			return fixture(t), lost // saved, then failed
		}
		return nil, nil
	}}
	p = plan(t, 2)
	if _, err = Run(context.Background(), p, f.run); !errors.Is(err, lost) {
		t.Errorf("a run that failed after it was saved: err %v", err)
	}
	if b, n, x := files(t, p.Dir, "base"), files(t, p.Dir, "new"), files(t, p.Dir, Excluded); len(b)+len(n) != 0 ||
		!slices.Equal(x, []string{"round-01-attempt-1-base.json", "round-01-attempt-1-new.json"}) {
		t.Errorf("a run that failed after it was saved: base/ %v, new/ %v, excluded/ %v; want both runs excluded", b, n, x)
	}
	if err := (Design{Rounds: 0, Dir: "x"}).Check(); err == nil {
		t.Error("0 rounds accepted")
	}
}

// TestPolicy: a run is unusable when it was interrupted, sent nothing
// or did not keep its schedule; a lag however large is no reason (a busy
// runner's every run lags: judged.go judges such a bound on service time).
func TestPolicy(t *testing.T) {
	p := DefaultPolicy()
	for _, c := range []struct {
		name string
		edit func(r *results.Result)
		want string
	}{
		{"clean", func(*results.Result) {}, ""},
		{"interrupted", func(r *results.Result) { r.Partial = true }, "interrupted"},
		{"nothing sent", func(r *results.Result) { r.Lag.Count = 0 }, "the generator sent no read"},
		{"saturated", func(r *results.Result) { v := 8.5; r.Totals.AchievedRate, r.Totals.Turns = &v, 1 },
			"the generator started 8.50 turns/s of the 10.0 turns/s asked (saturated: scheduled only 1 of"},
		{"turns dropped by the server's slowness", func(r *results.Result) { v := 5.0; r.Totals.AchievedRate = &v }, ""},
		{"achieved 90%", func(r *results.Result) { v := 9.0; r.Totals.AchievedRate = &v }, ""},
		{"lag half of read p50", func(r *results.Result) { r.Lag.P50Ms = 10 }, ""},
		{"lag at p99 over read p99", func(r *results.Result) { r.Lag.P99Ms = 70 }, ""},
	} {
		r := fixture(t)
		c.edit(r)
		if got := p.Noisy(r); !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	r := fixture(t)
	r.Lag.P99Ms = 30
	if got := LagShare(r, "p99"); got != 0.5 {
		t.Errorf("lag share at p99 %v, want 0.5", got)
	}
	r.Read.P50Ms = 0
	if got := LagShare(r, "p50"); got != 0 {
		t.Errorf("no reads: lag share %v", got)
	}
}
