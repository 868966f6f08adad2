package compare

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/readbench/readbench/results"
)

// Choice is which runs a comparison compares, as readbench compare is
// asked: two sides (Args BASE NEW, or Base and New, each a result, a
// folder of them or a quoted glob), or one folder (Args, default runs/)
// whose history picks them: its Last two results of one server
// (LastSet), or the newest against up to History before it.
type Choice struct {
	Args, Base, New []string
	Last            int
	LastSet         bool
	History         int
}

// Sides loads the two sides the choice names; a choice that names no
// two sides says how to give them.
func (ch Choice) Sides() (base, nw []Labelled, err error) {
	if len(ch.Base) > 0 || len(ch.New) > 0 {
		if len(ch.Args) > 0 || len(ch.Base) == 0 || len(ch.New) == 0 {
			return nil, nil, errors.New("--base and --new go together, without BASE NEW or a folder")
		}
		if base, err = LoadSide(ch.Base); err != nil {
			return nil, nil, err
		}
		nw, err = LoadSide(ch.New)
		return base, nw, err
	}
	switch {
	case len(ch.Args) == 2 && !ch.LastSet:
		if base, err = LoadSide(ch.Args[:1]); err != nil {
			return nil, nil, err
		}
		nw, err = LoadSide(ch.Args[1:])
		return base, nw, err
	case len(ch.Args) == 2:
		return nil, nil, errors.New("--last picks from a folder: give one folder, or two results without --last")
	case len(ch.Args) > 2:
		return nil, nil, errors.New("give two sides (BASE NEW, each a result, a folder or a quoted glob), --base and --new, or one folder")
	}
	dir := "runs"
	if len(ch.Args) == 1 {
		dir = ch.Args[0]
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a folder of results: give two results (BASE NEW), or a folder", dir)
	}
	if ch.LastSet {
		last := ch.Last
		if last < 1 {
			return nil, nil, fmt.Errorf("--last %d: want 1 or more", last)
		}
		b, n, err := PickHistory(dir, last)
		if err != nil {
			return nil, nil, err
		}
		if base, err = LoadSide([]string{b}); err != nil {
			return nil, nil, err
		}
		nw, err = LoadSide([]string{n})
		return base, nw, err
	}
	if h := ch.History; h < 1 {
		return nil, nil, fmt.Errorf("--history %d: want 1 or more", h)
	}
	base, n, err := PickRuns(dir, ch.History)
	return base, []Labelled{n}, err
}

// LoadSide loads the results one side names: files, folders of them
// (LoadRuns) and quoted globs, each labelled with its file.
func LoadSide(specs []string) ([]Labelled, error) {
	var out []Labelled
	for _, spec := range specs {
		if st, err := os.Stat(spec); err == nil && st.IsDir() {
			runs, err := LoadRuns(spec)
			if err != nil {
				return nil, err
			}
			out = append(out, runs...)
			continue
		}
		paths := []string{spec}
		if strings.ContainsAny(spec, "*?[") {
			var err error
			if paths, err = filepath.Glob(spec); err != nil || len(paths) == 0 {
				return nil, fmt.Errorf("%s: no result matches", spec)
			}
		}
		for _, p := range paths {
			r, err := results.Load(p)
			if err != nil {
				return nil, err
			}
			out = append(out, Labelled{Label: p, Result: r})
		}
	}
	return out, nil
}
