// Package capacity finds how much load a target sustains within an SLO:
// the third job readbench exists for, after sizing timeouts and comparing
// versions.
//
// Search (the rate) steps the open-model rate up on a coarse grid until a
// step breaks the SLO, then bisects between the last good and the first
// bad step; SweepSize holds the rate and doubles the attachment size until
// reads fail outright. Each step is a whole run with a short warmup, run
// by a Runner the caller provides (the command line runs the driver and
// saves each step's result), and judged by a Criterion: the SLO, in the one
// bound grammar of package bounds. The best rate is then held for longer
// (Plan.Hold), stepping down when the hold breaks, so the rate reported is
// one that held that long. A step the generator could not drive (its
// scheduling lag over the bound, turns it never scheduled, or a breach
// only in seconds whose lag ate the SLO's headroom) is run again
// (Plan.Retries); one that stays so is marked generator-bound and ends the
// search: it is never reported as the server's limit.
//
// A failed step of a server on this machine (targets.Target.OnThisMachine)
// while the machine's CPUs were contended for over half of it (the
// result's host.cpu_pressure) is not charged to the server either: it is
// run again, and said to be the machine's if it stays so. A failed step in
// which the server answered none of the reads sent (all timed out or
// failed) is the server's whatever the machine: a busy machine slows a
// server, it does not silence it.
//
// It imports results (and through it the workload's types: a step's limit
// is workload.Turn.Limit of its result), bounds, stats and targets; never
// the workload file's parser (workload/yamlfile: a step's workload is made
// by workload.Workload.Step, so the renderers that print a search link no
// YAML), the driver, the client or any renderer (package report prints
// what it finds).
package capacity
