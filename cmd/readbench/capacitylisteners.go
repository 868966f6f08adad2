package main

import (
	"fmt"
	"strconv"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/units"
	"github.com/urfave/cli/v2"
)

// listenerSearch runs `capacity --sweep listeners`: the flags into a
// capacity.ListenerSearch and SLO, the search, its finding printed; exit 1
// when the count is not known, as a rate search's rate.
func (cr *capacityRun) listenerSearch(hadRate bool) error {
	c := cr.c
	if !c.IsSet("slo") {
		return cli.Exit("capacity: --slo is required, e.g. --slo 'ack.p99<200ms,interference<1.5x'", exitUsage)
	}
	slo, err := capacity.ParseListenerSLO(c.String("slo"))
	if err == nil {
		err = bounds.CheckThresholdClasses(slo.Reads, cr.opts.Workload.ClassNames())
	}
	if err != nil {
		return cli.Exit(fmt.Sprintf("capacity: --slo: %v", err), exitUsage)
	}
	if slo.Notify > 0 && cr.opts.Workload.Changes == nil {
		return cli.Exit("capacity: --slo notify.p99 needs changes readbench can time: add a changes section to the workload", exitUsage)
	}
	if !hadRate && !c.IsSet("rate") {
		return cli.Exit("capacity: --sweep listeners holds the reads' rate: give --rate or a workload with load.rate", exitUsage)
	}
	p := capacity.ListenerSearch{Rate: cr.opts.Workload.Load.Rate.PerSecond, From: 10, To: 1000, Grow: c.Float64("grow"), Refine: c.Int("refine"),
		Retries: c.Int("retries"), Hold: c.Duration("hold"), Holds: c.Int("holds"), SLO: c.String("slo")}
	if c.IsSet("rate") {
		r, err := units.ParseRate(c.String("rate"))
		if err != nil {
			return cli.Exit(fmt.Sprintf("capacity: --rate: %v", err), exitUsage)
		}
		p.Rate = r.PerSecond
	}
	if err := rangeFlags(c, strconv.Atoi, &p.From, &p.To); err != nil {
		return err
	}
	if err := p.Check(); err != nil {
		return cli.Exit("capacity: "+err.Error(), exitUsage)
	}
	if err := cr.makeFolder(); err != nil {
		return err
	}
	rep, err := capacity.SearchListeners(c.Context, p, cr.step, slo)
	cr.mx.Close(c.App.ErrWriter)
	if err != nil {
		return exitFor("capacity: ", err)
	}
	if err := writeCapacity(c, rep, termOptions(c).WriteListenerSearch, report.ListenerSearchHTML); err != nil {
		return err
	}
	if rep.MaxListeners != nil {
		return nil
	}
	what := fmt.Sprintf("capacity: the most listeners held is not known (limited_by %s): %s", rep.LimitedBy, rep.Conclusion)
	if !c.Bool("fail-on-unknown") {
		fmt.Fprintf(c.App.ErrWriter, "readbench: WARNING: %s\nreadbench: WARNING: exit 0 only because of --fail-on-unknown=false\n", what)
		return nil
	}
	return cli.Exit(what+" (--fail-on-unknown=false exits 0)", exitFail)
}
