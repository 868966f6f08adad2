// Package driver is the load: it fires resources/read turns at an MCP
// target on a schedule (the pacer's, or an explicit one for replay) and
// records each read into the run's phases.
//
// It exists so that one place decides when a turn starts and how it ends:
// latency runs from each turn's intended start, so a stalled server or
// generator cannot hide behind coordinated omission, and every read gets
// exactly one outcome (outcomeOf), so scheduled = sum of outcomes. How a
// document is read and what an answer is are package client's, what the
// numbers mean (and the one meaning of run, phase, segment, stage and
// part) is docs/measurement.md, and what becomes of a run's result is
// package runner's.
package driver
