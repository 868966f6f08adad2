package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/readbench/readbench/results"
)

// resultTarget is where a result goes: a file the user named, or a
// directory where the run names it after its start and server.
type resultTarget struct {
	path string // --out, or "" for a name chosen after the run
	dir  string // where the server's stderr log is kept
}

// resultPath checks --out before the run (a directory or a missing folder
// is refused then, not after the run) and says where the result and the
// server's stderr log go. The default runs/ folder is the one folder
// readbench creates (see runsFolder). A result written through a device,
// a FIFO or stdout ("-") has no folder of its own to keep the log beside,
// so the log goes to the system's temporary folder.
func resultPath(out string) (resultTarget, error) {
	if out == "" {
		if err := runsFolder(filepath.Join("runs", "x")); err != nil {
			return resultTarget{}, err
		}
		return resultTarget{dir: "runs"}, nil
	}
	if err := runsFolder(out); err != nil {
		return resultTarget{}, err
	}
	if err := results.CheckOutput(out); err != nil {
		return resultTarget{}, fmt.Errorf("--out: %w", err)
	}
	if results.IsStream(out) {
		return resultTarget{path: out, dir: os.TempDir()}, nil
	}
	return resultTarget{path: out, dir: filepath.Dir(out)}, nil
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

// outName names where an output went, for "result saved to ...".
func outName(path string) string {
	if path == results.Stdout {
		return "standard output"
	}
	return path
}

// serverLog collects the stderr of stdio servers during a run and ends up
// next to the result (<result>.stderr.log), where whoever reads the result
// finds why a server complained or died. An empty log is not kept.
type serverLog struct {
	file *os.File
}

func newServerLog(dir string) (*serverLog, error) {
	f, err := os.CreateTemp(dir, ".stderr-*.log")
	if err != nil {
		return nil, fmt.Errorf("server stderr log: %w", err)
	}
	return &serverLog{file: f}, nil
}

// keep moves a non-empty log next to resultPath and returns its path; an
// empty log is removed and "" returned.
func (l *serverLog) keep(resultPath string) (string, error) {
	info, err := l.file.Stat()
	if err != nil || info.Size() == 0 {
		l.discard()
		return "", err
	}
	if err := l.file.Close(); err != nil {
		return "", err
	}
	dst := strings.TrimSuffix(resultPath, ".json") + ".stderr.log"
	if results.IsStream(resultPath) { // nothing to keep it beside: it stays where it is, made visible
		dst = filepath.Join(filepath.Dir(l.file.Name()), strings.TrimPrefix(filepath.Base(l.file.Name()), "."))
	}
	if err := os.Rename(l.file.Name(), dst); err != nil {
		return "", err
	}
	l.file = nil
	return dst, nil
}

// discard removes the log unless keep moved it.
func (l *serverLog) discard() {
	if l.file != nil {
		l.file.Close()
		os.Remove(l.file.Name())
		l.file = nil
	}
}
