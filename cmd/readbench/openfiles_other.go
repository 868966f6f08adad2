//go:build !unix

package main

// raiseOpenFiles has no open-files limit to read here.
func raiseOpenFiles() (soft, hard uint64, ok bool) { return 0, 0, false }
