// Package replay turns a recording (package record) into what the other
// commands run: its turns as the driver's explicit schedule, in the
// workload they run in (`readbench replay`), a workload drawn from it
// (`readbench init --from`), and which answers of a replay differ from the
// recorded ones (`replay --diff`); docs/record.md says how.
//
// It is apart from record so that the proxy knows nothing of the driver
// or of workloads: a recording is plain data, and what makes it runnable
// is here.
package replay
