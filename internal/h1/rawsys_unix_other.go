//go:build unix && (!linux || race)

package h1

import "syscall"

// rawRead and rawWrite are the syscall package's read and write here
// (rawsys_linux.go makes them raw) and under the race detector, which
// learns from them that a write to a socket happens before the read of
// its bytes at the other end (a test's server reads what its client set
// before the request).

func rawRead(fd uintptr, p []byte) (int, syscall.Errno) {
	n, err := syscall.Read(int(fd), p)
	return fixed(n, err)
}

func rawWrite(fd uintptr, p []byte) (int, syscall.Errno) {
	n, err := syscall.Write(int(fd), p)
	return fixed(n, err)
}

func fixed(n int, err error) (int, syscall.Errno) {
	if err != nil {
		e, _ := err.(syscall.Errno)
		if e == 0 {
			e = syscall.EIO
		}
		return 0, e
	}
	return n, 0
}
