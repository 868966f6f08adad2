package main

import (
	"fmt"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/units"
	"github.com/urfave/cli/v2"
)

// The load flags run and ab share: when turns start (--rate), how many
// may be in flight (--concurrency), how long the run and its warmup last,
// each with the short name users of wrk, hey and ghz reach for.

// rateFlag is --rate, -r: the open model's turns per second.
func rateFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "rate", Aliases: []string{"r"}, Usage: usage}
}

// durationFlag is --duration, -d: the measured length.
func durationFlag(usage string) cli.Flag {
	return &cli.DurationFlag{Name: "duration", Aliases: []string{"d"}, Usage: usage}
}

// turnsFlag is --turns, -n: the run's length as a count of turns
// (load.turns), where oha, hey and ab count requests with -n; the unit
// here is the turn, a user's message and its reads.
func turnsFlag() cli.Flag {
	return &cli.IntFlag{Name: "turns", Aliases: []string{"n"}, Usage: "run `N` turns, then stop (replaces load.turns and load.duration; not with --duration)"}
}

// warmupFlag is --warmup: it replaces the workload's load.warmup.
func warmupFlag() cli.Flag {
	return &cli.DurationFlag{Name: "warmup", Usage: "run this long before the measured run, recorded apart (replaces load.warmup; 0s: none)"}
}

// concurrencyFlag is --concurrency, -c: how many turns may be in flight,
// apart from when they start (ghz's split of -c and -r).
func concurrencyFlag() cli.Flag {
	return &cli.IntFlag{Name: "concurrency", Aliases: []string{"c"},
		Usage: "turns in flight, `N`: with --rate, the open model's cap (load.max_in_flight: turns beyond it are dropped, counted); alone, the closed model (load.concurrency: a turn starts when one ends)"}
}

// loadOverridesOf reads the load flags the command defines into o.
func loadOverridesOf(c *cli.Context, o *driver.Overrides) error {
	if c.IsSet("rate") {
		r, err := units.ParseRate(c.String("rate"))
		if err != nil {
			return fmt.Errorf("--rate: %w", err)
		}
		o.Rate = &r
	}
	if c.IsSet("duration") {
		d := c.Duration("duration")
		o.Duration = &d
	}
	if c.IsSet("turns") {
		if c.IsSet("duration") {
			return fmt.Errorf("--turns: give --turns or --duration, not both: a run ends after N turns or after a time")
		}
		n := c.Int("turns")
		if n <= 0 {
			return fmt.Errorf("--turns: want a count of turns above 0, got %d", n)
		}
		o.Turns = &n
	}
	if c.IsSet("warmup") {
		if d := c.Duration("warmup"); d >= 0 {
			o.Warmup = &d
		} else {
			return fmt.Errorf("--warmup: must not be negative")
		}
	}
	if c.IsSet("concurrency") {
		n := c.Int("concurrency")
		o.Concurrency = &n
	}
	if c.IsSet("sessions") {
		n := c.Int("sessions")
		o.Sessions = &n
	}
	if c.IsSet("trace-sample") {
		f := c.Float64("trace-sample")
		if f < 0 || f > 1 {
			return fmt.Errorf("--trace-sample: want a share from 0 to 1, such as 0.1, got %v", f)
		}
		o.TraceSample = &f
	}
	return nil
}

// traceSampleFlag is --trace-sample: the share of turns whose reads carry
// W3C trace context (load.trace_sample).
func traceSampleFlag() cli.Flag {
	return &cli.Float64Flag{Name: "trace-sample", Value: 1,
		Usage: "share of turns whose reads carry W3C trace context, `RATIO` 0 to 1: a traceparent (sampled flag set) in the HTTP header and params._meta, one trace a turn, a span a read; 0 sends none (replaces load.trace_sample)"}
}
