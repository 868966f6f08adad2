// Package ab runs the sound experiment behind "is the new version worse":
// rounds in which base and new run side by side from one instant, judged
// on the windows of the schedule both ran at the same moments
// (docs/compare.md, "ab", says why and how).
//
// It is apart from package compare, which judges any saved runs, because
// the experiment is a procedure and not only a test: when both sides
// start, which runs count (a Policy re-runs or excludes what the generator
// could not drive), where every run is saved, and when enough rounds are
// in to decide. The runs themselves are made by a Runner the caller
// provides, so the round loop is tested with fake runs; the figures and
// the bounds' estimates are package compare's.
package ab
