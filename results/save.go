package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/readbench/readbench/internal/atomicfile"
)

// Marshal encodes r as it is saved: indented JSON and a final newline, so
// that results diff and grep well. The bytes are deterministic (map keys
// sorted), so saving the same result twice gives the same file.
func (r *Result) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("results: encode: %w", err)
	}
	return append(b, '\n'), nil
}

// Stdout is the output name that means standard output, as in most Unix
// tools: `--out -`.
const Stdout = "-"

// SaveFile writes r to path as WriteFile does.
func (r *Result) SaveFile(path string) error {
	return r.SaveTo(path, nil)
}

// SaveTo writes r where a user named it (see WriteOutput): "-" is stdout.
func (r *Result) SaveTo(path string, stdout io.Writer) error {
	data, err := r.Marshal()
	if err != nil {
		return err
	}
	if err := WriteOutput(path, data, stdout); err != nil {
		return fmt.Errorf("results: save: %w", err)
	}
	return nil
}

// IsStream reports whether path names something that is written through
// rather than replaced: "-" (standard output), a device such as /dev/null,
// a FIFO, a socket, or a symbolic link (written through so that the link,
// and whatever it points at, stays what it is). A new path, a regular file
// and anything that cannot be looked at are not streams.
func IsStream(path string) bool {
	if path == Stdout {
		return true
	}
	info, err := os.Lstat(path)
	return err == nil && !info.Mode().IsRegular() && !info.IsDir()
}

// WriteOutput writes data to the output a user named: "-" goes to stdout
// (an error when stdout is nil), and everything else as WriteFile does.
func WriteOutput(path string, data []byte, stdout io.Writer) error {
	if path == Stdout {
		if stdout == nil {
			return errors.New("standard output (-) is not available here")
		}
		if _, err := stdout.Write(data); err != nil {
			return fmt.Errorf("standard output: %w", err)
		}
		return nil
	}
	return WriteFile(path, data)
}

// WriteFile writes data to path without ever destroying what path is. A
// new path or a regular file is replaced atomically (WriteFileAtomic), so
// that a crash leaves the old file or the complete new one. Anything else
// that exists is written through, opened without creating or replacing
// it: renaming a file over /dev/null (as root) would have replaced the
// device with a regular file and broken every later `> /dev/null` on the
// machine, and a FIFO's reader would never see the data. A directory is
// refused, and so is a path whose folder does not exist: a misspelt
// folder must not be created silently.
func WriteFile(path string, data []byte) error {
	stream, err := checkOutput(path)
	switch {
	case err != nil:
		return err
	case stream:
		return writeThrough(path, data)
	}
	return WriteFileAtomic(path, data)
}

// CheckOutput says, before any work is done, whether WriteOutput could
// write to path: nil for "-", a device, a FIFO, a regular file or a new
// path in an existing folder; the error WriteOutput would give for a
// directory or a missing folder. A run checks its --out first, so that a
// typo costs a second, not the run.
func CheckOutput(path string) error {
	if path == Stdout {
		return nil
	}
	_, err := checkOutput(path)
	return err
}

// checkOutput classifies path: stream is true when it must be written
// through (see IsStream).
func checkOutput(path string) (stream bool, err error) {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := checkFolder(filepath.Dir(path)); err != nil {
			return false, fmt.Errorf("%s: %w", path, err)
		}
		return false, nil
	case errors.Is(err, syscall.ENOTDIR): // a path under a file
		return false, fmt.Errorf("cannot write to %s: %w", path, checkFolder(filepath.Dir(path)))
	case err != nil:
		return false, err
	case info.IsDir():
		return false, fmt.Errorf("%s is a directory: name a file in it", path)
	}
	return !info.Mode().IsRegular(), nil
}

// checkFolder is nil when dir is an existing directory, and otherwise says
// what is wrong with it in words a user can act on.
func checkFolder(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the folder %s does not exist (readbench does not create it: create it first)", dir)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s is not a folder: a file stands in its path", dir)
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	}
	return nil
}

// writeThrough writes data into an existing device, FIFO, socket or the
// file a symbolic link points at, leaving the node itself in place. It
// never creates: a node that vanished since it was looked at is an error,
// not a new regular file.
func writeThrough(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err // a *fs.PathError: "write /dev/full: no space left on device"
	}
	return f.Close()
}

// WriteFileAtomic writes data to path atomically (atomicfile.Write): a
// crash or a second Ctrl-C leaves either the old file or the complete new
// one, never a truncated result or report. Results and reports hold no
// secret and are meant to be shared, so the file is 0644. It is for a new
// path or a regular file only (WriteFile chooses); the directory must
// exist.
func WriteFileAtomic(path string, data []byte) error {
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// WriteNewFile writes data to path only if path is free
// (atomicfile.WriteNew): the whole file appears at once, and a file there,
// even one another run saved a moment ago, is never replaced (the error
// wraps fs.ErrExist). A result saved under a name readbench chose, or to
// an --out given without --force, is saved so.
func WriteNewFile(path string, data []byte) error {
	if err := atomicfile.WriteNew(path, data, 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// maxNamePart bounds each of the server name and version in a file name, so
// that a server announcing a very long name cannot make an unusable path.
const maxNamePart = 64

// DefaultName is the file name a result is saved under when none is given:
// "20261130T022847Z-readbench-simserver-0.1.0.json". The UTC start time
// comes first so that a directory of runs lists in the order they were run;
// the server name and version follow so that the runs to compare are found
// by eye. Characters that are not safe in file names on every system
// (anything but ASCII letters, digits, '.', '_', '+' and '-') become '-';
// an empty name or version becomes "unknown".
func DefaultName(started time.Time, server, version string) string {
	return started.UTC().Format("20060102T150405Z") + "-" + namePart(server) + "-" + namePart(version) + ".json"
}

// namePart makes s safe as part of a file name.
func namePart(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == '+' || c == '-'
		switch {
		case ok:
			b.WriteRune(c)
			dash = c == '-'
		case !dash:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= maxNamePart {
			break
		}
	}
	out := strings.Trim(b.String(), "-.")
	if len(out) > maxNamePart {
		out = strings.Trim(out[:maxNamePart], "-.")
	}
	if out == "" {
		return "unknown"
	}
	return out
}
