// Package driver is the load: it fires resources/read turns at an MCP
// target and records what happened. What it owns:
//
//   - the pacer (pacer.go): when each turn of an open-model run should
//     start. Latency is measured from that intended start, so a stalled
//     server or generator cannot hide behind coordinated omission;
//   - the runner (run.go; its connections in conns.go: opened a bounded
//     number at a time and at load.connect_rate, enough of them for
//     load.min_sessions, counted by reason in sessions.go; session churn
//     in churn.go: load.session_turns and load.session_lifetime replace
//     a spent session, its handshake and first read recorded): the open and
//     closed models, max_in_flight (a turn that cannot start is dropped
//     and counted, never started late), progress (once a second: counts,
//     the asked rate, the current phase's figures for a live view), the server-cost
//     sampling around the run; the steps before the first turn
//     (setup.go: connecting and discovering, told to Options.Setup) and
//     the handshake limit (the flag's, else load.handshake_timeout);
//   - turns (turn.go): N reads in parallel on one connection, cut at the
//     turn's deadline, each read ended by its timeout. One doRead serves
//     every read, whole or in parts, MCP or plain HTTP: it hands the
//     client a ReadSpec (ranged.go: a class with ranged: {chunk} is read
//     in parts) and turns the client's Answer into a sample; every
//     read gets exactly one outcome, decided in one function (outcomeOf,
//     outcome.go) from the client's answer, whose outcome is already in
//     the run's vocabulary and passes as it is, and the run's facts: never
//     sent (dropped), ended by its timeout or cut by its turn's deadline
//     or the run's end (timeout, cancelled), and the class's expect,
//     applied there once per read; so scheduled = sum of outcomes;
//   - an explicit schedule (schedule.go, Options.Schedule: readbench
//     replay): each turn's time, session and reads given, replacing the
//     pacer's and the plan's, everything else any open-model run's;
//   - cache freshness (freshness.go): the reads a host honouring ttlMs
//     would not have sent;
//   - content digests (digests.go): which reads ask for a digest, kept
//     in the result's own type (results.Digest);
//   - discovery for workloads (discover.go): resources/list and templates,
//     sizes learned from sampled reads (the client's one ReadDocument, as
//     the load reads), to resolve mime+size classes and
//     to write a starter workload; mime+size classes are synthesized
//     instead when the server advertises sim: URIs (client.Conn.SimURIs);
//   - authorization (auth.go): a run's tokens (Options.Auth, package
//     auth) are handed to every session; their requests become the
//     measured phase's token figures, and a run whose reads the server
//     kept refusing says so in one line;
//   - a run's options (options.go): a command's changes to a workload
//     (Overrides) and how this process runs it (Options) become the run's
//     Options in one place, Options.For, on a copy of the workload;
//   - a run's result (result.go, resultworkload.go): a finished run's
//     Measurements become its results.Result in one place,
//     Measurements.Result, for run and for every step of a capacity
//     search;
//   - the start of a shard (startat.go, barrier.go): at once, at
//     Options.StartAt, or at the instant the run's shards compute through
//     a shared folder (Options.Barrier, package barrier), always after the
//     sessions are open;
//   - live observation (observe.go): Options.Observe is handed what the
//     run knows before its first turn (Ready) and returns a
//     stats.Observer per phase, told of every sample the phase records;
//     the command wires live metrics there, the driver knows nothing of
//     them.
//
// How a document is read (resources/read, the read tool in parts, HTTP
// Range), how a message reaches the server, how an era is detected and
// what an answer is (its outcome, shape and bytes, in stats' types)
// belong to package client; what the numbers mean is
// docs/measurement.md. The driver imports client, servercost, results,
// stats, workload, barrier, auth, targets and units (results sits below
// the driver: the result document is data, not an output format); it
// never imports report, contract, runner or simserver, and knows nothing
// of output formats or of what becomes of a run's result (package
// runner's).
//
// Words with one meaning each, here and in the packages around it: a run
// is one execution of a workload, recorded in two phases (warmup and
// measured, each a stats.Phase); a segment is one shard's share of a run
// (--segment k/n, workload.Segment, the result's segment key) and nothing
// else; a stage is a piece of the load as the workload file writes it
// (load.stages), a stretch the pacer's piece of the schedule with a rate
// that is constant or linear (the warmup, then each stage); a part is one
// request of a ranged read (a read-tool call or a Range GET); the
// simulated server lays a document out in pieces. A run ends in
// Measurements, which become a results.Result; a check ends in
// contract.Findings, which become a results.CheckDocument.
package driver
