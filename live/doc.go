// Package live is the live terminal view of a run: a full screen on
// stderr, redrawn each second while the run goes on, with the connect and
// discovery steps before the load, the asked and achieved rate, turns in
// flight, read and turn latency percentiles with a sparkline of the read
// p99 of each second, outcomes, scheduling lag, wire and disk bytes, the
// phase (warmup, measuring, draining) and the time elapsed and remaining;
// in the rows left, a chart of each second's ok and error reads and a
// histogram of the phase's read latencies, fitted to the terminal.
//
// It is for people watching a run, never for logs: the command starts it
// only when stderr is a terminal, and stops it (leaving the alternate
// screen, so the terminal is as it was) before the report is printed.
// The figures come from the driver's once-a-second progress (a
// stats.Progress, handed on by the command), so the view adds nothing to
// a read's path.
// Keys are not read: the terminal stays in its normal mode, and Ctrl-C
// interrupts the run as it always does.
//
// Built on charmbracelet's bubbletea (the program, the alternate screen,
// resizes) and lipgloss (styles). The model (model.go) is plain data
// updated by messages and drawn by View (render.go), so tests drive it
// with a sequence of ticks and read what is drawn; the sparkline's
// arithmetic is in spark.go, the charts in charts.go. Every scale only
// grows, so what was drawn keeps its height when a later second is
// faster.
//
// It never imports client, driver or simserver: it draws figures, it does
// not take them.
package live
