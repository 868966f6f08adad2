package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/urfave/cli/v2"
)

// profileFlags let a user see where readbench itself spends its CPU and
// memory during a run (read the files with `go tool pprof`): a load
// generator that costs more than it should measures itself.
func profileFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cpuprofile", Usage: "write readbench's own CPU profile, from start to end, to `FILE` (go tool pprof FILE)"},
		&cli.StringFlag{Name: "memprofile", Usage: "write readbench's heap profile at the end to `FILE` (go tool pprof FILE)"},
	}
}

// startProfiles starts the CPU profile the flags ask for and returns the
// function that stops it and writes the heap profile. Both files are
// created before the run starts, so a bad path is a usage error, not a
// run lost at its end.
func startProfiles(cpuPath, memPath string) (stop func() error, err error) {
	var cpu, mem *os.File
	closeAll := func() {
		for _, f := range []*os.File{cpu, mem} {
			if f != nil {
				_ = f.Close()
			}
		}
	}
	if cpuPath != "" {
		if cpu, err = os.Create(cpuPath); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			closeAll()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	if memPath != "" {
		if mem, err = os.Create(memPath); err != nil {
			if cpu != nil {
				pprof.StopCPUProfile()
			}
			closeAll()
			return nil, fmt.Errorf("--memprofile: %w", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			errs = append(errs, cpu.Close())
		}
		if mem != nil {
			runtime.GC() // the heap as the run left it, not its garbage
			errs = append(errs, pprof.WriteHeapProfile(mem), mem.Close())
		}
		return errors.Join(errs...)
	}, nil
}
