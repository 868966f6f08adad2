// Package servercost measures what the server under test spent: its CPU
// time and resident memory, sampled from Linux's /proc through the run,
// and its cold start (spawn to first message, handshake, first read). A
// latency figure means little without what the server spent to reach it
// (docs/measurement.md, the server's cost).
//
// For a stdio target readbench owns the processes; for a server started
// elsewhere on the same machine the user names it (--server-pid). On a
// system without /proc the report says "not available" instead of failing
// the run.
//
// It takes process ids and durations, never sessions or transports: it
// imports nothing of readbench, so the client, the driver and the result
// document can all use its types.
package servercost
