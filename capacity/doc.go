// Package capacity finds how much load a target sustains within an SLO:
// the third job readbench exists for, after sizing timeouts and comparing
// versions. The search, its holds and which failed steps are charged to
// the server are docs/capacity.md.
//
// It is a policy over whole runs, kept apart from how a run is made: each
// step is a run by a Runner the caller provides (so the search is tested
// with fake runs), judged by a Criterion in package bounds' grammar, and
// what it finds is plain data that package report prints. Its rule of
// honesty lives here: a step the generator or the machine spoiled is run
// again or said to be theirs, never reported as the server's limit.
package capacity
