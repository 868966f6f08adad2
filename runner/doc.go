// Package runner owns a run's life for every command that runs the
// driver: options in, a saved and judged result out. `readbench run`, each
// step of `capacity`, each run of an `ab` round and `merge` all end the
// same way here (Job.Run, Merge): the result is built, its thresholds
// evaluated and stored in it, the result saved (with the stdio servers'
// stderr beside it), and only then judged (Judge), so a run that broke a
// bound, lost count of a read or measured nothing usable always leaves its
// evidence before it fails. The commands print what it returns and exit
// with the status it decided (docs/measurement.md, "How a run ends").
//
// It also holds the policy a run is made under: how this process reaches
// a target (Reach: the embedded server's command, the client's identity,
// the handshake limit), the workload as the command's flags change it
// (Prepare: a copy, never the caller's), the thresholds it is held to, and
// the soft memory limit of a run; what a run needs besides the driver
// (Extras: its tokens, readbench's own profiles, one owner ending them)
// and what a shard says before it connects (ShardStart); and login's
// proof that a token gets a run's session in (LoginCheck), made with the
// client a run uses.
//
// runner imports driver, client, auth, results, bounds and workload; it
// never imports report, cli or anything that prints: it words what is
// said of a run (a judgement's reason, notes, a shard's start, a warning)
// and the command says it, where and when it shows the run.
package runner
