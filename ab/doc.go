// Package ab runs the sound experiment behind "is the new version
// worse": rounds in which base and new run side by side, judged on the
// windows of the schedule both ran at the same instants.
//
// Each round runs both sides at once, from one instant (a rendezvous once
// both have their sessions open), on the same seed: the same schedule, the
// same URIs at the same moments. Whatever the machine does — a stall,
// other jobs on a shared runner, a throttled core — meets both sides of
// the moment alike, so the verdict compares them window by window
// (windows.go: a window is a stretch of the schedule, the same reads on
// both sides) and tests the windows' differences, not the rounds'. Rounds
// remain for what they still serve: a warmup for each pair of servers,
// the order the sides open their sessions in (alternated), and a unit
// for re-running what the generator could not drive.
//
// Every run is judged by a Policy before it counts: a run whose generator
// could not keep its schedule is re-run with its round (a bounded number
// of times) and, if still unusable, excluded, both sides together, and
// said. Every run is saved: kept ones in base/ and new/ (so `readbench
// compare DIR/base DIR/new` repeats an unpaired comparison), the others in
// excluded/. Each bound is decided by one estimate (compare.Decide):
// broken, held, or not answered, which fails the gate by default.
//
// The runs themselves are made by a Runner the caller provides (the
// command line runs the driver), so the round loop is tested with fake
// runs. It imports results, stats and bounds; never the driver, the
// client, the workload file format or any renderer (package report prints
// the comparison).
package ab
