package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
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

// SaveFile writes r to path atomically (see WriteFileAtomic).
func (r *Result) SaveFile(path string) error {
	data, err := r.Marshal()
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(path, data); err != nil {
		return fmt.Errorf("results: save: %w", err)
	}
	return nil
}

// WriteFileAtomic writes data to path atomically: a temporary file in the
// same directory is written, synced and renamed over path, so that a crash
// or a second Ctrl-C leaves either the old file or the complete new one,
// never a truncated result or report. The directory is created when
// missing.
func WriteFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	// CreateTemp makes the file private; results and reports hold no
	// secret and are meant to be shared, so they get the usual permissions.
	if err = tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes the rename durable where the platform allows it. It is
// best effort: some systems cannot sync a directory, and the file itself is
// already complete.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
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
