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
	"errors"
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
func Write(path string, data []byte, perm fs.FileMode) error {
	tmp, err := stage(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// stage writes data, with mode perm, to a new temporary file beside path
// and returns its name: complete and synced, ready to take path's name.
// Without the sync a crash could let the rename reach the disk before
// the data, leaving an empty file under the name (also on a network
// volume, where another shard reads it). A failure removes the file.
func stage(path string, data []byte, perm fs.FileMode) (name string, err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close() // a second Close after a failed one only reports again
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return "", err
	}
	// CreateTemp makes the file 0600; Chmod, unlike OpenFile's mode, is not
	// narrowed by the umask.
	if err = tmp.Chmod(perm); err != nil {
		return "", err
	}
	if err = tmp.Sync(); err != nil {
		return "", err
	}
	if err = tmp.Close(); err != nil {
		return "", err
	}
	return tmp.Name(), nil
}

// WriteNew writes data to path as Write does, but only if path does not
// exist: the complete file appears under its name at once or not at all,
// and an existing file is never replaced, even one another process made
// a moment ago. It is how two runs saving to the same name both keep
// their result: the first takes the name, the second gets an error that
// wraps fs.ErrExist and can save elsewhere.
//
// The temporary file is published with a hard link, which the system
// makes only when the name is free. On a file system without hard links
// the file is created with O_EXCL and written in place instead: still
// never replacing, though a crash mid-write could leave it short.
func WriteNew(path string, data []byte, perm fs.FileMode) error {
	tmp, err := stage(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // the name, once linked, holds the file
	err = os.Link(tmp, path)
	switch {
	case err == nil:
		syncDir(filepath.Dir(path))
		return nil
	case errors.Is(err, fs.ErrExist):
		return err
	}
	return writeExclusive(path, data, perm)
}

// writeExclusive creates path, which must not exist, and writes data in
// it: WriteNew where hard links cannot be made. A failed write removes
// the file it created.
func writeExclusive(path string, data []byte, perm fs.FileMode) (err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(path)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	return f.Close()
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
