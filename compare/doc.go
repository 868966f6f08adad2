// Package compare holds the comparison of result documents: `readbench
// compare`'s and `readbench ab`'s. A comparison has one or more runs per
// side, the run being its statistical unit (Runs, compareruns.go; a pair of
// single results is Pair), and every figure's change says whether it is
// real or within the noise (noise.go; the tests themselves are package
// stats'). It holds a comparison to compare bounds (CheckBounds,
// ContentCheck, Comparison.Hold), picks the runs a history compares
// (Choice, PickHistory, PickRuns) and says what the runs of one side
// advise together (AdviceAcross).
//
// It reads documents through package results and never renders: the
// compare views are package report's. It never imports the driver, the
// client or the workload file format: a comparison reads saved results
// only, possibly years later and on another machine.
package compare
