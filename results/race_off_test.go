//go:build !race

package results

// raceDetector says the tests run with -race (race_on_test.go).
const raceDetector = false
