// Package driver is the load: it fires resources/read turns at an MCP
// target and records what happened. What it owns:
//
//   - the pacer (pacer.go): when each turn of an open-model run should
//     start. Latency is measured from that intended start, so a stalled
//     server or generator cannot hide behind coordinated omission;
//   - the runner (run.go): sessions, the open and closed models,
//     max_in_flight (a turn that cannot start is dropped and counted, never
//     started late), progress, the server-cost sampling around the run;
//   - turns (turn.go): N reads in parallel on one session, cut at the
//     turn's deadline, each read ended by its timeout; every read gets
//     exactly one outcome (outcome.go), so scheduled = sum of outcomes;
//   - ranged reads (ranged.go): a class with ranged: {chunk} fetched in
//     parts until eof (the read tool of seed 004 over MCP, Range requests
//     on a range+http target), and every read of a range+http target; the
//     read's latency is the whole fetch, each part's kept apart;
//   - cache freshness (freshness.go): the reads a host honouring ttlMs
//     would not have sent;
//   - discovery for workloads (discover.go): resources/list and templates,
//     sizes learned from sampled reads, to resolve mime+size classes and
//     to write a starter workload;
//   - a run's options (options.go): a command's changes to a workload
//     (Overrides) and how this process runs it (Settings) become the run's
//     Options in one place, NewOptions;
//   - a run's result (result.go): a finished run's Report becomes its
//     results.Result in one place, Report.Result, for run and for every
//     step of a capacity search.
//
// How a message reaches the server, how an era is detected and how an
// answer is classified belong to package client; what the numbers mean is
// docs/measurement.md. The driver imports client, servercost, results,
// stats and workload (DESIGN §8: results sits below the driver, and the
// result document is data, not an output format); it never imports
// report, contract or simserver, and knows nothing of output formats.
package driver
