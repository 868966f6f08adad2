package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/readbench/readbench/results"
)

// maxNameTries bounds the names tried for a result saved under a name of
// its own (name.json, name-2.json, …) when runs started in the same
// second against the same server chose the same one.
const maxNameTries = 100

// save writes res to p: its own path, or the name the run chose in p.Dir.
// A chosen name never replaces a file: when another run took it, the
// result takes the next free one (name-2.json …). A named path is
// replaced only when p.Replace allows it; else it must still be free (an
// error wrapping fs.ErrExist when another run saved there meanwhile).
func (p Place) save(res *results.Result, name string) (string, error) {
	if p.made {
		if err := os.MkdirAll(p.Dir, 0o755); err != nil {
			return "", fmt.Errorf("save result: %w", err)
		}
	}
	data, err := res.Marshal()
	if err != nil {
		return "", fmt.Errorf("save result: %w", err)
	}
	switch {
	case p.Path == "":
		return saveNamed(p.Dir, name, data)
	case p.Replace:
		err = results.WriteOutput(p.Path, data, p.Stdout)
	default:
		err = results.WriteNewFile(p.Path, data)
		if errors.Is(err, fs.ErrExist) {
			err = fmt.Errorf("%s was saved by another run while this one ran: it is left as it is (--force replaces it): %w", p.Path, err)
		}
	}
	if err != nil {
		return "", fmt.Errorf("save result: %w", err)
	}
	return p.Path, nil
}

// saveNamed writes data as name in dir, or as the first of name-2.json,
// name-3.json … that is free.
func saveNamed(dir, name string, data []byte) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i <= maxNameTries; i++ {
		path := filepath.Join(dir, name)
		if i > 1 {
			path = filepath.Join(dir, stem+"-"+strconv.Itoa(i)+ext)
		}
		err := results.WriteNewFile(path, data)
		if err == nil {
			return path, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("save result: %w", err)
		}
	}
	return "", fmt.Errorf("save result: %s and %d names after it are taken in %s", name, maxNameTries-1, dir)
}

// Unsaved is a result that could not be saved where it was asked: the
// reason, and the file it was saved to instead ("" when that failed too).
// A run that measured something must not lose it to a full disk: the
// command prints its report anyway and exits with a status of its own.
type Unsaved struct {
	Err      error
	Fallback string
}

// fallbackFolders are where a result that could not be saved goes: the
// system's temporary folder (often another file system than the working
// directory's), then the working directory.
func fallbackFolders() []string { return []string{os.TempDir(), "."} }

// fallback saves res, which could not be saved as asked, to a new file
// "readbench-unsaved-*-<name>" in the first fallback folder that takes
// it, and returns its path ("" and why when none did).
func fallback(res *results.Result, name string) (string, error) {
	data, err := res.Marshal()
	if err != nil {
		return "", err
	}
	var errs []error
	for _, dir := range fallbackFolders() {
		path, err := writeFallback(dir, name, data)
		if err == nil {
			return path, nil
		}
		errs = append(errs, err)
	}
	return "", errors.Join(errs...)
}

// writeFallback writes data to a new file in dir, removed if it could not
// be written whole.
func writeFallback(dir, name string, data []byte) (path string, err error) {
	f, err := os.CreateTemp(dir, "readbench-unsaved-*-"+filepath.Base(name))
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return "", fmt.Errorf("%s: %w", f.Name(), err)
	}
	if err = f.Chmod(0o644); err != nil {
		return "", err
	}
	if err = f.Sync(); err != nil {
		return "", fmt.Errorf("%s: %w", f.Name(), err)
	}
	if err = f.Close(); err != nil {
		return "", fmt.Errorf("%s: %w", f.Name(), err)
	}
	return f.Name(), nil
}

// unsaved is the Unsaved of res, which could not be saved as name (or
// its path) for err: it is saved to a fallback file if one takes it.
func unsaved(res *results.Result, name string, err error) *Unsaved {
	path, ferr := fallback(res, name)
	if ferr != nil {
		err = fmt.Errorf("%w; nor to a fallback file: %w", err, ferr)
	}
	return &Unsaved{Err: err, Fallback: path}
}

// judge is j once the result could not be saved: results.NotSaved, its reason
// naming the fallback file, the finding it outranks said first; an
// interrupted run (130) and bad thresholds (2) keep their exit, saying it.
func (u *Unsaved) judge(j results.Judgement) results.Judgement {
	if u == nil {
		return j
	}
	reason := fmt.Sprintf("the result was not saved: %v; it was saved to %s instead", u.Err, u.Fallback)
	if u.Fallback == "" {
		reason = fmt.Sprintf("the result was not saved: %v", u.Err)
	}
	switch j.Exit {
	case results.Interrupted, results.Misused:
		j.Also = append(j.Also, reason)
		return j
	case results.Failed:
		return results.Judgement{Exit: results.NotSaved, Reason: reason, Also: append(j.Also, j.Reason), Line: results.FailedLine(reason)}
	}
	return results.Judgement{Exit: results.NotSaved, Reason: reason, Also: j.Also, Line: results.FailedLine(reason)}
}
