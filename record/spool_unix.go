//go:build unix

package record

import (
	"os"
	"syscall"
)

// canSpill: a message past spoolMemory goes to a file.
const canSpill = true

// spillFile makes the file a message goes on in: in dir (the recording's
// folder, a disk rather than a tmpfs, is what the command passes), mode
// 0600, and removed at once, so that it has no name while it is written
// and nothing is left of it when the proxy ends, however it ends.
func spillFile(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, ".readbench-record-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// mapFile maps the first n bytes of f read-only: the message as one slice
// without a copy on the heap.
func mapFile(f *os.File, n int64) ([]byte, func(), error) {
	if n == 0 {
		return nil, func() {}, nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(n), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, func() {}, err
	}
	return b, func() { syscall.Munmap(b) }, nil
}
