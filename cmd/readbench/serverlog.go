package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// resultTarget is where a result goes: a file the user named, or a
// directory where the run names it after its start and server.
type resultTarget struct {
	path string // --out, or "" for a name chosen after the run
	dir  string
}

func resultPath(out string) resultTarget {
	if out != "" {
		return resultTarget{path: out, dir: filepath.Dir(out)}
	}
	return resultTarget{dir: "runs"}
}

// serverLog collects the stderr of stdio servers during a run and ends up
// next to the result (<result>.stderr.log), where whoever reads the result
// finds why a server complained or died. An empty log is not kept.
type serverLog struct {
	file *os.File
}

func newServerLog(dir string) (*serverLog, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("result directory: %w", err)
	}
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
