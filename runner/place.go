package runner

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/readbench/readbench/results"
)

// Place is where a job's result is saved: a file the user named (Path;
// results.Stdout, "-", for standard output, written to Stdout), or, with
// no Path, a name chosen after the run (its start, server and segment:
// results.ShardName) in Dir. The stdio servers' stderr is kept beside the
// result, or in the system's temporary folder when the result goes to a
// stream. A result never replaces a file unless Replace says it may
// (--force): a name is taken only if it is free when the result is saved,
// so runs saving to one name at once never lose a result silently.
type Place struct {
	Path    string
	Dir     string
	Stdout  io.Writer
	Replace bool // Path may replace a file there (--force)
	made    bool // the folder is the command's own, made when missing (File)
}

// Out is the Place of --out, checked before the run (a directory, a
// missing folder or, without force, an existing file is refused then,
// not after the run): out, or the default runs/ folder when out is "".
// The runs/ folder of the working directory is the one folder Out
// creates (see runsFolder; docs/results.md lists every folder readbench
// creates). force lets the result replace a file at out,
// as record's --force does.
func Out(out string, force bool, stdout io.Writer) (Place, error) {
	if out == "" {
		if err := runsFolder(filepath.Join("runs", "x")); err != nil {
			return Place{}, err
		}
		return Place{Dir: "runs", Stdout: stdout}, nil
	}
	if err := runsFolder(out); err != nil {
		return Place{}, err
	}
	if err := results.CheckOutput(out); err != nil {
		return Place{}, fmt.Errorf("--out: %w", err)
	}
	if results.IsStream(out) {
		return Place{Path: out, Dir: os.TempDir(), Stdout: stdout, Replace: true}, nil
	}
	if _, err := os.Lstat(out); err == nil && !force {
		return Place{}, fmt.Errorf("--out: %s exists (--force replaces it, or name another file)", out)
	}
	if err := writable(out); err != nil {
		return Place{}, fmt.Errorf("--out: cannot write the result to %s: %w", out, err)
	}
	return Place{Path: out, Dir: filepath.Dir(out), Stdout: stdout, Replace: force}, nil
}

// writable checks, before a run drives any load, that the result can be
// written at path: a file made and removed in its folder (where the
// result and the servers' stderr log are written, each through a
// temporary file), and an existing file opened for writing. A folder
// that cannot be written (its permissions, a read-only file system) is
// otherwise found only when the run is over and its result is lost.
func writable(path string) error {
	if err := canWriteIn(filepath.Dir(path)); err != nil {
		return fmt.Errorf("its folder %s cannot be written: %w", filepath.Dir(path), err)
	}
	if g, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
		g.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// canWriteIn makes and removes a file in dir; its error is the system's
// reason alone ("permission denied", "read-only file system").
func canWriteIn(dir string) error {
	f, err := os.CreateTemp(dir, ".readbench-write-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return pe.Err
		}
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// File is the Place of one result among a command's many (a capacity
// step's, an ab round's run): path, in a folder that is made if missing
// (the command's own folder: the default runs/capacity-<time> NewFolder
// made, or one Folder has checked). It never replaces a file there
// unless replace (--force, which let the command reuse a folder that
// held files): two commands writing in one folder cannot replace each
// other's results; the second is refused at its save (Job.Run's Unsaved).
func File(path string, replace bool) Place {
	return Place{Path: path, Dir: filepath.Dir(path), Replace: replace, made: true}
}

// runsFolder creates the default runs/ folder of the working directory
// when path is a file in it (the default, or --out runs/base.json): that
// one folder is readbench's own. Any other missing folder is the user's
// to create, so that a misspelt --out is refused rather than made.
func runsFolder(path string) error {
	if filepath.Clean(filepath.Dir(path)) != "runs" {
		return nil
	}
	if err := os.MkdirAll("runs", 0o755); err != nil {
		return fmt.Errorf("result directory: %w", err)
	}
	return nil
}

// Folder makes the folder the user named for a command's many results
// (capacity's steps, ab's runs). The folder itself is created, as the flag
// promises; a missing parent is refused (a misspelt path must not become a
// tree of folders), and so is anything that exists and is not a folder.
// A folder that exists and holds anything is refused unless force: its
// files are another search's or experiment's, which this one would mix
// with its own or replace.
func Folder(dir string, force bool) error {
	info, err := os.Stat(dir)
	switch {
	case err == nil && info.IsDir():
		if err := canWriteIn(dir); err != nil {
			return fmt.Errorf("cannot write the results in %s: %w", dir, err)
		}
		if force {
			return nil
		}
		if empty, err := isEmpty(dir); err != nil {
			return err
		} else if !empty {
			return fmt.Errorf("%s exists and holds files (--force reuses it, replacing them; or name another folder)", dir)
		}
		return nil
	case err == nil:
		return fmt.Errorf("%s exists and is not a folder: one result per run is saved in a folder", dir)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("the folder %s does not exist (readbench creates %s in it, not the folders above): create it first", filepath.Dir(dir), filepath.Base(dir))
		}
		return err
	}
	return nil
}

// isEmpty says whether the folder dir holds nothing.
func isEmpty(dir string) (bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); errors.Is(err, io.EOF) {
		return true, nil
	} else if err != nil {
		return false, err
	}
	return false, nil
}

// NewFolder creates a folder of readbench's own choosing for a command's
// many results (runs/capacity-<time>, runs/ab-<time>): base, or, when
// another command took that name (two started in the same second), the
// first of base-2, base-3 … that it can create itself. The folder is
// made exclusively, so no two commands ever share one; the runs/ folder
// above it is made when missing (runsFolder). It returns the folder made.
func NewFolder(base string) (string, error) {
	if err := runsFolder(base); err != nil {
		return "", err
	}
	for i := 1; i <= maxNameTries; i++ {
		dir := base
		if i > 1 {
			dir = base + "-" + strconv.Itoa(i)
		}
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("result folder: %w", err)
		}
	}
	return "", fmt.Errorf("result folder: %s and %d names after it are taken", base, maxNameTries-1)
}

// Named is how "result saved to ..." names where a result went.
func Named(path string) string {
	if path == results.Stdout {
		return "standard output"
	}
	return path
}
