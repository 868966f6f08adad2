//go:build race

package client

// raceDetector says the tests run with -race, whose instrumentation
// allocates: allocation counts mean nothing then.
const raceDetector = true
