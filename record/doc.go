// Package record is `readbench record`: a proxy between real MCP clients
// and a real server that forwards every message unchanged and writes one
// line of a recording for each resources/read that passes, its turn the
// reads a client sent together on its session (docs/record.md says what
// a line holds, how turns are grouped, and what is never written).
//
// It exists so that a workload can be taken from real traffic rather than
// guessed: each answer is classified by package client exactly as a read
// of readbench's own is, and the recording is plain data that package
// replay makes runnable. It knows nothing of the driver, workloads or
// results, and an answer streams through it as it arrives, never held
// whole on the heap.
package record
