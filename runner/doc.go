// Package runner owns a run's life for every command that makes one
// (`run`, each step of `capacity`, each run of an `ab` round, `merge`):
// options in, a saved and judged result out.
//
// It exists so that every run ends the same way: the result is built,
// held to its thresholds and saved before it is judged, so a run that
// broke a bound, lost count of a read or measured nothing usable always
// leaves its evidence before it fails (docs/measurement.md, "How a run
// ends"). The policy a run is made under (how this process reaches a
// target, the workload as flags change it, what a run needs besides the
// driver) is decided here once for all of those commands, and so is what
// a job starts and ends with its run: how it is shown on the stderr the
// command gives (Show), the live metrics it feeds and its --reads file,
// so that every run stops showing before its command prints the report.
// What is said of a finished run, the job words (Done.Notes, the
// judgement) and the command says.
package runner
