//go:build !unix

package main

// signalPeers: the interrupt tests (signal_test.go) need Unix signals and
// process groups; there are no peers for them here.
func signalPeers() map[string]func() int { return nil }
