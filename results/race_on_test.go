//go:build race

package results

// raceDetector says the tests run with -race, whose shadow memory
// multiplies a process's resident memory: a peak RSS means nothing then.
const raceDetector = true
