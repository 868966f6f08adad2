// Package atomicfile writes a file so that a crash, a kill or a second
// Ctrl-C leaves either the old file or the complete new one, never a
// truncated one: results and reports (package results), the per-target
// token cache (package auth) and a sharded run's ready files (package
// barrier), which another shard may read at any moment, all need that.
// One function keeps them from drifting apart in the steps that matter
// (the fsync before the rename, the cleanup of the temporary file).
//
// It is ours rather than github.com/google/renameio/v2, which builds on
// no Windows (every file is !windows) while readbench does, or
// github.com/natefinch/atomic, which cannot give a new file its mode.
//
// It imports nothing of readbench.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes data to path atomically with exactly the mode perm (the
// umask does not apply, and an existing file's mode is not kept: a token
// cache must be 0600 whatever it was, a result 0644 so it can be shared).
// A temporary file "."+base+".tmp-*" in path's directory is written,
// given perm, synced and renamed over path, then the directory is synced
// where the system allows it; on any error the temporary file is removed
// and path is as it was.
//
// Path must be a new name or a regular file in an existing directory:
// anything else there (a device, a FIFO, a symbolic link) would be
// replaced by a regular file, so callers that may be handed one decide
// first (results.WriteFile writes those through instead). The errors are
// the os package's, which name the temporary file (or both names, for the
// rename); callers add what was being saved.
func Write(path string, data []byte, perm fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close() // a second Close after a failed one only reports again
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; Chmod, unlike OpenFile's mode, is not
	// narrowed by the umask.
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	// Without the sync a crash could let the rename reach the disk before
	// the data, leaving an empty file under the name (also on a network
	// volume, where another shard reads it).
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes the rename durable where the platform allows it. It is
// best effort: some systems cannot sync a directory, and the file itself
// is already complete.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
