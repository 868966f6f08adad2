// Package replay turns a recording (package record) into what the other
// commands run:
//
//   - Plan (plan.go): the classes the recording's URIs fall into, its
//     turns as an explicit open-loop schedule for the driver
//     (driver.Schedule) at a speed factor, and the workload the schedule
//     runs in (`readbench replay`): the result is an ordinary result;
//   - Starter (starter.go): a workload drawn from the recording, its
//     classes, weights, sizes, attachments per turn and rate shape as
//     recorded (`readbench init --from`);
//   - Diff (diff.go): which answers of a replay differ from the
//     recorded ones in size, digest or outcome (`readbench replay --diff`).
//
// It imports record, driver, workload and stats, never the command line
// or the renderers.
package replay
