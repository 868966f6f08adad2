// Package live is the live terminal view of a run: the full screen on
// stderr redrawn each second (`--live`; the README's "A short tour" says
// what it shows), and the one-line progress drawn without it.
//
// It is for people watching a run, never for logs, and it draws figures
// rather than taking them: what it shows comes from the driver's
// once-a-second progress (stats.Progress, handed on by runner.Show), so
// the view adds nothing to a read's path and cannot change what a run
// measures. Its model is plain data changed by messages that carry their
// own moment, so tests drive it with a sequence of ticks and read what is
// drawn.
package live
